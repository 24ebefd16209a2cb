"""The app's number boxes: QSpinBox and QDoubleSpinBox that take a number typed past their range.

Qt's own refuse the keystroke that would leave the range: "16000" typed into a context box that ends at 8192
stops at "1600", with no word why. These take every digit and, when the typing ends (Enter, leaving the box),
show the nearest value the box allows: the limit, where the user sees it.
"""

from __future__ import annotations

from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox


def _number(box: SpinBox | DoubleSpinBox, text: str) -> float | None:
    """The number typed (without the box's prefix and suffix), read as the box's locale writes it."""
    core = text.removeprefix(box.prefix()).removesuffix(box.suffix()).strip()
    value, ok = box.locale().toDouble(core)
    return float(value) if ok else None


def _past_the_range(box: SpinBox | DoubleSpinBox, text: str, state: QValidator.State) -> QValidator.State:
    """Invalid only because the number lies outside the range: Intermediate, corrected when the typing ends."""
    if state != QValidator.State.Invalid:
        return state
    value = _number(box, text)
    if value is None:
        return state
    low, high = box.minimum(), box.maximum()
    return QValidator.State.Intermediate if value > high or value < low else state


def _clamped(box: SpinBox | DoubleSpinBox, text: str) -> str | None:
    """The limit's text for a number typed past it; None for anything else (Qt's own fixup then)."""
    value = _number(box, text)
    if value is None:
        return None
    low, high = box.minimum(), box.maximum()
    if low <= value <= high:
        return None
    limit = box.textFromValue(int(high if value > high else low)) if isinstance(box, SpinBox) else \
        box.textFromValue(high if value > high else low)
    return box.prefix() + limit + box.suffix()


class _TakesTypingPastTheRange:
    """Both boxes' behaviour (first in their bases: its methods come before Qt's, which they call). Only a number
    past the range is corrected here; anything else unfinished (an emptied box) gets Qt's correction, the value
    the box had (CorrectToNearestValue turned an emptied box into its minimum)."""

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        state, text, pos = super().validate(text, pos)  # type: ignore[misc]
        return _past_the_range(self, text, state), text, pos  # type: ignore[arg-type]

    def fixup(self, text: str) -> str:
        clamped = _clamped(self, text)  # type: ignore[arg-type]
        return clamped if clamped is not None else super().fixup(text)  # type: ignore[misc]


class SpinBox(_TakesTypingPastTheRange, QSpinBox):
    pass


class DoubleSpinBox(_TakesTypingPastTheRange, QDoubleSpinBox):
    pass
