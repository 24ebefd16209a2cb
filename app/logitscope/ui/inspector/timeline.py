"""Timeline: per step, the chosen token's probability (left axis, 0 to 1), the entropy (right axis, nats) and
the latency. A repetition loop shows up as a run of probabilities near 1 with entropy near 0.

Cheap while an answer streams: only the new steps are read (into arrays that grow by doubling),
the axes' ranges grow in whole chunks (an axis is redrawn when its range changes, which is the costly
part of painting a plot), and long answers are drawn at most two points per pixel."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from logitscope.protocol.trace import StepRecord
from logitscope.ui.inspector.plots import SpacedAxis, cache_axes

X_CHUNK = 16  # steps: the x axis's smallest range; it then grows by half or a third of itself (below)
THINKING_RGBA = (140, 100, 210, 45)
P_COLOR, H_COLOR = "#3c82dc", "#dc7828"   # the chosen token's p, the entropy: curves, axes and the title
LATENCY_SCALE_MS = (10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000)


def step_ceiling(value: float, chunk: float) -> float:
    return max(chunk, math.ceil(value / chunk) * chunk)


def x_ceiling(n: int) -> int:
    """The x axis's range for n steps: X_CHUNK times 1, 1.5, 2, 3, 4, 6, 8...: the axis (its labels and grid,
    the dear part of a repaint) changes a few times in a long answer, not every X_CHUNK steps, and the
    curve always fills at least two thirds of the plot."""
    top = X_CHUNK
    while top < n:
        top = top * 3 // 2 if top & (top - 1) == 0 else top * 4 // 3
    return top


def latency_ceiling(ms: float) -> float:
    return next((top for top in LATENCY_SCALE_MS if ms <= top * 0.95), step_ceiling(ms * 1.05, 60_000))


class TimelinePanel(QWidget):
    stepClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.graphs = pg.GraphicsLayoutWidget()
        layout.addWidget(self.graphs)
        # no context menus: not even built (~8 ms a plot)
        self.top = self.graphs.addPlot(row=0, col=0, enableMenu=False,
                                       axisItems={side: SpacedAxis(side) for side in ("left", "right")})
        self.bottom = self.graphs.addPlot(row=1, col=0, enableMenu=False,
                                          axisItems={side: SpacedAxis(side) for side in ("left", "right")})
        self.bottom.setXLink(self.top)
        self._show_title(False)
        # p (0 to 1) on the left axis, the entropy (nats, unbounded) on a right-hand axis of its own view
        self.top.setLabel("left", self.tr("p (raw)"), color=P_COLOR)
        self.top.setYRange(0, 1, padding=0.02)
        self.entropy_view = pg.ViewBox(enableMenu=False)
        self.entropy_view.setMouseEnabled(False, False)   # the wheel and drags go to the plot below it
        self.top.showAxis("right")
        self.top.scene().addItem(self.entropy_view)
        self.top.getAxis("right").linkToView(self.entropy_view)
        self.top.setLabel("right", self.tr("entropy (nats)"), color=H_COLOR)
        self.entropy_view.setXLink(self.top)
        self.entropy_view.disableAutoRange()
        self.top.vb.sigResized.connect(lambda: self.entropy_view.setGeometry(self.top.vb.sceneBoundingRect()))
        self.bottom.setLabel("left", self.tr("latency (ms)"))
        self.bottom.setLabel("bottom", self.tr("step"))
        self.bottom.showAxis("right")
        self.bottom.getAxis("right").setStyle(showValues=False)
        for plot in (self.top, self.bottom):
            plot.showGrid(x=True, y=True, alpha=0.15)
            for side in ("left", "right"):
                plot.getAxis(side).setWidth(52)  # both plots' x axes line up
                plot.getAxis(side).setStyle(maxTextLevel=0)   # values at the major ticks only (SpacedAxis)
            plot.disableAutoRange()  # ranges are set in chunks here (see _fit)
            cache_axes(plot)
            plot.vb.sigRangeChangedManually.connect(self._user_moved)
        # one-pixel lines: a wider pen is stroked as a polygon, 0.4 ms per curve and repaint (bench --window)
        self.p_curve = self.top.plot([], [], pen=pg.mkPen(P_COLOR, width=1))
        self.h_curve = pg.PlotDataItem([], [], pen=pg.mkPen(H_COLOR, width=1))
        self.entropy_view.addItem(self.h_curve)
        self.latency_curve = self.bottom.plot([], [], pen=pg.mkPen((120, 120, 120), width=1))
        for curve in (self.p_curve, self.h_curve, self.latency_curve):
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
        # accepted speculative drafts: a green dot on the probability curve (steps without a forward pass)
        self.drafted_dots = pg.ScatterPlotItem(size=4, pen=None, brush=pg.mkBrush(40, 170, 90))
        self.top.addItem(self.drafted_dots)
        self.drafted_dots.setVisible(False)  # shown with its first dot: even empty, it costs ~0.6 ms a repaint
        # a reasoning model's thinking block (its first steps): shaded, the answer's steps after it plain
        self.thinking_bands = [pg.LinearRegionItem((0, 0), movable=False, brush=pg.mkBrush(THINKING_RGBA),
                                                   pen=pg.mkPen(None)) for _ in (self.top, self.bottom)]
        for plot, band in zip((self.top, self.bottom), self.thinking_bands, strict=True):
            band.setZValue(-10)
            band.setVisible(False)
            plot.addItem(band)
        self.n_thinking = 0
        self.marker = pg.InfiniteLine(angle=90, pen=pg.mkPen((200, 60, 60), width=1))
        self.top.addItem(self.marker)
        self.graphs.scene().sigMouseClicked.connect(self._clicked)
        self.n_steps = 0
        self._source: Sequence[StepRecord] | None = None  # the steps shown (the same list grows while streaming)
        self._last: StepRecord | None = None
        self._columns = np.zeros((4, 0))  # x, p, entropy, latency ms; capacity doubles
        self._drafted: list[tuple[int, float]] = []  # (step, p) of the accepted drafts shown
        self._ranges: tuple[float, float, float] | None = None
        self._following = True  # False once the user zoomed or panned: ranges are then left alone

    def set_steps(self, steps: Sequence[StepRecord]) -> None:
        """Show these steps; when they are the steps shown before plus new ones, only the new ones are read."""
        n, old = len(steps), self.n_steps
        if steps is not self._source or n < old or (old and steps[old - 1] is not self._last):
            self._source, self._following, self._ranges, old = steps, True, None, 0
            self._set_thinking(0)
            if self._drafted:  # another answer: its dots go (a clear per batch would cost a repaint)
                self._drafted = []
                self.drafted_dots.clear()
                self.drafted_dots.setVisible(False)
        if n > self._columns.shape[1]:
            grown = np.zeros((4, max(n, 2 * self._columns.shape[1], 256)))
            grown[:, :old] = self._columns[:, :old]
            self._columns = grown
        new = steps[old:n]
        if new:
            self._columns[:, old:n] = np.array([(s.i, s.p_raw, s.entropy_raw, s.latency_s * 1000) for s in new]).T
            self._columns[0, old:n] = np.arange(old, n)
            thinking = self.n_thinking
            if thinking == old:   # the block had not ended before these steps: it may go on in them
                while thinking < n and steps[thinking].thinking:
                    thinking += 1
            if thinking != self.n_thinking:
                self._set_thinking(thinking)
            drafted = [(old + j, s.p_raw) for j, s in enumerate(new) if s.drafted]
            if drafted:
                self._drafted += drafted
                self.drafted_dots.setData([d[0] for d in self._drafted], [d[1] for d in self._drafted])
                self.drafted_dots.setVisible(True)
        self.n_steps, self._last = n, steps[n - 1] if n else None
        x, p, h, ms = self._columns[:, :n]
        self.p_curve.setData(x, p)
        self.h_curve.setData(x, h)
        self.latency_curve.setData(x, ms)
        self._fit(h, ms)

    def _set_thinking(self, n: int) -> None:
        """Shade the first n steps (the thinking block); the title names the shade while there is one."""
        if bool(n) != bool(self.n_thinking):
            self._show_title(bool(n))
        self.n_thinking = n
        for band in self.thinking_bands:
            band.setRegion((-0.5, n - 0.5))
            band.setVisible(bool(n))

    def _show_title(self, thinking: bool) -> None:
        p_label, h_label = self.tr("p of the chosen token (raw)"), self.tr("entropy (nats)")
        title = f"<span style='color:{P_COLOR}'>{p_label}</span> &nbsp; <span style='color:{H_COLOR}'>{h_label}</span>"
        if thinking:
            shade = self.tr("thinking")
            title += f" &nbsp; <span style='color:#8c64d2'>▮ {shade}</span>"
        self.top.setTitle(title, size="9pt")

    def _fit(self, entropy: np.ndarray, latency_ms: np.ndarray) -> None:
        if not self._following:
            return
        entropy, latency_ms = entropy[np.isfinite(entropy)], latency_ms[np.isfinite(latency_ms)]  # NaN: a server did not say
        ranges = (x_ceiling(self.n_steps), step_ceiling(float(entropy.max(initial=1.0)), 1.0),
                  latency_ceiling(float(latency_ms.max(initial=0.0))))
        if ranges == self._ranges:
            return  # nothing moves: the axes keep their cached pictures
        self._ranges = ranges
        self.top.setXRange(0, ranges[0], padding=0)
        self.entropy_view.setYRange(0, ranges[1], padding=0.02)
        self.bottom.setYRange(0, ranges[2], padding=0.02)

    def _user_moved(self, *_args: object) -> None:
        self._following = False

    def mark(self, index: int) -> None:
        self.marker.setPos(index)

    def _clicked(self, event) -> None:  # noqa: ANN001 - pyqtgraph event
        for plot in (self.top, self.bottom):
            if plot.sceneBoundingRect().contains(event.scenePos()):
                x = plot.vb.mapSceneToView(event.scenePos()).x()
                index = int(round(x))
                if 0 <= index < self.n_steps:
                    self.stepClicked.emit(index)
                return
