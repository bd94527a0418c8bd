"""The package as pip installs it: every module and the resources in the wheel, the command working
from an installed copy (outside the checkout), and metadata fit for an index."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_folder_is_listed_in_pyproject():
    on_disk = {str(init.parent.relative_to(ROOT)).replace("/", ".")
               for top in ("engine", "playground") for init in (ROOT / top).rglob("__init__.py")}
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    assert listed == on_disk | {"playground.resources"}


def test_metadata_is_fit_for_an_index():
    project = PYPROJECT["project"]
    assert project["license"] == "MIT" and (ROOT / "LICENSE").exists()
    assert project["description"] and project["requires-python"] == ">=3.11"
    assert any(c.startswith("Programming Language :: Python :: 3.11") for c in project["classifiers"])
    assert "urls" not in project  # none invented
    assert project["scripts"]["autograd-playground"] == "playground.shell.cli:main"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The wheel pip would install, unpacked outside the checkout (what installing a pure-Python wheel does)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                    str(ROOT)], check=True, capture_output=True, timeout=300)
    wheel = next(out.glob("autograd_playground-*.whl"))
    target = out / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def run_installed(site: Path, code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=site.parent, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_installed_copy_finds_its_examples_and_runs_the_command(installed):
    assert (installed / "playground" / "resources" / "examples" / "neuron.json").exists()
    where = run_installed(installed, "import playground.files.paths as p; print(p.EXAMPLES.is_dir(), p.EXAMPLES)")
    assert where.startswith(f"True {installed}")
    version = run_installed(installed, "from playground.shell.cli import main; main(['x', '--version'])")
    assert version.startswith("autograd-playground ")
