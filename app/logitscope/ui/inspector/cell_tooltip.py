"""Tooltips for widgets that paint a grid of cells themselves (the attention matrix, the KV cache map)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QToolTip, QWidget

Cell = TypeVar("Cell")


def cell_tooltip(widget: QWidget, event: QEvent, cell_at: Callable[[QPoint], Cell | None],
                 text_of: Callable[[Cell], str]) -> bool:
    """Handle a ToolTip event with the text of the cell under the pointer; True when it was one."""
    if event.type() != QEvent.Type.ToolTip or not isinstance(event, QHelpEvent):
        return False
    cell = cell_at(event.pos())
    if cell is None:
        QToolTip.hideText()
    else:
        QToolTip.showText(event.globalPos(), text_of(cell), widget)
    return True
