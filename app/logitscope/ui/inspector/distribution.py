"""Next-token distribution: a ranked list of the best candidates, raw and final probability as inline bars.

A table rather than a bar chart: token labels never overlap, rows stay legible in a short dock, and an
update only resets one small model (cheap while tokens stream).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from logitscope.ui.common.messages import translate_message
from logitscope.ui.common.tokens import candidate_key, candidate_piece, percent, rank_text, token_label
from logitscope.ui.inspector.state import StepView
from logitscope.ui.inspector.steady_caption import SteadyCaption

SHOWN = 30  # rows of candidates; a tall dock shows them all, a short one scrolls
RANK, TOKEN, RAW, FINAL = range(4)
RAW_COLOR = QColor(150, 150, 160, 150)
FINAL_COLOR = QColor(60, 130, 220, 190)
CHOSEN_COLOR = QColor(235, 140, 30, 220)
TOP_P_COLOR = QColor(200, 60, 60)
MIN_P_COLOR = QColor(140, 80, 220)
CELL_PADDING = 4  # px of text from a cell's edges, as the style leaves
MASKED_COLOR = QColor(150, 150, 150)     # a token's text when the grammar masked it out
GRAMMAR_MARK, XTC_MARK = "⊘", "✂"        # before a token the grammar masked / XTC removed
BarIndex = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Candidate:
    label: str
    raw: float
    final: float
    chosen: bool
    removed_by: str = ""     # "grammar": masked out by the grammar; "xtc": one of the top choices XTC removed


class DistributionModel(QAbstractTableModel):
    """The shown candidates, best raw first, and where the top-p and min-p cuts fall among them."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Candidate] = []
        self.top_p_kept: int | None = None     # rows above the top-p cut; None: no cut among the rows
        self.min_p_at: float | None = None     # the raw probability min-p keeps from; None: min-p off
        self.preview = False
        self.headers = (self.tr("#"), self.tr("token"), self.tr("raw p"), self.tr("final p"))

    def set_rows(self, rows: list[Candidate], top_p_kept: int | None, min_p_at: float | None, preview: bool) -> None:
        if len(rows) != len(self.rows):
            self.beginResetModel()
            self.rows, self.top_p_kept, self.min_p_at, self.preview = rows, top_p_kept, min_p_at, preview
            self.endResetModel()
            return
        # the same number of rows (every step of an answer): new contents only, so the view repaints them
        # without laying itself out again (a reset measures every cell: costly ten times a second)
        self.rows, self.top_p_kept, self.min_p_at, self.preview = rows, top_p_kept, min_p_at, preview
        if rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(rows) - 1, len(self.headers) - 1))

    def rowCount(self, parent: BarIndex = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: BarIndex = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.headers[section]
        return None

    def cell_text(self, r: int, column: int) -> str:
        row = self.rows[r]
        if column == RANK:
            return rank_text(r)
        if column == TOKEN:
            mark = {"grammar": f"{GRAMMAR_MARK} ", "xtc": f"{XTC_MARK} "}.get(row.removed_by, "")
            return f"▶ {row.label}" if row.chosen and not self.preview else mark + row.label
        return percent(row.raw if column == RAW else row.final)

    def data(self, index: BarIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell_text(index.row(), index.column())
        # the rest of what a cell shows (bars, bold, colours, alignment) DistributionTable paints from `rows`
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = self.tr("raw p {0} — after the sampler {1}").format(percent(row.raw), percent(row.final))
            if row.removed_by == "grammar":
                tip += "\n" + self.tr("The model wanted this token, but the grammar does not allow it here")
            elif row.removed_by == "xtc":
                tip += "\n" + self.tr("XTC removed this top choice at this step")
            return tip
        return None


class DistributionTable(QTableView):
    """A ranked list of candidates with probability bars, painted in one pass: the probability as a bar behind
    its number, the top-p cut and the min-p threshold. A delegate painting cell by cell cost ~45 µs of Python
    and bindings a cell (56 cells a refresh, three refreshes a second while an answer streams); one pass over
    the visible rows, with the fonts and column edges looked up once, costs a fraction of that."""

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        model = self.model()
        assert isinstance(model, DistributionModel)
        if not model.rows:
            return
        painter = QPainter(self.viewport())
        try:
            self._paint_rows(painter, model, event.rect())
        finally:
            painter.end()

    def _paint_rows(self, painter: QPainter, model: DistributionModel, area: QRect) -> None:
        first = max(0, self.rowAt(area.top()))
        last = self.rowAt(area.bottom())
        last = len(model.rows) - 1 if last < 0 else last
        height = self.verticalHeader().defaultSectionSize()
        columns = [(column, self.columnViewportPosition(column), self.columnWidth(column))
                   for column in range(len(model.headers))]
        font = self.font()
        bold = QFont(font)
        bold.setBold(True)
        text_color = self.palette().color(QPalette.ColorRole.Text)
        for r in range(first, last + 1):
            y = self.rowViewportPosition(r)
            row = model.rows[r]
            strong = row.chosen and not model.preview
            for column, x, width in columns:
                rect = QRect(x, y, width, height)
                _paint_bar(painter, model, row, r, column, rect)
                painter.setFont(bold if strong else font)
                masked = column == TOKEN and row.removed_by == "grammar"
                painter.setPen(MASKED_COLOR if masked else text_color)
                _paint_text(painter, model.cell_text(r, column), column, rect)
                if model.top_p_kept is not None and r == model.top_p_kept - 1:
                    painter.save()
                    painter.setPen(QPen(TOP_P_COLOR, 2, Qt.PenStyle.DashLine))
                    painter.drawLine(rect.left(), rect.bottom(), rect.right(), rect.bottom())
                    painter.restore()


def _paint_bar(painter: QPainter, model: DistributionModel, row: Candidate, r: int, column: int, rect: QRect) -> None:
    value = row.raw if column == RAW else row.final if column == FINAL else None
    if value is None or value != value:  # NaN: a server did not say
        return
    color = CHOSEN_COLOR if (row.chosen and not model.preview and column == FINAL) else (
        FINAL_COLOR if column == FINAL else RAW_COLOR)
    bar = rect.adjusted(1, 3, -1, -3)
    bar.setWidth(max(1, round(bar.width() * min(max(value, 0.0), 1.0))))
    painter.fillRect(bar, color)
    if column == RAW and model.min_p_at is not None:
        x = rect.left() + 1 + round((rect.width() - 2) * min(model.min_p_at, 1.0))
        painter.save()
        painter.setPen(QPen(MIN_P_COLOR, 2, Qt.PenStyle.DotLine))
        painter.drawLine(x, rect.top(), x, rect.bottom())
        painter.restore()


def _paint_text(painter: QPainter, text: str, column: int, rect: QRect) -> None:
    area = rect.adjusted(CELL_PADDING, 0, -CELL_PADDING, 0)
    if column == TOKEN:
        text = painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, area.width())
        painter.drawText(area, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
    else:
        painter.drawText(area, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)


def distribution_table(model: DistributionModel) -> QTableView:
    """A ranked list of candidates with probability bars (this panel's, and a lens layer's in Layers)."""
    table = DistributionTable()
    table.setModel(model)
    table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a display: no focus frame on a cell
    table.setShowGrid(False)
    table.setWordWrap(False)
    rows = table.verticalHeader()
    rows.hide()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(table.fontMetrics().height() + 6)
    columns = table.horizontalHeader()
    columns.setSectionResizeMode(RANK, QHeaderView.ResizeMode.Fixed)  # measured once, not at every update
    columns.resizeSection(RANK, table.fontMetrics().horizontalAdvance(rank_text(SHOWN - 1)) + 16)
    columns.setSectionResizeMode(TOKEN, QHeaderView.ResizeMode.Stretch)
    for column in (RAW, FINAL):
        columns.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        columns.resizeSection(column, table.fontMetrics().horizontalAdvance("100.0%") + 48)
    return table


class DistributionPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.caption = SteadyCaption(self.tr("No step selected yet: send a message."))
        layout.addWidget(self.caption)
        self.model = DistributionModel()
        self.table = distribution_table(self.model)
        layout.addWidget(self.table, 1)
        self.legend_base = self.tr("▶ chosen token · <span style='color:{0}'>‒ ‒</span> top-p cut · "
                                   "<span style='color:{1}'>┆</span> min-p threshold (on raw p)").format(
            TOP_P_COLOR.name(), MIN_P_COLOR.name())
        self.legend = QLabel(self.legend_base)
        self.legend.setToolTip(self.tr("{0}: the grammar masked out a token the model wanted; {1}: XTC removed one of "
                                       "the top choices").format(GRAMMAR_MARK, XTC_MARK))
        self.legend.setObjectName("distributionLegend")
        self.legend.setWordWrap(True)
        layout.addWidget(self.legend)
        self.vocab: Sequence[bytes] = ()
        self.view: StepView | None = None

    def visible_rows(self) -> int:
        """How many candidate rows fit in the list as it is laid out now."""
        return self.table.viewport().height() // self.table.verticalHeader().defaultSectionSize()

    def show_step(self, view: StepView | None) -> None:
        self.view = view
        if view is None:
            return
        step = view.step
        n = min(SHOWN, len(step.raw_ids))
        raw = step.raw_probs[:n]  # NaN where a server did not say: shown as "—", no bar
        final_ids, final_probs = view.final
        if view.is_preview:
            final_of = dict(zip(final_ids.tolist(), final_probs.tolist(), strict=True))
        else:
            final_of = {candidate_key(step, "final", i): float(p) for i, p in enumerate(final_probs)}
        removed = self._removed(view)
        rows = []
        for i in range(n):
            key = candidate_key(step, "raw", i)
            rows.append(Candidate(token_label(candidate_piece(step, "raw", i, self.vocab)), float(raw[i]),
                                  float(final_of.get(key, 0.0)), key == step.token or key == step.piece,
                                  removed.get(key, "") if isinstance(key, int) else ""))
        self.model.set_rows(rows, self._top_p_kept(view, n), self._min_p_at(view), view.is_preview)
        self._show_legend({row.removed_by for row in rows} - {""})
        self._caption(view)

    @staticmethod
    def _removed(view: StepView) -> dict[int, str]:
        """Token id -> the stage that took it out although the model wanted it: the grammar's mask, XTC's cut."""
        out: dict[int, str] = {}
        for stage in view.stages:
            if stage.name in ("grammar", "xtc"):
                out.update(dict.fromkeys(stage.removed_ids.tolist(), stage.name))
        return out

    def _show_legend(self, marks: set[str]) -> None:
        text = self.legend_base
        if "grammar" in marks:
            text += self.tr(" · {0} masked by the grammar").format(GRAMMAR_MARK)
        if "xtc" in marks:
            text += self.tr(" · {0} removed by XTC").format(XTC_MARK)
        if text != self.legend.text():
            self.legend.setText(text)

    @staticmethod
    def _top_p_kept(view: StepView, shown: int) -> int | None:
        names = [s.name for s in view.stages]
        top_p = view.number("top_p", 1.0)
        if "top_p" not in names or top_p >= 1.0:
            return None
        kept = view.stages[names.index("top_p")].n_out
        return kept if 0 < kept < shown else None

    @staticmethod
    def _min_p_at(view: StepView) -> float | None:
        # min-p keeps tokens with p >= min_p x p_max, measured on the distribution it receives; drawn on
        # the raw bars for reference
        min_p = view.number("min_p", 0.0)
        p_max = float(view.step.raw_probs[0]) if len(view.step.raw_probs) else float("nan")
        return min_p * p_max if min_p > 0 and p_max == p_max else None

    def _caption(self, view: StepView) -> None:
        step = view.step
        chosen = token_label(step.piece)
        if view.is_preview:
            text = self.tr("Step {0} — preview with the current sliders (the model is not run). "
                           "Recorded choice: {1}").format(step.i, chosen)
            if view.replay is not None and view.replay.tail_mass > 0.001:
                text += self.tr(" — {0:.1%} of the raw mass lies outside the stored head").format(view.replay.tail_mass)
            if view.preview_error is not None:
                text += self.tr(" — cannot preview these settings: {0}").format(translate_message(view.preview_error))
            for message in view.not_replayed:
                text += self.tr(" — not replayed: {0}").format(translate_message(message))
        else:
            text = self.tr("Step {0}: chose {1} — raw p {2} (rank {3}), final p {4} (rank {5}), "
                           "entropy {6} nats").format(step.i, chosen, percent(step.p_raw), rank_text(step.rank_raw),
                                                      percent(step.p), rank_text(step.rank), _nats(step.entropy_raw))
        self.caption.setText(text)


def _nats(value: float) -> str:
    return "—" if value != value else f"{value:.2f}"
