"""The Compare view's parts: the two texts side by side (the token where they part marked, every token a link to
its step), the per-step KL plot, the two distributions at a step, and the logit lens of both runs at a step."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, QUrl, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from logitscope.protocol.steering_compare import SteeringCompare
from logitscope.protocol.trace import StepRecord
from logitscope.ui.common.tokens import id_label, percent, rank_text, token_label
from logitscope.ui.inspector.plots import cache_axes
from logitscope.ui.steering.compare_run import STEERED, UNSTEERED, StepLens

PARTED_BACKGROUND, PARTED_FOREGROUND = "#ffe9a8", "#1f1f1f"     # light in the dark theme too: dark text on it
SELECTED_BACKGROUND, SELECTED_FOREGROUND = "#bcd8ff", "#1f1f1f"
STEERED_ROWS = QColor(255, 200, 90, 60)                           # the lens rows the vector is added to
KL_BRUSH, PARTED_PEN, SELECTED_PEN = (90, 140, 220), (200, 60, 60), (60, 60, 60)
STEP_LINK = "step:"


def step_of(url: QUrl) -> int | None:
    text = url.toString()
    return int(text[len(STEP_LINK):]) if text.startswith(STEP_LINK) and text[len(STEP_LINK):].isdigit() else None


class TextPane(QWidget):
    """One run's answer, a token a link (`stepClicked`)."""

    stepClicked = Signal(int)

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(title)
        self.title.setWordWrap(True)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._clicked)
        layout.addWidget(self.title)
        layout.addWidget(self.browser, 1)
        self._shown: tuple[Sequence[StepRecord], int | None, int | None] | None = None

    def show_steps(self, steps: Sequence[StepRecord], parted: int | None, selected: int | None) -> None:
        """The tokens as links; the selected one on blue, the parting one bold on yellow (bold on blue when it is
        also the selected one). Links take the theme's text colour, not the link colour."""
        self._shown = (steps, parted, selected)
        color = self.palette().color(QPalette.ColorRole.Text).name()
        html = []
        for i, step in enumerate(steps):
            # a step inside a character adds no text (the next one adds the character): it shows its bytes only
            # when it is marked, and is otherwise an empty link
            shown = step.text or (token_label(step.piece) if i in (selected, parted) else "")
            text = escape(shown).replace("\n", "↵<br>")
            style = f"text-decoration:none; color:{color};"
            if i == selected:
                style += f"background:{SELECTED_BACKGROUND}; color:{SELECTED_FOREGROUND};"
            elif i == parted:
                style += f"background:{PARTED_BACKGROUND}; color:{PARTED_FOREGROUND};"
            if i == parted:
                style += "font-weight:bold;"
            html.append(f"<a href='{STEP_LINK}{i}' style='{style}'>{text}</a>")
        self.browser.setHtml("<div style='white-space:pre-wrap'>" + "".join(html) + "</div>")

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self._shown is not None:
            self.show_steps(*self._shown)   # another theme: the text colour is written into the HTML

    def _clicked(self, url: QUrl) -> None:
        step = step_of(url)
        if step is not None:
            self.stepClicked.emit(step)


