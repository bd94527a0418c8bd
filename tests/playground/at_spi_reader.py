"""Read the app's accessibility tree over AT-SPI, the bus Orca reads on Linux, and print it as JSON.

Run by the system's Python, which has Debian's ``python3-pyatspi`` (the app's virtual environment has not),
from `screen_reader_probes.read_over_at_spi` while the app runs: ``/usr/bin/python3 at_spi_reader.py NAME``
prints one line, the rows ``[role, name, showing]`` of the application called NAME, depth first.
"""

import json
import sys

import pyatspi  # noqa: I001 - the system's, not the virtual environment's


def rows_of(accessible, rows: list) -> list:
    """Depth first; what is not showing (another tab's, a closed dock's) is listed, not walked into: each
    question is a round trip to the app, and a hidden tab holds hundreds of them."""
    state = accessible.getState()
    showing = state.contains(pyatspi.STATE_SHOWING)
    rows.append([accessible.getRoleName(), accessible.name or "", showing])
    if not showing and rows[1:]:
        return rows
    for index in range(accessible.childCount):
        child = accessible.getChildAtIndex(index)
        if child is not None:
            rows_of(child, rows)
    return rows


def main() -> int:
    desktop = pyatspi.Registry.getDesktop(0)
    apps = [desktop.getChildAtIndex(index) for index in range(desktop.childCount)]
    app = next((app for app in apps if app is not None and app.name == sys.argv[1]), None)
    print(json.dumps({"apps": [app.name for app in apps if app is not None],
                      "rows": rows_of(app, []) if app is not None else []}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
