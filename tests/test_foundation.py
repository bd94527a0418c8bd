"""Project-wide invariants."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("statement", [
    "import engine",
    "import engine; engine.Value(2.0) * 3",
    "import playground",  # playground.show imports Qt only when it is called
])
def test_engine_imports_without_qt(statement):
    """The engine is a Qt-free library: importing it must not pull in PySide6, shiboken6 or pyqtgraph."""
    code = (
        f"{statement}; import sys; "
        "print(any(m.startswith(('PySide6','shiboken6','pyqtgraph')) for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
