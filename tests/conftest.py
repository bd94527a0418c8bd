"""Shared test setup: Qt renders offscreen so the suite runs without a display."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
