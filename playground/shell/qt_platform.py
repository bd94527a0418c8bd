"""Will Qt's window system plugin load? A display to open on, the libraries the xcb (X11) platform needs.

Without a display (no DISPLAY, or an X server that does not answer) Qt aborts the process with the
same hint, so that is asked first, through Xlib, and said in one line.

PySide6's wheel brings Qt itself but not the X11 libraries that its xcb platform plugin links
against. When one is missing, Qt aborts with a hint about ``libxcb-cursor0`` whatever the real
cause was. ``ldd`` on the plugin names the real cause; this module maps every library the
plugin needs to the Debian/Ubuntu package that provides it, so that ``make run`` can install
what is missing (as root) or stop with the one ``apt-get`` line that fixes it.

Run ``python -m playground.shell.qt_platform [--install]``. Nothing here imports Qt's libraries.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# Every library that ``ldd`` lists for PySide6's libqxcb.so and the libQt6XcbQpa it loads (Qt's
# own libraries aside), with the Debian package that provides it. The first group is what a
# desktop without Qt programs tends to lack; the rest comes with any X11 desktop.
XCB_PACKAGES = {
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-util.so.1": "libxcb-util1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libGLdispatch.so.0": "libglvnd0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libpng16.so.16": "libpng16-16",
    "libbrotlicommon.so.1": "libbrotli1",
    "libbrotlidec.so.1": "libbrotli1",
    "libexpat.so.1": "libexpat1",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libpcre2-8.so.0": "libpcre2-8-0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libsystemd.so.0": "libsystemd0",
    "libcap.so.2": "libcap2",
    "libgcrypt.so.20": "libgcrypt20",
    "libgpg-error.so.0": "libgpg-error0",
    "liblz4.so.1": "liblz4-1",
    "liblzma.so.5": "liblzma5",
    "libzstd.so.1": "libzstd1",
    "libz.so.1": "zlib1g",
    "libbsd.so.0": "libbsd0",
    "libmd.so.0": "libmd0",
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
    "libc.so.6": "libc6",
    "libm.so.6": "libc6",
    "libdl.so.2": "libc6",
    "libpthread.so.0": "libc6",
}

_LDD_LINE = re.compile(r"^\s*(\S+)\s+=>\s+(not found|\S+)")


def xcb_plugin() -> Path | None:
    """PySide6's xcb platform plugin, or None where PySide6 or the plugin is not installed."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    plugin = Path(next(iter(spec.submodule_search_locations))) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None


def linked_libraries(ldd_output: str) -> dict[str, str | None]:
    """``{soname: path}`` from ``ldd``'s output, None for a library that is not found; Qt's own
    libraries (inside the PySide6 wheel) and the loader are left out."""
    found: dict[str, str | None] = {}
    for line in ldd_output.splitlines():
        match = _LDD_LINE.match(line)
        if not match:
            continue
        soname, where = match.groups()
        if where == "not found":
            found[soname] = None
        elif "PySide6" not in where and not soname.startswith("libQt6"):
            found.setdefault(soname, where)
    return found


def run_ldd(plugin: Path) -> str:
    return subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, check=False).stdout


def missing_libraries(plugin: Path | None = None) -> list[str]:
    """The sonames the xcb plugin needs and the system lacks (empty where ``ldd`` or the plugin is absent)."""
    plugin = plugin or xcb_plugin()
    if plugin is None or shutil.which("ldd") is None:
        return []
    return sorted(soname for soname, path in linked_libraries(run_ldd(plugin)).items() if path is None)


def packages_for(sonames: list[str]) -> list[str]:
    """The Debian packages that provide ``sonames`` (a soname we do not know stands for itself)."""
    return sorted({XCB_PACKAGES.get(soname, soname) for soname in sonames})


def install_command(packages: list[str]) -> str:
    sudo = "" if os.geteuid() == 0 else "sudo "
    return f"{sudo}apt-get install -y " + " ".join(packages)


def will_use_xcb(environ=os.environ) -> bool:
    """Whether Qt will pick the xcb platform: on Linux with an X display, unless told otherwise."""
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return chosen.split(":")[0].split(";")[0] == "xcb"
    if not sys.platform.startswith("linux") or not environ.get("DISPLAY"):
        return False
    return not (environ.get("WAYLAND_DISPLAY") and environ.get("XDG_SESSION_TYPE") == "wayland")


def display_problem(environ=os.environ) -> str | None:
    """One line when there is no display for the window (Qt would abort, blaming ``xcb-cursor0``), or None.

    Only the X11 case is checked: a platform chosen in QT_QPA_PLATFORM other than xcb (offscreen,
    vnc, wayland...) or a Wayland session needs no X display."""
    if not sys.platform.startswith("linux"):
        return None
    chosen = environ.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0]
    if chosen and chosen != "xcb":
        return None
    if not chosen and environ.get("WAYLAND_DISPLAY"):
        return None
    display = environ.get("DISPLAY", "")
    if not display:
        return ("no display: DISPLAY is not set, so there is no screen to open the window on; "
                "set DISPLAY or run from a desktop session")
    if can_open_display(display) is False:
        return (f"no display: cannot connect to the X display {display!r}; "
                "set DISPLAY to a running X server or run from a desktop session")
    return None


def can_open_display(display: str) -> bool | None:
    """Whether Xlib can connect to ``display``; None when Xlib itself is missing (the library check names it).
    Asked through ctypes so that Qt is not loaded: Qt aborts the process where this returns False."""
    try:
        xlib = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    except OSError:
        return None
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    connection = xlib.XOpenDisplay(display.encode())
    if not connection:
        return False
    xlib.XCloseDisplay(connection)
    return True


def problem(environ=os.environ) -> str | None:
    """One line that says why the window cannot open (no display, or what to install), or None."""
    return display_problem(environ) or library_problem(environ)


def library_problem(environ=os.environ) -> str | None:
    """One line that says what to install before the window can open, or None if nothing is missing."""
    if not will_use_xcb(environ):
        return None
    missing = missing_libraries()
    if not missing:
        return None
    if shutil.which("apt-get"):
        return (f"Qt's X11 (xcb) platform plugin needs {', '.join(missing)}; install them with: "
                f"{install_command(packages_for(missing))}")
    return f"Qt's X11 (xcb) platform plugin needs these system libraries, which are missing: {', '.join(missing)}"


def install_missing() -> int:
    """Install the missing packages with apt-get when running as root; else print the command. Exit code."""
    if not will_use_xcb():
        return 0
    missing = missing_libraries()
    if not missing:
        return 0
    packages = packages_for(missing)
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"Installing what Qt's X11 platform plugin needs: {' '.join(packages)}", file=sys.stderr)
        environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        command = ["apt-get", "install", "-y", "--no-install-recommends", *packages]
        if subprocess.run(command, env=environment, check=False).returncode != 0:
            subprocess.run(["apt-get", "update"], env=environment, check=False)
            subprocess.run(command, env=environment, check=False)
        still_missing = missing_libraries()
        if not still_missing:
            return 0
        missing = still_missing
    print(library_problem() or f"missing: {', '.join(missing)}", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m playground.shell.qt_platform",
                                     description="Check (and with --install, install) the system libraries "
                                                 "Qt's X11 platform plugin needs.")
    parser.add_argument("--install", action="store_true",
                        help="install missing Debian packages with apt-get when running as root")
    args = parser.parse_args(argv)
    if args.install:
        return install_missing()
    line = problem()
    if line:
        print(line, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
