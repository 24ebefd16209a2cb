"""A heat strip over the context tokens: each token as a chip, wrapped like text, filled by its weight.

Painted, not built from widgets: a context of thousands of tokens stays one widget, and only the chips in
the exposed rectangle are drawn."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from logitscope.ui.inspector.distribution import CHOSEN_COLOR, FINAL_COLOR
from logitscope.ui.inspector.layers import heat_color

PAD, GAP = 4, 3   # px inside a chip, and between chips


class TokenHeatStrip(QWidget):
    tokenClicked = Signal(int)   # position in the context

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self.labels: list[str] = []
        self.weights = np.zeros(0, dtype=np.float32)
        self.scale = 1.0                   # the colour's full strength: the largest weight shown
        self.marked: int | None = None     # the clicked token
        self.first_answer = -1             # first position of the answer's tokens (drawn underlined)
        self._rects: list[QRect] = []
        self._laid_out_width = -1

    def set_tokens(self, labels: Sequence[str], weights: np.ndarray, first_answer: int) -> None:
        self.labels, self.weights = list(labels), np.asarray(weights, dtype=np.float32)
        top = float(self.weights.max()) if len(self.weights) else 0.0
        self.scale = top if top > 0 else 1.0
        self.first_answer = first_answer
        self.marked = None
        self._laid_out_width = -1
        self._layout()
        self.update()

    # -- geometry -------------------------------------------------------------------------------------
    def _layout(self) -> None:
        width = max(self.width(), 80)
        if width == self._laid_out_width:
            return
        metrics = self.fontMetrics()
        height = metrics.height() + PAD
        x = y = GAP
        rects = []
        for label in self.labels:
            w = min(metrics.horizontalAdvance(label) + 2 * PAD, width - 2 * GAP)
            if x + w > width - GAP and x > GAP:
                x, y = GAP, y + height + GAP
            rects.append(QRect(x, y, w, height))
            x += w + GAP
        self._rects = rects
        self._laid_out_width = width
        self.setMinimumHeight(y + height + GAP)
        self.updateGeometry()

    def hasHeightForWidth(self) -> bool:
        return True

    def sizeHint(self) -> QSize:
        return QSize(300, self.minimumHeight())

    def resizeEvent(self, event) -> None:  # noqa: ANN001 - Qt signature
        self._layout()
        super().resizeEvent(event)

    def position_at(self, point: QPoint) -> int | None:
        for position, rect in enumerate(self._rects):
            if rect.contains(point):
                return position
        return None

    def chip_rect(self, position: int) -> QRect:
        return QRect(self._rects[position])

    # -- painting and the mouse -------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        self._layout()
        painter = QPainter(self)
        exposed = event.rect()
        text_color = self.palette().text().color()
        last = len(self._rects) - 1
        for position, rect in enumerate(self._rects):
            if not rect.intersects(exposed):
                continue
            painter.fillRect(rect, heat_color(float(self.weights[position]) / self.scale))
            painter.setPen(text_color)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.labels[position])
            if position >= self.first_answer >= 0:
                painter.setPen(QPen(FINAL_COLOR, 1))
                painter.drawLine(rect.bottomLeft(), rect.bottomRight())
            if position == last or position == self.marked:
                painter.setPen(QPen(CHOSEN_COLOR if position == last else QColor(200, 60, 60), 2))
                painter.drawRect(rect.adjusted(1, 1, -1, -1))
        painter.end()

    def tooltip_text(self, position: int) -> str:
        return self.tr("{0} (position {1}): weight {2:.3f}").format(self.labels[position], position,
                                                                    float(self.weights[position]))

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            position = self.position_at(event.pos())
            if position is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.tooltip_text(position), self)
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        position = self.position_at(event.position().toPoint())
        if position is not None and event.button() == Qt.MouseButton.LeftButton:
            self.marked = position
            self.update()
            self.tokenClicked.emit(position)
