"""The KV cells of the last beam search or batch of answers, drawn under the KV cache map.

Answers decoded together (engine/batched.py) share the prompt's cells the same way: the prompt once, held by every
answer, then each answer's own cells.

A beam search runs in a context of its own (engine/beams.py) whose sequences share their common prefix:
`llama_memory_seq_cp` adds the child's sequence id to the parent's cells instead of copying them, which is the
prefix sharing that paged attention exploits. The engine reports who holds which cell as runs
(engine/beam_api.BeamCellRun); each run is a set of distinct cells, and runs of different beams may hold the
same positions (each beam its own token there). So the strip draws the context's distinct cells in the order
of the runs (the prompt first, then each beam's cells by sequence), coloured by how many beams hold each, and
the free cells after them: llama.cpp's own slot order is not reported, so cell i here is the i-th cell in use,
not slot i.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from logitscope.protocol.beams import BeamCellRun
from logitscope.protocol.kv_map import SHARED_BY_ANSWERS, SHARED_BY_BEAMS
from logitscope.ui.inspector.cell_strip import CellStrip, free_color, legend_entry

SHARED_COLOR = "#2a8f9c"   # several beams hold the cell (the shared prefix)
ALONE_COLOR = "#d05a6e"    # one beam holds it (its own continuation); not a colour of the map above


@dataclass(frozen=True)
class PlacedRun:
    """A run of the engine's report at its place in the strip."""
    cell: int            # the strip's first cell of the run
    run: BeamCellRun


class BeamStrip(CellStrip):
    """The beam context's cells in use, coloured by how many beams hold each, then the free cells."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.placed: list[PlacedRun] = []
        self.shared_by = SHARED_BY_BEAMS

    def set_beams(self, n_ctx: int, runs: list[BeamCellRun]) -> None:
        self.placed, cell = [], 0
        for run in runs:
            self.placed.append(PlacedRun(cell, run))
            cell += run.count
        self.n_ctx = max(n_ctx, cell)
        self.updateGeometry()
        self.update()

    def count(self, shared: bool) -> int:
        """Cells drawn in the shared colour (True) or in the one-beam colour (False)."""
        return sum(p.run.count for p in self.placed if (len(p.run.seqs) > 1) == shared)

    def free_cells(self) -> int:
        return self.n_ctx - sum(p.run.count for p in self.placed)

    @staticmethod
    def color(run: BeamCellRun) -> QColor:
        return QColor(SHARED_COLOR if len(run.seqs) > 1 else ALONE_COLOR)

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        self.paint_free(painter)
        for placed in self.placed:
            for rect in self._rects(placed.cell, placed.run.count):
                painter.fillRect(rect, self.color(placed.run))
        painter.end()

    def tooltip_at(self, cell: int) -> str:
        placed = next((p for p in self.placed if p.cell <= cell < p.cell + p.run.count), None)
        if placed is None:
            return self.tr("cell {0}: free").format(cell)
        run = placed.run
        position = run.start + cell - placed.cell
        seqs = ", ".join(str(s) for s in run.seqs)
        answers = self.shared_by == SHARED_BY_ANSWERS
        if len(run.seqs) > 1:
            text = (self.tr("cell {0}, position {1}: shared by {2} answers (sequences {3})") if answers else
                    self.tr("cell {0}, position {1}: shared by {2} beams (sequences {3})"))
            return text.format(cell, position, len(run.seqs), seqs)
        if answers:
            return self.tr("cell {0}, position {1}: answer {2}'s own (sequence {3})").format(
                cell, position, run.seqs[0] + 1, seqs)
        return self.tr("cell {0}, position {1}: held by one beam (sequence {2})").format(cell, position, seqs)


class BeamCellsMap(QWidget):
    """Title, strip, legend and the figures; hidden until a beam search was the last request."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        self.title = QLabel()
        layout.addWidget(self.title)
        self.strip = BeamStrip()
        layout.addWidget(self.strip)
        legend = QHBoxLayout()
        legend.setSpacing(12)
        self.legend = legend
        layout.addLayout(legend)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.setVisible(False)

    def _set_legend(self, answers: bool) -> None:
        while self.legend.count():
            item = self.legend.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        entries = ((SHARED_COLOR, self.tr("the prompt, shared by every answer")), (ALONE_COLOR, self.tr("one answer")),
                   (None, self.tr("free"))) if answers else (
                  (SHARED_COLOR, self.tr("shared by several beams")), (ALONE_COLOR, self.tr("one beam")),
                  (None, self.tr("free")))
        for color, text in entries:
            self.legend.addWidget(legend_entry(color or free_color(self.palette()).name(), text, False))
        self.legend.addStretch(1)

    def set_cells(self, n_ctx: int, runs: list[BeamCellRun], shared_by: str = SHARED_BY_BEAMS) -> None:
        """The runs of the last request's beam search or batch of answers; none: it was neither (hidden)."""
        answers = shared_by == SHARED_BY_ANSWERS
        if self.strip.shared_by != shared_by or not self.legend.count():
            self._set_legend(answers)
        self.strip.shared_by = shared_by
        self.title.setText(self.tr("<b>Last answers decoded together</b>: the cells of their own context") if answers
                           else self.tr("<b>Last beam search</b>: the cells of its own context"))
        self.strip.set_beams(n_ctx, runs)
        self.setVisible(bool(runs))
        if not runs:
            self.summary.clear()
            return
        shared, alone = self.strip.count(True), self.strip.count(False)
        held = sum(run.count * len(run.seqs) for run in runs)
        if answers:
            text = self.tr("{0} prompt cells evaluated once and shared by all {5} answers (llama_memory_seq_cp), {1} "
                           "cells of the answers' own, {2} free of {3}; {4} cells if each answer had its own prompt.")
        else:
            text = self.tr("{0} cells shared by several beams (llama_memory_seq_cp shares a parent's cells with its "
                           "children), {1} held by one, {2} free of {3}; {4} cells without sharing.")
        n_answers = max((len(run.seqs) for run in runs), default=0)
        self.summary.setText(text.format(shared, alone, self.strip.free_cells(), self.strip.n_ctx, held, n_answers))
