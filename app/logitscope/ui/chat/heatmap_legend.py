"""What the heatmap's colours mean: a probability scale, or one swatch per rank."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QLinearGradient, QPainter, QPaintEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from logitscope.ui.common.tokens import probability_color, rank_color

RANKS_SHOWN = 4  # rank_color has a colour for ranks 1, 2, 3 and one for the rest


class _Scale(QWidget):
    """A colour strip: a gradient over probabilities 0..1, or swatches for ranks 1, 2, 3, 4+."""

    def __init__(self, legend: HeatmapLegend) -> None:
        super().__init__(legend)
        self.legend = legend
        self.setFixedSize(160, 14)

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.rect().adjusted(0, 1, -1, -1)
        dark = self.legend.dark
        if self.legend.color_by == "probability":
            gradient = QLinearGradient(rect.left(), 0, rect.right(), 0)
            for stop in (0.0, 0.25, 0.5, 0.75, 1.0):
                gradient.setColorAt(stop, probability_color(stop, dark, 255))
            painter.fillRect(rect, gradient)
        else:
            width = rect.width() // RANKS_SHOWN
            for rank in range(RANKS_SHOWN):
                swatch = QRect(rect.left() + rank * width, rect.top(), width - 2, rect.height())
                painter.fillRect(swatch, rank_color(rank, dark, 255))
                painter.setPen(self.palette().color(self.foregroundRole()))
                painter.drawText(swatch, Qt.AlignmentFlag.AlignCenter, f"{rank + 1}+" if rank == RANKS_SHOWN - 1
                                 else str(rank + 1))


class HeatmapLegend(QWidget):
    """Shown under the chat while the heatmap is on."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("heatmapLegend")
        self.color_by = "probability"
        self.dark = False
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 2, 12, 2)
        self.title = QLabel()
        self.low = QLabel()
        self.scale = _Scale(self)
        self.high = QLabel()
        for w in (self.title, self.low, self.scale, self.high):
            layout.addWidget(w)
        layout.addStretch(1)
        self.hide()

    def show_mode(self, on: bool, color_by: str, dark: bool) -> None:
        self.color_by, self.dark = color_by, dark
        if color_by == "probability":
            self.title.setText(self.tr("Heatmap: raw p of each chosen token"))
            self.low.setText("0%")
            self.high.setText("100%")
        else:
            self.title.setText(self.tr("Heatmap: rank of each chosen token (1 = the most likely)"))
            self.low.setText("")
            self.high.setText("")
        self.setVisible(on)
        self.scale.update()
