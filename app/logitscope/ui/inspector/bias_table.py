"""Logit bias as a small table: a token (its id, or a text whose every token is biased) and a bias added
to its logit; "ban" sets -inf, so the token can never be chosen.

A token cell of digits is an id; a text in double quotes is that text (so "42" biases the text 42).
"""

from __future__ import annotations

import math

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

TOKEN, BIAS = range(2)
BAN_WORDS = ("-inf", "ban", "-∞", "−inf", "−∞")   # what a bias cell may say for a ban


def token_cell(token: int | str) -> str:
    if isinstance(token, int):
        return str(token)
    quoted = token.strip().isdigit() or (token.startswith('"') and token.endswith('"')) or not token.strip()
    return f'"{token}"' if quoted else token


def parse_token(text: str) -> int | str | None:
    """A cell's token: an id, a text, or None for an empty cell."""
    if not text.strip():
        return None
    if text.strip().isdigit():
        return int(text.strip())
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        return text[1:-1]
    return text


def bias_cell(bias: float) -> str:
    return "-inf" if bias == -math.inf else f"{bias:g}"


def parse_bias(text: str) -> float:
    """ValueError when the cell says nothing a bias can be."""
    word = text.strip().lower()
    if word in BAN_WORDS:
        return -math.inf
    value = float(word)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


class BiasTable(QWidget):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels([self.tr("token id or text"), self.tr("bias")])
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(TOKEN, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(BIAS, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setToolTip(self.tr("Each row adds its bias to a token's logit before the chain. A token is an id "
                                      "(digits) or a text (every token of its tokenization; quote digits to mean "
                                      "text: \"42\"). A bias of -inf (\"ban\") removes the token."))
        self.table.setMaximumHeight(self.table.fontMetrics().height() * 8)
        buttons = QHBoxLayout()
        self.add_button = QPushButton(self.tr("Add"))
        self.add_button.setToolTip(self.tr("Add a row: type a token id or a text, and its bias"))
        self.ban_button = QPushButton(self.tr("Ban"))
        self.ban_button.setToolTip(self.tr("Set the selected row's bias to -inf: the token is never chosen"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.setToolTip(self.tr("Remove the selected row"))
        for button in (self.add_button, self.ban_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.add_button.clicked.connect(lambda: self.add_row("", 0.0, edit=True))
        self.ban_button.clicked.connect(self._ban_selected)
        self.remove_button.clicked.connect(self._remove_selected)
        self.problem = QLabel()
        self.problem.setObjectName("settingProblem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        layout.addWidget(self.problem)
        self.table.itemChanged.connect(lambda _item: self.changed.emit())

    def add_row(self, token: int | str, bias: float, edit: bool = False) -> None:
        row = self.table.rowCount()
        self.table.blockSignals(True)
        self.table.insertRow(row)
        self.table.setItem(row, TOKEN, QTableWidgetItem(token_cell(token)))
        self.table.setItem(row, BIAS, QTableWidgetItem(bias_cell(bias)))
        self.table.blockSignals(False)
        token_item = self.table.item(row, TOKEN)
        if edit and token_item is not None:
            self.table.setCurrentCell(row, TOKEN)
            self.table.editItem(token_item)
        self.changed.emit()

    def _selected_row(self) -> int:
        return self.table.currentRow()

    def _ban_selected(self) -> None:
        row = self._selected_row()
        if row < 0:
            self.add_row("", -math.inf, edit=True)
            return
        item = self.table.item(row, BIAS)
        if item is not None:
            item.setText(bias_cell(-math.inf))

    def _remove_selected(self) -> None:
        row = self._selected_row()
        if row >= 0:
            self.table.removeRow(row)
            self.changed.emit()

    def set_biases(self, biases: tuple[tuple[int | str, float], ...]) -> None:
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        self.table.blockSignals(False)
        for token, bias in biases:
            self.add_row(token, bias)

    def biases(self) -> tuple[tuple[tuple[int | str, float], ...], list[int]]:
        """The rows that say a token and a bias, and the (0-based) rows whose bias is not a number."""
        out: list[tuple[int | str, float]] = []
        bad: list[int] = []
        for row in range(self.table.rowCount()):
            token_item, bias_item = self.table.item(row, TOKEN), self.table.item(row, BIAS)
            token = parse_token(token_item.text() if token_item is not None else "")
            if token is None:
                continue
            try:
                out.append((token, parse_bias(bias_item.text() if bias_item is not None else "")))
            except ValueError:
                bad.append(row)
        return tuple(out), bad

    def show_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))
