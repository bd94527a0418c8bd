"""Contrast (WCAG 1.4.3, 1.4.6, 1.4.11), measured from the colours the app paints with, in every theme: the
palette's text roles on their backgrounds, the text on cards, wire labels and plots at 4.5:1 (7:1 in high
contrast), and the graphics that carry meaning (wires, ports, rings and outlines, the animator's states, plot
lines, class marks) at 3:1 against what they are drawn on."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette

from playground.animator.colors import (
    BACKWARD_WIRE_COLOR,
    FORWARD_WIRE_COLOR,
    PHASE_COLORS,
    STATE_COLORS,
    WRONG_COLOR,
)
from playground.animator.step_panel import MARK_COLOR, MARK_TEXT_COLOR
from playground.canvas.path_list import PATH_COLOR
from playground.canvas.style import HIGH_CONTRAST, THEME_COLORS, THEMES
from playground.common.colours import (
    NEUTRAL,
    POINT_OUTLINE,
    class_colours,
    class_line_colours,
    pale,
)
from playground.common.contrast import (
    ENHANCED_TEXT_RATIO,
    GRAPHICS_RATIO,
    TEXT_RATIO,
    contrast_ratio,
    over,
    readable,
    relative_luminance,
    text_on,
)
from playground.graph.catalog import ARITHMETIC_GROUP, DATA_GROUP, FUNCTION_GROUP, LEAF_GROUP, TENSOR_GROUP
from playground.learn.highlight import RING_COLOR
from playground.shell.theme import theme_palette
from playground.training.boundary_view import LINE_COLOURS
from playground.training.curves import READOUT_COLOUR, RESTORE_COLOUR
from playground.training.gradient_plot import LAYER_COLOURS, layer_text_colour
from playground.training.neuron_map import frame_colour
from playground.training.widgets import CURVE_PENS, RACER_COLOURS
from playground.widgets.meaning_colours import PROBLEM, RIGHT, WRONG, fitted

Role, Group = QPalette.ColorRole, QPalette.ColorGroup
GROUPS = (LEAF_GROUP, DATA_GROUP, ARITHMETIC_GROUP, FUNCTION_GROUP, TENSOR_GROUP)
# Each text role and the background it is written on. The Disabled group is left out: WCAG 1.4.3 exempts the
# text of an inactive control (the themes still keep it readable, see shell/theme.py).
TEXT_ROLES = ((Role.WindowText, Role.Window), (Role.Text, Role.Base), (Role.Text, Role.AlternateBase),
              (Role.ButtonText, Role.Button), (Role.HighlightedText, Role.Highlight),
              (Role.ToolTipText, Role.ToolTipBase), (Role.PlaceholderText, Role.Base),
              (Role.PlaceholderText, Role.Window),  # captions and hints in the placeholder's grey, on the window
              (Role.Link, Role.Base),
              (Role.LinkVisited, Role.Base))


def seen(colour, background) -> tuple[float, float, float]:
    """What the eye gets of ``colour`` (a QColor, maybe see-through, or "#rrggbb") painted on ``background``."""
    if isinstance(background, QColor):
        background = seen(background, (255, 255, 255))
    if isinstance(colour, QColor):
        return over(colour.getRgb()[:3], colour.alphaF(), background)
    return over(colour, 1.0, background)


def text_ratio(theme: str) -> float:
    return ENHANCED_TEXT_RATIO if theme == HIGH_CONTRAST else TEXT_RATIO


def palette_pairs(theme: str):
    palette = theme_palette(theme)
    for group in (Group.Active, Group.Inactive):
        for text, background in TEXT_ROLES:
            back = seen(palette.color(group, background), (255, 255, 255))
            yield (f"palette {group.name} {text.name} on {background.name}", seen(palette.color(group, text), back),
                   back, text_ratio(theme))


def meaning_pairs(theme: str):
    """Words whose colour means right, wrong or a problem (fitted to the theme), the step list's flagged row."""
    palette = theme_palette(theme)
    for role in (Role.Window, Role.Base):
        back = seen(palette.color(role), (255, 255, 255))
        for name, colour in (("right", RIGHT), ("wrong", WRONG), ("problem", PROBLEM)):
            yield f"{name} words on {role.name}", seen(fitted(colour, palette, role), back), back, text_ratio(theme)
    yield "a flagged step's words", seen(MARK_TEXT_COLOR, MARK_COLOR), seen(MARK_COLOR, "#ffffff"), text_ratio(theme)


