"""A script the app exports runs with the app's Python, and run by another Python it says in one line which
command works, never a traceback (issue 30, item 9)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from playground.files import exported_scripts
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.export_code import to_python
from playground.training.model.export_script import training_script
from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings

ROOT = Path(__file__).resolve().parents[2]


def scalar_graph() -> GraphDocument:
    document = GraphDocument()
    document.add_node(Node("a", "input", 0.0, 0.0, "a", 3.0))
    document.add_node(Node("L", "mul", 180.0, 0.0, "L", 0.0))
    document.add_edge(Edge("a", "L", 0))
    document.add_edge(Edge("a", "L", 1))
    return document


def tensor_graph() -> GraphDocument:
    document = GraphDocument()
    document.add_node(Node("X", "input", label="X", value=[[1.0, 2.0], [3.0, 4.0]]))
    document.add_node(Node("W", "parameter", label="W", value=[[0.5], [-1.0]]))
    document.add_node(Node("Z", "matmul", label="Z", params={}))
    document.add_node(Node("L", "reduce_sum", label="L", params={}))
    for source, target, port in (("X", "Z", 0), ("W", "Z", 1), ("Z", "L", 0)):
        document.add_edge(Edge(source, target, port))
    return document


def training() -> str:
    session = TrainingSession(TrainingSettings())
    return training_script(session.settings, session.data)


SCRIPTS = {
    "scalar graph": lambda: to_python(scalar_graph()),
    "tensor graph": lambda: to_python(tensor_graph()),
    "training": training,
}


def run(python: list[str], script: Path, *arguments: str) -> subprocess.CompletedProcess:
    # Run from the script's folder, as a person double-checking an export would, not from the project's.
    return subprocess.run([*python, str(script), *arguments], cwd=script.parent, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("which", SCRIPTS)
def test_a_bare_python_gets_one_line_naming_the_command_that_works(which, tmp_path):
    script = tmp_path / "exported.py"
    script.write_text(SCRIPTS[which](), encoding="utf-8")
    # -I: neither the script's folder nor PYTHONPATH on the path; -S: no site-packages, so no numpy, no engine.
    bare = run([sys.executable, "-I", "-S"], script, "3", "3")
    assert bare.returncode == 1
    assert "Traceback" not in bare.stderr
    message = bare.stderr.strip()
    assert "\n" not in message, message
    assert message.startswith("No module named")
    command = f"{shlex.quote(sys.executable)} {script}"
    assert command in message
    assert f"pip install {ROOT}" in message  # this checkout is a source folder pip can install
    # The command it names does run the script.
    named = run(shlex.split(command)[:1], script, "3", "3")
    assert named.returncode == 0, named.stderr
    assert named.stdout.strip()


@pytest.mark.parametrize("which", SCRIPTS)
def test_the_script_says_at_its_top_how_to_run_it(which):
    top = SCRIPTS[which]().split("import sys")[0]
    assert f"{shlex.quote(sys.executable)} this_file.py" in top
    assert f"pip install {ROOT}" in top


def test_a_python_that_lacks_torch_is_told_so_in_one_line(tmp_path, monkeypatch):
    script = tmp_path / "exported.py"
    script.write_text(to_python(scalar_graph(), use_torch=True), encoding="utf-8")
    # A folder ahead on the path whose torch cannot be imported, as a Python without PyTorch has none.
    blocker = tmp_path / "no_torch"
    (blocker / "torch").mkdir(parents=True)
    (blocker / "torch" / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'torch'\")\n")
    monkeypatch.setenv("PYTHONPATH", str(blocker))
    done = run([sys.executable], script)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == ("This script checks the engine against PyTorch, which this Python lacks: "
                                   "install it first (pip install torch), or export without the PyTorch check.")


def test_an_installed_app_names_only_its_python(monkeypatch, tmp_path):
    # Installed from a wheel, the app has no source folder for pip: the message names its Python alone.
    monkeypatch.setattr(exported_scripts, "project_folder", lambda: None)
    monkeypatch.setattr(exported_scripts, "app_python", lambda: "/opt/my apps/python3")
    guard = "\n".join(exported_scripts.import_guard(["import engine"]))
    assert "pip install" not in guard
    script = tmp_path / "guarded.py"
    script.write_text("import sys\n\n" + guard.replace("import engine", "import no_such_module_here") + "\n")
    done = run([sys.executable], script)
    assert done.stderr.strip() == (f"No module named 'no_such_module_here'. This script needs Autograd Playground's "
                                   f"engine: run it with the app's Python, '/opt/my apps/python3' {script}")
