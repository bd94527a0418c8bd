"""What a screen reader finds in a window: a walk of its QAccessible tree (WCAG 4.1.2), and the elements it
would read wrongly. An interactive element (a button, a box, a list, a tab, a menu item) needs a name, and
no element may be named by an internal identifier ("playButton", "animPathList: the paths ..."): Orca reads
the name as it is. A combo box, spin box or slider exposes its value, and a combo box's name is not merely
its current choice ("Adam" does not say that it chooses the optimizer): on Linux Qt gives a combo box its
choice as its name (Orca finds what it is from its label), on Windows and macOS its accessibleName, which
must be set."""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QGraphicsView, QMenu, QWidget

Role = QAccessible.Role
INTERACTIVE = {Role.PushButton, Role.CheckBox, Role.RadioButton, Role.ComboBox, Role.SpinBox, Role.Slider,
               Role.Dial, Role.EditableText, Role.PageTab, Role.List, Role.Tree, Role.Table, Role.MenuItem,
               Role.ButtonMenu, Role.ButtonDropDown}
WITH_VALUE = {Role.ComboBox, Role.SpinBox, Role.Slider, Role.Dial}
# A scroll bar is left out: Qt names none, and it only moves the view whose own name a reader says.
LEFT_OUT = {Role.ScrollBar}
# One word in camelCase or snake_case, alone or before a colon: an objectName, not a name ("OK" is a name).
IDENTIFIER = re.compile(r"[a-z][a-z0-9]*[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Za-z]\w*_\w+")
# Signs that a button shows beside its words, which a reader would spell out ("black right-pointing triangle")
# before its action (a legend's signs are its content: it says what each one means).
SPELLED_SIGNS = set("▶◀❚✓✗✕‹›●▲■◆")
# A view's row, cell or tab: its name is its text, content ("log_softmax" is an op's name as one types it).
ITEM = "item"


@dataclass(frozen=True)
class Element:
    role: QAccessible.Role
    name: str
    value: str
    object_name: str
    kind: str  # the class of the widget or action behind it, or ITEM
    own_name: str  # the widget's accessibleName(): a combo box's name on Windows and macOS

    def __str__(self) -> str:
        return f"{self.role.name} {self.name!r} (objectName {self.object_name!r}, {self.kind})"


def looks_like_identifier(name: str) -> bool:
    words = name.split()
    if not words:
        return False
    first = words[0].rstrip(":")
    return (len(words) == 1 or words[0].endswith(":")) and IDENTIFIER.fullmatch(first) is not None


def elements(root: QWidget, walk_hidden_root: bool = False) -> list[Element]:
    """Every element shown in ``root`` (a window or a menu), depth first. A graph canvas's items are not
    walked: the canvas's cards are named by the canvas (issue 32's other part)."""
    found: list[Element] = []
    _walk(QAccessible.queryAccessibleInterface(root), found, 0, walk_hidden_root)
    return found


def _walk(interface, found: list[Element], depth: int, shown_anyway: bool = False) -> None:
    if interface is None or not interface.isValid() or depth > 80:
        return
    if interface.state().invisible and not shown_anyway:
        return
    thing = interface.object()
    found.append(Element(interface.role(), interface.text(QAccessible.Text.Name) or "",
                         interface.text(QAccessible.Text.Value) or "",
                         thing.objectName() if thing is not None else "",
                         type(thing).__name__ if thing is not None else ITEM,
                         thing.accessibleName() if isinstance(thing, QWidget) else ""))
    if isinstance(thing, QGraphicsView):
        return
    for index in range(interface.childCount()):
        _walk(interface.child(index), found, depth + 1)


def problems(found: list[Element], combos_named: bool = True) -> list[str]:
    """What a screen reader would read wrongly among ``found``, one line each (``combos_named`` False: a combo
    named by its choice is let be, as in Qt's own file dialog, whose labels the app cannot reach)."""
    said = []
    for element in found:
        if element.role in LEFT_OUT:
            continue
        if element.kind != ITEM and (looks_like_identifier(element.name) or looks_like_identifier(element.own_name)):
            said.append(f"named by an identifier: {element}")
        elif element.role in INTERACTIVE and element.kind != ITEM and element.name[:1] in SPELLED_SIGNS:
            said.append(f"named by a sign a reader spells out: {element}")
        elif element.role in INTERACTIVE and not element.name.strip():
            said.append(f"no name: {element}")
        elif element.role in WITH_VALUE and not element.value.strip():
            said.append(f"no value: {element}")
        elif combos_named and element.role == Role.ComboBox and element.own_name in ("", element.value):
            said.append(f"named only by its choice: {element}")
    return said


def window_problems(window: QWidget, place: str, combos_named: bool = True) -> list[str]:
    return [f"{place}: {line}" for line in problems(elements(window), combos_named)]


def menu_problems(menus: list[QMenu], place: str) -> list[str]:
    """The menus' items, as a reader hears them when the menu opens (a closed menu is hidden, so its items
    are walked anyway)."""
    found = []
    for menu in menus:
        found += [e for e in elements(menu, walk_hidden_root=True) if e.role == Role.MenuItem]
    return [f"{place}: {line}" for line in problems(found)]