class KlPlot(pg.PlotWidget):
    """KL(A || B) per step of the steered text, the parting step and the selected one marked."""

    stepClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, enableMenu=False)   # no context menus: not even built (~8 ms a plot)
        plot = self.getPlotItem()
        plot.showGrid(x=False, y=True, alpha=0.15)
        plot.setLabel("left", self.tr("KL (nats)"))
        plot.setLabel("bottom", self.tr("step of the steered answer"))
        plot.setMouseEnabled(x=False, y=False)
        for side in ("left", "bottom"):   # no "(x0.001)" after the labels (it clipped "KL (nats)")
            plot.getAxis(side).enableAutoSIPrefix(False)
        # the ranges are set with the data; before any (a comparison running) an empty chart, not -400..400
        plot.disableAutoRange()
        plot.setXRange(-0.5, 0.5, padding=0)
        plot.setYRange(0, 0.1, padding=0)
        cache_axes(plot)
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.8, brush=pg.mkBrush(*KL_BRUSH), pen=None)
        plot.addItem(self.bars)
        self.parted = pg.InfiniteLine(angle=90, pen=pg.mkPen(PARTED_PEN, width=1, style=Qt.PenStyle.DashLine))
        self.selected = pg.InfiniteLine(angle=90, pen=pg.mkPen(SELECTED_PEN, width=1))
        for line in (self.parted, self.selected):
            line.setVisible(False)
            plot.addItem(line)
        self.n_steps = 0
        self.scene().sigMouseClicked.connect(self._clicked)

    def show_kl(self, kl: np.ndarray, parted: int | None) -> None:
        self.n_steps = len(kl)
        self.bars.setOpts(x=np.arange(len(kl)), height=kl)
        self.getPlotItem().setXRange(-0.5, max(len(kl), 1) - 0.5, padding=0.01)
        self.getPlotItem().setYRange(0, max(float(kl.max(initial=0.0)), 0.1), padding=0.05)
        self.parted.setVisible(parted is not None and parted < len(kl))
        if parted is not None:
            self.parted.setPos(parted)

    def mark(self, step: int | None) -> None:
        self.selected.setVisible(step is not None)
        if step is not None:
            self.selected.setPos(step)

    def _clicked(self, event) -> None:  # noqa: ANN001 - pyqtgraph's event
        plot = self.getPlotItem()
        if not self.n_steps or not plot.sceneBoundingRect().contains(event.scenePos()):
            return
        x = plot.vb.mapSceneToView(event.scenePos()).x()
        step = int(round(x))
        if 0 <= step < self.n_steps:
            self.stepClicked.emit(step)


class DistributionTable(QTableWidget):
    """One side's most likely next tokens at a step (before any sampler stage), the runs' choices in bold."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 3, parent)
        self.setHorizontalHeaderLabels([self.tr("Rank"), self.tr("Token"), self.tr("p")])
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()   # the token takes the room (it was cut, "‹|im_en…", beside a wide p)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.setColumnWidth(0, 48)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)

    def show_top(self, ids: np.ndarray, logprobs: np.ndarray, vocab: Sequence[bytes], chosen: set[int]) -> None:
        self.setRowCount(len(ids))
        for row, (token, lp) in enumerate(zip(ids.tolist(), logprobs.tolist(), strict=True)):
            cells = [rank_text(row), id_label(int(token), vocab), percent(float(np.exp(lp)))]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if token in chosen:
                    font = QFont(item.font())
                    font.setBold(True)
                    item.setFont(font)
                self.setItem(row, col, item)


class DistributionPair(QWidget):
    """A's and B's distributions at the selected step, side by side."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        layout.addWidget(self.caption)
        row = QHBoxLayout()
        self.a, self.b = DistributionTable(), DistributionTable()
        for title, table in ((self.tr("Unsteered (A)"), self.a), (self.tr("Steered (B)"), self.b)):
            column = QVBoxLayout()
            column.addWidget(QLabel(f"<b>{escape(title)}</b>"))
            column.addWidget(table)
            row.addLayout(column)
        layout.addLayout(row, 1)

    def show_step(self, compare: SteeringCompare, step: int, vocab: Sequence[bytes], chosen: set[int],
                  caption: str) -> None:
        self.caption.setText(caption)
        self.a.show_top(compare.top_ids_a[step], compare.top_logprobs_a[step], vocab, chosen)
        self.b.show_top(compare.top_ids_b[step], compare.top_logprobs_b[step], vocab, chosen)

    def clear(self) -> None:
        self.caption.setText("")
        self.a.setRowCount(0)
        self.b.setRowCount(0)


