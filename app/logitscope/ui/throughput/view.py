"""The Throughput view: how many tokens per second the loaded model makes when it decodes several answers at once,
against the batch size, measured live on this machine (engine/batched.py measure_throughput), with the KV memory
each batch holds and the batch size where throughput stops growing. Opened from Model ▸ Throughput… (Ctrl+Shift+U).

The measurement runs on the bridge's worker (the engine process), never on the GUI thread; its progress comes back
through a signal, Cancel (or Esc, or closing the dialog) stops it within a step. Only a local model can be measured.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from logitscope.gguf.memory import format_bytes
from logitscope.protocol.api import ModelInfo
from logitscope.protocol.batched import (
    GROWTH_THRESHOLD,
    THROUGHPUT_SIZES,
    ThroughputPoint,
    ThroughputRequest,
    ThroughputResult,
)
from logitscope.ui.bridge import JOB_THROUGHPUT, EngineBridge
from logitscope.ui.common.messages import sentences
from logitscope.ui.common.spin_boxes import SpinBox

if TYPE_CHECKING:
    from logitscope.ui.controllers.model import ModelController
    from logitscope.ui.window.actions import ActionRegistry

SHORTCUT = "Ctrl+Shift+U"
TOTAL_PEN, PER_ANSWER_PEN = "#2a8f9c", "#d05a6e"   # the KV map's shared and own colours: all answers, one answer
PROGRESS_STEPS = 100


class ThroughputDialog(QDialog):
    progressed = Signal(float)   # from the worker thread: queued to the GUI
    pointMeasured = Signal(object)   # a ThroughputPoint, from the worker thread: each batch size as it is measured

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.measured: ThroughputResult | None = None
        self.points: list[ThroughputPoint] = []   # the running measurement's, so far
        self.sizes: tuple[int, ...] = ()            # the batch sizes it measures (the box may change meanwhile)
        self.running = False
        self.reason = ""
        self.setWindowTitle(self.tr("Throughput against the batch size"))
        self.resize(760, 620)
        layout = QVBoxLayout(self)
        what = QLabel(self.tr("Several answers decoded together share each step's reading of the weights: the "
                              "tokens per second of all of them grow with the batch until the machine's cores (or "
                              "GPU) are busy. Each batch here is that many greedy answers to the same prompt, every "
                              "step recorded, on the loaded model; the chat is left as it was."))
        what.setWordWrap(True)
        layout.addWidget(what)
        form = QFormLayout()
        self.largest = QComboBox()
        for size in THROUGHPUT_SIZES[1:]:
            self.largest.addItem(str(size), size)
        self.largest.setCurrentIndex(self.largest.count() - 1)
        form.addRow(self.tr("Largest batch:"), self.largest)
        self.tokens = SpinBox()
        self.tokens.setRange(8, 512)
        self.tokens.setValue(ThroughputRequest().n_tokens)
        self.tokens.setSuffix(self.tr(" tokens"))
        form.addRow(self.tr("Each answer:"), self.tokens)
        layout.addLayout(form)
        row = QHBoxLayout()
        self.measure_button = QPushButton(self.tr("Measure"))
        self.measure_button.setDefault(True)
        self.measure_button.clicked.connect(self.measure)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        self.progress.setRange(0, PROGRESS_STEPS)
        self.progress.setVisible(False)
        row.addWidget(self.measure_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress, 1)
        layout.addLayout(row)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.plot = pg.PlotWidget()
        self.plot.setMinimumHeight(220)
        # the curves named above the plot in their colours: a legend box inside it covered the first points
        self.plot.setTitle(f"<span style='color:{TOTAL_PEN}'>● {self.tr('all answers')}</span> &nbsp; "
                           f"<span style='color:{PER_ANSWER_PEN}'>■ {self.tr('each answer')}</span>", size="9pt")
        self.plot.setLabel("bottom", self.tr("answers decoded together"))
        self.plot.setLabel("left", self.tr("tokens/s"))
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.total_curve = self.plot.plot([], [], pen=pg.mkPen(TOTAL_PEN, width=2), symbol="o", symbolSize=7,
                                          symbolBrush=TOTAL_PEN, name=self.tr("all answers"))
        self.per_answer_curve = self.plot.plot([], [], pen=pg.mkPen(PER_ANSWER_PEN, width=2), symbol="s",
                                               symbolSize=7, symbolBrush=PER_ANSWER_PEN, name=self.tr("each answer"))
        self._set_sizes(THROUGHPUT_SIZES)   # whole answers on the axis, also before anything is measured
        layout.addWidget(self.plot, 1)
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels([self.tr("Answers"), self.tr("Tokens/s, all"), self.tr("Per answer"),
                                              self.tr("KV cells"), self.tr("KV memory")])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setMaximumHeight(170)
        layout.addWidget(self.table)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.progressed.connect(lambda f: self.progress.setValue(round(f * PROGRESS_STEPS)))
        self.pointMeasured.connect(self._measured)
        self.finished.connect(lambda _code: self.cancel())

    def set_available(self, reason: str) -> None:
        """`reason`: why it cannot measure now ("" when it can)."""
        self.reason = reason
        self.measure_button.setEnabled(not reason and not self.running)
        if reason and not self.running:
            self.status.setText(reason)
        elif not self.running:
            self.status.clear()

    def request(self) -> ThroughputRequest:
        largest = int(self.largest.currentData())
        return ThroughputRequest(sizes=tuple(b for b in THROUGHPUT_SIZES if b <= largest),
                                 n_tokens=self.tokens.value())

    def measure(self) -> None:
        if self.running or self.reason:
            return
        request = self.request()
        self.running = True
        self.measure_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.points, self.measured, self.sizes = [], None, request.sizes
        self._show_points([], request.sizes)
        self.summary.clear()
        self.status.setText(self.tr("Waiting for the engine to finish its current task…") if self.bridge.busy
                            else self.tr("Measuring…"))
        self.bridge.call(lambda client: client.throughput(request, self.progressed.emit, self.pointMeasured.emit),
                         done=self._done,
                         failed=self._failed, kind=JOB_THROUGHPUT, started=lambda: self.status.setText(
                             self.tr("Measuring…")))

    def cancel(self) -> None:
        if self.running:
            self.bridge.cancel(JOB_THROUGHPUT)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() == Qt.Key.Key_Escape and self.running:
            self.cancel()   # Esc stops the measurement; a second Esc closes the dialog
            event.accept()
            return
        super().keyPressEvent(event)

    def _finish(self) -> None:
        self.running = False
        self.measure_button.setEnabled(not self.reason)
        self.cancel_button.setEnabled(False)
        self.progress.setVisible(False)

    def _measured(self, point: ThroughputPoint) -> None:
        if not self.running:
            return
        self.points.append(point)
        self._show_points(self.points, self.sizes)
        self.status.setText(self.tr("Measuring… {0} of {1} batch sizes done.").format(len(self.points),
                                                                                      len(self.sizes)))

    def _failed(self, message: str) -> None:
        self._finish()
        if message != "cancelled":
            self.status.setText(self.tr("The measurement failed: {0}").format(message))
        elif self.points:   # what was measured before the stop stays, with what it shows
            self.status.setText(self.tr("Stopped after {0} of {1} batch sizes; the figures above were measured.")
                                .format(len(self.points), len(self.sizes)))
            self.summary.setText(self.summary_text(ThroughputResult(self.points, 0)))
        else:
            self.status.setText(self.tr("Stopped."))

    def _done(self, result: ThroughputResult) -> None:
        self._finish()
        self.show_result(result)

    def show_result(self, result: ThroughputResult) -> None:
        self.measured = result
        self.points = list(result.points)
        self._show_points(result.points, tuple(p.batch for p in result.points))
        self.status.setText((self.tr("Measured with 1 thread, {1} tokens per answer.") if result.threads == 1 else
                             self.tr("Measured with {0} threads, {1} tokens per answer.")).format(
            result.threads, self.tokens.value()))
        self.summary.setText(self.summary_text(result))

    def _set_sizes(self, sizes: tuple[int, ...]) -> None:
        self.plot.getAxis("bottom").setTicks([[(b, str(b)) for b in sizes]])
        self.plot.setXRange(min(sizes), max(sizes), padding=0.05)

    def _show_points(self, points: list[ThroughputPoint], sizes: tuple[int, ...]) -> None:
        """The curves and the table for the points measured so far; the axis shows every size asked."""
        batches = [p.batch for p in points]
        self.total_curve.setData(batches, [p.tok_per_s for p in points])
        self.per_answer_curve.setData(batches, [p.per_answer for p in points])
        self._set_sizes(sizes)
        if points:
            self.plot.setYRange(0, max(p.tok_per_s for p in points) * 1.1, padding=0)
        self.table.setRowCount(len(points))
        for row, p in enumerate(points):
            cells = (str(p.batch), f"{p.tok_per_s:.1f}", f"{p.per_answer:.1f}", f"{p.kv_cells:,}",
                     format_bytes(p.kv_bytes))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)

    def summary_text(self, result: ThroughputResult) -> str:
        first, best = result.points[0], max(result.points, key=lambda p: p.tok_per_s)
        gain = self.tr("{0} answers together make {1:.1f}x the tokens per second of one ({2} against {3}), "
                       "each answer at {4}.").format(best.batch, best.tok_per_s / first.tok_per_s, _rate(best.tok_per_s),
                                                     _rate(first.tok_per_s), _rate(best.per_answer))
        knee = result.stops_growing_at
        if knee is None:
            return sentences(gain, self.tr("Throughput was still growing at the largest batch measured."))
        if knee == first.batch:
            return sentences(gain, self.tr("On this machine a batch adds less than {0:.0f} % to one answer's tokens "
                                           "per second.").format((GROWTH_THRESHOLD - 1) * 100))
        return sentences(gain, self.tr("On this machine throughput stops growing at {0} answers at once: twice as "
                                       "many add less than {1:.0f} %.").format(knee, (GROWTH_THRESHOLD - 1) * 100))


def _rate(tok_per_s: float) -> str:
    """Tokens per second as the summary says them: a decimal under 100 (7 against 6 could not be checked)."""
    return f"{tok_per_s:.1f}" if tok_per_s < 100 else f"{tok_per_s:.0f}"


def install(bridge: EngineBridge, parent: QWidget, actions: ActionRegistry, model_menu: QMenu,
            models: ModelController) -> tuple[ThroughputDialog, QAction]:
    """The dialog and its action in the Model menu, enabled with a local model loaded (the reason otherwise)."""
    dialog = ThroughputDialog(bridge, parent)
    tip = QCoreApplication.translate("ThroughputDialog", "Tokens per second against the number of answers decoded "
                                     "together, measured on the loaded model")
    action = actions.add(QCoreApplication.translate("ThroughputDialog", "&Throughput…"), dialog.show,
                         QKeySequence(SHORTCUT), tip)
    model_menu.addAction(action)

    def update() -> None:
        info = bridge.info
        if info is None:
            reason = QCoreApplication.translate("ThroughputDialog", "Load a model to measure its throughput.")
        elif not isinstance(info, ModelInfo) or models.capabilities.get("batched") is False:
            reason = QCoreApplication.translate(
                "ThroughputDialog", "Throughput is measured on a local model: a server batches its own requests.")
        else:
            reason = ""
        action.setEnabled(not reason)
        action.setStatusTip(reason or tip)
        action.setToolTip(reason or tip)
        dialog.set_available(reason)

    models.changed.connect(update)
    update()
    return dialog, action
