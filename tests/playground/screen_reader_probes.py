"""Probe for `test_screen_reader_bus.py`: what a screen reader reads of the running window over AT-SPI.

The reader runs as a child process while the probe keeps the app's event loop turning: Qt's AT-SPI bridge
answers the reader's D-Bus questions on the app's main thread, so a probe that waited without turning it would
never hear back.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from playground.shell.names import APP_NAME

READER = Path(__file__).resolve().parent / "at_spi_reader.py"


def read_over_at_spi(window, settle, python: str = "/usr/bin/python3") -> dict:
    settle(2.0)  # the bridge registers the app on the bus, the outline opens for a screen reader
    reader = subprocess.Popen([python, str(READER), APP_NAME], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    deadline = time.monotonic() + 60
    while reader.poll() is None and time.monotonic() < deadline:
        settle(0.05)
    if reader.poll() is None:
        reader.kill()
        return {"error": "the AT-SPI reader did not finish within 60 s"}
    out, err = reader.communicate()
    if reader.returncode != 0:
        return {"error": f"the AT-SPI reader failed ({reader.returncode}): {err[-2000:]}"}
    return json.loads(out)
