"""Numbers typed into the training tab's boxes: a number out of range is clamped and the status line says
so; text that is no number is refused with a message. Nothing is replaced silently."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from playground.training.number_boxes import FloatBox, IntBox, LogSpinBox
from playground.training.panel import TrainingPanel

WAIT = 20_000


def type_into(qtbot, box, text: str) -> None:
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)


@pytest.fixture
def panel(qtbot):
    panel = TrainingPanel()
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel.data is not None, timeout=WAIT)
    yield panel
    panel.shutdown()


def test_a_learning_rate_of_100_is_set_to_10_and_the_status_line_says_so(qtbot, panel):
    box = panel.findChild(LogSpinBox, "learningRateInput")
    type_into(qtbot, box, "100")
    assert box.value() == 10.0
    assert panel.message == "Learning rate 100 is above the maximum 10: set to 10"
    assert panel.settings.learning_rate == 10.0
    qtbot.waitUntil(lambda: panel.worker.session.optimizer.lr == 10.0, timeout=WAIT)
    type_into(qtbot, box, "1e-9")
    assert box.value() == pytest.approx(1e-5)
    assert panel.message == "Learning rate 1e-09 is below the minimum 1e-05: set to 1e-05"


def test_every_number_box_of_the_tab_clamps_with_a_message(qtbot, panel):
    cases = [
        ("pointsSpin", "5000", 2000, "Points 5000 is above the maximum 2000: set to 2000"),
        ("seedSpin", "12345678", 999_999, "Seed 12345678 is above the maximum 999999: set to 999999"),
        ("momentumInput", "5", 0.99, "Momentum 5 is above the maximum 0.99: set to 0.99"),
        ("regularizationRateInput", "30", 10.0, "Regularization rate 30 is above the maximum 10: set to 10"),
        ("scheduleStepsSpin", "0", 1, "Schedule steps 0 is below the minimum 1: set to 1"),
        ("layer1Spin", "99", 64, "Layer 1 99 is above the maximum 64: set to 64"),
        ("batchSizeSpin", "-3", 0, "Batch size -3 is out of range: set to Full batch"),
    ]
    for name, text, value, message in cases:
        box = panel.findChild(object, name)
        box.setEnabled(True)  # the schedule and momentum boxes wait for their option; typing is what is tested
        type_into(qtbot, box, text)
        assert box.value() == pytest.approx(value), name
        assert panel.message == message, name
    assert panel.settings.points == 2000 and panel.settings.hidden[0] == 64 and panel.settings.batch_size is None


def test_a_number_in_range_passes_quietly_and_leaving_the_box_clamps_too(qtbot, panel):
    box = panel.findChild(object, "pointsSpin")
    type_into(qtbot, box, "300")
    assert box.value() == 300 and panel.message == ""
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), "9999")
    panel.findChild(object, "seedSpin").setFocus()  # focus leaves: the same as Enter
    qtbot.waitUntil(lambda: box.value() == 2000, timeout=WAIT)
    assert "Points 9999 is above the maximum 2000" in panel.message


def test_boxes_alone_accept_any_number_while_typing_and_refuse_text(qtbot):
    box = IntBox("Neurons", 1, 64)
    box.setSuffix(" neurons")
    qtbot.addWidget(box)
    messages = []
    box.clamped.connect(messages.append)
    box.setValue(8)
    # Qt's own QSpinBox refuses the keystroke that goes past the maximum; this one lets it be typed.
    type_into(qtbot, box, "500")
    assert box.value() == 64 and messages[-1] == "Neurons 500 is above the maximum 64: set to 64"
    real = FloatBox("Gamma", 0.01, 1.0)
    qtbot.addWidget(real)
    real.clamped.connect(messages.append)
    real.setValue(0.5)
    type_into(qtbot, real, "0.001")
    assert real.value() == pytest.approx(0.01) and messages[-1].startswith("Gamma 0.001 is below the minimum 0.01")
    rate = LogSpinBox(value=0.03)
    qtbot.addWidget(rate)
    rate.clamped.connect(messages.append)
    type_into(qtbot, rate, "1e")  # not a number (yet): refused, the old value stays, and it says so
    assert rate.value() == pytest.approx(0.03)
    assert messages[-1] == "Learning rate: '1e' is not a number; it stays 0.03"
