"""Layers: the logit lens of one step. A grid of layers (embeddings first, the last block at the bottom) x
the top tokens of each, coloured by probability, with the chosen token's cell outlined, so a token can be
seen rising through the layers; beside it the selected layer's distribution and a bar chart of the
residual stream's norm and what each block's attention and FFN added. A dock too narrow for both (1280x720
and 1920x1080 screens: the grid had room for one token column) shows them as tabs, the grid first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QPoint, QRect, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QMenu,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from logitscope.protocol.forward import LayerLens
from logitscope.ui.common.tokens import id_label, percent, rank_text
from logitscope.ui.inspector.distribution import (
    CHOSEN_COLOR,
    FINAL_COLOR,
    Candidate,
    DistributionModel,
    distribution_table,
)
from logitscope.ui.inspector.steady_caption import SteadyCaption

if TYPE_CHECKING:
    from logitscope.ui.inspector.inspected import Inspected

CHOSEN, ENTROPY = 0, 1
LENS_GRID = "lens_grid"   # the grid's object name: the layout's checks find it (ui/window/layout_facts.py)
FIRST_TOKEN = 2           # columns from here: the layer's top tokens, best first
CellIndex = QModelIndex | QPersistentModelIndex
# the grid beside the side panel when the panel is this many digit widths wide (the row labels, the chosen and
# entropy columns and four token columns of 9 digits, and the side panel's 30); else as tabs
SIDE_BY_SIDE_DIGITS = 6 + 20 + 4 * 9 + 30
RESID_COLOR, ATTN_COLOR, FFN_COLOR = QColor(140, 140, 150), QColor(60, 130, 220), QColor(220, 120, 40)


def heat_color(p: float) -> QColor:
    """Blue, stronger with the probability (square root: a few percent is already visible)."""
    color = QColor(FINAL_COLOR)
    color.setAlpha(int(20 + 215 * float(np.sqrt(min(max(p, 0.0), 1.0)))))
    return color


class LensModel(QAbstractTableModel):
    """Rows: the lens rows (embd, 0, 1, ...); columns: the chosen token's rank and p, entropy, top tokens."""

    def __init__(self) -> None:
        super().__init__()
        self.lens: LayerLens | None = None
        self.labels: list[list[str]] = []       # per row, the top tokens' text
        self.chosen_label = ""
        self.headers = [self.tr("chosen"), self.tr("entropy")]

    def set_lens(self, lens: LayerLens | None, vocab: Sequence[bytes]) -> None:
        self.beginResetModel()
        self.lens = lens
        self.labels = [[id_label(int(t), vocab) for t in row] for row in lens.top_ids] if lens is not None else []
        self.chosen_label = id_label(lens.chosen, vocab) if lens is not None else ""
        self.endResetModel()

    def rowCount(self, parent: CellIndex = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() or self.lens is None else len(self.lens.layer_names)

    def columnCount(self, parent: CellIndex = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() or self.lens is None else FIRST_TOKEN + self.lens.top_ids.shape[1]

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role != Qt.ItemDataRole.DisplayRole or self.lens is None:
            return None
        if orientation == Qt.Orientation.Vertical:
            name = self.lens.layer_names[section]
            return self.tr("embd") if name == "embd" else name   # short: the grid needs the width
        return self.headers[section] if section < FIRST_TOKEN else str(section - FIRST_TOKEN + 1)

    def layer_name(self, row: int) -> str:
        assert self.lens is not None
        name = self.lens.layer_names[row]
        return self.tr("embd") if name == "embd" else self.tr("layer {0}").format(name)

    def probability(self, index: CellIndex) -> float | None:
        """The cell's probability (a top token's, or the chosen token's); None for the entropy."""
        lens = self.lens
        if lens is None or index.column() == ENTROPY:
            return None
        if index.column() == CHOSEN:
            return float(lens.chosen_prob[index.row()])
        return float(lens.top_probs[index.row(), index.column() - FIRST_TOKEN])

    def is_chosen(self, index: CellIndex) -> bool:
        lens = self.lens
        return (lens is not None and index.column() >= FIRST_TOKEN
                and int(lens.top_ids[index.row(), index.column() - FIRST_TOKEN]) == lens.chosen)

    def data(self, index: CellIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        lens = self.lens
        if lens is None:
            return None
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == CHOSEN:
                return f"{rank_text(int(lens.chosen_rank[row]))} · {percent(float(lens.chosen_prob[row]))}"
            if column == ENTROPY:
                return f"{float(lens.entropy[row]):.2f}"
            return self.labels[row][column - FIRST_TOKEN]
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == CHOSEN:
                return self.tr("{0}: the chosen token {1} has rank {2}, p {3}").format(
                    self.layer_name(row), self.chosen_label, rank_text(int(lens.chosen_rank[row])),
                    percent(float(lens.chosen_prob[row])))
            if column == ENTROPY:
                return self.tr("{0}: entropy {1:.2f} nats").format(self.layer_name(row), float(lens.entropy[row]))
            return self.tr("{0}: {1} — p {2}").format(self.layer_name(row), self.labels[row][column - FIRST_TOKEN],
                                                       percent(float(lens.top_probs[row, column - FIRST_TOKEN])))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (CHOSEN, ENTROPY):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class HeatDelegate(QStyledItemDelegate):
    """A top-token cell filled by its probability, the chosen token's cell outlined; the chosen column as a
    bar of the chosen token's probability."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: CellIndex) -> None:
        model = index.model()
        assert isinstance(model, LensModel)
        p = model.probability(index)
        rect = QRect(option.rect)
        if p is not None:
            painter.save()
            if index.column() == CHOSEN:
                bar = rect.adjusted(1, 3, -1, -3)
                bar.setWidth(max(1, round(bar.width() * min(max(p, 0.0), 1.0))))
                painter.fillRect(bar, CHOSEN_COLOR)
            else:
                painter.fillRect(rect.adjusted(1, 1, -1, -1), heat_color(p))
            painter.restore()
        super().paint(painter, option, index)
        if model.is_chosen(index):
            painter.save()
            painter.setPen(QPen(CHOSEN_COLOR, 2))
            painter.drawRect(rect.adjusted(1, 1, -2, -2))
            painter.restore()


class LayerDistributionModel(DistributionModel):
    """One layer's top tokens in the distribution panel's style: p at this layer beside p at the last."""

    def __init__(self) -> None:
        super().__init__()
        self.headers = (self.tr("#"), self.tr("token"), self.tr("p here"), self.tr("p at the end"))

    def data(self, index: CellIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.ToolTipRole:
            row = self.rows[index.row()]
            return self.tr("p {0} at this layer — {1} after the last layer").format(percent(row.raw), percent(row.final))
        return super().data(index, role)


class NormChart(pg.PlotWidget):
    """Per layer: the residual stream's norm, and the norms of what attention and the FFN added."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, enableMenu=False)   # no context menus: not even built (~8 ms a plot)
        self.setMouseEnabled(x=False, y=False)
        self.showGrid(y=True, alpha=0.15)
        labels = (self.tr("residual"), self.tr("+attention"), self.tr("+FFN"))
        self.setTitle(" &nbsp; ".join(f"<span style='color:{c.name()}'>{t}</span>"
                                      for c, t in zip((RESID_COLOR, ATTN_COLOR, FFN_COLOR), labels, strict=True)),
                      size="8pt")
        self.setLabel("bottom", self.tr("layer row (0 = embd)"))
        self.bars = [pg.BarGraphItem(x=[], height=[], width=0.28, brush=c) for c in (RESID_COLOR, ATTN_COLOR, FFN_COLOR)]
        for bar in self.bars:
            self.addItem(bar)
        self.marker = pg.InfiniteLine(angle=90, pen=pg.mkPen(CHOSEN_COLOR, width=1))
        self.addItem(self.marker)

    def set_lens(self, lens: LayerLens) -> None:
        rows = np.arange(len(lens.layer_names), dtype=float)
        blocks = rows[1:]   # block l's contributions end in row l + 1
        for bar, x, values in ((self.bars[0], rows - 0.3, lens.resid_norm), (self.bars[1], blocks, lens.attn_norm),
                               (self.bars[2], blocks + 0.3, lens.ffn_norm)):
            bar.setOpts(x=x, height=np.nan_to_num(np.asarray(values, dtype=float)))  # unknown (NaN): no bar

    def mark(self, row: int) -> None:
        self.marker.setPos(row)


class LayersPanel(QWidget):
    layerSelected = Signal(int)   # lens row
    knockoutRequested = Signal(str)   # "20.attn" / "20.ffn": a layer's block, from the grid's context menu

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.caption = SteadyCaption()  # changes at every followed step: no relayout of the window
        layout.addWidget(self.caption)
        self.model = LensModel()
        self.grid = QTableView()
        self.grid.setObjectName(LENS_GRID)
        self.grid.setModel(self.model)
        self.grid.setItemDelegate(HeatDelegate(self.grid))
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setWordWrap(False)
        self.grid.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.grid.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.grid.horizontalHeader().setDefaultSectionSize(self.fontMetrics().horizontalAdvance("0") * 9)
        self.grid.horizontalHeader().setMinimumSectionSize(24)
        self.grid.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.grid.setShowGrid(False)
        self.layer_model = LayerDistributionModel()
        self.layer_table = distribution_table(self.layer_model)
        self.layer_caption = QLabel()
        self.layer_caption.setWordWrap(True)
        self.chart = NormChart()
        layer_page = QWidget()
        layer_layout = QVBoxLayout(layer_page)
        layer_layout.setContentsMargins(0, 0, 0, 0)
        layer_layout.addWidget(self.layer_caption)
        layer_layout.addWidget(self.layer_table, 1)
        self.side = QTabWidget()   # a short dock (720 px screens) cannot stack both legibly
        self.side.setDocumentMode(True)
        self.side.addTab(layer_page, self.tr("Selected layer"))
        self.side.addTab(self.chart, self.tr("Norms"))
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.grid)
        self.splitter.addWidget(self.side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([600, 400])  # the grid first: the side is a detail
        self.side.setMinimumWidth(120)
        layout.addWidget(self.splitter, 1)
        self.grid.doubleClicked.connect(lambda _index: self.side.setCurrentWidget(layer_page))
        self.vocab: Sequence[bytes] = ()
        self.shown_key: object = None
        self.row = -1
        self.grid.selectionModel().currentChanged.connect(lambda current, _previous: self.select_layer(current.row()))
        self.grid.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.grid.customContextMenuRequested.connect(self._context_menu)

    @property
    def grid_in_tabs(self) -> bool:
        return self.side.indexOf(self.grid) >= 0

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        narrow = event.size().width() < self.fontMetrics().horizontalAdvance("0") * SIDE_BY_SIDE_DIGITS
        if narrow and not self.grid_in_tabs:
            self.side.insertTab(0, self.grid, self.tr("Lens"))
            self.side.setTabToolTip(0, self.tr("The top tokens after each layer; double-click a layer for its "
                                               "distribution"))
            self.side.setCurrentIndex(0)
        elif not narrow and self.grid_in_tabs:
            self.side.removeTab(self.side.indexOf(self.grid))
            self.splitter.insertWidget(0, self.grid)
            self.grid.show()
            self.splitter.setSizes([600, 400])

    def _context_menu(self, pos: QPoint) -> None:
        """Right-click a layer's row: knock out its attention or its FFN (the Causal tracing dialog)."""
        lens = self.lens
        row = self.grid.indexAt(pos).row()
        if lens is None or not 1 <= row < len(lens.layer_names):   # row 0 is the embeddings: no block
            return
        layer = lens.layer_names[row]
        menu = QMenu(self.grid)
        menu.addAction(self.tr("Knock out the attention of layer {0}").format(layer),
                       lambda: self.knockoutRequested.emit(f"{layer}.attn"))
        menu.addAction(self.tr("Knock out the FFN of layer {0}").format(layer),
                       lambda: self.knockoutRequested.emit(f"{layer}.ffn"))
        menu.exec(self.grid.viewport().mapToGlobal(pos))

    @property
    def lens(self) -> LayerLens | None:
        return self.model.lens

    def show_inspection(self, found: Inspected) -> None:
        lens = found.inspection.lens
        self.shown_key = found.step.key
        self.model.set_lens(lens, self.vocab)
        if lens is None:
            return
        self.caption.setText(self.tr("Step {0}: chose {1} (outlined) — top tokens after each layer").format(
            found.step.step_index, self.model.chosen_label))
        self.caption.setToolTip(self.tr("The logit lens: the residual stream after each layer, read through the "
                                        "model's final norm and output head, as if the model stopped there."))
        self.chart.set_lens(lens)
        for column in (CHOSEN, ENTROPY):
            self.grid.resizeColumnToContents(column)
        rows = len(lens.layer_names)
        keep = self.row if 0 <= self.row < rows else rows - 1
        self.row = -1
        self.grid.setCurrentIndex(self.model.index(keep, FIRST_TOKEN))

    def select_layer(self, row: int) -> None:
        """Show this lens row's distribution beside the grid (clicking a cell, or up/down in the grid)."""
        lens = self.lens
        if lens is None or not 0 <= row < len(lens.layer_names) or row == self.row:
            return
        self.row = row
        final = dict(zip(lens.top_ids[-1].tolist(), lens.top_probs[-1].tolist(), strict=True))
        rows = [Candidate(self.model.labels[row][k], float(p), float(final.get(int(t), float("nan"))), int(t) == lens.chosen)
                for k, (t, p) in enumerate(zip(lens.top_ids[row], lens.top_probs[row], strict=True))]
        self.layer_model.set_rows(rows, None, None, False)
        self.layer_caption.setText(self.tr("{0}: entropy {1:.2f} nats, residual norm {2:.1f}").format(
            self.model.layer_name(row), float(lens.entropy[row]), float(lens.resid_norm[row])))
        self.chart.mark(row)
        self.layerSelected.emit(row)

