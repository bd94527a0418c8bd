"""Which kind of file is this? `read_any` tells a graph from a lesson by its content, not its name,
for the command line and File > Open, and reads it; each kind then opens in its own place."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files.disk import FileFormatError, read_json, read_text
from ..files.validation import shown
from ..graph.document import FORMAT_NAME as GRAPH_FORMAT
from ..graph.document import DocumentFormatError, GraphDocument
from ..graph.file_format import MAX_FILE_BYTES as GRAPH_FILE_BYTES
from ..learn.model.lesson import FORMAT_NAME as LESSON_FORMAT
from ..learn.model.lesson import LessonFormatError, parse_lesson
from ..training.model.setup_file import FORMAT_NAME as SETUP_FORMAT
from ..training.model.setup_file import SetupFormatError
from ..training.model.setup_file import from_dict as setup_from_dict

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReadFile:
    """A file read and understood: its ``kind`` ("graph", "lesson"), where it came from, and its content."""

    kind: str
    path: Path
    content: Any


def read_any(path: str | Path) -> ReadFile:
    """Read a file of any kind the app opens, telling the kind by its content, not its name.

    Raises `FileFormatError` (or OSError) with a message that names the file; never anything else,
    whatever the file holds.
    """
    path = Path(path)
    text = read_text(path)
    try:
        return _understand(path, text)
    except (DocumentFormatError, SetupFormatError) as error:
        raise FileFormatError(f"{path.name}: {error}") from None
    except LessonFormatError as error:
        raise FileFormatError(str(error.in_file(path.name))) from None
    except (RecursionError, OverflowError, MemoryError, ValueError, TypeError, KeyError, AttributeError) as error:
        if isinstance(error, FileFormatError):
            raise
        # A loader that missed a check must still end in one message, never a traceback.
        log.warning("reading %s failed unexpectedly", path, exc_info=True)
        raise FileFormatError(f"{path.name}: cannot be read ({type(error).__name__}: {error})") from None


def _understand(path: Path, text: str) -> ReadFile:
    if text.startswith(LESSON_FORMAT):
        lesson = parse_lesson(text, path.stem)
        lesson.path = path
        return ReadFile("lesson", path, lesson)
    data = read_json(path, text)
    kind = data.get("format") if isinstance(data, dict) else None
    if kind == GRAPH_FORMAT:
        if len(text.encode("utf-8")) > GRAPH_FILE_BYTES:
            raise DocumentFormatError(f"a graph file holds at most {GRAPH_FILE_BYTES // 2**20} MB")
        return ReadFile("graph", path, GraphDocument.from_dict(data))
    if kind == SETUP_FORMAT:
        return ReadFile("setup", path, setup_from_dict(data))
    known = f"'{GRAPH_FORMAT}' (a graph) or '{SETUP_FORMAT}' (a training setup); a lesson starts '{LESSON_FORMAT}'"
    if isinstance(kind, str):
        raise FileFormatError(f"{path.name}: format {shown(kind, 60)} is none that Autograd Playground opens: "
                              f"expected {known}")
    raise FileFormatError(f"{path.name}: this is not an Autograd Playground graph, nor another file it opens "
                          f"(a training setup, a lesson): 'format' is missing or unknown")
