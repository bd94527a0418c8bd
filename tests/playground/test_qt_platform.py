"""The system libraries Qt's X11 platform plugin needs: every one ldd reports is known, a missing one is named
with the exact apt-get command, and the app stops with that line instead of Qt's misleading abort."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from playground.shell import cli, qt_platform

ROOT = Path(__file__).resolve().parents[2]

SAMPLE_LDD = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f75)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f75)
\tlibxcb-keysyms.so.1 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007f754b2c0000)
"""


def test_the_package_list_covers_every_library_ldd_reports_for_the_xcb_plugin():
    plugin = qt_platform.xcb_plugin()
    if plugin is None or shutil.which("ldd") is None:
        pytest.skip("no xcb plugin or no ldd on this platform")
    output = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, check=True).stdout
    libraries = qt_platform.linked_libraries(output)
    assert "libxcb.so.1" in libraries  # ldd really answered
    unknown = sorted(set(libraries) - set(qt_platform.XCB_PACKAGES))
    assert not unknown, f"add these to XCB_PACKAGES with their Debian package: {unknown}"


def test_ldd_output_is_read_as_found_and_missing_libraries_without_qts_own():
    libraries = qt_platform.linked_libraries(SAMPLE_LDD)
    assert libraries == {"libxcb-icccm.so.4": None, "libxcb-cursor.so.0": "/lib/x86_64-linux-gnu/libxcb-cursor.so.0",
                         "libxcb-keysyms.so.1": None}
    assert qt_platform.packages_for(["libxcb-keysyms.so.1", "libxcb-icccm.so.4"]) == ["libxcb-icccm4",
                                                                                      "libxcb-keysyms1"]


def test_a_missing_library_is_named_with_the_exact_apt_get_command(monkeypatch):
    monkeypatch.setattr(qt_platform, "missing_libraries", lambda plugin=None: ["libxcb-icccm.so.4",
                                                                               "libxcb-keysyms.so.1"])
    monkeypatch.setattr(qt_platform.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(qt_platform, "can_open_display", lambda display: True)
    line = qt_platform.problem({"DISPLAY": ":0"})
    assert line.endswith("apt-get install -y libxcb-icccm4 libxcb-keysyms1")
    assert "\n" not in line
    assert qt_platform.problem({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}) is None  # not needed there


def test_the_app_stops_with_that_line_instead_of_qts_abort(monkeypatch, capsys):
    from PySide6.QtWidgets import QApplication

    monkeypatch.setattr(QApplication, "instance", staticmethod(lambda: None))
    monkeypatch.setattr(qt_platform, "problem", lambda: "Qt's X11 (xcb) platform plugin needs x; install them with: y")
    assert cli.main(["autograd-playground"]) == 1
    assert capsys.readouterr().err.strip() == "Qt's X11 (xcb) platform plugin needs x; install them with: y"


def test_the_check_runs_without_loading_qt():
    code = ("import sys, playground.shell.qt_platform as q; q.problem(); "
            "print(any(m.startswith('PySide6.Qt') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_no_display_is_said_in_one_line_naming_what_to_do():
    line = qt_platform.problem({})
    assert line.startswith("no display: DISPLAY is not set")
    assert line.endswith("set DISPLAY or run from a desktop session")
    assert "\n" not in line
    # Platforms that need no X display are left alone.
    assert qt_platform.problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert qt_platform.display_problem({"WAYLAND_DISPLAY": "wayland-0"}) is None


def test_a_display_that_does_not_answer_is_named():
    line = qt_platform.display_problem({"DISPLAY": ":987"})  # no X server has that number here
    assert line == ("no display: cannot connect to the X display ':987'; set DISPLAY to a running X server "
                    "or run from a desktop session")


def test_a_running_x_server_is_a_display():
    from tests.real_screen import require_tools, x_screen

    require_tools()
    with x_screen(640, 480) as display:
        assert qt_platform.can_open_display(display) is True
        assert qt_platform.display_problem({"DISPLAY": display}) is None


@pytest.mark.parametrize("command", [["main.py"], ["-m", "playground"]])
def test_the_app_without_a_display_stops_with_one_line_and_no_qt_abort(command):
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    done = subprocess.run([sys.executable, *command], capture_output=True, text=True, env=env, timeout=60,
                          cwd=ROOT)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [qt_platform.problem({})]
    assert "xcb-cursor0" not in done.stderr
