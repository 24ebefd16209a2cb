"""The Beams view: beam search on a question, shown as the tree of hypotheses step by
step with cumulative log-probabilities, pruned branches greyed, the winner highlighted, and the greedy answer
of the same question beside it. Opened from Model ▸ Beam search… (Ctrl+Shift+B).

Both searches run on the bridge's worker (the engine process), never on the GUI thread: greedy first, then
the beams, so the KV cache map (asked afterwards) shows the cells the beams share. The beams are streamed:
the engine reports every step (engine/beam_api.BeamProgress), which the tree shows as it comes. Cancel (or Esc)
stops the whole run within a step, the prompt's evaluation included; what was shown stays as the tree so far,
never as a result: no winner, no hypotheses.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QCloseEvent, QColor, QFont, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import LogitscopeError
from logitscope.host.client import CancelledError
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.beams import (
    DEFAULT_LENGTH_PENALTY,
    FINISHED,
    KEPT,
    MAX_BEAMS,
    MAX_LENGTH_PENALTY,
    PRUNED,
    BeamNode,
    BeamProgress,
    BeamRequest,
    BeamResult,
    node_path,
)
from logitscope.protocol.engine_like import EngineLike
from logitscope.protocol.sampler_settings import PRESETS, SamplerSettings
from logitscope.protocol.steering import Steering
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.ui.bridge import JOB_BEAMS, EngineBridge
from logitscope.ui.common.spin_boxes import DoubleSpinBox, SpinBox
from logitscope.ui.common.tokens import id_label
from logitscope.ui.steering.summary import SteeringSummary
from logitscope.ui.window.layout import scroll_area

if TYPE_CHECKING:
    from logitscope.ui.controllers.model import ModelController
    from logitscope.ui.inspector.kv_map import KvMapFeed
    from logitscope.ui.window.actions import ActionRegistry

DEFAULT_BEAMS = 4
DEFAULT_MAX_TOKENS = 32
WINNER_BACKGROUND = "#ffe9a8"
WINNER_FOREGROUND = "#1f1f1f"  # the light background in the dark theme too: its text must not stay white
PRUNED_FOREGROUND = "#9a9fa8"
SHORTCUT = "Ctrl+Shift+B"
TOKEN_COLUMN_WIDTH, MAX_TOKEN_COLUMN_WIDTH = 220, 360  # px: the tree's token column, at first and at most
# A question to the model, not the window's words: left in English in every language (the demo model, like
# many small models, answers English; a Chinese question made it spell out byte tokens).
SAMPLE_QUESTION = "What is the capital of France?"


@dataclass
class Comparison:
    """An answer of the same question by another decoding, with its summed log-probability (the beams'
    measure: each token's probability before any sampler stage)."""
    result: GenerationResult
    logprob: float


def answer(client: EngineLike, request: BeamRequest, settings: SamplerSettings) -> Comparison:
    steps: list[StepRecord] = []
    result = client.generate(GenerateRequest(messages=request.generate.messages, settings=settings,
                                             options=request.generate.options, steering=request.generate.steering),
                             on_step=steps.append)
    return Comparison(result, sum(math.log(max(s.p_raw, 1e-300)) for s in steps))


Outcome = tuple[BeamResult, Comparison, Comparison | None]


def search(client: EngineLike, request: BeamRequest, sampled: SamplerSettings | None, stop: threading.Event,
           on_progress: Callable[[BeamProgress], None]) -> Outcome | None:
    """Worker thread: the greedy answer of the same question, a sampled one (the window's sampler settings), then
    the beam search (last, so the KV map shows its cells). None: `stop` was set (Cancel) before the end."""
    greedy = answer(client, request, PRESETS["Greedy"])
    other = answer(client, request, sampled) if sampled is not None and not stop.is_set() else None
    if stop.is_set():
        return None
    try:
        result = client.beam_search(request, on_progress)
    except CancelledError:  # during the prompt
        return None
    return None if result.cancelled else (result, greedy, other)


class BeamsDialog(QDialog):
    progressed = Signal()  # steps are waiting in `_incoming` (emitted on the worker thread, handled on the GUI's)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None,
                 sampler_settings: Callable[[], SamplerSettings] | None = None,
                 steering: Callable[[], Steering | None] | None = None) -> None:
        super().__init__(parent)
        self.steering = steering  # the Steering dock's: the beams and both answers beside them are steered alike
        self.bridge = bridge
        self.sampler_settings = sampler_settings  # the window's sampler, for the sampled answer beside the beams
        self.beam_result: BeamResult | None = None
        self.greedy: GenerationResult | None = None
        self.running = False
        self.reason = ""   # why a search cannot run now ("" when it can): said at once, nothing is run
        self.on_finished: list[Callable[[], None]] = []  # run after a search (the KV map's refresh)
        self._stop = threading.Event()  # Cancel: the worker checks it between its calls
        self._incoming: list[BeamProgress] = []
        self._lock = threading.Lock()
        self.nodes: list[BeamNode] = []              # the tree so far, as streamed
        self.items: dict[int, QTreeWidgetItem] = {}  # node index -> its row
        self.cut: set[int] = set()  # the live beams a cancel stopped: not finished hypotheses
        self.steps_seen: list[int] = []  # the last step of each live update of the tree (tests count them)
        self.progressed.connect(self._drain)
        self.setWindowTitle(self.tr("Beam search"))
        self.resize(980, 640)
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.question = QLineEdit(SAMPLE_QUESTION)
        form.addRow(self.tr("Question:"), self.question)
        row = QHBoxLayout()
        self.beams = SpinBox()
        self.beams.setRange(1, MAX_BEAMS)
        self.beams.setValue(DEFAULT_BEAMS)
        self.alpha = DoubleSpinBox()
        self.alpha.setRange(0.0, MAX_LENGTH_PENALTY)
        self.alpha.setSingleStep(0.1)
        self.alpha.setValue(DEFAULT_LENGTH_PENALTY)
        self.max_tokens = SpinBox()
        self.max_tokens.setRange(1, 1024)
        self.max_tokens.setValue(DEFAULT_MAX_TOKENS)
        for caption, widget in ((self.tr("Beams"), self.beams), (self.tr("Length penalty α"), self.alpha),
                              (self.tr("Max tokens"), self.max_tokens)):
            row.addWidget(QLabel(caption))
            row.addWidget(widget)
        self.run_button = QPushButton(self.tr("Search"))
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the search within one step (Esc)"))
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        row.addStretch(1)
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)
        form.addRow(row)
        layout.addLayout(form)
        self.formula = QLabel(self.tr("Score = sum of log-probabilities / length^α (the end-of-text token counts)."))
        layout.addWidget(self.formula)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Token"), self.tr("log p"), self.tr("Cumulative"), self.tr("Fate")])
        self.tree.setColumnWidth(0, TOKEN_COLUMN_WIDTH)
        splitter.addWidget(self.tree)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        self.winner = QLabel()
        self.greedy_label = QLabel()
        self.sampled_label = QLabel()
        self.hypotheses = QLabel()
        self.memory = QLabel()
        for label in (self.winner, self.greedy_label, self.sampled_label, self.hypotheses, self.memory):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            side_layout.addWidget(label)
        side_layout.addStretch(1)
        self.side = scroll_area(side)  # many long hypotheses are taller than the panel
        splitter.addWidget(self.side)
        splitter.setSizes([560, 400])
        layout.addWidget(splitter, 1)
        self.status = QLabel(self.tr("Ask a question and press Search."))
        layout.addWidget(self.status)

    # -- running ------------------------------------------------------------------------------------------
    def request(self) -> BeamRequest:
        generate = GenerateRequest(messages=[ChatMessage("user", self.question.text())],
                                   options=DecodeOptions(max_tokens=self.max_tokens.value()),
                                   steering=self.steering() if self.steering is not None else None)
        return BeamRequest(generate, self.beams.value(), self.alpha.value())

    def set_available(self, reason: str) -> None:
        old, self.reason = self.reason, reason
        self.run_button.setEnabled(not reason and not self.running)
        if reason and not self.running:
            self.status.setText(reason)
        elif not reason and old and self.status.text() == old:   # a local model is back: the reason goes
            self.status.setText(self.tr("Ask a question and press Search."))

    def run(self) -> None:
        if self.running:
            return
        if self.reason:
            self.status.setText(self.reason)
            return
        if not self.question.text().strip():
            self.status.setText(self.tr("Write a question first."))
            return
        request = self.request()
        try:
            sampled = self.sampler_settings() if self.sampler_settings is not None else None
        except LogitscopeError:
            sampled = None  # the sampler panel shows its own problem; the beams and greedy still run
        self.running = True
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self._clear()
        self._stop.clear()
        self.status.setText(self.tr("The greedy and sampled answers first, then {0} beams…").format(request.n_beams))
        stop = self._stop
        self.bridge.call(lambda client: search(client, request, sampled, stop, self._on_progress),
                         done=self._done, failed=self._failed, kind=JOB_BEAMS)

    def cancel(self) -> None:
        """Stop the run: the call in progress (the engine checks once per step and between prompt chunks), and
        the calls still to come."""
        if not self.running or self._stop.is_set():
            return
        self._stop.set()
        self.bridge.cancel(JOB_BEAMS)
        self.cancel_button.setEnabled(False)
        self.status.setText(self.tr("Cancelling…"))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() == Qt.Key.Key_Escape and self.running:
            self.cancel()  # Esc stops a search; the dialog stays open on the tree so far
            event.accept()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        self.cancel()  # nobody is watching it any more
        super().closeEvent(event)

    def _on_progress(self, event: BeamProgress) -> None:
        """Worker thread: queue the step; one signal per burst (the GUI takes them all at once)."""
        with self._lock:
            self._incoming.append(event)
            first = len(self._incoming) == 1
        if first:
            self.progressed.emit()

    def _drain(self) -> None:
        """GUI thread: grow the tree by the steps that arrived."""
        with self._lock:
            events, self._incoming = self._incoming, []
        if not events:
            return
        for event in events:
            self._grow(event)
        last = events[-1]
        self.steps_seen.append(last.step)
        kept = [n for n in last.nodes if n.status == KEPT]
        best = max((n.cum_logprob for n in kept), default=float("nan"))
        if not self._stop.is_set():
            self.status.setText(self.tr("Step {0} of at most {1}: {2} beams kept (best cumulative log-prob {3:.3f}), "
                                        "{4} hypotheses finished…").format(last.step + 1, last.max_tokens, len(kept),
                                                                            best, last.n_finished))

    def _finish(self) -> None:
        self._drain()  # steps posted before the end
        self.running = False
        self.run_button.setEnabled(not self.reason)
        self.cancel_button.setEnabled(False)

    def _failed(self, message: str) -> None:
        if self._stop.is_set():  # cancelled while queued, or an engine call stopped by its cancel: not a failure
            self._done(None)
            return
        self._finish()
        self.status.setText(self.tr("The search failed: {0}").format(message))

    def _done(self, value: Outcome | None) -> None:
        self._finish()
        if value is None:
            self.status.setText(self.tr("Cancelled after {0} steps: the tree shows the search so far; it has no "
                                        "winner.").format(self.nodes[-1].step + 1)
                                if self.nodes else self.tr("Cancelled before the first step."))
            return
        self.show_result(*value)
        for callback in self.on_finished:
            callback()

    # -- showing ------------------------------------------------------------------------------------------
    def _clear(self) -> None:
        """A new run: nothing of the last one stays on screen."""
        with self._lock:
            self._incoming = []
        self.beam_result = self.greedy = None
        self.nodes, self.items, self.steps_seen = [], {}, []
        self.cut.clear()
        self.tree.clear()
        for label in (self.winner, self.greedy_label, self.sampled_label, self.hypotheses, self.memory):
            label.clear()

    def _add(self, i: int, node: BeamNode, winning: set[int] | None = None) -> None:
        """Node i's row under its parent's (only kept nodes have children); pruned ones greyed, the winner's path
        highlighted."""
        parent = self.items.get(node.parent)
        if node.parent >= 0 and parent is None:
            return
        fate = (self.tr("stopped (cancelled)") if i in self.cut else
                {PRUNED: self.tr("pruned"), FINISHED: self.tr("finished")}.get(node.status, self.tr("kept")))
        # the token as the other views show it (·, ↵, <0xNN> for a byte of a character), not '�' for a part of one
        label = id_label(node.token, self.bridge.vocab) if self.bridge.vocab else repr(node.text)[1:-1] or " "
        item = QTreeWidgetItem([label, f"{node.logprob:.3f}", f"{node.cum_logprob:.3f}", fate])
        item.setData(0, Qt.ItemDataRole.UserRole, i)
        if node.status == PRUNED:
            for column in range(4):
                item.setForeground(column, QBrush(QColor(PRUNED_FOREGROUND)))
        if winning is not None and i in winning:
            bold = QFont()
            bold.setBold(True)
            for column in range(4):
                item.setBackground(column, QBrush(QColor(WINNER_BACKGROUND)))
                item.setForeground(column, QBrush(QColor(WINNER_FOREGROUND)))
                item.setFont(column, bold)
        if parent is not None:
            parent.addChild(item)
        else:
            self.tree.addTopLevelItem(item)
        self.items[i] = item

    def _grow(self, event: BeamProgress) -> None:
        """One streamed step: its candidates under their parents, the best live beam's path opened."""
        del self.nodes[event.first_node:]
        self.nodes.extend(event.nodes)
        self.cut.update(event.cut)
        for j, node in enumerate(event.nodes):
            self._add(event.first_node + j, node)
        kept = [event.first_node + j for j, node in enumerate(event.nodes) if node.status == KEPT]
        if kept:
            best = max(kept, key=lambda i: self.nodes[i].cum_logprob)
            for i in node_path(self.nodes, best)[:-1]:
                self.items[i].setExpanded(True)

    def show_result(self, result: BeamResult, greedy: Comparison, sampled: Comparison | None) -> None:
        self.beam_result, self.greedy = result, greedy.result
        win = result.winner
        winning = set(result.path(win.node))
        self.tree.clear()
        self.nodes, self.items = list(result.nodes), {}
        for i, node in enumerate(result.nodes):
            self._add(i, node, winning)
        for i in winning:
            self.items[i].setExpanded(True)
        # the winner's path is deep: its last tokens were cut to "<|im_…" at the first width
        for column in range(4):  # the figures' columns narrow to their numbers: the Fate column stays in view
            self.tree.resizeColumnToContents(column)
        self.tree.setColumnWidth(0, min(max(self.tree.columnWidth(0), TOKEN_COLUMN_WIDTH), MAX_TOKEN_COLUMN_WIDTH))
        self.winner.setText(self.tr("<b>Beam search winner</b> (score {0:.4f}, log-prob {1:.3f} over {2} tokens):"
                                    "<br>{3}").format(win.score, win.logprob, win.length, _lines(win.text)))
        self.greedy_label.setText(self.tr("<b>Greedy answer</b> ({0} tokens, log-prob {1:.3f}):<br>{2}").format(
            len(greedy.result.tokens), greedy.logprob, _lines(greedy.result.text)))
        self.sampled_label.setText("" if sampled is None else self.tr(
            "<b>Sampled answer</b> (the sampler's settings, seed {0}; {1} tokens, log-prob {2:.3f}):<br>{3}").format(
            sampled.result.settings.get("seed", "?"), len(sampled.result.tokens), sampled.logprob,
            _lines(sampled.result.text)))
        self.hypotheses.setText(self.tr("<b>Hypotheses kept</b> (best score first):") + "<br>" + "<br>".join(
            f"{h.score:.4f} · {_lines(h.text)}" for h in result.hypotheses))
        last = result.steps[-1]
        self.memory.setText(self.tr("<b>KV cells</b> at the last step: {0} held, instead of {1} with a copy per beam; "
                                    "per beam: {2}").format(last.n_cells, last.n_cells_unshared, ", ".join(
                                        self.tr("{0} cells ({1} shared)").format(m.n_cells, m.n_shared)
                                        for m in result.memory)))
        self.status.setText(self.tr("{0} steps, {1} candidates, {2:.2f} s.").format(
            len(result.steps), len(result.nodes), result.seconds)
            + (f" {SteeringSummary.line(result.steering)}." if result.steering else ""))
        self.status.setToolTip(SteeringSummary.tip(result.steering))



