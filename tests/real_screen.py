"""A real X server the size of a classroom screen, for the tests that measure what a class sees.

The offscreen platform the rest of the suite uses has no window manager and no real screen size:
a window there is as large as it asks to be and nothing ever cuts it off. Layout tests therefore
start Xvfb with openbox at the size they need (1280x720, 1920x1080, ...) and run the app in a child
process on it, because this process's QApplication is already offscreen and Qt cannot change
platform once it runs.

A test asks for a *probe*: a function ``probe(window, **arguments) -> dict`` in a module under
``tests/``, named ``"tests.playground.layout_probes:editor_fit"``. The child builds the real
``MainWindow`` (with settings of the test's choosing, e.g. presentation mode on at 150%), shows it,
waits until the window manager has placed it, calls the probe and hands its dict back as JSON.

Where Xvfb or openbox is missing, the tests that need them are skipped with the reason, except in
CI (``CI`` set), where ``.ci/run`` installs both and a missing one is a failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHILD = Path(__file__).resolve().parent / "real_screen_child.py"
RESULT_PREFIX = "REAL-SCREEN-RESULT:"

# The screens classrooms have (issue 18): the common projector, a laptop, a full HD display.
CLASSROOM_SCREENS = ((1280, 720), (1366, 768), (1920, 1080))


def missing_tools() -> list[str]:
    return [tool for tool in ("Xvfb", "openbox") if shutil.which(tool) is None]


def require_tools() -> None:
    """Skip the calling test where the X tools are missing, but fail in CI, which installs them."""
    missing = missing_tools()
    if missing:
        message = f"needs {' and '.join(missing)} (Debian packages xvfb, openbox)"
        if os.environ.get("CI"):
            pytest.fail(message + ": .ci/run should have installed them")
        pytest.skip(message)


def _read_display_number(fd: int, timeout: float) -> int:
    """Xvfb writes its display number to ``fd`` once it accepts connections (``-displayfd``)."""
    deadline, text = time.monotonic() + timeout, b""
    while not text.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise RuntimeError(f"Xvfb did not start within {timeout:.0f} s")
        chunk = os.read(fd, 64)
        if not chunk:
            raise RuntimeError("Xvfb exited before it gave its display number")
        text += chunk
    return int(text.strip())


def _window_manager_took(display: str, manager: subprocess.Popen, timeout: float) -> bool:
    """openbox sets _NET_SUPPORTING_WM_CHECK on the root window once it manages windows. False: it had not
    within ``timeout``, or it ended first."""
    xprop = shutil.which("xprop")
    if xprop is None:
        time.sleep(1.0)  # no way to ask: give openbox the time it takes here (~0.3 s) with room to spare
        return manager.poll() is None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and manager.poll() is None:
        out = subprocess.run([xprop, "-root", "_NET_SUPPORTING_WM_CHECK"], env={**os.environ, "DISPLAY": display},
                             capture_output=True, text=True).stdout
        if "window id" in out:
            return True
        time.sleep(0.05)
    return False


def _stop(*processes: subprocess.Popen | None) -> None:
    for process in processes:
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _start_screen(width: int, height: int, manager_log) -> tuple[subprocess.Popen, subprocess.Popen | None, str]:
    """Xvfb, then openbox on it: (server, manager, display), the manager None where it did not take the screen
    (both are stopped then)."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
        pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    try:
        display = f":{_read_display_number(read_end, 20.0)}"
    except BaseException:
        _stop(server)
        raise
    finally:
        os.close(read_end)
    manager = subprocess.Popen(["openbox", "--sm-disable"], env={**os.environ, "DISPLAY": display},
                               stdout=manager_log, stderr=manager_log)
    if _window_manager_took(display, manager, 15.0):
        return server, manager, display
    _stop(manager, server)
    return server, None, display


@contextlib.contextmanager
def x_screen(width: int, height: int) -> Iterator[str]:
    """An Xvfb screen of ``width`` x ``height`` managed by openbox; yields its DISPLAY (":N").

    Once in a CI run (two busy workers, 3,900 tests) openbox never took its fresh screen in 30 s, so a new
    server with a new openbox is tried, three times in all, before the test fails with what openbox said."""
    with tempfile.TemporaryFile() as manager_log:
        for _attempt in range(3):
            server, manager, display = _start_screen(width, height, manager_log)
            if manager is not None:
                break
        else:
            manager_log.seek(0)
            said = manager_log.read().decode(errors="replace")[-2000:].strip()
            raise RuntimeError(f"openbox did not take a {width}x{height} Xvfb screen in 3 tries (the last {display});"
                               f" it said: {said or 'nothing'}")
        try:
            yield display
        finally:
            _stop(manager, server)


def run_probe(display: str, probe: str, *, settings: dict | None = None, arguments: dict | None = None,
              screenshot: str | Path | None = None, timeout: float = 120.0) -> dict:
    """Run the app on ``display`` with ``settings`` (QSettings keys, e.g. ``{"presentation/on": True}``;
    none at all is a first run) and return what ``probe`` measured. ``screenshot``: also save the
    screen as a PNG there after the probe ran, to look at."""
    request = {"probe": probe, "settings": settings or {}, "arguments": arguments or {},
               "screenshot": str(screenshot) if screenshot else None}
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(CHILD), json.dumps(request)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
    for line in done.stdout.splitlines():
        if line.startswith(RESULT_PREFIX):
            return json.loads(line[len(RESULT_PREFIX):])
    raise AssertionError(f"the probe {probe} gave no result (exit status {done.returncode}):\n"
                         f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
