"""Typing a number past a box's range: Qt's own spin boxes refuse the keystroke that goes past it, so "16000" in a
box that ends at 8192 stops at "1600" with no word why. Ours take it and, when the typing ends, show the limit."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from logitscope.ui.common.spin_boxes import DoubleSpinBox, SpinBox

pytestmark = pytest.mark.gui


def _box(qtbot, kind, low, high, value):
    box = kind()
    qtbot.addWidget(box)
    box.setRange(low, high)
    box.setValue(value)
    return box


def _type(qtbot, box, text: str) -> None:
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)


def test_a_number_past_the_maximum_is_taken_then_shown_as_the_maximum(qtbot):
    box = _box(qtbot, SpinBox, 256, 8192, 4096)
    _type(qtbot, box, "16000")
    assert box.lineEdit().text() == "16000"    # every digit taken
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)
    assert box.value() == 8192 and box.lineEdit().text() == "8192"


def test_a_number_below_the_minimum_and_a_decimal_past_it(qtbot):
    box = _box(qtbot, SpinBox, 256, 8192, 4096)
    _type(qtbot, box, "12")
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)
    assert box.value() == 256
    fraction = _box(qtbot, DoubleSpinBox, 0.0, 1.0, 0.5)
    _type(qtbot, fraction, "5")
    qtbot.keyClick(fraction.lineEdit(), Qt.Key.Key_Return)
    assert fraction.value() == 1.0


def test_letters_are_still_refused(qtbot):
    box = _box(qtbot, SpinBox, 0, 100, 7)
    _type(qtbot, box, "ab")
    assert box.lineEdit().text() in ("", "7")


def test_an_emptied_box_keeps_its_value(qtbot):
    """Only a number past the range is corrected to the limit: an emptied box gets back the value it had."""
    box = _box(qtbot, SpinBox, 256, 8192, 4096)
    box.lineEdit().selectAll()
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Backspace)
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)
    assert box.value() == 4096 and box.lineEdit().text() == "4096"
