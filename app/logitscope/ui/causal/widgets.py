"""The Causal tracing dialog's parts: a heatmap (layers x heads, or layers x positions) whose cells can be clicked,
and two next-token distributions side by side."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from logitscope.protocol.causal import Distribution
from logitscope.ui.inspector.plots import cache_axes
from logitscope.ui.steering.compare_widgets import DistributionTable

# diverging: red where knocking out / patching lowers the measure, blue where it raises it, white at 0
DIVERGING = pg.ColorMap([0.0, 0.5, 1.0], [(200, 40, 40), (250, 250, 250), (40, 90, 200)])


class Heatmap(pg.PlotWidget):
    """A matrix [rows, columns] as coloured cells, row 0 at the bottom; a click says which cell."""

    cellClicked = Signal(int, int)   # row, column

    def __init__(self, x_label: str, y_label: str, parent: QWidget | None = None) -> None:
        super().__init__(parent, enableMenu=False)   # no context menus: not even built (~8 ms a plot)
        plot = self.getPlotItem()
        plot.setMouseEnabled(x=False, y=False)
        plot.setLabel("bottom", x_label)
        plot.setLabel("left", y_label)
        cache_axes(plot)
        for name in ("bottom", "left"):   # layers, heads and positions are whole numbers: never "(x0.001)"
            plot.getAxis(name).enableAutoSIPrefix(False)
            plot.getAxis(name).setTicks([[]])   # empty until a matrix comes (not -500 to 500)
        plot.setXRange(0, 1, padding=0)
        plot.setYRange(0, 1, padding=0)
        self.image = pg.ImageItem()
        self.image.setLookupTable(DIVERGING.getLookupTable(0.0, 1.0, 256))
        plot.addItem(self.image)
        self.marker = pg.ScatterPlotItem(size=12, symbol="s", pen=pg.mkPen((20, 20, 20), width=2), brush=None)
        plot.addItem(self.marker)
        self.matrix = np.zeros((0, 0))
        self.scene().sigMouseClicked.connect(self._clicked)

    def set_matrix(self, matrix: np.ndarray, x_ticks: Sequence[str] | None = None) -> None:
        """Colour scale symmetric around 0, to the largest magnitude (at least 1e-6); NaN cells (not measured,
        e.g. the layers a head scan left out) are left transparent."""
        self.matrix = np.asarray(matrix, dtype=np.float64)
        finite = self.matrix[np.isfinite(self.matrix)]
        top = max(float(np.abs(finite).max(initial=0.0)), 1e-6)
        self.image.setImage(self.matrix.T, levels=(-top, top))   # ImageItem: [x, y]
        rows, cols = self.matrix.shape
        plot = self.getPlotItem()
        plot.setXRange(0, max(cols, 1), padding=0.01)
        plot.setYRange(0, max(rows, 1), padding=0.01)
        plot.getAxis("left").setTicks(None)   # the layers: pyqtgraph's own ticks again
        bottom = plot.getAxis("bottom")
        if x_ticks is not None:
            bottom.setTicks([[(i + 0.5, label) for i, label in enumerate(x_ticks)]])
        else:
            bottom.setTicks([[(i + 0.5, str(i)) for i in range(cols)]])
        self.marker.setData([])

    def mark(self, row: int, col: int) -> None:
        self.marker.setData([col + 0.5], [row + 0.5])

    def _clicked(self, event) -> None:  # noqa: ANN001 - pyqtgraph's event
        plot = self.getPlotItem()
        if not self.matrix.size or not plot.sceneBoundingRect().contains(event.scenePos()):
            return
        point = plot.vb.mapSceneToView(event.scenePos())
        col, row = int(np.floor(point.x())), int(np.floor(point.y()))
        if 0 <= row < self.matrix.shape[0] and 0 <= col < self.matrix.shape[1]:
            self.mark(row, col)
            self.cellClicked.emit(row, col)


class DistributionColumns(QWidget):
    """Named next-token distributions side by side (base and knocked out; clean, corrupted and patched)."""

    def __init__(self, titles: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.titles: list[QLabel] = []
        self.tables: list[DistributionTable] = []
        for title in titles:
            column = QVBoxLayout()
            label = QLabel(f"<b>{escape(title)}</b>")
            table = DistributionTable()
            table.setColumnWidth(0, 40)    # three tables side by side: the p column stays in view
            # and the token column shows a word of ~10 characters (" Rome" was cut to " Ro…" at the default size)
            table.setMinimumWidth(40 + table.fontMetrics().horizontalAdvance("·Florence·100.0%") + 48)
            column.addWidget(label)
            column.addWidget(table, 1)
            layout.addLayout(column)
            self.titles.append(label)
            self.tables.append(table)

    def show_distributions(self, distributions: Sequence[Distribution | None], vocab: Sequence[bytes],
                           bold: set[int]) -> None:
        for table, d in zip(self.tables, distributions, strict=True):
            if d is None:
                table.setRowCount(0)
            else:
                table.show_top(d.top_ids, np.log(np.maximum(d.top_probs.astype(np.float64), 1e-300)), vocab, bold)
