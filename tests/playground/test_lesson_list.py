"""The Learn panel's lesson list shows whole rows and the step's text keeps 8 lines (issue 29, item 5): on a
projector the list showed half a row and the text shrank to 3 lines."""

from __future__ import annotations

from playground.learn.lesson_list import TEXT_LEAST_LINES, LessonList, LessonText


def _filled(qtbot, titles: int = 11) -> LessonList:
    listing = LessonList()
    qtbot.addWidget(listing)
    for number in range(1, titles + 1):
        listing.addItem(f"{number}. A lesson whose title is longer than the dock is wide  ({number}/8)")
    listing.resize(220, listing.height())
    listing.show()
    qtbot.waitExposed(listing)
    return listing


def test_the_list_is_as_tall_as_its_whole_rows_wherever_it_is_scrolled(qtbot):
    listing = _filled(qtbot)
    for rows in (2, 3, 7):
        listing.set_rows(rows)
        for current in (0, 5, 10):
            listing.setCurrentRow(current)
            listing.scrollToItem(listing.currentItem())
            view = listing.viewport().rect()
            shown = [listing.visualItemRect(listing.item(row)) for row in range(listing.count())]
            on_view = [rect for rect in shown if rect.intersects(view)]
            assert len(on_view) == rows and all(view.contains(rect) for rect in on_view), (rows, current)
            assert view.contains(listing.visualItemRect(listing.currentItem()))


def test_a_long_title_is_elided_in_its_row_not_scrolled_sideways(qtbot):
    listing = _filled(qtbot)
    assert listing.visualItemRect(listing.item(10)).width() <= listing.viewport().width()
    assert listing.horizontalScrollBar().maximum() == 0


def test_the_list_never_asks_for_more_rows_than_lessons(qtbot):
    listing = _filled(qtbot, titles=3)
    listing.set_rows(7)
    assert listing.rows == 3 and listing.height() == listing.height_for(3)


def test_the_text_asks_for_eight_lines_in_any_font_size(qtbot):
    text = LessonText()
    qtbot.addWidget(text)
    for points in (9, 14, 18):
        font = text.font()
        font.setPointSize(points)
        text.setFont(font)
        viewport_least = text.minimumSizeHint().height() - 2 * text.frameWidth()
        assert viewport_least >= TEXT_LEAST_LINES * text.fontMetrics().lineSpacing()
