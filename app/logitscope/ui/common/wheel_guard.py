"""Sliders, spin boxes and combo boxes that take the mouse wheel only when focused: scrolling a panel of
them with the wheel once moved whichever passed under the pointer (top-p went 0.95 -> 0.86 unnoticed and
the next answer used it). Unfocused, the wheel goes on to the scroll area around them."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QScrollBar,
    QWidget,
)

GUARDED = (QAbstractSlider, QAbstractSpinBox, QComboBox)


class _WheelGuard(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QEvent.Type.Wheel or not isinstance(watched, QWidget) or watched.hasFocus():
            return False
        area = _scroll_area(watched)
        event.ignore()   # without a scroll area around it: not accepted, Qt passes the wheel on to the parent
        if area is not None:   # handed on explicitly: Qt passes on only the wheel events that came from a device
            QApplication.sendEvent(area.viewport(), event)
        return True


def _scroll_area(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QAbstractScrollArea):
        parent = parent.parentWidget()
    return parent


_GUARD = _WheelGuard()   # one for every guarded control: it holds no state


def guard_wheel(root: QWidget) -> None:
    """Guard `root` if it is such a control and every such control under it (not scroll bars, which the wheel
    is for); clicking or tabbing still focuses them, the wheel no longer does. Idempotent."""
    widgets = [root, *root.findChildren(QWidget)]
    for widget in widgets:
        if isinstance(widget, GUARDED) and not isinstance(widget, QScrollBar):
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            widget.removeEventFilter(_GUARD)
            widget.installEventFilter(_GUARD)
