"""Reading and writing graph files: atomic writes, and clear messages for files that cannot be read."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from .editor.document import DocumentFormatError, GraphDocument


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then replace ``path`` with it.

    A crash or a full disk mid-write leaves the old file as it was, never half a file.
    """
    path = Path(path)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def save_document(path: str | Path, document: GraphDocument) -> None:
    write_atomic(path, json.dumps(document.to_dict(), indent=2) + "\n")


def load_document(path: str | Path) -> GraphDocument:
    """Read a graph file; raises `DocumentFormatError` (or OSError) with a message a person can act on."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DocumentFormatError(f"{path.name} is not a text file") from None
    if not text.strip():
        raise DocumentFormatError(f"{path.name} is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DocumentFormatError(
            f"{path.name} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
            "it may be truncated or not a graph file"
        ) from None
    try:
        return GraphDocument.from_dict(data)
    except DocumentFormatError as error:
        raise DocumentFormatError(f"{path.name}: {error}") from None
