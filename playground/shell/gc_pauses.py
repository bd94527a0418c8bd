"""Short pauses for the garbage collector, so that painting never waits for it.

Python's collector stops every thread while it runs, and its oldest generation holds everything the
app built at start: the Qt wrappers, the widgets, the modules, hundreds of thousands of objects. Training
makes many short-lived objects, so full collections came round every few seconds and each scanned them
all: 20-80 ms, four or five display frames, with the training tab's pictures frozen meanwhile. What
exists once the window is up lives as long as the app, so it is moved out of the collector's sight
(`gc.freeze`): a full collection then scans only what was made since, a few milliseconds.
"""

from __future__ import annotations

import gc


def freeze_startup_objects() -> None:
    """Collect once, then keep every object alive now out of later collections."""
    gc.collect()
    gc.freeze()