def _lines(text: str) -> str:
    """A generated text in a rich-text label: escaped, its line breaks kept."""
    return escape(text).replace("\n", "<br>")


def install(bridge: EngineBridge, parent: QWidget, actions: ActionRegistry, model_menu: QMenu,
            models: ModelController, sampler_settings: Callable[[], SamplerSettings], kv_map: KvMapFeed,
            steering: Callable[[], Steering | None]) -> tuple[BeamsDialog, QAction]:
    """The dialog, its action in the Model menu, and the KV map refreshed after each search."""
    dialog = BeamsDialog(bridge, parent, sampler_settings, steering)
    tip = QCoreApplication.translate(
        "BeamsDialog", "Beam search on a question, the tree of hypotheses beside the greedy answer")
    action = actions.add(QCoreApplication.translate("BeamsDialog", "&Beam search…"), dialog.show,
                         QKeySequence(SHORTCUT), tip)
    model_menu.addAction(action)

    dialog.on_finished.append(kv_map.show_search)

    def update() -> None:
        # a remote engine cannot search beams: said in the menu and the dialog, not after two answers are run
        remote = models.capabilities.get("beams") is False
        reason = QCoreApplication.translate(
            "BeamsDialog", "Beam search needs a local model: a server cannot keep every hypothesis in sequences "
            "of its own.") if remote else ""
        action.setEnabled(not reason)
        action.setStatusTip(reason or tip)
        action.setToolTip(reason or tip)
        dialog.set_available(reason)

    models.changed.connect(update)
    update()
    return dialog, action
