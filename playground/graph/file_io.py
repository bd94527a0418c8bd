"""A graph document on disk: `load_document` reads a graph file, checked whole before anything is built, and
`save_document` writes one atomically, never a file the app would refuse. The plumbing (checked reads,
atomic writes) is `playground.files`'; the format is `graph_file`'s. Qt-free."""

from __future__ import annotations

import json
from pathlib import Path

from ..files.disk import read_json, read_text, write_atomic
from .document import GraphDocument
from .file_format import MAX_FILE_BYTES, DocumentFormatError
from .graph_file import check


def save_document(path: str | Path, document: GraphDocument) -> None:
    """Write ``document`` as a graph file, after checking it as opening it will (never a file the app
    would refuse: a graph past the limits raises `DocumentFormatError` and writes nothing)."""
    data = document.to_dict()
    check(data)
    write_atomic(path, json.dumps(data, indent=2) + "\n")


def load_document(path: str | Path) -> GraphDocument:
    """Read a graph file; raises `DocumentFormatError` (or OSError) with a message a person can act on."""
    path = Path(path)
    if path.is_file() and path.stat().st_size > MAX_FILE_BYTES:
        raise DocumentFormatError(f"{path.name} is {path.stat().st_size / 2**20:.0f} MB: a graph file holds at most "
                                  f"{MAX_FILE_BYTES // 2**20} MB")
    data = read_json(path, read_text(path, DocumentFormatError), DocumentFormatError)
    try:
        return GraphDocument.from_dict(data)
    except DocumentFormatError as error:
        raise DocumentFormatError(f"{path.name}: {error}") from None
