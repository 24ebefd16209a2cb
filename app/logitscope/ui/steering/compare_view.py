"""The Compare view of steering (Model ▸ Compare steering…, Ctrl+Shift+D, or Compare… in the Steering dock):
the selected answer regenerated without steering (A) and with it (B), same question, same sampler settings and
seed, shown side by side with the first token where they part; both models' distributions at a step (the
parting one first); the per-step KL divergence between them; and the logit lens of both runs at that step.

B is steered as the Steering dock is now, or, with the dock off, as the selected answer was (its trace's
record). Both answers and the comparison run on the bridge's worker (ui/steering/compare_run.py); Cancel (Esc)
stops them within a token. A remote server cannot be steered: the view says so and runs nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from logitscope.protocol.api import ChatMessage, ModelInfo
from logitscope.protocol.steering import Steering, steering_from_record
from logitscope.protocol.steering_compare import MAX_COMPARE_STEPS
from logitscope.session.conversation import Conversation
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.common.messages import sentences
from logitscope.ui.common.spin_boxes import SpinBox
from logitscope.ui.common.tokens import id_label, percent
from logitscope.ui.steering.compare_run import (
    ALONG_B,
    UNSTEERED,
    CompareQuestion,
    SteeringRuns,
    StepLens,
    lens_at,
    question_for,
    run_both,
)
from logitscope.ui.steering.compare_widgets import DistributionPair, KlPlot, LensPlot, LensTable, TextPane
from logitscope.ui.steering.summary import SteeringSummary
from logitscope.ui.window.screen_fit import resize_within_screen

if TYPE_CHECKING:
    from logitscope.ui.steering.controller import SteeringController
    from logitscope.ui.window.actions import ActionRegistry

SHORTCUT = "Ctrl+Shift+D"
JOB_COMPARE = "steering-compare"
MIN_TOKENS = 8            # an answer shorter than this is regenerated this long (to see where they part)


@dataclass(frozen=True)
class AnswerToCompare:
    """What the window gives the view: the chat up to the selected question, and that answer's settings."""

    messages: list[ChatMessage]
    system: str | None
    settings: dict[str, object]           # the answer's sampler settings (Answer.settings)
    used: dict[str, object] | None        # what its trace says was used, the seed drawn included
    n_tokens: int
    recorded: dict[str, object] | None    # the steering its trace records


def answer_to_compare(conversation: Conversation, turn_index: int) -> AnswerToCompare | None:
    """The answer of this turn (the version on screen), or None when there is none."""
    turns = conversation.turns
    answer = turns[turn_index].answer if 0 <= turn_index < len(turns) else None
    if answer is None:
        return None
    result = answer.result
    return AnswerToCompare(conversation.messages_for(turn_index), conversation.system, answer.settings,
                           result.settings if result is not None else None, len(answer.steps),
                           result.steering if result is not None else None)


