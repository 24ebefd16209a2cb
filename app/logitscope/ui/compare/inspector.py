"""A column's inspector: the clicked token's next-token distributions side by side. Column A shows A's (from its
trace: the raw distribution, before the sampler) beside B's at the same place, forced onto A's tokens (from the
comparison); column B shows B's own step."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from logitscope.protocol.forced_compare import ForcedKl
from logitscope.protocol.trace import StepRecord
from logitscope.ui.common.tokens import id_label, percent, token_label

TOP_SHOWN = 5
CHOSEN_COLOR = QColor(255, 214, 102, 140)


class _Table(QTableWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 2, parent)
        self.setHorizontalHeaderLabels([self.tr("Token"), self.tr("p")])
        self.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setMinimumHeight(150)

    def show_rows(self, rows: Sequence[tuple[str, float, bool]]) -> None:
        self.setRowCount(len(rows))
        for r, (label, p, chosen) in enumerate(rows):
            token, prob = QTableWidgetItem(label), QTableWidgetItem(percent(p))
            prob.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if chosen:
                for item in (token, prob):
                    item.setBackground(QBrush(CHOSEN_COLOR))
                    font = QFont(item.font())
                    font.setBold(True)
                    item.setFont(font)
            self.setItem(r, 0, token)
            self.setItem(r, 1, prob)


class TwoDistributions(QWidget):
    def __init__(self, left_title: str, right_title: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        grid.addWidget(self.caption, 0, 0, 1, 2)
        self.left_title, self.left = QLabel(left_title), _Table()
        grid.addWidget(self.left_title, 1, 0)
        grid.addWidget(self.left, 2, 0)
        self.right: _Table | None = None
        self.right_note = QLabel()
        self.right_note.setWordWrap(True)
        # a line under the tables in both columns, empty in B's: the two columns' tables stay level (B's sat ~20 px
        # lower when A's note showed)
        self.right_note.setMinimumHeight(self.right_note.fontMetrics().height())
        grid.addWidget(self.right_note, 3, 1 if right_title is not None else 0)
        if right_title is not None:
            self.right_title, self.right = QLabel(right_title), _Table()
            grid.addWidget(self.right_title, 1, 1)
            grid.addWidget(self.right, 2, 1)
        self.clear_token()

    def clear_token(self) -> None:
        # which answer: B's own trace stays empty while a token of A's is selected
        self.caption.setText(self.tr("Click a token of this answer to see its distribution."))
        self.left.setRowCount(0)
        if self.right is not None:
            self.right.setRowCount(0)
            self.right_note.clear()

    def show_token(self, index: int, step: StepRecord, vocab: Sequence[bytes], kl: ForcedKl | None = None) -> None:
        chosen = step.token
        caption = self.tr("Token {0} “{1}”: p {2}").format(index + 1, token_label(step.piece), percent(step.p_raw))
        probs = step.raw_probs
        self.left.show_rows([(id_label(int(t), vocab), float(p), int(t) == chosen)
                             for t, p in zip(step.raw_ids[:TOP_SHOWN], probs[:TOP_SHOWN], strict=False)])
        if self.right is None:
            self.caption.setText(caption)
            return
        if kl is None or index >= len(kl.kld) or not kl.scored[index]:
            self.right.setRowCount(0)
            self.right_note.setText(self.tr("B's distribution here comes with “B reads A's tokens”."))
            self.caption.setText(caption)
            return
        p_b = float(np.exp(-float(kl.nll[index])))
        self.caption.setText(caption + " · " + self.tr("under B: p {0} · KL {1:.4f} nats · Δp {2:+.3f}").format(
            percent(p_b), float(kl.kld[index]), float(kl.p_diff[index])))
        self.right.show_rows([(id_label(int(t), vocab), float(np.exp(lp)), int(t) == chosen)
                              for t, lp in zip(kl.top_ids[index], kl.top_logprobs[index], strict=False)])
        differs = not bool(kl.same_top[index])
        self.right_note.setText(self.tr("B's top-1 differs from A's here.") if differs else "")
