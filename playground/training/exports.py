"""What the training panel writes to files: the weights as JSON and the points as CSV (the plots go
through `widgets.export_plot`), each written whole or not at all."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from engine.data import save_csv

from ..files.disk import write_atomic
from .model.network import weights_document
from .model.points import SplitData
from .worker import BoundaryFrame


def write_weights(frame: BoundaryFrame | None, path: str | Path) -> None:
    """The weights a frame was drawn with, their architecture and step (`network.weights_document`)."""
    if frame is None:
        raise RuntimeError("no weights yet")
    document = weights_document(frame.settings, frame.state, frame.step, frame.classes)
    write_atomic(path, json.dumps(document, indent=1) + "\n")


def write_dataset(data: SplitData | None, path: str | Path) -> None:
    """Every point, training then test, as x1,x2,label,split rows (split: train or test), readable again
    as a CSV of points."""
    if data is None:
        raise RuntimeError("no data yet")
    X, y = data.all_points()
    is_test = np.arange(len(X)) >= len(data.X_train)  # all_points puts the test points last
    what = "values" if not data.classes else "labels"
    comment = (f"Exported by Autograd Playground: {len(data.X_train)} training and {len(data.X_test)} test points "
               f"with their {what}.\nsplit says which: the network learns from the train points and is tested "
               "on the test points, which it never learns from.")
    save_csv(path, X, y, test=is_test, comment=comment)


def unusable_file_message(path: str | Path, error: Exception) -> str:
    """Why a file of points was refused, as the status line says it."""
    name = Path(path).name
    message = (error.strerror or str(error)) if isinstance(error, OSError) else str(error)
    if not message.startswith(name):
        message = f"{name}: {message}"
    return f"Could not use {message}. The current data is unchanged."