def canvas_pairs(theme: str):
    colors = THEME_COLORS[theme]
    canvas, card = seen(colors["background"], (255, 255, 255)), seen(colors["card"], (255, 255, 255))
    label = seen(colors["wire_label_bg"], canvas)
    text = text_ratio(theme)
    for name in ("text", "muted", "problem"):
        yield f"card {name} text", seen(colors[name], card), card, text
    for group in GROUPS:
        yield f"header title on {group}", seen(colors["header_text"], colors[group]), seen(colors[group], card), text
    for name in ("wire_label_text", "problem"):
        yield f"wire label {name}", seen(colors[name], label), label, text
    for state, colour in STATE_COLORS.items():  # the animator tints a card with its state (alpha 40)
        tinted = over(colour, 40 / 255, card)
        yield f"card text on the tint of {state.value}", seen(colors["text"], tinted), tinted, text
        yield f"card muted text on the tint of {state.value}", seen(colors["muted"], tinted), tinted, text
    for name in ("wire", "wire_selected", "wire_drop", "selected", "focus", "output", "problem", "port_border",
                 "port_connected"):
        yield f"{name} on the canvas", seen(colors[name], canvas), canvas, GRAPHICS_RATIO
    for name in ("selected", "focus", "output", "problem", "port_border", "port_connected", "ok", "refused",
                 "pending"):
        yield f"{name} on a card", seen(colors[name], card), card, GRAPHICS_RATIO
    minimap = seen(colors["minimap_bg"], canvas)
    yield "minimap's view rectangle", seen(colors["minimap_view"], minimap), minimap, GRAPHICS_RATIO


def animator_pairs(theme: str):
    colors, palette = THEME_COLORS[theme], theme_palette(theme)
    canvas, card = seen(colors["background"], (255, 255, 255)), seen(colors["card"], (255, 255, 255))
    window = seen(palette.color(Role.Window), (255, 255, 255))
    marks = {**{state.value: colour for state, colour in STATE_COLORS.items()}, "wrong": WRONG_COLOR,
             "path": PATH_COLOR, "forward wire": FORWARD_WIRE_COLOR, "backward wire": BACKWARD_WIRE_COLOR,
             "lesson ring": RING_COLOR}
    for name, colour in marks.items():
        for where, background in (("canvas", canvas), ("card", card)):
            yield f"animator {name} on the {where}", seen(colour, background), background, GRAPHICS_RATIO
    for name, colour in (*((s.value, c) for s, c in STATE_COLORS.items()), *PHASE_COLORS.items()):
        yield f"legend and step list mark {name}", seen(colour, window), window, GRAPHICS_RATIO


def plot_pairs(theme: str):
    palette, dark = theme_palette(theme), theme != "light"
    base = seen(palette.color(Role.Base), (255, 255, 255))
    window = seen(palette.color(Role.Window), (255, 255, 255))
    neutral = tuple(float(c) for c in NEUTRAL[dark])
    lines = {"train curve": CURVE_PENS["train"][0], "test curve": CURVE_PENS["test"][0],
             "each batch's loss": CURVE_PENS["batch"][0], "restore line": RESTORE_COLOUR,
             "readout line": READOUT_COLOUR}
    lines.update({f"racer {i}": colour for i, colour in enumerate(RACER_COLOURS)})
    lines.update({f"layer {i + 1} line": colour for i, colour in enumerate(LAYER_COLOURS)})
    for name, colour in lines.items():
        yield f"{name} on the plot", seen(colour, base), base, GRAPHICS_RATIO
    for index in range(len(LAYER_COLOURS)):
        yield (f"layer {index + 1}'s name", seen(layer_text_colour(index, palette), base), base, text_ratio(theme))
    regions = [neutral, *(tuple(pale(c, dark)) for c in class_colours(dark))]
    for label, (fill, line) in enumerate(zip(class_colours(dark), class_line_colours(dark))):
        for where, background in (("the plot's neutral", neutral), ("the plot", base), ("the window", window)):
            # A hollow test point, the class's mark in a legend and a network wire wear the line colour alone.
            yield f"class {label} line colour on {where}", seen(line, background), background, GRAPHICS_RATIO
        # A training point is its fill ringed in the outline: either one standing off the plot shows it.
        for region in regions:
            best = max(contrast_ratio(fill, region), contrast_ratio(POINT_OUTLINE[dark], region))
            yield f"class {label} training point on a region", best, None, GRAPHICS_RATIO
        text = readable(fill, window, text_ratio(theme))  # the class picker's words, as boundary_plot colours them
        yield f"class {label} picker text", seen(text, window), window, text_ratio(theme)
    for region in regions:
        yield "the line between classes", seen(LINE_COLOURS[dark], region), region, GRAPHICS_RATIO
    # A confusion matrix's cell: a class's (or grey's) pale shade, more opaque the larger its share, its count
    # written in black or white, or on a plate of the base where neither reads (as confusion.py draws it).
    text, plate = seen(palette.color(Role.Text), base), base
    for shade in [*(pale(c, dark) for c in class_colours(dark)), pale("#808080", dark)]:
        for alpha in range(40, 256, 15):
            cell = over(tuple(shade), alpha / 255, window)
            words = text_on(cell, text_ratio(theme))
            yield (f"a confusion count at alpha {alpha}", *((words, cell) if words else (text, plate)),
                   text_ratio(theme))
    for region in regions:
        yield "misclassified ring", seen(POINT_OUTLINE[dark], region), region, GRAPHICS_RATIO
    yield "a neuron's frame in the network diagram", seen(frame_colour(palette), window), window, GRAPHICS_RATIO


