"""A Python process of the training tab's own beside the app, met on a local listener with a key: the plane's
pictures (`plane_process`) and Repeat's runs (`repeat_process`) run there, off the GUI's interpreter lock. Free of Qt.

A plain ``python -c`` importing one of our modules and calling its ``main``, not `multiprocessing`'s spawn: spawn
runs the parent's main script again in the child (the whole app and Qt, or a script without a ``__main__`` guard).
The two meet on a `multiprocessing.connection` listener (a local socket or pipe, with a key only they know).

The process lives for its parent only: a parent that goes (the window closed while the process was starting, a
crash, a kill) ends it quietly, wherever it was, and Ctrl+C is the parent's to answer, not its: SIGINT is ignored
before anything else, and on POSIX it runs in a process group of its own, which the terminal's Ctrl+C never reaches.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from multiprocessing.connection import Client
from pathlib import Path

# What a connection (or the listener it would reach) raises once the parent's end is gone: EOFError from a read,
# BrokenPipeError or ConnectionResetError from a write, FileNotFoundError or ConnectionRefusedError for a closed
# listener. Python ignores SIGPIPE, so a write to a closed socket is one of these, not a signal.
PARENT_GONE = (EOFError, OSError)


def program(module: str) -> str:
    """The child's whole program: SIGINT ignored first (the imports take a second), then ``module.main()``."""
    return f"import signal; signal.signal(signal.SIGINT, signal.SIG_IGN); from {module} import main; main()"


def start_child(module: str, address, key: bytes, stderr=None) -> subprocess.Popen:
    """The process running ``module``'s ``main``, told where to call (the listener's ``address``, and ``key``); its
    messages go to ``stderr`` (None: this process's stderr)."""
    root = str(Path(__file__).resolve().parents[3])  # the folder that holds `playground`
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        part for part in (root, os.environ.get("PYTHONPATH", "")) if part)}
    own_group = {"process_group": 0} if os.name == "posix" else {}
    process = subprocess.Popen([sys.executable, "-c", program(module)], stdin=subprocess.PIPE, stderr=stderr,
                               env=environment, cwd=root, **own_group)
    process.stdin.write(f"{address}\n{key.hex()}\n".encode())
    process.stdin.close()
    return process


def child_main(serve: Callable) -> None:
    """A child's start: the listener's address and key on stdin, then ``serve(connection)`` until the parent's end
    closes. A parent gone before the two meet ends it quietly: stdin closed before the address came, the listener
    closed (the socket's file gone, the connection refused) or the connection dropped during the handshake."""
    address, key = sys.stdin.readline().strip(), sys.stdin.readline().strip()
    if not address or not key:
        return
    try:
        connection = Client(address, authkey=bytes.fromhex(key))
    except PARENT_GONE:
        return
    with connection:
        serve(connection)