class SteeringCompareDialog(QDialog):
    progressed = Signal(str, int)   # side, tokens so far (emitted on the worker thread)

    def __init__(self, bridge: EngineBridge, selected: Callable[[], AnswerToCompare | None],
                 steering: Callable[[], Steering | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge, self.selected, self.dock_steering = bridge, selected, steering
        self.runs: SteeringRuns | None = None
        self.action: QAction | None = None   # its Model-menu entry (install)
        self.step: int | None = None
        self.lens: StepLens | None = None
        self.running = False
        self._stop = threading.Event()
        self._lens_wanted: int | None = None    # the step whose lens is asked for (a later click wins)
        self._target = 0
        self._started = 0.0
        self.progressed.connect(self._progress)
        self.setWindowTitle(self.tr("Compare steering"))
        resize_within_screen(self, 1100, 680)
        layout = QVBoxLayout(self)
        self.what = QLabel(self.tr("Regenerates the selected answer without steering (A) and with it (B): the same "
                                   "question, the same sampler settings and seed."))
        self.what.setWordWrap(True)
        layout.addWidget(self.what)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Max tokens")))
        self.max_tokens = SpinBox()
        self.max_tokens.setRange(1, MAX_COMPARE_STEPS)
        self.max_tokens.setValue(64)
        self.max_tokens.setToolTip(self.tr("How long each answer may grow (the selected answer's length at first)"))
        row.addWidget(self.max_tokens)
        row.addStretch(1)
        self.run_button = QPushButton(self.tr("Compare again"))
        self.run_button.setToolTip(self.tr("Regenerate the selected answer both ways, with the Steering dock as it "
                                           "is now (Ctrl+Return)"))
        self.run_button.clicked.connect(self.run)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.run)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop within one token (Esc)"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)
        layout.addLayout(row)
        self.steering_line = QLabel()
        self.steering_line.setWordWrap(True)
        layout.addWidget(self.steering_line)
        vertical = QSplitter(Qt.Orientation.Vertical)
        texts = QSplitter(Qt.Orientation.Horizontal)
        self.text_a = TextPane(self.tr("Unsteered (A)"))
        self.text_b = TextPane(self.tr("Steered (B)"))
        for pane in (self.text_a, self.text_b):
            pane.stepClicked.connect(self.select_step)
            texts.addWidget(pane)
        vertical.addWidget(texts)
        self.kl_plot = KlPlot()
        self.kl_plot.stepClicked.connect(self.select_step)
        vertical.addWidget(self.kl_plot)
        self.tabs = QTabWidget()
        self.distributions = DistributionPair()
        self.lens_table = LensTable()
        lens_page = QWidget()
        lens_layout = QVBoxLayout(lens_page)
        lens_layout.setContentsMargins(0, 0, 0, 0)
        self.lens_caption = QLabel()
        self.lens_caption.setWordWrap(True)
        lens_layout.addWidget(self.lens_caption)
        lens_split = QSplitter(Qt.Orientation.Horizontal)
        self.lens_plot = LensPlot()
        lens_split.addWidget(self.lens_plot)
        lens_split.addWidget(self.lens_table)
        lens_split.setSizes([380, 660])   # the table's four columns (two tokens, each run) before the plot's width
        lens_layout.addWidget(lens_split, 1)
        self.tabs.addTab(self.distributions, self.tr("Distributions at the step"))
        self.tabs.addTab(lens_page, self.tr("Logit lens at the step"))
        vertical.addWidget(self.tabs)
        vertical.setSizes([260, 150, 300])
        layout.addWidget(vertical, 1)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.summary)
        self.status = QLabel()
        layout.addWidget(self.status)

    # -- running ------------------------------------------------------------------------------------------
    def reason(self) -> str:
        """Why nothing can be compared now ("" when it can)."""
        if not isinstance(self.bridge.info, ModelInfo):
            return self.tr("Comparing steering needs a local model: a server cannot be steered.") \
                if self.bridge.info is not None else self.tr("Load a model first.")
        if self.selected() is None:
            return self.tr("Ask something first: Compare regenerates the selected answer (or the last one).")
        return ""

    def question(self) -> CompareQuestion | None:
        """The selected answer's question, B steered as the dock is now or else as the answer was; None (said
        in the status line) when there is nothing to compare."""
        target = self.selected()
        if target is None:
            return None
        steering = self.dock_steering()
        if steering is None and target.recorded:
            steering = steering_from_record(dict(target.recorded))
        if steering is None:
            self.status.setText(self.tr("Nothing to compare with: turn steering on in the Steering dock (or select "
                                        "a steered answer)."))
            return None
        return question_for(target.messages, target.system, target.settings, target.used,
                            self.max_tokens.value(), steering)

    def open_for_selected(self) -> None:
        """The menu entry: the view, sized to the selected answer, run at once."""
        target = self.selected()
        if target is not None and not self.running:
            self.max_tokens.setValue(max(MIN_TOKENS, min(target.n_tokens, MAX_COMPARE_STEPS)))
        self.show()
        self.raise_()
        self.activateWindow()
        self.run()

    def run(self) -> None:
        if self.running:
            return
        reason = self.reason()
        if reason:
            self.status.setText(reason)
            return
        question = self.question()
        if question is None:
            return
        self.running = True
        self._stop.clear()
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self._clear()
        self._target = question.max_tokens
        self._started = time.monotonic()
        self.steering_line.setText(self.tr("B: {0}. Seed {1}.").format(
            self._steering_words(question.steering, self._n_layer()), question.settings.seed))
        self.status.setText(self.tr("Unsteered (A)…"))
        stop = self._stop
        self.bridge.call(lambda client: run_both(client, question, stop, self.progressed.emit),
                         done=self._done, failed=self._failed, kind=JOB_COMPARE)

    def cancel(self) -> None:
        if not self.running or self._stop.is_set():
            return
        self._stop.set()
        self.bridge.cancel(JOB_COMPARE)
        self.cancel_button.setEnabled(False)
        self.status.setText(self.tr("Cancelling…"))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() == Qt.Key.Key_Escape and self.running:
            self.cancel()   # Esc stops a run; the view stays open
            event.accept()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        self.cancel()
        super().closeEvent(event)

    def _progress(self, side: str, n: int) -> None:
        if not self.running or self._stop.is_set():
            return
        if side == ALONG_B:
            self.status.setText(self.tr("Both answers written; measuring the unsteered and the steered distributions "
                                        "at each of B's {0} steps…").format(n))
            return
        name = self.tr("Unsteered (A)") if side == UNSTEERED else self.tr("Steered (B)")
        self.status.setText(self.tr("{0}: {1} of at most {2} tokens…").format(name, n, self._target))

    def _finish(self) -> None:
        self.running = False
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _failed(self, message: str) -> None:
        self._finish()
        self.status.setText(self.tr("Cancelled.") if self._stop.is_set()
                            else self.tr("The comparison failed: {0}").format(message))

    def _done(self, runs: SteeringRuns | None) -> None:
        self._finish()
        if runs is None:
            self.status.setText(self.tr("Cancelled."))
            return
        self.show_runs(runs)

    # -- showing ------------------------------------------------------------------------------------------
    def _clear(self) -> None:
        self.runs, self.step, self.lens = None, None, None
        self.summary.setText("")
        self.text_a.browser.clear()
        self.text_b.browser.clear()
        self.kl_plot.show_kl(np.zeros(0), None)
        self.kl_plot.mark(None)
        self.distributions.clear()
        self.lens_table.clear()
        self.lens_table.setRowCount(0)
        self.lens_table.setColumnCount(0)
        self.lens_caption.setText("")
        self.lens_plot.show_lens(StepLens(-1, {}), self.bridge.vocab, None)

    def _n_layer(self) -> int:
        info = self.bridge.info
        return info.card.n_layer if isinstance(info, ModelInfo) else 0

    @staticmethod
    def _steering_words(steering: Steering, n_layer: int) -> str:
        """What B is steered with, the control vectors' layers included (`n_layer` 0: not known)."""
        vectors = ", ".join(f"{v.path.rsplit('/', 1)[-1]} ×{v.scale:g}" for v in steering.control_vectors)
        loras = ", ".join(f"{a.path.rsplit('/', 1)[-1]} ×{a.scale:g}" for a in steering.loras)
        parts = []
        if vectors and n_layer:
            parts.append(QCoreApplication.translate("SteeringCompareDialog", "control vectors {0} on layers {1}–{2}")
                         .format(vectors, *steering.layer_range(n_layer)))
        elif vectors:
            parts.append(QCoreApplication.translate("SteeringCompareDialog", "control vectors {0}").format(vectors))
        if loras:
            parts.append(QCoreApplication.translate("SteeringCompareDialog", "LoRA {0}").format(loras))
        return "; ".join(parts)

    def show_runs(self, runs: SteeringRuns) -> None:
        self.runs = runs
        parted = runs.parted
        record = runs.b.result.steering
        self.steering_line.setToolTip(SteeringSummary.tip(record))
        self.text_a.title.setText(self.tr("<b>Unsteered (A)</b>: {0} tokens").format(len(runs.a.steps)))
        self.text_b.title.setText(self.tr("<b>Steered (B)</b>: {0} tokens — {1}").format(
            len(runs.b.steps), SteeringSummary.line(record)))
        compare = runs.along_b
        if compare is not None:
            self.kl_plot.show_kl(compare.kl, parted)
        self.summary.setText(self._summary(runs))
        self.status.setText(self.tr("Done: both answers and the comparison in {0:.1f} s. Click a token or a bar to "
                                    "see that step.").format(time.monotonic() - self._started))
        start = parted if parted is not None and parted < len(runs.b.steps) else (0 if runs.b.steps else None)
        self._show_texts()
        if start is not None:
            self.select_step(start)

    def _summary(self, runs: SteeringRuns) -> str:
        vocab, parted, compare = self.bridge.vocab, runs.parted, runs.along_b
        if parted is None:
            head = self.tr("The two answers are the same, token for token.")
        elif parted >= len(runs.b.steps) or parted >= len(runs.a.steps):
            head = self.tr("The answers agree for {0} tokens; then one ends.").format(parted)
        else:
            a, b = runs.a.steps[parted], runs.b.steps[parted]
            head = self.tr("They part at token {0}: A chose {1} (p {2}), B chose {3} (p {4}).").format(
                parted + 1, id_label(a.token, vocab), percent(a.p_raw), id_label(b.token, vocab), percent(b.p_raw))
        if compare is None:
            return head
        ppl_a, ppl_b = float(np.exp(-compare.logprob_a.mean())), float(np.exp(-compare.logprob_b.mean()))
        return sentences(head, self.tr("Along the steered answer: mean KL(A ‖ B) {0:.3f} nats (largest {1:.3f} at "
                                       "token {2}); its perplexity {3:.2f} unsteered, {4:.2f} steered.").format(
            float(compare.kl.mean()), float(compare.kl.max()), int(compare.kl.argmax()) + 1, ppl_a, ppl_b))

    def _show_texts(self) -> None:
        runs = self.runs
        if runs is None:
            return
        self.text_a.show_steps(runs.a.steps, runs.parted, self.step if self._a_shares(self.step) else None)
        self.text_b.show_steps(runs.b.steps, runs.parted, self.step)

    def _a_shares(self, step: int | None) -> bool:
        """Whether A's text reads the same context as B's at `step` (up to where they part)."""
        runs = self.runs
        parted = runs.parted if runs is not None else None
        return step is not None and (parted is None or step <= parted)

    def select_step(self, step: int) -> None:
        """A step of the steered answer: both distributions there, and both runs' lens (asked of the engine)."""
        runs = self.runs
        if runs is None or runs.along_b is None or not 0 <= step < len(runs.b.steps):
            if runs is not None and runs.parted is not None and step > runs.parted:
                self.status.setText(self.tr("Past the parting token, the comparison follows the steered answer: "
                                            "click a token of B."))
            return
        self.step = step
        self._show_texts()
        self.kl_plot.mark(step)
        compare, vocab = runs.along_b, self.bridge.vocab
        chosen = {runs.b.tokens[step]}
        if self._a_shares(step) and step < len(runs.a.steps):
            chosen.add(runs.a.tokens[step])
        shared = self.tr("the two runs read the same tokens up to here") if self._a_shares(step) else self.tr(
            "both models read the steered answer up to here")
        self.distributions.show_step(compare, step, vocab, chosen, self.tr(
            "Token {0} of the steered answer ({1}): KL(A ‖ B) = {2:.3f} nats; the answer's token {3}: p {4} "
            "unsteered, {5} steered. Before any sampler stage; the runs' choices in bold.").format(
            step + 1, shared, float(compare.kl[step]), id_label(runs.b.tokens[step], vocab),
            percent(float(np.exp(compare.logprob_a[step]))), percent(float(np.exp(compare.logprob_b[step])))))
        self._ask_lens(step)

    def _ask_lens(self, step: int) -> None:
        runs = self.runs
        if runs is None:
            return
        self._lens_wanted = step
        self.lens_caption.setText(self.tr("Reading the logit lens at token {0}, unsteered and steered…").format(step + 1))

        def done(found: StepLens) -> None:
            if self.runs is runs and self._lens_wanted == found.step:
                self.show_lens(found)

        def failed(message: str) -> None:
            if self.runs is runs and self._lens_wanted == step:
                self.lens_caption.setText(self.tr("The logit lens failed: {0}").format(message))

        self.bridge.call(lambda client: lens_at(client, runs, step), done=done, failed=failed, kind=JOB_COMPARE)

    def show_lens(self, found: StepLens) -> None:
        runs = self.runs
        if runs is None:
            return
        self.lens = found
        n_layer = self._n_layer()
        steering = runs.question.steering
        layers = steering.layer_range(n_layer) if steering.control_vectors and n_layer else None
        self.lens_table.show_lens(found, self.bridge.vocab, layers)
        self.lens_plot.show_lens(found, self.bridge.vocab, layers)
        where = (self.tr(" The control vectors are added to the output of layers {0}–{1} (tinted).").format(*layers)
                 if layers else "")
        tokens = list(dict.fromkeys(token for _side, token in found.lenses))
        self.lens_caption.setText(self.tr("Token {0}: the rank and probability of each run's token after every "
                                          "layer, read through the output head, unsteered and steered.{1} {2}").format(
            found.step + 1, escape(where), self.lens_plot.key(tokens, self.bridge.vocab)))


def install(bridge: EngineBridge, parent: QWidget, actions: ActionRegistry, model_menu: QMenu,
            controller: SteeringController, conversation: Callable[[], Conversation],
            turn: Callable[[], int]) -> SteeringCompareDialog:
    """The view, its Model-menu entry (`dialog.action`) and the Steering dock's Compare… button. It compares the
    answer of the inspected turn (the selected step's, else the last)."""
    dialog = SteeringCompareDialog(bridge, lambda: answer_to_compare(conversation(), turn()), controller.steering,
                                   parent)
    tip = QCoreApplication.translate(
        "SteeringCompareDialog", "Regenerate the selected answer with and without steering, side by side")
    dialog.action = actions.add(QCoreApplication.translate("SteeringCompareDialog", "Compare steerin&g…"),
                                dialog.open_for_selected, QKeySequence(SHORTCUT), tip)
    model_menu.addAction(dialog.action)
    controller.panel.compareRequested.connect(dialog.open_for_selected)
    return dialog