def measured(pairs) -> list[tuple[str, float, float]]:
    """(what, its ratio, the ratio it needs) for each pair; a pair may bring its ratio already measured."""
    rows = []
    for name, first, second, needed in pairs:
        ratio = first if second is None else contrast_ratio(first, second)
        rows.append((name, ratio, needed))
    return rows


def test_relative_luminance_and_ratio_match_wcag_examples():
    assert relative_luminance("#000000") == 0.0
    assert relative_luminance("#ffffff") == pytest.approx(1.0)
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21.0)  # either order
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.005)  # just short of 4.5
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.005)  # the lightest grey that passes
    assert contrast_ratio("#0000ff", "#ffffff") == pytest.approx(8.59, abs=0.005)
    assert contrast_ratio("#f0f", "#ff00ff") == pytest.approx(1.0)
    assert over("#000000", 0.5, "#ffffff") == (127.5, 127.5, 127.5)


def test_readable_keeps_a_colour_that_passes_and_deepens_one_that_does_not():
    assert readable("#0072b2", "#ffffff", 3.0) == "#0072b2"
    deepened = readable("#e69f00", "#ffffff", 3.0)
    assert contrast_ratio(deepened, "#ffffff") >= 3.0
    assert contrast_ratio(deepened, "#ffffff") < 3.3  # no deeper than it needs
    lightened = readable("#0072b2", "#000000", 7.0)
    assert contrast_ratio(lightened, "#000000") >= 7.0
    assert relative_luminance(lightened) > relative_luminance("#0072b2")


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("pairs", [palette_pairs, meaning_pairs, canvas_pairs, animator_pairs, plot_pairs],
                         ids=["palette", "meaning", "canvas", "animator", "plots"])
def test_every_text_and_graphic_stands_off_its_background(qapp, theme, pairs):
    rows = measured(pairs(theme))
    assert len(rows) > 6
    failures = [f"{name}: {ratio:.2f} < {needed}" for name, ratio, needed in rows if ratio < needed]
    assert not failures, f"{theme}: " + "; ".join(failures)


def test_high_contrast_text_reaches_seven_to_one(qapp):
    rows = [row for pairs in (palette_pairs, meaning_pairs, canvas_pairs) for row in measured(pairs(HIGH_CONTRAST))]
    texts = [ratio for name, ratio, needed in rows if needed == ENHANCED_TEXT_RATIO]
    assert len(texts) > 30
    assert min(texts) >= 7.0


@pytest.mark.parametrize("theme", THEMES)
def test_a_check_box_s_edge_stands_off_its_base(qtbot, theme):
    """Fusion drew an unticked box's edge at 2.3:1 on white and not at all on black: the app's style rings it."""
    from PySide6.QtWidgets import QApplication, QCheckBox, QStyle, QStyleOptionButton

    from playground.shell.theme import apply_theme

    app = QApplication.instance()
    apply_theme(app, theme)
    try:
        box = QCheckBox("unticked")
        qtbot.addWidget(box)
        box.show()
        qtbot.waitExposed(box)
        option = QStyleOptionButton()
        box.initStyleOption(option)
        indicator = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
        image = box.grab().toImage()
        inside = image.pixelColor(indicator.center()).getRgb()[:3]  # the box's fill: the base
        edge = image.pixelColor(indicator.left(), indicator.center().y()).getRgb()[:3]
        assert contrast_ratio(edge, inside) >= GRAPHICS_RATIO
    finally:
        apply_theme(app, "light")


@pytest.mark.parametrize("theme", THEMES)
def test_a_slider_s_handle_stands_off_the_window(qtbot, theme):
    """Fusion's handle, a #303030 button, barely showed on the high-contrast black: the app's style rings it."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QSlider, QStyle, QStyleOptionSlider

    from playground.shell.theme import apply_theme

    app = QApplication.instance()
    apply_theme(app, theme)
    try:
        slider = QSlider(Qt.Orientation.Horizontal)
        qtbot.addWidget(slider)
        slider.resize(160, 40)
        slider.setValue(50)
        slider.show()
        qtbot.waitExposed(slider)
        option = QStyleOptionSlider()
        slider.initStyleOption(option)
        handle = slider.style().subControlRect(QStyle.ComplexControl.CC_Slider, option,
                                               QStyle.SubControl.SC_SliderHandle, slider)
        image = slider.grab().toImage()
        x = handle.center().x()
        outside = image.pixelColor(x, handle.top() - 2).getRgb()[:3]  # the window above the handle
        edge = max(contrast_ratio(image.pixelColor(x, y).getRgb()[:3], outside)
                   for y in (handle.top(), handle.top() + 1))
        assert contrast_ratio(outside, seen(theme_palette(theme).color(Role.Window), (255, 255, 255))) < 1.1
        assert edge >= GRAPHICS_RATIO
    finally:
        apply_theme(app, "light")
