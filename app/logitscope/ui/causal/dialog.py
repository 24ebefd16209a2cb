"""The Causal tracing dialog (Model ▸ Causal tracing…, Ctrl+Shift+K; right-click a layer in the Layers dock, or
Knock out in the Attention dock): on the step the Layers and Attention docks show,

- **Knock out**: heads and blocks ("23.4, 20.attn"), zero or mean: both next-token distributions side by side,
  KL(base ‖ knocked out), the chosen token's log-probability change, the top-1 change; and *Keep knocked out*
  for the next answers (a badge in the status line restores the model in one click);
- **Head scan**: every head (of every layer, or of the layers chosen) knocked out alone (progress, Cancel), the
  layers x heads heatmap of Δ log p of the chosen token, the ten that move it most (down or up); a click shows
  that head's effect and its attention over the prompt;
- **Patch**: a clean and a corrupted prompt of the same length, the layers x positions heatmap of the normalized
  logit difference (engine/forward/causal.py), the strongest cells; a click shows the patched distribution.

Every call runs on the bridge's worker (JOB_CAUSAL); Cancel (Esc) stops it within one evaluation. A remote
server cannot be traced: the entry is disabled with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.api import ModelInfo
from logitscope.protocol.causal import (
    ABLATE_MODES,
    AblateRequest,
    Ablation,
    AblationEffect,
    HeadScan,
    HeadScanRequest,
    PatchRequest,
    PatchResult,
    answer_token,
)
from logitscope.protocol.engine_like import EngineLike
from logitscope.protocol.steering import steering_from_record
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.causal.widgets import DistributionColumns, Heatmap
from logitscope.ui.common.messages import translate_message, translate_sentence
from logitscope.ui.common.spin_boxes import SpinBox
from logitscope.ui.common.tokens import id_label, percent
from logitscope.ui.window.screen_fit import resize_within_screen

if TYPE_CHECKING:
    from logitscope.ui.controllers.forward_inspector import ForwardInspector
    from logitscope.ui.inspector.inspected import Inspected
    from logitscope.ui.window.actions import ActionRegistry

SHORTCUT = "Ctrl+Shift+K"
JOB_CAUSAL = "causal"
TOP_HEADS = 10
CLEAN, CORRUPTED = "The capital of France is", "The capital of Italy is"


class CausalDialog(QDialog):
    progressed = Signal(float)         # a fraction, from the worker thread
    keptChanged = Signal()             # the heads kept knocked out for the next answers changed

    def __init__(self, bridge: EngineBridge, forward: ForwardInspector, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge, self.forward = bridge, forward
        self.kept: tuple[Ablation, ...] = ()    # knocked out in the next answers
        self.effect: AblationEffect | None = None
        self.scan: HeadScan | None = None
        self.patch: PatchResult | None = None
        self.patch_tokens: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self.running = False
        self.reason = ""
        self.action: QAction | None = None
        self.badge: QPushButton | None = None   # the status line's "Knocked out: …" (install)
        self.setWindowTitle(self.tr("Causal tracing"))
        resize_within_screen(self, 1000, 660)
        layout = QVBoxLayout(self)
        self.target = QLabel()
        self.target.setWordWrap(True)
        layout.addWidget(self.target)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._knockout_page(), self.tr("Knock out"))
        self.tabs.addTab(self._scan_page(), self.tr("Head scan"))
        self.tabs.addTab(self._patch_page(), self.tr("Patch"))
        layout.addWidget(self.tabs, 1)
        row = QHBoxLayout()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setVisible(False)
        self.progressed.connect(lambda f: self.progress.setValue(round(f * 100)))
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop within one evaluation (Esc)"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        row.addWidget(self.status, 1)
        row.addWidget(self.progress)
        row.addWidget(self.cancel_button)
        layout.addLayout(row)
        # a tab's result line is not another tab's ("Layer 10 patched" under the head scan); a job's stays
        self.tabs.currentChanged.connect(lambda _index: None if self.running else self.status.clear())

    # -- pages --------------------------------------------------------------------------------------------
    def _knockout_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        row = QHBoxLayout()
        self.targets = QLineEdit()
        self.targets.setPlaceholderText(self.tr("heads and blocks, e.g. 23.4, 20.attn, 5.ffn"))
        self.targets.returnPressed.connect(lambda: self.knock_out())
        self.mode = QComboBox()
        for mode in ABLATE_MODES:
            self.mode.addItem(self._mode_name(mode), mode)
        self.knock_button = QPushButton(self.tr("Knock out"))
        self.knock_button.clicked.connect(lambda: self.knock_out())
        self.keep_button = QPushButton(self.tr("Keep knocked out for the next answers"))
        self.keep_button.setToolTip(self.tr("Chat with the model with these heads and blocks zeroed; a badge in "
                                            "the status line restores it in one click"))
        self.keep_button.clicked.connect(self.keep)
        for widget in (QLabel(self.tr("Knock out")), self.targets, self.mode, self.knock_button, self.keep_button):
            row.addWidget(widget, 1 if widget is self.targets else 0)
        layout.addLayout(row)
        self.effect_line = QLabel()
        self.effect_line.setWordWrap(True)
        self.effect_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.effect_line)
        self.effect_tables = DistributionColumns([self.tr("The model"), self.tr("Knocked out")])
        layout.addWidget(self.effect_tables, 1)
        return page

    def _mode_name(self, mode: str) -> str:
        return self.tr("zero") if mode == "zero" else self.tr("mean over the prompt")

    def _scan_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        row = QHBoxLayout()
        self.scan_button = QPushButton(self.tr("Scan every head"))
        self.scan_button.setToolTip(self.tr("Knock out each head of each layer alone (one evaluation each) and rank "
                                            "them by how much the chosen token loses"))
        self.scan_button.clicked.connect(lambda: self.run_scan())
        row.addWidget(self.scan_button)
        # the layers scanned: every one by default; fewer for a long prompt on a deep model (one evaluation a head)
        self.scan_first, self.scan_last = SpinBox(), SpinBox()
        for spin in (self.scan_first, self.scan_last):
            spin.setRange(0, 0)   # until a model says how many it has (set_layers): 0 to 0 means every layer
        self.scan_first.setToolTip(self.tr("The first layer whose heads are knocked out"))
        self.scan_last.setToolTip(self.tr("The last layer whose heads are knocked out"))
        self.scan_first.valueChanged.connect(lambda v: self.scan_last.setValue(max(v, self.scan_last.value())))
        self.scan_last.valueChanged.connect(lambda v: self.scan_first.setValue(min(v, self.scan_first.value())))
        for widget in (QLabel(self.tr("layers")), self.scan_first, QLabel(self.tr("to")), self.scan_last):
            row.addWidget(widget)
        self.scan_caption = QLabel()
        self.scan_caption.setWordWrap(True)
        row.addWidget(self.scan_caption, 1)
        layout.addLayout(row)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.scan_map = Heatmap(self.tr("head"), self.tr("layer"))
        self.scan_map.cellClicked.connect(self._scan_cell)
        self.top_heads = QListWidget()
        self.top_heads.setWordWrap(True)   # a line's end says the new top-1: wrapped, never behind a scroll bar
        self.top_heads.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.top_heads.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.top_heads.itemActivated.connect(lambda item: self._scan_cell(*item.data(Qt.ItemDataRole.UserRole)))
        self.top_heads.itemClicked.connect(lambda item: self._scan_cell(*item.data(Qt.ItemDataRole.UserRole)))
        split.addWidget(self.scan_map)
        split.addWidget(self.top_heads)
        split.setSizes([620, 320])
        layout.addWidget(split, 1)
        return page

    def _patch_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        form = QFormLayout()
        self.clean = QLineEdit(CLEAN)
        self.corrupted = QLineEdit(CORRUPTED)
        self.answer = QLineEdit()
        self.answer.setPlaceholderText(self.tr("the clean run's top token"))
        self.versus = QLineEdit()
        self.versus.setPlaceholderText(self.tr("the corrupted run's top token"))
        form.addRow(self.tr("Clean prompt"), self.clean)
        form.addRow(self.tr("Corrupted prompt"), self.corrupted)
        pair = QHBoxLayout()
        pair.addWidget(self.answer)
        pair.addWidget(QLabel(self.tr("versus")))
        pair.addWidget(self.versus)
        self.patch_button = QPushButton(self.tr("Patch"))
        self.patch_button.clicked.connect(lambda: self.run_patch())
        pair.addWidget(self.patch_button)
        form.addRow(self.tr("Answer token"), pair)
        layout.addLayout(form)
        self.patch_caption = QLabel()
        self.patch_caption.setWordWrap(True)
        layout.addWidget(self.patch_caption)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.patch_map = Heatmap(self.tr("position"), self.tr("layer"))
        self.patch_map.cellClicked.connect(self._patch_cell)
        split.addWidget(self.patch_map)
        self.patch_tables = DistributionColumns([self.tr("Clean"), self.tr("Corrupted"), self.tr("Patched")])
        split.addWidget(self.patch_tables)
        split.setSizes([400, 560])   # three distributions need the room more than the map
        layout.addWidget(split, 1)
        return page

    # -- the step -----------------------------------------------------------------------------------------
    def step(self) -> Inspected | None:
        return self.forward.last

    def _step_request(self) -> tuple[tuple[int, ...], int | None, Any] | None:
        """(tokens, chosen, steering) of the step the docks show; None (said) when there is none."""
        found = self.step()
        if self.reason:
            self.status.setText(self.reason)
            return None
        if found is None:
            self.status.setText(self.forward.unavailable_reason() or self.tr(
                "Select a step of an answer and show it in the Layers or Attention dock first: causal tracing works "
                "on that step."))
            return None
        lens = found.inspection.lens
        chosen = lens.chosen if lens is not None else None
        return tuple(found.inspection.tokens), chosen, steering_from_record(found.inspection.steering)

    def _describe_target(self) -> None:
        found = self.step()
        if found is None:
            self.target.setText(self.forward.unavailable_reason() or self.tr(
                "No step: select a token of an answer and open the Layers dock."))
            return
        tokens = found.inspection.tokens
        lens = found.inspection.lens
        chosen = id_label(lens.chosen, self.bridge.vocab) if lens is not None else "?"
        self.target.setText(self.tr("Step {0} of the selected answer: {1} tokens of context, the token chosen {2}. "
                                    "Knocking out and patching change llama.cpp's own forward pass.").format(
            found.step.step_index, len(tokens), chosen))

    # -- running ------------------------------------------------------------------------------------------
    def set_layers(self, n_layer: int) -> None:
        """The loaded model's layers: the scan covers all of them until the user narrows it."""
        if n_layer > 0 and self.scan_last.maximum() != n_layer - 1:
            for spin in (self.scan_first, self.scan_last):
                spin.setRange(0, n_layer - 1)
            self.scan_first.setValue(0)
            self.scan_last.setValue(n_layer - 1)

    def set_available(self, reason: str) -> None:
        self.reason = reason
        for button in (self.knock_button, self.scan_button, self.patch_button, self.keep_button):
            button.setEnabled(not reason and not self.running)
        if reason:
            self.status.setText(reason)

    def _start(self, text: str, job: Callable[[EngineLike], Any], done: Callable[[Any], None],
               progress: bool = False) -> None:
        self.running = True
        for button in (self.knock_button, self.scan_button, self.patch_button):
            button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setVisible(progress)
        self.progress.setValue(0)
        self.status.setText(text)

        def finished(value: Any) -> None:
            self._finish()
            if value is None:
                self.status.setText(self.tr("Cancelled."))
                return
            done(value)

        def failed(message: str) -> None:
            self._finish()
            self.status.setText(self.tr("Cancelled.") if message == "cancelled" else
                                self.tr("Causal tracing failed: {0}").format(translate_message(message)))

        self.bridge.call(job, done=finished, failed=failed, kind=JOB_CAUSAL)

    def _finish(self) -> None:
        self.running = False
        self.set_available(self.reason)
        self.cancel_button.setEnabled(False)
        self.progress.setVisible(False)

    def cancel(self) -> None:
        if self.running:
            self.bridge.cancel(JOB_CAUSAL)
            self.cancel_button.setEnabled(False)
            self.status.setText(self.tr("Cancelling…"))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() == Qt.Key.Key_Escape and self.running:
            self.cancel()
            event.accept()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        self.cancel()
        super().closeEvent(event)

    def open_on(self, targets: str = "", tab: int = 0) -> None:
        """Shown on the docks' step; with `targets`, knocked out at once."""
        self._describe_target()
        self.tabs.setCurrentIndex(tab)
        self.show()
        self.raise_()
        self.activateWindow()
        if targets:
            self.targets.setText(targets)
            self.knock_out()

    def parsed_targets(self) -> tuple[Ablation, ...] | None:
        """The heads and blocks named, each checked against the loaded model; None (said, and the last effect
        taken off the screen: it is not of what the field names now) when they are not."""
        info = self.bridge.info
        try:
            found = tuple(Ablation.parse(t) for t in self.targets.text().split(",") if t.strip())
            if isinstance(info, ModelInfo):
                for ablation in found:
                    ablation.validate(info.card.n_layer, info.card.n_head)
        except InvalidSettingsError as exc:
            self.effect = None
            self.effect_line.clear()
            self.effect_tables.show_distributions((None, None), self.bridge.vocab, set())
            self.status.setText(translate_sentence(exc))
            return None
        if not found:
            self.status.setText(self.tr("Name what to knock out: a head (23.4), or a layer's attn or ffn block "
                                        "(20.attn), several separated by commas."))
            return None
        return found

    def knock_out(self) -> None:
        step = self._step_request()
        ablations = self.parsed_targets() if step is not None and not self.running else None
        if step is None or ablations is None:
            return
        tokens, chosen, steering = step
        request = AblateRequest(tokens, ablations, mode=self.mode.currentData(), chosen=chosen, steering=steering)
        self._start(self.tr("Knocking out {0}…").format(", ".join(a.label for a in ablations)),
                    lambda client: client.ablate(request), self.show_effect)

    def run_scan(self) -> None:
        step = self._step_request()
        if step is None or self.running:
            return
        tokens, chosen, steering = step
        layers = (self.scan_first.value(), self.scan_last.value())
        every = layers == (0, self.scan_last.maximum())
        request = HeadScanRequest(tokens, mode=self.mode.currentData(), chosen=chosen, steering=steering,
                                  layers=None if every else layers)
        self._start(self.tr("Knocking out every head, one at a time…"),
                    lambda client: client.head_scan(request, on_progress=self.progressed.emit), self.show_scan,
                    progress=True)

    def run_patch(self, cell: tuple[str, int, int] | None = None) -> None:
        if self.reason or self.running:
            self.status.setText(self.reason)
            return
        clean_text, corrupted_text = self.clean.text(), self.corrupted.text()
        answer_text, versus_text = self.answer.text(), self.versus.text()
        if not clean_text.strip() or not corrupted_text.strip():
            self.status.setText(self.tr("Write both prompts first."))
            return

        def job(client: EngineLike) -> tuple[Any, ...]:
            clean = tuple(client.tokenize(clean_text, True, False))
            corrupted = tuple(client.tokenize(corrupted_text, True, False))
            if len(clean) != len(corrupted):
                return ("lengths", len(clean), len(corrupted))
            def tokenize(text: str) -> list[int]:
                return client.tokenize(text, False, False)

            n_vocab = len(self.bridge.vocab)
            answer = answer_token(tokenize, answer_text.strip("\n"), n_vocab, self.tr("Answer token"))
            versus = answer_token(tokenize, versus_text.strip("\n"), n_vocab, self.tr("versus"))
            request = PatchRequest(clean, corrupted, answer=answer, versus=versus, cell=cell)
            return ("done", clean, corrupted, client.patch(request, on_progress=self.progressed.emit))

        self._start(self.tr("Patching every layer at every position…") if cell is None else
                    self.tr("Patching one cell…"), job, lambda value: self._patched(value, cell), progress=cell is None)

    # -- showing ------------------------------------------------------------------------------------------
    def show_effect(self, effect: AblationEffect) -> None:
        self.effect = effect
        vocab = self.bridge.vocab
        change = (self.tr("the top-1 changes from {0} to {1}").format(
            id_label(int(effect.base.top_ids[0]), vocab), id_label(int(effect.ablated.top_ids[0]), vocab))
            if effect.top1_changed else self.tr("the top-1 stays {0}").format(
            id_label(int(effect.base.top_ids[0]), vocab)))
        self.effect_line.setText(self.tr("{0} knocked out ({1}): KL(model ‖ knocked out) = {2:.4f} nats; {3}: p {4} → "
                                         "{5} (Δ log p {6:+.3f}); {7}.").format(
            ", ".join(effect.ablations), self._mode_name(effect.mode), effect.kl, id_label(effect.chosen, vocab),
            percent(float(np.exp(effect.base.chosen_logprob))), percent(float(np.exp(effect.ablated.chosen_logprob))),
            effect.delta_logprob, change))
        self.effect_tables.show_distributions((effect.base, effect.ablated), vocab, {effect.chosen})
        self.status.setText(self.tr("Done in {0:.2f} s.").format(effect.seconds))

    def show_scan(self, scan: HeadScan) -> None:
        self.scan = scan
        vocab = self.bridge.vocab
        self.scan_map.set_matrix(scan.delta_logprob)
        self.top_heads.clear()
        for layer, head, kl, delta, changed in scan.ranked()[:TOP_HEADS]:
            text = self.tr("{0}.{1}: Δ log p {2:+.3f}, KL {3:.3f}{4}").format(
                layer, head, delta, kl, self.tr(", top-1 → {0}").format(id_label(int(scan.top1[layer, head]), vocab))
                if changed else "")
            self.top_heads.addItem(text)
            self.top_heads.item(self.top_heads.count() - 1).setData(Qt.ItemDataRole.UserRole, (layer, head))
        layers, n_head = scan.scanned, scan.kl.shape[1]
        self.scan_caption.setText(self.tr("{0} heads of layers {1}–{2} knocked out one at a time in {3:.1f} s. Colour: "
                                          "Δ log p of {4} (red: the head helps it, blue: it hurts it). Click a head "
                                          "for its effect and its attention.").format(
            len(layers) * n_head, layers.start, layers.stop - 1, scan.seconds, id_label(scan.chosen, vocab)))
        self.status.setText(self.tr("Head scan done."))

    def _scan_cell(self, layer: int, head: int) -> None:
        self.scan_map.mark(layer, head)
        self.targets.setText(f"{layer}.{head}")
        self.forward.show_head(layer, head)   # that head's attention over the step's context
        self.tabs.setCurrentIndex(0)
        self.knock_out()

    def _patched(self, value: tuple[Any, ...], cell: tuple[str, int, int] | None) -> None:
        if value[0] == "lengths":
            self.status.setText(self.tr("The two prompts must have the same number of tokens: the clean one has "
                                        "{0}, the corrupted one {1}. Nothing was run.").format(value[1], value[2]))
            return
        _done, clean, corrupted, result = value
        vocab = self.bridge.vocab
        self.patch_tables.show_distributions((result.clean, result.corrupted, result.patched), vocab,
                                             {result.answer, result.versus})
        if cell is not None:
            self.status.setText(self.tr("Layer {0}, position {1} patched: score {2:+.3f}.").format(
                cell[1], cell[2], result.cell_score))
            return
        self.patch, self.patch_tokens = result, (clean, corrupted)
        self.patch_map.set_matrix(result.scores["resid"], [id_label(t, vocab) for t in clean])
        strongest = ", ".join(self.tr("layer {0} at {1} ({2:+.2f})").format(layer, id_label(clean[p], vocab), s)
                              for _kind, layer, p, s in result.strongest(3))
        self.patch_caption.setText(self.tr("{0} versus {1}: logit difference {2:+.2f} clean, {3:+.2f} corrupted. "
                                           "Colour: the clean run's residual stream at that layer and position "
                                           "written into the corrupted run (1 = the clean answer, 0 = the corrupted "
                                           "one). Strongest: {4}. Click a cell for its distribution.").format(
            id_label(result.answer, vocab), id_label(result.versus, vocab), result.ld_clean, result.ld_corrupted,
            strongest) + self._spacing_hint(result.answer, result.clean.top_ids, vocab))
        self.status.setText(self.tr("Patched {0} cells in {1:.1f} s.").format(result.scores["resid"].size,
                                                                               result.seconds))

    def _spacing_hint(self, token: int, clean_top: np.ndarray, vocab: Sequence[bytes]) -> str:
        """' Note: Paris is not what the clean run predicts: ·Paris is…' when the answer token is a word written
        without the space (or with one) that the token the clean run ranks above it has: a newcomer's usual slip."""
        if not 0 <= token < len(vocab):
            return ""
        word = vocab[token].decode("utf-8", "replace").strip()
        for other in (int(t) for t in clean_top[:10]):
            if other == token:
                return ""   # the clean run ranks it first among its spellings
            text = vocab[other].decode("utf-8", "replace") if 0 <= other < len(vocab) else ""
            if word and text.strip() == word:
                spaced = text[:1].isspace() and not vocab[token][:1].isspace()
                return " " + (self.tr("Note: {0} is not what the clean run predicts: {1} is, the same word with its "
                                      "space (a word after a space is a token of its own). Write the answer with "
                                      "it.") if spaced else
                              self.tr("Note: {0} is not what the clean run predicts: {1} is, the same word without "
                                      "the space (a word right after a quote or a bracket has none). Write the "
                                      "answer without it.")).format(id_label(token, vocab), id_label(other, vocab))
        return ""

    def _patch_cell(self, layer: int, position: int) -> None:
        if self.patch is not None and self.patch_tokens is not None:
            self.run_patch(("resid", layer, position))

    # -- kept knocked out ---------------------------------------------------------------------------------
    def keep(self) -> None:
        ablations = self.parsed_targets()
        if ablations is not None:
            self.kept = ablations
            self.keptChanged.emit()
            self.status.setText(self.tr("The next answers are generated with {0} knocked out.").format(
                ", ".join(a.label for a in ablations)))

    def restore(self) -> None:
        self.kept = ()
        self.keptChanged.emit()


