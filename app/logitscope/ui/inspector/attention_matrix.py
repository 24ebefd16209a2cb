"""The whole prompt's attention for one layer and head: tokens x tokens, row t = where position t looks.

Lower-triangular: the causal mask (a position never sees later ones) is drawn hatched, so it reads as a
mask rather than as zeros. One image of T x T pixels scaled to the view: cheap for thousands of tokens."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPaintEvent, QPolygonF
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from logitscope.protocol.forward import AttentionMatrix
from logitscope.ui.inspector.cell_tooltip import cell_tooltip
from logitscope.ui.inspector.distribution import FINAL_COLOR

MASK_COLOR = QColor(150, 150, 150, 110)


class MatrixView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setMinimumSize(240, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.weights = np.zeros((0, 0), dtype=np.float32)
        self.labels: list[str] = []
        self.image = QImage()

    def set_matrix(self, weights: np.ndarray, labels: Sequence[str]) -> None:
        """Colour by the weight relative to its row's largest (square root: small weights stay visible)."""
        self.weights, self.labels = np.asarray(weights, dtype=np.float32), list(labels)
        n = len(self.weights)
        top = self.weights.max(axis=1, keepdims=True) if n else np.ones((0, 1), dtype=np.float32)
        strength = np.sqrt(np.clip(self.weights / np.where(top > 0, top, 1.0), 0.0, 1.0))
        rgba = np.empty((n, n, 4), dtype=np.uint8)
        rgba[..., 0], rgba[..., 1], rgba[..., 2] = FINAL_COLOR.red(), FINAL_COLOR.green(), FINAL_COLOR.blue()
        rgba[..., 3] = (15 + 240 * strength).astype(np.uint8)
        rgba[np.triu_indices(n, 1)] = (255, 255, 255, 0)  # the mask: painted hatched over
        self._rgba = np.ascontiguousarray(rgba)  # the image reads this buffer: keep it alive
        self.image = QImage(self._rgba.data, n, n, 4 * n, QImage.Format.Format_RGBA8888)
        self.update()

    def _square(self) -> QRectF:
        side = min(self.width(), self.height()) - 8
        return QRectF(4, 4, max(side, 0), max(side, 0))

    def cell_at(self, point: QPoint) -> tuple[int, int] | None:
        n = len(self.weights)
        square = self._square()
        if n == 0 or not square.contains(QPointF(point)):
            return None
        row = int((point.y() - square.top()) / square.height() * n)
        column = int((point.x() - square.left()) / square.width() * n)
        return min(row, n - 1), min(column, n - 1)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.image.isNull():
            return
        painter = QPainter(self)
        square = self._square()
        painter.fillRect(square, self.palette().base())
        painter.drawImage(square, self.image)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(MASK_COLOR, Qt.BrushStyle.BDiagPattern))   # the causal mask, above the diagonal
        step = square.width() / max(len(self.weights), 1)
        painter.drawPolygon(QPolygonF([QPointF(square.left() + step, square.top()), square.topRight(),
                                       QPointF(square.right(), square.bottom() - step)]))
        painter.end()

    def event(self, event: QEvent) -> bool:
        return cell_tooltip(self, event, self.cell_at, lambda cell: self.cell_text(*cell)) or super().event(event)

    def cell_text(self, row: int, column: int) -> str:
        if column > row:
            return self.tr("{0} (position {1}) cannot see {2} (position {3}): the causal mask").format(
                self.labels[row], row, self.labels[column], column)
        return self.tr("{0} (position {1}) looks at {2} (position {3}): weight {4:.3f}").format(
            self.labels[row], row, self.labels[column], column, float(self.weights[row, column]))


class AttentionMatrixDialog(QDialog):
    """Asks for one layer/head's matrix through `fetch(dialog, layer, head)` (ask(): now, and on every change of
    the selectors); the answer comes to show_matrix(), a failure to show_message()."""

    def __init__(self, n_layer: int, n_head: int, layer: int, head: int, labels: Sequence[str],
                 fetch: Callable[[AttentionMatrixDialog, int, int], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attentionMatrixDialog")
        self.setWindowTitle(self.tr("Attention over the whole prompt"))
        self.labels, self.fetch = list(labels), fetch
        layout = QVBoxLayout(self)
        controls = QHBoxLayout()
        self.layer_box = QComboBox()
        self.layer_box.addItems([self.tr("layer {0}").format(i) for i in range(n_layer)])
        self.layer_box.setCurrentIndex(layer)
        self.head_box = QComboBox()
        self.head_box.addItems([self.tr("head {0}").format(h) for h in range(n_head)])
        self.head_box.setCurrentIndex(max(head, 0))
        controls.addWidget(QLabel(self.tr("Layer")))
        controls.addWidget(self.layer_box)
        controls.addWidget(QLabel(self.tr("Head")))
        controls.addWidget(self.head_box)
        controls.addStretch(1)
        layout.addLayout(controls)
        self.caption = QLabel(self.tr("Row t: where position t looks ({0} tokens). Hatched: the causal mask — a "
                                      "token never sees the ones after it.").format(len(self.labels)))
        self.caption.setWordWrap(True)
        layout.addWidget(self.caption)
        self.view = MatrixView()
        self.message = QLabel()
        self.message.setObjectName("placeholder")
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setWordWrap(True)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.message)
        self.pages.addWidget(self.view)
        layout.addWidget(self.pages, 1)
        self.matrix: AttentionMatrix | None = None
        self.resize(560, 600)
        self.layer_box.currentIndexChanged.connect(lambda _i: self.ask())
        self.head_box.currentIndexChanged.connect(lambda _i: self.ask())

    def ask(self) -> None:
        self.show_message(self.tr("Computing…"))
        self.fetch(self, self.layer_box.currentIndex(), self.head_box.currentIndex())

    def wants(self, layer: int, head: int) -> bool:
        return (layer, head) == (self.layer_box.currentIndex(), self.head_box.currentIndex())

    def show_matrix(self, matrix: AttentionMatrix) -> None:
        if not self.wants(matrix.layer, matrix.head):
            return  # an answer for a layer/head no longer selected
        self.matrix = matrix
        self.view.set_matrix(matrix.weights, self.labels[:len(matrix.weights)])
        self.pages.setCurrentWidget(self.view)

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.pages.setCurrentWidget(self.message)
