"""The KV cache map (inside "Memory and context"): the generation context's cells as a wrapped strip coloured
by what they hold (system prompt, user turns, assistant turns, template tokens, the current answer), the
cells the last request reused hatched, and what they cost.

The engine is asked once after each answer, and only while the map is on screen (a hidden map asks when it
is shown again): the map never costs the token path anything.
"""

from __future__ import annotations

from math import ceil

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from logitscope.engine.forward_api import KvCell, KvMap
from logitscope.engine.memory import format_bytes
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.cell_tooltip import cell_tooltip

SEGMENT_COLORS = {"system": "#8e6cc8", "user": "#3d7fc4", "assistant": "#2e9a6a", "template": "#9a9fa8",
                  "answer": "#e0892b"}
MIN_CELL_PX = 4      # the narrowest a cell is drawn; a context too long for that shares a pixel column
ROW_PX, GAP_PX = 6, 2
MAX_ROWS = 16        # past this, rows hold more cells instead of growing the dock
SWATCH_PX = 12
LEGEND_COLUMNS = 2


class KvStrip(QWidget):
    """n_ctx cells, row after row, left to right; free cells in the background colour."""

    painted = Signal()  # it is on screen: a tab raised, a dock shown, scrolled into view

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.n_ctx = 0
        self.runs: list[KvCell] = []
        self.setMinimumHeight(ROW_PX)

    def set_cells(self, n_ctx: int, runs: list[KvCell]) -> None:
        self.n_ctx, self.runs = n_ctx, runs
        self.updateGeometry()
        self.update()

    def free_cells(self) -> int:
        return self.n_ctx - sum(run.count for run in self.runs)

    def reused_cells(self) -> int:
        return sum(run.count for run in self.runs if run.reused)

    # -- geometry: cell i sits in row i // per_row --------------------------------------------------------
    def _per_row(self, width: int) -> int:
        if self.n_ctx <= 0:
            return 1
        rows = min(MAX_ROWS, max(1, ceil(self.n_ctx * MIN_CELL_PX / max(width, 1))))
        return ceil(self.n_ctx / rows)

    def _rows(self, width: int) -> int:
        return ceil(self.n_ctx / self._per_row(width)) if self.n_ctx else 1

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self._rows(width) * (ROW_PX + GAP_PX)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(400, self.heightForWidth(400))

    def _rects(self, start: int, count: int) -> list[QRectF]:
        """The rectangles cells [start, start + count) cover, one per row they touch."""
        per_row = self._per_row(self.width())
        cell_w = self.width() / per_row
        rects = []
        position, end = start, start + count
        while position < end:
            row, column = divmod(position, per_row)
            take = min(end - position, per_row - column)
            rects.append(QRectF(column * cell_w, row * (ROW_PX + GAP_PX), take * cell_w, ROW_PX))
            position += take
        return rects

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        palette = self.palette()
        for rect in self._rects(0, self.n_ctx):
            painter.fillRect(rect, palette.color(palette.ColorRole.AlternateBase))
        hatch = QBrush(QColor(255, 255, 255, 170), Qt.BrushStyle.BDiagPattern)
        for run in self.runs:
            for rect in self._rects(run.start, run.count):
                painter.fillRect(rect, QColor(SEGMENT_COLORS.get(run.segment, SEGMENT_COLORS["template"])))
                if run.reused:
                    painter.fillRect(rect, hatch)
        painter.end()
        self.painted.emit()

    # -- what a cell holds, on hover ----------------------------------------------------------------------
    def cell_at(self, point: QPoint) -> int | None:
        per_row = self._per_row(self.width())
        row = int(point.y() // (ROW_PX + GAP_PX))
        cell = row * per_row + int(point.x() * per_row / max(self.width(), 1))
        return cell if 0 <= cell < self.n_ctx and point.x() >= 0 else None

    def tooltip_at(self, cell: int) -> str:
        run = next((r for r in self.runs if r.start <= cell < r.start + r.count), None)
        if run is None:
            return self.tr("cell {0}: free").format(cell)
        text = self.tr("cells {0}–{1}: {2}").format(run.start, run.start + run.count - 1, segment_name(run.segment))
        return text + (self.tr(", reused from the previous request") if run.reused else self.tr(", evaluated"))

    def event(self, event: QEvent) -> bool:
        return cell_tooltip(self, event, self.cell_at, self.tooltip_at) or super().event(event)


def segment_name(segment: str) -> str:
    names = {"system": QCoreApplication.translate("KvMapPanel", "system prompt"),
             "user": QCoreApplication.translate("KvMapPanel", "user turns"),
             "assistant": QCoreApplication.translate("KvMapPanel", "assistant turns"),
             "template": QCoreApplication.translate("KvMapPanel", "template tokens"),
             "answer": QCoreApplication.translate("KvMapPanel", "current answer")}
    return names.get(segment, segment)


def _swatch(color: str, hatched: bool = False) -> QPixmap:
    pixmap = QPixmap(SWATCH_PX, SWATCH_PX)
    pixmap.fill(QColor(color))
    if hatched:
        painter = QPainter(pixmap)
        painter.fillRect(pixmap.rect(), QBrush(QColor(255, 255, 255, 170), Qt.BrushStyle.BDiagPattern))
        painter.end()
    return pixmap


def _legend_entry(color: str, text: str, hatched: bool) -> QWidget:
    entry = QWidget()
    row = QHBoxLayout(entry)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(4)
    swatch = QLabel()
    swatch.setPixmap(_swatch(color, hatched))
    row.addWidget(swatch)
    row.addWidget(QLabel(text), 1)
    return entry


class KvMapPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kv: KvMap | None = None
        self.available = True
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        self.title = QLabel(self.tr("<b>KV cache map</b> (after the last answer)"))
        layout.addWidget(self.title)
        self.strip = KvStrip()
        layout.addWidget(self.strip)
        legend = QGridLayout()  # two columns: a legend in one row would widen the dock past the window
        legend.setHorizontalSpacing(12)
        entries = [(color, segment_name(segment), False) for segment, color in SEGMENT_COLORS.items()]
        entries.append((SEGMENT_COLORS["template"], self.tr("reused (not evaluated again)"), True))
        for i, (color, text, hatched) in enumerate(entries):
            legend.addWidget(_legend_entry(color, text, hatched), i // LEGEND_COLUMNS, i % LEGEND_COLUMNS)
        legend.setColumnStretch(LEGEND_COLUMNS, 1)
        layout.addLayout(legend)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.clear(0)

    def clear(self, n_ctx: int) -> None:
        """A fresh context (a model was loaded): every cell free, nothing to tell yet."""
        self.kv = None
        self.strip.set_cells(n_ctx, [])
        if self.available:
            self.summary.setText(self.tr("Shown after the next answer.") if n_ctx else self.tr("No model loaded."))

    def set_capabilities(self, caps: dict[str, object]) -> None:
        self.available = bool(caps.get("kv_map", False))
        if not self.available:
            self.kv = None
            self.strip.set_cells(0, [])
            self.summary.setText(self.tr("This engine cannot show its KV cache map (a remote server does not "
                                         "report its cells)."))
        elif self.kv is None:
            self.clear(self.strip.n_ctx)

    def set_map(self, kv: KvMap) -> None:
        self.kv = kv
        self.strip.set_cells(kv.n_ctx, kv.runs)
        in_use = sum(run.count for run in kv.runs)
        layers = kv.bytes_per_cell_by_layer
        per_layer = (self.tr("{0} in each of {1} layers").format(format_bytes(layers[0]), len(layers))
                     if layers and len(set(layers)) == 1
                     else self.tr("by layer: {0}").format(", ".join(format_bytes(b) for b in layers)))
        self.summary.setText(
            self.tr("{0} tokens reused, {1} evaluated, {2} freed on the last request.").format(
                kv.n_reused, kv.n_evaluated, kv.n_freed) + "\n" +
            self.tr("{0} per cell ({1}); {2} cells in use = {3} of {4} allocated.").format(
                format_bytes(kv.bytes_per_cell), per_layer, in_use, format_bytes(in_use * kv.bytes_per_cell),
                format_bytes(kv.n_ctx * kv.bytes_per_cell)) + self._beams_text(kv))

    def _beams_text(self, kv: KvMap) -> str:
        """After a beam search: its own context's cells, those several beams hold (llama_memory_seq_cp shares a
        parent's cells with its children) and those one beam holds."""
        if not kv.beam_cells:
            return ""
        shared = sum(run.count for run in kv.beam_cells if len(run.seqs) > 1)
        alone = sum(run.count for run in kv.beam_cells if len(run.seqs) == 1)
        held = sum(run.count * len(run.seqs) for run in kv.beam_cells)
        return "\n" + self.tr("Last beam search ({0} cells of its own context): {1} cells shared by several beams, "
                              "{2} held by one; {3} without sharing.").format(kv.beam_n_ctx, shared, alone, held)

    def show_failure(self, message: str) -> None:
        self.summary.setText(self.tr("The KV cache map could not be read: {0}").format(message))

    def on_screen(self) -> bool:
        """Visible to the user: a dock tabbed behind another counts as visible to Qt, but shows nothing."""
        return self.isVisible() and not self.visibleRegion().isEmpty()


class KvMapFeed(QObject):
    """Asks the local engine for the map after each answer, only while the panel is on screen."""

    def __init__(self, bridge: EngineBridge, panel: KvMapPanel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge, self.panel = bridge, panel
        self.stale = False
        bridge.generationFinished.connect(self._on_answer)
        panel.strip.painted.connect(self.refresh)  # a stale map is fetched when it comes on screen

    def _on_answer(self, _result: object) -> None:
        self.stale = True
        self.refresh()

    def refresh(self) -> None:
        panel = self.panel
        if not (self.stale and panel.available and panel.on_screen()):
            return
        self.stale = False
        local = self.bridge.local  # "kv_map" is a local engine's capability only
        self.bridge.call(lambda _client: local.kv_map(), done=panel.set_map, failed=panel.show_failure)