def install(bridge: EngineBridge, parent: QWidget, actions: ActionRegistry, model_menu: QMenu,
            forward: ForwardInspector, models: Any, session: Any, bar: Any) -> CausalDialog:
    """The dialog, its Model-menu entry, the docks' Knock out entries, and the status line's badge while heads
    are kept knocked out (the session's next requests carry them)."""
    dialog = CausalDialog(bridge, forward, parent)
    tip = QCoreApplication.translate("CausalDialog", "Knock out heads and blocks, scan every head, patch activations")
    action = actions.add(QCoreApplication.translate("CausalDialog", "C&ausal tracing…"), lambda: dialog.open_on(),
                         QKeySequence(SHORTCUT), tip)
    dialog.action = action
    model_menu.addAction(action)
    forward.layers_panel.knockoutRequested.connect(lambda targets: dialog.open_on(targets))
    forward.attention_panel.knockoutRequested.connect(lambda targets: dialog.open_on(targets))
    badge = QPushButton()
    badge.setObjectName("knockoutBadge")
    badge.setFlat(True)
    badge.setToolTip(QCoreApplication.translate("CausalDialog", "The next answers are generated with these heads "
                                                "knocked out (Causal tracing). Click to restore the model."))
    badge.clicked.connect(dialog.restore)
    badge.setVisible(False)
    bar.insertPermanentWidget(0, badge)
    dialog.badge = badge

    def kept_changed() -> None:
        labels = ", ".join(a.label for a in dialog.kept)
        badge.setText(QCoreApplication.translate("CausalDialog", "Knocked out: {0} ✕").format(labels))
        badge.setVisible(bool(dialog.kept))

    dialog.keptChanged.connect(kept_changed)
    session.services = replace(session.services, knockouts=lambda: dialog.kept)

    def update() -> None:
        local = models.capabilities.get("forward_pass") is not False
        reason = "" if local else QCoreApplication.translate(
            "CausalDialog", "Causal tracing needs a local model: a server does not let anyone write into its "
            "forward pass.")
        action.setEnabled(local)
        action.setStatusTip(reason or tip)
        dialog.set_available(reason)
        if isinstance(bridge.info, ModelInfo):
            dialog.set_layers(bridge.info.card.n_layer)
        if not local and dialog.kept:
            dialog.restore()

    models.changed.connect(update)
    update()
    return dialog
