"""The Score dialog's KL divergence colouring (ui/score/widgets.py uses it): each scored token's swatch on the
compare window's KL scale (ui/compare/scale.py: nats, log-scaled from 0.0001 to 1), its tooltip with both
models' five best tokens, and the histogram of per-token KL on log-scaled bins."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

import numpy as np
from PySide6.QtCore import QCoreApplication, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from logitscope.protocol.kld import BASE_TOP_N, KlTokens
from logitscope.protocol.score import ScoredToken
from logitscope.ui.common.tokens import id_label, percent, token_label
from logitscope.ui.compare.scale import DIFFERS_COLOR, KL_HIGH, KL_LOW, kl_color

KL_ZERO = "#f7f7f7"   # a scored token whose KL is ~0: a pale swatch (unscored tokens have none)
KL_LEGEND = (KL_LOW, 1e-3, 1e-2, 1e-1, KL_HIGH)
# the histogram's bins: half a decade each from 1e-5 to 10 nats, one below (0, and llama.cpp's tiny negative
# values from its 16-bit rows) and one above
BIN_EDGES: np.ndarray = 10.0 ** np.arange(-5.0, 1.01, 0.5)
DECADES = (1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0)


def kl_swatch(kld: float) -> QColor:
    """The compare window's KL colour laid on a pale swatch, opaque: dark text stays readable on it in either
    theme, as on the rank and probability swatches."""
    color = kl_color(kld)
    a = color.alphaF()
    zero = QColor(KL_ZERO)
    return QColor(*(round(z * (1 - a) + c * a) for z, c in
                    ((zero.red(), color.red()), (zero.green(), color.green()), (zero.blue(), color.blue()))))


def kl_bins(kl: KlTokens) -> np.ndarray:
    """How many scored tokens fall below BIN_EDGES[0], in each bin, and at or above BIN_EDGES[-1]."""
    values = kl.kld[kl.scored]
    return np.bincount(np.searchsorted(BIN_EDGES, values, side="right"), minlength=len(BIN_EDGES) + 1)


def bin_range(n: int) -> str:
    if n == 0:
        return QCoreApplication.translate("KlHistogram", "below {0:g} nats").format(BIN_EDGES[0])
    if n == len(BIN_EDGES):
        return QCoreApplication.translate("KlHistogram", "{0:g} nats and above").format(BIN_EDGES[-1])
    return QCoreApplication.translate("KlHistogram", "{0:.2g} to {1:.2g} nats").format(BIN_EDGES[n - 1], BIN_EDGES[n])


def _best(ids: Sequence[int], logprobs: Sequence[float], token: int, vocab: Sequence[bytes]) -> list[str]:
    return [f"{'<b>▶</b> ' if tok == token else ''}{escape(id_label(tok, vocab))}</td>"
            f"<td align='right'>{percent(math.exp(lp))}" for tok, lp in zip(ids, logprobs, strict=True)]


def kl_tooltip_html(a: ScoredToken, b: ScoredToken | None, kl: KlTokens, vocab: Sequence[bytes],
                    names: tuple[str, str]) -> str:
    """One token's KL, Δp and top-1 agreement, and both models' five best tokens side by side (A's from the
    base file, B's from its own scores; ▶ marks the text's token)."""
    i = a.i
    label = escape(token_label(a.piece))
    if i >= len(kl.scored) or not kl.scored[i] or b is None:
        return QCoreApplication.translate(
            "ScoredText", "<p><b>{0}</b> (token {1}): not scored (llama-perplexity scores the second half of each "
            "chunk)</p>").format(label, i)
    same = bool(kl.same_top[i])
    verdict = (QCoreApplication.translate("ScoredText", "same top-1") if same else
               f"<span style='color:{DIFFERS_COLOR}'><b>"
               + QCoreApplication.translate("ScoredText", "top-1 differs") + "</b></span>")
    head = QCoreApplication.translate(
        "ScoredText", "<p><b>{0}</b> (token {1}): KL {2:.5f} nats · Δp {3:+.2%} · {4}<br>p of the token: A {5}, "
        "B {6}</p>").format(label, i, float(kl.kld[i]), float(kl.p_diff[i]), verdict,
                            percent(math.exp(-float(kl.nll_base[i]))), percent(math.exp(-float(kl.nll[i]))))
    left = _best(kl.base_top_ids[i].tolist(), kl.base_top_logprobs[i].tolist(), a.token, vocab)
    n = BASE_TOP_N
    right = _best(b.top_ids[:n].tolist(), b.top_logprobs[:n].tolist(), a.token, vocab)
    rows = "".join(f"<tr><td>{x}</td><td>&nbsp;&nbsp;</td><td>{y}</td></tr>" for x, y in zip(left, right, strict=False))
    header = (f"<tr><th colspan='2' align='left'>A: {escape(names[0])}</th><th></th>"
              f"<th colspan='2' align='left'>B: {escape(names[1])}</th></tr>")
    return f"{head}<table>{header}{rows}</table>"


class KlHistogram(QWidget):
    """How many scored tokens had each KL, on log-scaled bins: bars in the colouring's colours, the decades
    below, the mean marked; hover a bar for its range and count."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.counts = np.zeros(len(BIN_EDGES) + 1, dtype=np.int64)
        self.mean = math.nan
        self.setMinimumSize(260, 150)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)

    def set_kl(self, kl: KlTokens | None) -> None:
        if kl is None:
            self.counts, self.mean = np.zeros(len(BIN_EDGES) + 1, dtype=np.int64), math.nan
        else:
            self.counts = kl_bins(kl)
            self.mean = float(kl.kld[kl.scored].mean()) if kl.scored.any() else math.nan
        self.update()

    def _area(self) -> QRect:
        line = self.fontMetrics().height()
        return self.rect().adjusted(8, line + 4, -8, -line - 6)   # the top count above, the decades below

    def _x(self, area: QRect, n: float) -> float:
        """Where bin edge `n` (0 = the first of BIN_EDGES, fractions between) lies: the bins are equally wide,
        the 'below' one first."""
        return area.left() + (n + 1) * area.width() / len(self.counts)

    def bar_at(self, pos: QPoint) -> int:
        area = self._area()
        if not area.left() <= pos.x() < area.right():
            return -1
        return min(len(self.counts) - 1, int((pos.x() - area.left()) * len(self.counts) / area.width()))

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        fg = self.palette().color(self.foregroundRole())
        metrics = painter.fontMetrics()
        area = self._area()
        top = int(self.counts.max()) or 1
        width = area.width() / len(self.counts)
        outline = QPen(self.palette().color(self.palette().ColorRole.Mid))
        for n, count in enumerate(self.counts.tolist()):
            height = round(area.height() * count / top)
            centre = 0.0 if n == 0 else (KL_HIGH * 10 if n == len(BIN_EDGES) else
                                         math.sqrt(BIN_EDGES[n - 1] * BIN_EDGES[n]))
            bar = QRect(round(area.left() + n * width) + 1, area.bottom() - height, max(1, round(width) - 2), height)
            if count:
                painter.fillRect(bar, kl_swatch(centre))
                painter.setPen(outline)
                painter.drawRect(bar)
        painter.setPen(fg)
        painter.drawLine(area.bottomLeft(), area.bottomRight())
        painter.drawText(QRect(0, 0, self.width(), metrics.height()), Qt.AlignmentFlag.AlignLeft,
                         QCoreApplication.translate("KlHistogram", "tallest bar: {0:,} tokens").format(top))
        for d, value in enumerate(DECADES):
            x = self._x(area, 2 * d)
            painter.drawLine(QPointF(x, area.bottom()), QPointF(x, area.bottom() + 3))
            text = f"{value:g}"
            w = metrics.horizontalAdvance(text)
            painter.drawText(QRect(round(min(max(x - w / 2, 0), self.width() - w)), area.bottom() + 4, w + 1,
                                   metrics.height()), Qt.AlignmentFlag.AlignCenter, text)
        if self.mean > 0:   # the mean, where it falls on the log scale
            where = min(max(math.log10(self.mean / BIN_EDGES[0]) * 2, -1.0), len(BIN_EDGES))
            x = self._x(area, where)
            pen = QPen(QColor(DIFFERS_COLOR), 1, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()))
            text = QCoreApplication.translate("KlHistogram", "mean {0:.4f}").format(self.mean)
            w = metrics.horizontalAdvance(text)
            left = x + 3 if x + 3 + w < self.width() else x - 3 - w
            painter.drawText(QRect(round(left), area.top(), w + 1, metrics.height()), Qt.AlignmentFlag.AlignLeft, text)
        painter.end()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        n = self.bar_at(event.position().toPoint())
        total = int(self.counts.sum())
        if n < 0 or not total:
            QToolTip.hideText()
            return
        count = int(self.counts[n])
        QToolTip.showText(event.globalPosition().toPoint(), QCoreApplication.translate(
            "KlHistogram", "{0}: {1:,} tokens ({2:.1%})").format(bin_range(n), count, count / total), self)
