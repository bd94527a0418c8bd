"""How a script the app exports (File > Export > Python code, Training as Python) finds the engine.

The engine lives in this project, not on PyPI, so a script that imports it runs with the app's own Python
(or one the project was installed into) and nowhere else. Each script therefore says at its top which
command runs it, and run by another Python it stops with one line naming that command, not with a
traceback of ``ModuleNotFoundError: No module named 'engine'``.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

APP = "Autograd Playground"


def app_python() -> str:
    """The interpreter the app runs on: it can import the engine (and numpy)."""
    return sys.executable or "python3"


def project_folder() -> Path | None:
    """The project's source folder, which ``pip install`` takes, when the app runs from one (a checkout or
    an editable install); None when it was installed from a wheel."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() and (root / "engine").is_dir() else None


def run_command(script: str = "this_file.py") -> str:
    """The command that runs ``script`` with the app's Python."""
    return f"{shlex.quote(app_python())} {script}"


def how_to_run(arguments: str = "") -> list[str]:
    """Lines for the script's top (its docstring or comments): the command that runs it, and the other way."""
    lines = [f"Run it with the app's Python: {run_command('this_file.py')}{arguments}"]
    folder = project_folder()
    if folder is not None:
        lines.append(f"(or install the project into another Python first: pip install {shlex.quote(str(folder))})")
    return lines


def import_guard(imports: list[str]) -> list[str]:
    """``imports`` (the script's lines that import numpy and the engine) inside a guard that, when this
    Python lacks them, ends the script with one line naming the command that works."""
    folder = project_folder()
    other_way = (f", or install the project into this Python first: pip install {shlex.quote(str(folder))}"
                 if folder is not None else "")
    command = shlex.quote(app_python())
    lines = [
        "try:",
        *(f"    {line}" if line else "" for line in imports),
        "except ModuleNotFoundError as missing:  # another Python than the app's: say what works, no traceback",
        f"    sys.exit(f\"{{missing}}. This script needs {APP}'s engine: run it with the app's Python, \"",
        f"             f\"{_literal_part(command)} {{sys.argv[0]}}\"",
    ]
    if other_way:
        lines.append(f"             \"{_string_part(other_way)}\"")
    lines[-1] += ")"
    return lines


def _string_part(text: str) -> str:
    """``text`` as it may stand inside a double-quoted string."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _literal_part(text: str) -> str:
    """``text`` as it may stand inside a double-quoted f-string."""
    return _string_part(text).replace("{", "{{").replace("}", "}}")


def torch_guard(imports: list[str]) -> list[str]:
    """``imports`` of PyTorch, for a script that checks the engine against it, inside a guard that says in one
    line what to do when this Python lacks it. It comes after `import_guard`: the engine is the first need."""
    return [
        "try:",
        *(f"    {line}" for line in imports),
        "except ModuleNotFoundError:  # the check needs PyTorch; the engine's part needs nothing more",
        "    sys.exit(\"This script checks the engine against PyTorch, which this Python lacks: install it \"",
        "             \"first (pip install torch), or export without the PyTorch check.\")",
    ]
