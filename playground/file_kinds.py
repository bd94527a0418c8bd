"""Which kind of file is this? `read_any` tells a graph from a lesson by its content, not its name,
for the command line and File > Open, and reads it; each kind then opens in its own place."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .editor.document import FORMAT_NAME as GRAPH_FORMAT
from .editor.document import DocumentFormatError, GraphDocument
from .files import FileFormatError, read_json, read_text
from .learn.lesson import FORMAT_NAME as LESSON_FORMAT
from .learn.lesson import LessonFormatError, parse_lesson
from .training.setup_file import FORMAT_NAME as SETUP_FORMAT
from .training.setup_file import SetupFormatError
from .training.setup_file import from_dict as setup_from_dict


@dataclass(frozen=True)
class ReadFile:
    """A file read and understood: its ``kind`` ("graph", "lesson"), where it came from, and its content."""

    kind: str
    path: Path
    content: Any


def read_any(path: str | Path) -> ReadFile:
    """Read a file of any kind the app opens, telling the kind by its content, not its name.

    Raises `FileFormatError` (or OSError) with a message that names the file.
    """
    path = Path(path)
    text = read_text(path)
    if text.startswith(LESSON_FORMAT):
        try:
            lesson = parse_lesson(text, path.stem)
        except LessonFormatError as error:
            raise FileFormatError(str(error.in_file(path.name))) from None
        lesson.path = path
        return ReadFile("lesson", path, lesson)
    data = read_json(path, text)
    kind = data.get("format") if isinstance(data, dict) else None
    try:
        if kind == GRAPH_FORMAT:
            return ReadFile("graph", path, GraphDocument.from_dict(data))
        if kind == SETUP_FORMAT:
            return ReadFile("setup", path, setup_from_dict(data))
    except (DocumentFormatError, SetupFormatError) as error:
        raise FileFormatError(f"{path.name}: {error}") from None
    raise FileFormatError(f"{path.name}: this is not an Autograd Playground graph, nor another file it opens "
                          "(a training setup, a lesson): 'format' is missing or unknown")
