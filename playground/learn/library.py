"""The lessons the Learn panel lists, and the progress kept in each: the shipped ones, then the ones a
teacher opened.

A shipped lesson is known by its file name ("02-chain-rule"); a lesson opened from a file by the
file's full path, so a teacher's "02-chain-rule.lesson" elsewhere is a lesson of its own, beside
the shipped one, with progress of its own. The paths of the opened lessons are kept (QSettings)
and their lessons listed again at the next start while their files are there; one that went
away is listed again once it is back.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from PySide6.QtCore import QSettings

from ..files.paths import RESOURCES
from .model.lesson import Lesson, LessonFormatError, load_lesson

LESSONS = RESOURCES / "lessons"
OPENED_KEY = "learn/opened"
MAX_OPENED = 30  # the paths kept; the oldest go first


def shipped_lessons(folder: Path = LESSONS) -> list[Lesson]:
    """Every lesson that comes with the app, in file-name order (01-..., 02-...)."""
    return [load_lesson(path) for path in sorted(folder.glob("*.lesson"))]


def opened_id(path: Path) -> str:
    """The key of a lesson opened from ``path``: made from its full path (a settings key may not hold
    every character a path may)."""
    return "opened-" + hashlib.sha1(str(path).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _same_text(one: Path, other: Path) -> bool:
    """Whether two lesson files hold the very same text (a lesson file is small: at most `MAX_BYTES`)."""
    try:
        return one.stat().st_size == other.stat().st_size and one.read_bytes() == other.read_bytes()
    except OSError:
        return False


def _resolved(path: str | Path) -> Path:
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):
        return Path(path).absolute()


class LessonLibrary:
    def __init__(self, settings: QSettings, folder: Path = LESSONS):
        self.settings = settings
        self.shipped: list[Lesson] = shipped_lessons(folder)
        self.lessons: list[Lesson] = list(self.shipped)
        self.problems: list[str] = []  # opened lessons that could not be read again at the start, and why
        for path in self.opened_paths():
            self._reopen(Path(path))

    # -- the list ------------------------------------------------------------------------------

    def find(self, lesson_id: str) -> Lesson | None:
        return next((lesson for lesson in self.lessons if lesson.id == lesson_id), None)

    def is_opened(self, lesson: Lesson) -> bool:
        """True for a lesson a teacher opened from a file (not one that comes with the app)."""
        return lesson.id.startswith("opened-")

    def following(self, lesson: Lesson) -> Lesson | None:
        """The lesson after ``lesson`` in the list, if any."""
        ids = [item.id for item in self.lessons]
        index = ids.index(lesson.id) + 1 if lesson.id in ids else len(ids)
        return self.lessons[index] if index < len(ids) else None

    def add(self, lesson: Lesson) -> Lesson:
        """A lesson read from a file: listed (in place of an older reading of the same file) and remembered.
        The file of a shipped lesson gives the shipped lesson, progress and all."""
        if lesson.path is None:
            raise ValueError("a lesson added to the list comes from a file")
        path = _resolved(lesson.path)
        shipped = next((item for item in self.shipped if item.path is not None
                        and (_resolved(item.path) == path or _same_text(item.path, path))), None)
        if shipped is not None:  # the file, or a copy of it (the source tree's, beside the installed app's)
            return shipped
        lesson.id = opened_id(path)
        self._list(lesson)
        paths = [str(path)] + [p for p in self.opened_paths() if p != str(path)]
        self.settings.setValue(OPENED_KEY, paths[:MAX_OPENED])
        return lesson

    def remove(self, lesson: Lesson) -> None:
        """Take an opened lesson off the list (and out of what is listed at the next start)."""
        if not self.is_opened(lesson):
            return
        self.lessons = [item for item in self.lessons if item.id != lesson.id]
        self.settings.setValue(OPENED_KEY, [p for p in self.opened_paths() if opened_id(Path(p)) != lesson.id])

    def opened_paths(self) -> list[str]:
        value = self.settings.value(OPENED_KEY, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, (list, tuple)):
            return []  # not what this app writes: nothing to list
        return [item for item in value if isinstance(item, str) and item]

    def _list(self, lesson: Lesson) -> None:
        for index, item in enumerate(self.lessons):
            if item.id == lesson.id:
                self.lessons[index] = lesson
                return
        self.lessons.append(lesson)

    def _reopen(self, path: Path) -> None:
        if not path.is_file():
            return  # away for now (a USB stick): listed again when it is back
        try:
            lesson = load_lesson(path)
        except (OSError, LessonFormatError) as error:
            self.problems.append(f"{path.name}: {getattr(error, 'reason', error)}")
            return
        lesson.id = opened_id(_resolved(path))
        self._list(lesson)

    # -- progress --------------------------------------------------------------------------------

    def _key(self, lesson: Lesson) -> str:
        return f"learn/progress/{lesson.id}"

    def progress(self, lesson: Lesson) -> dict | None:
        """What is kept of ``lesson`` between runs (see `runner.LessonRun.state`), or None."""
        text = self.settings.value(self._key(lesson), "")
        try:
            state = json.loads(text) if isinstance(text, str) and text else None
        except ValueError:
            return None
        return state if isinstance(state, dict) else None

    def save_progress(self, lesson: Lesson, state: dict) -> None:
        self.settings.setValue(self._key(lesson), json.dumps(state))
