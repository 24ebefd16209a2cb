"""The KL colour scale of the compare window: per token KL(A || B) in nats, on a log scale from KL_LOW (no
colour) to KL_HIGH (deep red), and its legend."""

from __future__ import annotations

import html
import math

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QLinearGradient, QPainter, QPaintEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

KL_LOW = 1e-4      # nats: below, no colour (llama.cpp's 16-bit rows alone give ~1e-5)
KL_HIGH = 1.0      # nats: at and above, the deepest colour
TICKS = (1e-4, 1e-3, 1e-2, 1e-1, 1.0)
DIFFERS_COLOR = "#d01010"   # a top-1 difference in the legends and the histogram
SWATCH_TEXT = "#202020"     # text drawn on a colour swatch (tokens, legends): readable on every KL colour
FIRST_COLOR = "#b000b0"     # the first divergence's mark
FIRST_MARK = "▶"


def kl_fraction(kl: float) -> float:
    """0 at KL_LOW and below, 1 at KL_HIGH and above, log-linear between."""
    if not kl > KL_LOW:   # NaN too
        return 0.0
    return min(1.0, math.log10(kl / KL_LOW) / math.log10(KL_HIGH / KL_LOW))


def kl_color(kl: float, dark: bool = False) -> QColor:
    """Pale yellow through orange to red, more opaque as the KL grows (opaque on a dark theme, where a see-through
    swatch turns muddy under the dark text); transparent for ~0."""
    t = kl_fraction(kl)
    # saturation stops at 0.75: a full red under SWATCH_TEXT reads at 3.5:1, this one above WCAG's 4.5:1
    color = QColor.fromHsvF(0.15 * (1.0 - t), 0.4 + 0.35 * t, 1.0)
    color.setAlpha(0 if t == 0 else 255 if dark else int(110 + 140 * t))
    return color


def tick_label(value: float) -> str:
    return f"{value:g}"


class KlBar(QWidget):
    """The gradient with its ticks."""

    def sizeHint(self) -> QSize:
        return QSize(260, 30)

    def minimumSizeHint(self) -> QSize:
        return QSize(180, 30)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        bar = QRectF(4, 2, self.width() - 8, 12)
        gradient = QLinearGradient(bar.topLeft(), bar.topRight())
        for k in range(11):
            t = k / 10
            gradient.setColorAt(t, kl_color(KL_LOW * (KL_HIGH / KL_LOW) ** t if t else 0.0))
        painter.fillRect(bar, Qt.GlobalColor.white)
        painter.fillRect(bar, gradient)
        painter.setPen(self.palette().windowText().color())
        painter.drawRect(bar)
        metrics = painter.fontMetrics()
        for value in TICKS:
            x = bar.left() + kl_fraction(value) * bar.width()
            text = tick_label(value)
            w = metrics.horizontalAdvance(text)
            painter.drawText(int(min(max(x - w / 2, 0), self.width() - w)), int(bar.bottom() + metrics.ascent() + 2), text)
        painter.end()


class KlLegend(QWidget):
    """KL (nats) [gradient] · wavy underline: top-1 differs · ▶ first divergence."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(self.tr("KL(A‖B), nats:")))
        self.bar = KlBar()
        row.addWidget(self.bar, 1)
        differs = QLabel("<b>〰</b> " + html.escape(self.tr("bold, wavy underline: B's top-1 differs")))
        differs.setTextFormat(Qt.TextFormat.RichText)
        row.addWidget(differs)
        first = QLabel(f"<span style='color:{FIRST_COLOR}'>{FIRST_MARK}</span> "
                       + html.escape(self.tr("the first token where B would have chosen differently")))
        first.setTextFormat(Qt.TextFormat.RichText)
        row.addWidget(first)