class LensPlot(pg.PlotWidget):
    """The same ranks as the table, drawn: rank (1 = top, log scale) per lens row, a solid line steered and a
    dashed one unsteered for each followed token; the steered layers shaded."""

    COLORS = ((60, 130, 220), (220, 120, 40))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, enableMenu=False)
        plot = self.getPlotItem()
        plot.setMouseEnabled(x=False, y=False)
        plot.showGrid(x=True, y=True, alpha=0.15)
        plot.setLogMode(x=False, y=True)
        plot.invertY(True)   # rank 1 at the top
        plot.setLabel("left", self.tr("rank"))
        plot.setLabel("bottom", self.tr("layer (0 = the embedding)"))
        cache_axes(plot)
        self.region = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(255, 200, 90, 50), pen=pg.mkPen(None))
        self.region.setVisible(False)
        plot.addItem(self.region)
        self.curves: list[pg.PlotDataItem] = []

    def key(self, tokens: Sequence[int], vocab: Sequence[bytes]) -> str:
        """The curves' key, as rich text (a legend inside the plot would hide the lines it names)."""
        names = [f"<span style='color:rgb{self.COLORS[i % len(self.COLORS)]}'><b>{escape(id_label(t, vocab))}</b></span>"
                 for i, t in enumerate(tokens)]
        return self.tr("{0}: solid steered, dashed unsteered.").format(", ".join(names))

    def show_lens(self, found: StepLens, vocab: Sequence[bytes], steered_layers: tuple[int, int] | None) -> None:
        plot = self.getPlotItem()
        for curve in self.curves:
            plot.removeItem(curve)
        self.curves = []
        tokens = list(dict.fromkeys(token for _side, token in found.lenses))
        for index, token in enumerate(tokens):
            color = self.COLORS[index % len(self.COLORS)]
            for side, style in ((UNSTEERED, Qt.PenStyle.DashLine), (STEERED, Qt.PenStyle.SolidLine)):
                lens = found.lenses.get((side, token))
                if lens is None:
                    continue
                ranks = lens.chosen_rank.astype(np.float64) + 1.0
                curve = plot.plot(np.arange(len(ranks)), ranks, pen=pg.mkPen(color, width=2, style=style))
                self.curves.append(curve)
        # lens row r is the output of block r - 1 (row 0: the embedding)
        self.region.setVisible(steered_layers is not None)
        if steered_layers is not None:
            self.region.setRegion((steered_layers[0] + 1 - 0.5, steered_layers[1] + 1 + 0.5))


class LensTable(QTableWidget):
    """The logit lens of both runs at a step: per layer, the rank of each followed token unsteered and steered
    (the rows the control vector is added to tinted)."""

    def show_lens(self, found: StepLens, vocab: Sequence[bytes], steered_layers: tuple[int, int] | None) -> None:
        tokens = list(dict.fromkeys(token for _side, token in found.lenses))
        columns = [(side, token) for token in tokens for side in (UNSTEERED, STEERED)]
        any_lens = next(iter(found.lenses.values()), None)
        names = any_lens.layer_names if any_lens is not None else []
        self.clear()
        self.setColumnCount(len(columns))
        self.setRowCount(len(names))
        side_names = {UNSTEERED: self.tr("unsteered"), STEERED: self.tr("steered")}
        # the token over the run, on two lines: four columns fit beside the plot at 1280x720 (one was off-screen)
        self.setHorizontalHeaderLabels([f"{id_label(token, vocab)}\n{side_names[side]}" for side, token in columns])
        self.setVerticalHeaderLabels([self.tr("after {0}").format(n) if n != "embd" else self.tr("embedding")
                                      for n in names])
        self.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        for col, key in enumerate(columns):
            lens = found.lenses.get(key)
            for row in range(len(names)):
                item = QTableWidgetItem("" if lens is None else
                                        f"{rank_text(int(lens.chosen_rank[row]))} · {percent(float(lens.chosen_prob[row]))}")
                if steered_layers is not None and names[row].isdigit() and key[0] == STEERED \
                        and steered_layers[0] <= int(names[row]) <= steered_layers[1]:
                    item.setBackground(QBrush(STEERED_ROWS))
                self.setItem(row, col, item)
        self.resizeColumnsToContents()
