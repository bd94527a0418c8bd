"""Forward mode's dotted symbols in a lesson's formulas: ṫ1 keeps its subscript (ṫ₁, as t1 is t₁), and L̇'s dot
(a combining mark after the L) is drawn over the L, not lost: lesson 8 writes both."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QFont, QImage, QPainter, QTextDocument

from playground.learn.model.lesson import load_lesson
from playground.learn.model.markup import formula_html, inline
from playground.learn.model.runner import LessonRun

LESSONS = Path(__file__).resolve().parents[2] / "resources" / "lessons"
DOT_ABOVE = "\u0307"  # the combining dot of L̇: no letter L with a dot exists precomposed


def test_a_dotted_name_keeps_its_subscript_and_its_italics():
    assert "<i>ṫ</i>\u2060<sub>1</sub>" in formula_html("ṫ1 = ∂t1/∂a · ȧ")
    assert "<i>ȧ</i>" in formula_html("ṫ1 = ∂t1/∂a · ȧ")
    assert f"<i>L{DOT_ABOVE}</i>\u00a0=\u00a031" in formula_html(f"L{DOT_ABOVE} = 31")


def _dark_pixels(html: str) -> set[tuple[int, int]]:
    document = QTextDocument()
    font = QFont()
    font.setPointSize(40)  # large, so that the dot is many pixels
    document.setDefaultFont(font)
    document.setHtml(html)
    image = QImage(300, 150, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    document.drawContents(painter)
    painter.end()
    return {(x, y) for x in range(image.width()) for y in range(image.height())
            if QColor(image.pixel(x, y)).lightness() < 128}


def test_the_dot_of_l_dot_is_drawn_over_the_l(qapp):
    plain = _dark_pixels(inline("$L$"))
    top, left, right = min(y for _x, y in plain), min(x for x, _y in plain), max(x for x, _y in plain)
    dot = {(x, y) for x, y in _dark_pixels(inline(f"$L{DOT_ABOVE}$")) if y < top - 1}
    assert len(dot) >= 10, "no dot above the L"
    assert all(left <= x <= right + 8 for x, _y in dot), "the dot is not over the L"


def test_lesson_8_writes_the_tangents_dotted_with_their_subscripts():
    lesson = load_lesson(LESSONS / "08-forward-or-reverse.lesson")
    run = LessonRun(lesson)
    run.go(1)  # its example is L's tangent, made of t2's and t3's (t1's is the first question)
    assert "<i>ṫ</i>\u2060<sub>2</sub>" in run.html() and "<i>ṫ</i>\u2060<sub>3</sub>" in run.html()
    run.go(2)
    assert f"<i>L{DOT_ABOVE}</i>" in run.html()
