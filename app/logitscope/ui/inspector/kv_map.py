"""The KV cache map (inside "Memory and context"): the generation context's cells as a wrapped strip coloured
by what they hold (system prompt, user turns, assistant turns, template tokens, the current answer), the
cells the last request reused hatched, and what they cost.

The engine is asked once after each answer, and only while the map is on screen (a hidden map asks when it
is shown again): the map never costs the token path anything.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from logitscope.gguf.memory import format_bytes
from logitscope.protocol.kv_map import KvCell, KvMap
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.inspector.beam_cells import BeamCellsMap
from logitscope.ui.inspector.cell_strip import HATCH_COLOR, CellStrip, legend_entry

SEGMENT_COLORS = {"system": "#8e6cc8", "user": "#3d7fc4", "assistant": "#2e9a6a", "template": "#9a9fa8",
                  "answer": "#e0892b"}
LEGEND_COLUMNS = 2


class KvStrip(CellStrip):
    """The generation context's cells coloured by segment, the reused ones hatched; free cells after them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runs: list[KvCell] = []

    def set_cells(self, n_ctx: int, runs: list[KvCell]) -> None:
        self.n_ctx, self.runs = n_ctx, runs
        self.updateGeometry()
        self.update()

    def free_cells(self) -> int:
        return self.n_ctx - sum(run.count for run in self.runs)

    def reused_cells(self) -> int:
        return sum(run.count for run in self.runs if run.reused)

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        self.paint_free(painter)
        hatch = QBrush(HATCH_COLOR, Qt.BrushStyle.BDiagPattern)
        for run in self.runs:
            for rect in self._rects(run.start, run.count):
                painter.fillRect(rect, QColor(SEGMENT_COLORS.get(run.segment, SEGMENT_COLORS["template"])))
                if run.reused:
                    painter.fillRect(rect, hatch)
        painter.end()
        self.painted.emit()

    def tooltip_at(self, cell: int) -> str:
        run = next((r for r in self.runs if r.start <= cell < r.start + r.count), None)
        if run is None:
            return self.tr("cell {0}: free").format(cell)
        text = self.tr("cells {0}–{1}: {2}").format(run.start, run.start + run.count - 1, segment_name(run.segment))
        return text + (self.tr(", reused from the previous request") if run.reused else self.tr(", evaluated"))


def segment_name(segment: str) -> str:
    names = {"system": QCoreApplication.translate("KvMapPanel", "system prompt"),
             "user": QCoreApplication.translate("KvMapPanel", "user turns"),
             "assistant": QCoreApplication.translate("KvMapPanel", "assistant turns"),
             "template": QCoreApplication.translate("KvMapPanel", "template tokens"),
             "answer": QCoreApplication.translate("KvMapPanel", "current answer")}
    return names.get(segment, segment)


class KvMapPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kv: KvMap | None = None       # the map drawn
        self.held: KvMap | None = None     # the engine's last map, drawn while its chat and version are on screen
        self.elsewhere = False             # the chat or version on screen is not what the engine's cache holds
        self.batch_only = False            # ... but one of the versions the last batch decoded on its own context
        self.batch_running = False         # versions are being decoded together: no map of theirs yet
        self.n_ctx = 0
        self.available = True
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        self.title = QLabel(self.tr("<b>KV cache map</b> (after the last answer)"))
        layout.addWidget(self.title)
        # the generation context's strip and its legend, set aside for a batch version (its cells are below)
        self.cache_part = QWidget()
        part = QVBoxLayout(self.cache_part)
        part.setContentsMargins(0, 0, 0, 0)
        self.strip = KvStrip()
        part.addWidget(self.strip)
        legend = QGridLayout()  # two columns: a legend in one row would widen the dock past the window
        legend.setHorizontalSpacing(12)
        entries = [(color, segment_name(segment), False) for segment, color in SEGMENT_COLORS.items()]
        entries.append((SEGMENT_COLORS["template"], self.tr("reused (not evaluated again)"), True))
        for i, (color, text, hatched) in enumerate(entries):
            legend.addWidget(legend_entry(color, text, hatched), i // LEGEND_COLUMNS, i % LEGEND_COLUMNS)
        legend.setColumnStretch(LEGEND_COLUMNS, 1)
        part.addLayout(legend)
        layout.addWidget(self.cache_part)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.beams = BeamCellsMap()  # the last request's beam search, when it was one
        layout.addWidget(self.beams)
        self.clear(0)

    def clear(self, n_ctx: int) -> None:
        """A fresh context (a model was loaded): every cell free, nothing to tell yet."""
        self.kv = self.held = None
        self.elsewhere = False
        self.n_ctx = n_ctx
        self._show_nothing(n_ctx)

    def _show_nothing(self, n_ctx: int, text: str = "") -> None:
        self.kv = None
        self.cache_part.setVisible(True)
        self.strip.set_cells(n_ctx, [])
        self.beams.set_cells(0, [])
        if self.available:
            self.summary.setText(text or (self.tr("Shown after the next answer.") if self.n_ctx
                                          else self.tr("No model loaded.")))

    def show_cached(self, cached: bool, asked: bool = True, in_batch: bool = False) -> None:
        """The chat and version on screen is (`cached`) or is not what the engine's cache holds: its map, or no
        cells at all (never another chat's); `asked`: it has a question, else it has no context yet; `in_batch`:
        it is one of the versions the last request decoded together, on a context of their own (their cells
        shown, not the engine's cache, which holds what it held before the batch)."""
        self.elsewhere = not cached
        self.batch_only = in_batch and not cached
        if not self.available:
            return
        if cached and self.held is not None:
            self._draw(self.held)
        elif cached:
            self._show_nothing(self.n_ctx)
        elif self.batch_only:
            self._show_batch(self.held)
        else:
            self._show_nothing(0, self._elsewhere_text() if asked else "")

    def _elsewhere_text(self) -> str:
        return self.tr("This chat (or this version of it) is not in the engine's KV cache now: its map is shown "
                       "after its next answer.")

    def batch_started(self) -> None:
        """Versions are decoded together from now on: the batch cells held are an earlier request's, not theirs."""
        if self.held is not None and self.held.beam_cells:
            self.held = replace(self.held, beam_cells=[], beam_n_ctx=0)
        self.batch_running = True

    def _show_batch(self, kv: KvMap | None) -> None:
        """A batch version: the batch's cells when the map has them, else (still decoding, or stopped before its
        first step) why there are none."""
        if kv is not None and kv.beam_cells:
            self._draw_batch(kv)
        else:
            self._show_nothing(0, self.tr("This version is decoded in a batch on a context of its own: its cells are "
                                          "shown when the batch ends.") if self.batch_running else self._elsewhere_text())

    def forget(self) -> None:
        """The engine's cache now holds another chat or version than the map: drop the map."""
        self.held = None
        if not self.elsewhere:
            self._show_nothing(self.n_ctx)

    def set_capabilities(self, caps: dict[str, object]) -> None:
        self.available = bool(caps.get("kv_map", False))
        if not self.available:
            self.kv = self.held = None
            self.strip.set_cells(0, [])
            self.beams.set_cells(0, [])
            self.summary.setText(self.tr("This engine cannot show its KV cache map (a remote server does not "
                                         "report its cells)."))
        elif self.kv is None:
            self.clear(self.n_ctx)

    def set_map(self, kv: KvMap) -> None:
        self.held, self.batch_running = kv, False
        if not self.elsewhere:
            self._draw(kv)
        elif self.batch_only:
            self._show_batch(kv)

    def _draw_batch(self, kv: KvMap) -> None:
        """A version decoded in a batch: the batch's cells alone (the strip above is the engine's own cache)."""
        self.kv = kv
        self.strip.set_cells(0, [])
        self.cache_part.setVisible(False)
        self.summary.setText(self.tr("This version was decoded in one batch with the others, on a context of their "
                                     "own (below); the engine's cache still holds what it held before the batch."))
        self.beams.set_cells(kv.beam_n_ctx, kv.beam_cells, kv.shared_by)

    def _draw(self, kv: KvMap) -> None:
        self.kv = kv
        self.cache_part.setVisible(True)
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
                format_bytes(kv.n_ctx * kv.bytes_per_cell)))
        self.beams.set_cells(kv.beam_n_ctx, kv.beam_cells, kv.shared_by)

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
        panel.beams.strip.painted.connect(self.refresh)   # (a batch version shows the batch's strip alone)

    def _on_answer(self, _result: object) -> None:
        self.stale = True
        self.refresh()

    def show_search(self) -> None:
        """A search of its own (beams) filled the cache: its map is shown whatever chat is on screen."""
        self.panel.elsewhere = False
        self._on_answer(None)

    def refresh(self) -> None:
        panel = self.panel
        if not (self.stale and panel.available and panel.on_screen()):
            return
        self.stale = False
        local = self.bridge.local  # "kv_map" is a local engine's capability only
        self.bridge.call(lambda _client: local.kv_map(), done=panel.set_map, failed=panel.show_failure)
