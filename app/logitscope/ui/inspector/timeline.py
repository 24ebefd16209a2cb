"""Timeline: per step, the chosen token's probability, the entropy and the latency. A repetition loop
shows up as a run of probabilities near 1 with entropy near 0."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from logitscope.engine.trace import StepRecord


class TimelinePanel(QWidget):
    stepClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.graphs = pg.GraphicsLayoutWidget()
        layout.addWidget(self.graphs)
        self.top = self.graphs.addPlot(row=0, col=0)
        self.bottom = self.graphs.addPlot(row=1, col=0)
        self.bottom.setXLink(self.top)
        p_label, h_label = self.tr("p of the chosen token (raw)"), self.tr("entropy (nats)")
        self.top.setTitle(f"<span style='color:#3c82dc'>{p_label}</span> &nbsp; "
                          f"<span style='color:#dc7828'>{h_label}</span>", size="9pt")
        # no left label on the top plot: its title names both curves, and two vertical labels overlap in a short dock
        self.bottom.setLabel("left", self.tr("latency (ms)"))
        self.bottom.setLabel("bottom", self.tr("step"))
        for plot in (self.top, self.bottom):
            plot.setMenuEnabled(False)
            plot.showGrid(x=True, y=True, alpha=0.15)
            plot.getAxis("left").setWidth(52)  # both plots' x axes line up
        self.p_curve = self.top.plot([], [], pen=pg.mkPen((60, 130, 220), width=2))
        self.h_curve = self.top.plot([], [], pen=pg.mkPen((220, 120, 40), width=2))
        self.latency_curve = self.bottom.plot([], [], pen=pg.mkPen((120, 120, 120), width=1.5))
        self.marker = pg.InfiniteLine(angle=90, pen=pg.mkPen((200, 60, 60), width=1))
        self.top.addItem(self.marker)
        self.graphs.scene().sigMouseClicked.connect(self._clicked)
        self.n_steps = 0

    def set_steps(self, steps: Sequence[StepRecord]) -> None:
        self.n_steps = len(steps)
        x = np.arange(len(steps))
        self.p_curve.setData(x, [s.p_raw for s in steps])
        self.h_curve.setData(x, [s.entropy_raw for s in steps])
        self.latency_curve.setData(x, [s.latency_s * 1000 for s in steps])

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
