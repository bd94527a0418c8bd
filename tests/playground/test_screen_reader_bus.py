"""What a screen reader on Linux hears (issue 32: "a student using Orca on Linux can hear the graph's values and
gradients"): the real app on a real X screen with an AT-SPI bus, as a desktop with Orca running has, read over
that bus the way Orca reads it (Debian's pyatspi, in the system's Python). The starter graph's every node is read
with its value and gradient and every wire with what it carries; no control in sight is unnamed or named by an
identifier.

Where the bus's pieces are missing (Debian packages at-spi2-core, dbus-x11, python3-pyatspi), the test is
skipped with the reason, except in CI, where `.ci/run` installs them and a missing one is a failure.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.real_screen import require_tools, run_probe, x_screen

BUS_LAUNCHER = Path("/usr/libexec/at-spi-bus-launcher")
SYSTEM_PYTHON = "/usr/bin/python3"
INTERACTIVE = {"push button", "toggle button", "check box", "radio button", "combo box", "spin button", "slider",
               "text", "page tab", "list", "tree", "table", "tree table", "menu item"}
IDENTIFIER = re.compile(r"^[a-z]+[A-Z][A-Za-z0-9]*$")  # playButton, graphMiniMap

# The starter neuron (micrograd's), as the graph outline says it: each node, then the wires into it.
STARTER_GRAPH = (
    "x1, input, value 2, gradient -1.5",
    "w1, parameter, value -3, gradient 1",
    "x1w1 = x1 * w1, value -6, gradient 0.5",
    "wire from x1 into input a of x1w1, carries gradient -1.5",
    "b, parameter, value 6.881, gradient 0.5",
    "n = x1w1x2w2 + b, value 0.8814, gradient 0.5",
    "o = tanh(n), the output, value 0.7071, gradient 1",
    "wire from n into input x of o, carries gradient 0.5",
)


def require_the_bus() -> None:
    missing = [name for name, there in (
        ("dbus-launch (dbus-x11)", shutil.which("dbus-launch") is not None),
        ("at-spi-bus-launcher (at-spi2-core)", BUS_LAUNCHER.exists()),
        ("pyatspi (python3-pyatspi)", Path(SYSTEM_PYTHON).exists() and subprocess.run(
            [SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True).returncode == 0),
    ) if not there]
    if missing:
        message = f"needs {', '.join(missing)}"
        if os.environ.get("CI"):
            pytest.fail(message + ": .ci/run should have installed them")
        pytest.skip(message)


@contextlib.contextmanager
def accessibility_bus(display: str) -> Iterator[dict[str, str]]:
    """A D-Bus session with the AT-SPI bus on it, as a desktop session has; yields the environment that finds it."""
    env = {**os.environ, "DISPLAY": display}
    started = subprocess.run(["dbus-launch", "--sh-syntax"], env=env, capture_output=True, text=True, check=True)
    found = dict(re.findall(r"^(DBUS_SESSION_BUS_\w+)='?([^';]*)'?;", started.stdout, re.MULTILINE))
    env.update(found)
    launcher = subprocess.Popen([str(BUS_LAUNCHER), "--launch-immediately"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield {"DBUS_SESSION_BUS_ADDRESS": found["DBUS_SESSION_BUS_ADDRESS"]}
    finally:
        launcher.terminate()
        with contextlib.suppress(ProcessLookupError, ValueError, KeyError):
            os.kill(int(found["DBUS_SESSION_BUS_PID"]), 15)


def test_a_screen_reader_reads_every_node_s_value_and_gradient_and_names_every_control(monkeypatch, tmp_path):
    require_tools()
    require_the_bus()
    with x_screen(1280, 720) as display, accessibility_bus(display) as bus:
        for name, value in {**bus, "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1"}.items():
            monkeypatch.setenv(name, value)
        seen = run_probe(display, "tests.playground.screen_reader_probes:read_over_at_spi",
                         screenshot=tmp_path / "screen.png")
    assert "error" not in seen, seen.get("error")
    assert "Autograd Playground" in seen["apps"]
    names = [name for _role, name, _showing in seen["rows"]]
    for sentence in STARTER_GRAPH:
        assert sentence in names, f"not read over AT-SPI: {sentence!r}"
    shown = [(role, name) for role, name, showing in seen["rows"] if showing and role in INTERACTIVE]
    assert len(shown) >= 10  # the editor's controls, the tab bar, the outline: what a person can use
    assert [(role, name) for role, name in shown if not name.strip() or IDENTIFIER.match(name)] == []
