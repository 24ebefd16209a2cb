"""A line in a list that says why the list is empty: shown like an item, never selected or opened."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidgetItem


def notice_item(text: str) -> QListWidgetItem:
    item = QListWidgetItem(text)
    item.setFlags(Qt.ItemFlag.NoItemFlags)
    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
    return item
