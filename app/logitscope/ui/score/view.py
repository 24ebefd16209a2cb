"""The Score dialog: paste or open a text and see how surprising every token was to the
loaded model — coloured by GLTR rank bucket or by probability, each token's numbers and alternatives on
hover, a histogram of the ranks, and the text's perplexity and bits per token. Opened from Model ▸ Score a
text… (Ctrl+Shift+T).

Two models compare by surprisal ("Compare with…": the second one reads the same tokens) or by KL divergence
("KL divergence with…", or start_kl_comparison(base, other) from the Quantize dialog): llama-perplexity's
--kl-divergence, both models in an engine process of their own one after the other (host/kl_job.py), the
tokens coloured by their KL, its statistics block, histogram and the tokens whose top-1 differs (kl_panel.py).

Scoring runs on the bridge's worker (the engine process), never on the GUI thread; the engine's progress
comes back through a signal, and Cancel stops it. Only a local engine scores (a remote server cannot give
every token's rank), so the action is disabled with the reason otherwise.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import LogitscopeError
from logitscope.base.utf8 import read_text_file
from logitscope.gguf.memory import format_bytes
from logitscope.host.kl_job import LOAD_BASE, LOAD_OTHER, SCORE_BASE, SCORE_OTHER, KlJob, KlOutcome
from logitscope.host.score_compare import same_tokens, scoring_settings
from logitscope.protocol.api import ModelInfo
from logitscope.protocol.score import DEFAULT_SCORE_CTX, MIN_SCORE_CTX, ScoreRequest, ScoreResult
from logitscope.ui.bridge import JOB_GENERATE, JOB_SCORE, EngineBridge
from logitscope.ui.common.messages import translate_message, translate_sentence
from logitscope.ui.common.spin_boxes import SpinBox
from logitscope.ui.score.compare import CompareEngine, ComparePicker, settings_like
from logitscope.ui.score.kl_panel import KlStatistics, TopDifferences
from logitscope.ui.score.kl_target import KlTarget
from logitscope.ui.score.summary import compare_html, kl_summary_html, summary_html
from logitscope.ui.score.widgets import RankHistogram, ScoredText, ScoreLegend
from logitscope.ui.window import file_folders
from logitscope.ui.window.layout import scroll_area
from logitscope.ui.window.screen_fit import resize_within_screen

if TYPE_CHECKING:
    from logitscope.ui.controllers.model import ModelController
    from logitscope.ui.window.actions import ActionRegistry

SHORTCUT = "Ctrl+Shift+T"
PROGRESS_STEPS = 1000
# a KL comparison's bar: where each of its four steps starts and how much of the bar it takes
KL_SPANS = {LOAD_BASE: (0.0, 0.05), SCORE_BASE: (0.05, 0.45), LOAD_OTHER: (0.5, 0.05), SCORE_OTHER: (0.55, 0.45)}
SUMMARY_TAB, KL_TAB, TOP_TAB = 0, 1, 2


class ScoreDialog(QDialog):
    progressed = Signal(float)  # emitted on the worker thread, delivered on the GUI thread (queued)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.scored: ScoreResult | None = None
        self.other: ScoreResult | None = None    # the second model's scores of the same tokens
        self.compare = CompareEngine(self)
        self.compare.loading.connect(self._compare_loading)
        self.compare.scoring.connect(self._compare_scoring)
        self.compare.done.connect(self._compare_done)
        self.compare.failed.connect(self._compare_failed)
        self.compare.kl_progress.connect(self._kl_progress)
        self.compare.kl_size.connect(self._kl_sized)
        self.compare.kl_done.connect(self._kl_done)
        self.finished.connect(self._closed)
        self._first: ScoreResult | None = None   # the first model's result while the second one scores
        self._comparing = ""                     # the second model's name while it loads / scores
        self._request = ScoreRequest()           # the last one run
        self._kl_names: tuple[str, str] | None = None   # A and B while a KL comparison runs
        self._kl_bytes = 0                       # its temporary file's size, once known
        self._kl_started = 0.0
        self._mode_note = ""                     # the switch to chunks a KL pick made, not said yet at its start
        self.running = False
        self.reason = ""          # why scoring is not possible now ("" when it is)
        self.setWindowTitle(self.tr("Score a text"))
        resize_within_screen(self, 1000, 680)
        layout = QVBoxLayout(self)
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText(self.tr("Paste a text here, or open a UTF-8 text file."))
        self.text.setMaximumHeight(140)
        self.text.setTabChangesFocus(True)  # Tab moves on to the buttons: a pasted text needs no typed tab
        layout.addWidget(self.text)
        row = QHBoxLayout()
        self.open_button = QPushButton(self.tr("Open file…"))
        self.open_button.clicked.connect(lambda: self.open_file())
        row.addWidget(self.open_button)
        row.addWidget(QLabel(self.tr("Mode")))
        self.mode = QComboBox()
        self.mode.addItem(self.tr("Sliding window"), "window")
        self.mode.addItem(self.tr("llama.cpp perplexity (chunks)"), "chunks")
        self.mode.setToolTip(self.tr(
            "Sliding window: every token is scored, each from as much of the text before it as the window holds.\n"
            "llama.cpp perplexity: the protocol of llama.cpp's llama-perplexity tool: the text is cut into chunks "
            "of the context size and only the second half of each chunk is scored (its figure is comparable with "
            "llama.cpp's)."))
        self.mode.currentIndexChanged.connect(lambda *_: self._mode_changed())
        row.addWidget(self.mode)
        self.ctx_label = QLabel(self.tr("Window"))
        row.addWidget(self.ctx_label)
        self.n_ctx = SpinBox()
        self.n_ctx.setRange(MIN_SCORE_CTX, DEFAULT_SCORE_CTX)
        self.n_ctx.setValue(DEFAULT_SCORE_CTX)
        self.n_ctx.setSuffix(self.tr(" tokens"))
        row.addWidget(self.n_ctx)
        row.addStretch(1)
        self.progress = QProgressBar()
        self.progress.setRange(0, PROGRESS_STEPS)
        self.progress.setVisible(False)
        row.addWidget(self.progress)
        self.score_button = QPushButton(self.tr("Score"))
        self.score_button.setDefault(True)
        self.score_button.clicked.connect(self.run)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the scoring (Esc)"))
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        row.addWidget(self.score_button)
        row.addWidget(self.cancel_button)
        layout.addLayout(row)
        self.picker = ComparePicker()
        self.picker.changed.connect(self._picked)
        layout.addWidget(self.picker)
        colors = QHBoxLayout()
        colors.addWidget(QLabel(self.tr("Colour by:")))
        self.by_rank = QRadioButton(self.tr("rank (GLTR)"))
        self.by_probability = QRadioButton(self.tr("probability"))
        self.by_difference = QRadioButton(self.tr("difference (B − A)"))
        self.by_difference.setToolTip(self.tr("Comparing two models: how much more (red) or less (blue) surprised "
                                              "model B was by each token than model A, in bits."))
        self.by_difference.setEnabled(False)
        self.by_kl = QRadioButton(self.tr("KL divergence"))
        self.by_kl.setToolTip(self.tr("Comparing by KL divergence: how far model B's next-token distribution was "
                                      "from model A's at each scored token, in nats; underlined where B's top-1 "
                                      "differs from A's."))
        self.by_kl.setEnabled(False)
        self.by_rank.setChecked(True)
        group = QButtonGroup(self)
        for button in (self.by_rank, self.by_probability, self.by_difference, self.by_kl):
            group.addButton(button)
            colors.addWidget(button)
        group.buttonToggled.connect(lambda *_: self.set_color_by())
        self.legend = ScoreLegend()
        colors.addWidget(self.legend, 1)
        layout.addLayout(colors)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        self.view = ScoredText()
        splitter.addWidget(self.view)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.addWidget(QLabel(self.tr("<b>Ranks</b> (tokens per bucket)")))
        self.histogram = RankHistogram()
        side_layout.addWidget(self.histogram)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        side_layout.addWidget(self.summary)
        side_layout.addStretch(1)
        self.side = scroll_area(side)  # a comparison's summary is taller than the panel at 1280x720
        self.side_tabs = QTabWidget()
        self.side_tabs.addTab(self.side, self.tr("Summary"))
        self.kl_stats = KlStatistics()
        self.side_tabs.addTab(self.kl_stats, self.tr("KL divergence"))
        self.top_diffs = TopDifferences()
        self.top_diffs.tokenClicked.connect(self.select_token)
        self.side_tabs.addTab(self.top_diffs, self.tr("Top-1 differs"))
        for tab in (KL_TAB, TOP_TAB):
            self.side_tabs.setTabVisible(tab, False)
        splitter.addWidget(self.side_tabs)
        splitter.setSizes([680, 320])
        self.splitter = splitter
        layout.addWidget(splitter, 1)
        self.status = QLabel(self.ready_text())
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.progressed.connect(lambda f: self.progress.setValue(round(f * PROGRESS_STEPS)))

    # -- input ------------------------------------------------------------------------------------------
    def open_file(self, path: str | None = None) -> bool:
        """Put a UTF-8 text file in the box; a file that is not one says so in the status line."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a text to score"),
                                                  file_folders.start(file_folders.DOCUMENT),
                                                  self.tr("Text files (*.txt *.md);;All files (*)"))
            file_folders.chosen(file_folders.DOCUMENT, path)
            if not path:
                return False
        try:
            text = read_text_file(Path(path))
        except LogitscopeError as exc:
            self.status.setText(translate_sentence(exc))
            return False
        if not text.strip():
            self.status.setText(self.tr("{0} holds no text to score.").format(Path(path).name))
            return False
        self.text.setPlainText(text)
        self.status.setText(self.tr("Opened {0} ({1:,} characters).").format(Path(path).name, len(text)))
        return True

    def _mode_changed(self) -> None:
        self.ctx_label.setText(self.tr("Chunk") if self.mode.currentData() == "chunks" else self.tr("Window"))

    def set_available(self, reason: str, model_ctx: int) -> None:
        """`reason`: why scoring cannot run now ("" when it can); `model_ctx` caps the window."""
        if self.status.text() == self.reason and reason != self.reason:
            self.status.setText(self.ready_text())   # the old reason (no model, a server) is no longer true
        self.reason = reason
        if model_ctx >= MIN_SCORE_CTX:
            self.n_ctx.setMaximum(model_ctx)
        self.score_button.setEnabled(not self.blocked() and not self.running)
        if self.blocked() and not self.running:
            self.status.setText(reason)

    def ready_text(self) -> str:
        return self.tr("Paste or open a text and press Score.")

    def blocked(self) -> str:
        """Why Score cannot run now: the loaded model's reason, unless a KL comparison of two files needs none."""
        kl = self.picker.kl
        return "" if kl is not None and kl.base is not None else self.reason

    def _picked(self) -> None:
        if self.picker.kl is not None:
            self._mode_note = self._use_chunks()   # said now, and again when the comparison starts
            if self._mode_note:
                self.status.setText(self._mode_note)
        self.score_button.setEnabled(not self.blocked() and not self.running)

    def _use_chunks(self) -> str:
        """The KL divergence is measured in llama-perplexity's chunks: switch to them (what to say, "" if set)."""
        if self.mode.currentData() == "chunks":
            return ""
        self.mode.setCurrentIndex(self.mode.findData("chunks"))
        return self.tr("The KL divergence follows llama-perplexity's chunks: the mode is now llama.cpp "
                       "perplexity (chunks).")

    # -- running ----------------------------------------------------------------------------------------
    def run(self) -> None:
        if self.running:
            return
        if self.blocked():
            self.status.setText(self.reason)
            return
        if self.picker.kl is not None:
            self._run_kl(self.picker.kl)
            return
        request = ScoreRequest(text=self.text.toPlainText(), n_ctx=self.n_ctx.value(), mode=self.mode.currentData())
        try:
            request.validate()
        except LogitscopeError as exc:
            self.status.setText(translate_sentence(exc))
            return
        self.running, self._request = True, request
        self.score_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.status.setText(self.waiting_text() if self.bridge.busy else self.tr("Scoring…"))
        self.bridge.call(lambda client: client.score(request, self.progressed.emit), done=self._done,
                         failed=self._failed, kind=JOB_SCORE, started=lambda: self.status.setText(self.tr("Scoring…")))

    def waiting_text(self) -> str:
        """What the status says while the engine finishes another job first (one model, one job at a time)."""
        if self.bridge.running_kind == JOB_GENERATE:
            return self.tr("Waiting for the chat's answer to finish (the model does one thing at a time)…")
        return self.tr("Waiting for the engine to finish its current task…")

    def cancel(self) -> None:
        """Stop this dialog's scoring (queued or running); a chat answer streaming meanwhile goes on."""
        if self._first is not None or self._kl_names is not None:
            self.compare.cancel()
        else:
            self.bridge.cancel(JOB_SCORE)

    def _closed(self, _code: int) -> None:
        """Nobody is watching: the scoring stops (it would hold the engine, and then start the comparison's
        engine process for a closed dialog) and the second engine process ends."""
        if self.running:
            self.bridge.cancel(JOB_SCORE)
        self.compare.close()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() == Qt.Key.Key_Escape and self.running:
            self.cancel()  # Esc stops the scoring, as in the Beams dialog; it no longer hides a running score
            event.accept()
            return
        super().keyPressEvent(event)

    def _finish(self) -> None:
        self.running = False
        self._first, self._comparing, self._kl_names = None, "", None
        self.score_button.setEnabled(not self.blocked())
        self.cancel_button.setEnabled(False)
        self.progress.setVisible(False)

    def _failed(self, message: str) -> None:
        self._finish()
        self.status.setText(self.tr("Scoring stopped: {0}").format(translate_message(message)))

    def _done(self, result: ScoreResult) -> None:
        info = self.bridge.info
        if self.picker.path is None or not isinstance(info, ModelInfo) or not self.isVisible():
            self._finish()
            self.show_result(result)
            return
        # the same token ids with the second model, in its own engine process
        self._first, self._comparing = result, self.picker.name
        self.progress.setValue(0)
        self.status.setText(self.tr("Starting a second engine process for {0}…").format(self._comparing))
        request = same_tokens(result, self._request)
        self.compare.score(self.picker.path, settings_like(info.load), request, list(self.bridge.vocab))

    def _compare_loading(self, fraction: float) -> None:
        if self._first is not None:
            self.progress.setValue(round(fraction * PROGRESS_STEPS))
            self.status.setText(self.tr("Loading {0} in a second engine process…").format(self._comparing))

    def _compare_scoring(self, fraction: float) -> None:
        if self._first is not None:
            self.progress.setValue(round(fraction * PROGRESS_STEPS))
            self.status.setText(self.tr("Scoring with {0}…").format(self._comparing))

    def _compare_failed(self, message: str) -> None:
        """The first model's result stays on show; the status says why the second one has none."""
        first = self._first
        if first is not None:
            self.show_result(first)
        self._failed(message)

    def _compare_done(self, other: ScoreResult) -> None:
        first, name = self._first, self._comparing
        if first is None:
            return
        self._finish()
        self.show_result(first, other, name)

    # -- a KL divergence comparison ------------------------------------------------------------------------
    def start_kl_comparison(self, base_path: str, other_path: str) -> None:
        """Compare `other_path` (a quantization, say) with `base_path` (its original) by KL divergence on the
        text in the box, as llama-perplexity --kl-divergence does: the dialog comes up set for it and runs at
        once when it holds a text (else it says to give one). Neither file need be the loaded model."""
        self.picker.set_kl(KlTarget(other=other_path, base=base_path))
        self.show()
        self.raise_()
        self.activateWindow()
        if self.running:
            self.status.setText(self.tr("Another scoring is running: press Score once it is done (or cancel it)."))
            return
        if not self.text.toPlainText().strip():
            self.status.setText(self.tr(
                "Paste or open a text of at least {0:,} tokens (two chunks), then press Score: {1} compared with {2} "
                "by KL divergence.").format(2 * self.n_ctx.value(), Path(other_path).name, Path(base_path).name))
            self.text.setFocus()
            return
        self.run()

    def _run_kl(self, target: KlTarget) -> None:
        info = self.bridge.info
        base = target.base or (info.card.path if isinstance(info, ModelInfo) else None)
        if base is None:
            self.status.setText(self.tr("Load a model to compare it by KL divergence."))
            return
        note, self._mode_note = self._use_chunks() or self._mode_note, ""
        # both load as the window's model did (threads, GPU layers, flash attention, KV cache), else as the CLI
        settings = settings_like(info.load) if isinstance(info, ModelInfo) else scoring_settings()
        try:
            job = KlJob(self.text.toPlainText(), self.n_ctx.value(), base, settings, target.other_path(base),
                        target.other_settings(settings))
            job.validate()
        except LogitscopeError as exc:
            self.status.setText(translate_sentence(exc))
            return
        self.running, self._kl_names, self._kl_bytes = True, target.names(base), 0
        self._kl_started = time.monotonic()
        self.score_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.status.setText((note + " " if note else "") + self.tr("Starting an engine process for {0}…").format(
            self._kl_names[0]))
        self.compare.kl(job)

    def _kl_sized(self, size: int) -> None:
        self._kl_bytes = size

    def _kl_progress(self, phase: str, fraction: float) -> None:
        names = self._kl_names
        if names is None:
            return
        start, span = KL_SPANS[phase]
        self.progress.setValue(round((start + span * fraction) * PROGRESS_STEPS))
        size = format_bytes(self._kl_bytes)
        self.status.setText({
            LOAD_BASE: self.tr("1/2: loading {0}…").format(names[0]),
            SCORE_BASE: self.tr("1/2: scoring with {0}, its distributions written to a temporary file ({1})… {2} %")
            .format(names[0], size, int(fraction * 100)),
            LOAD_OTHER: self.tr("2/2: loading {0}…").format(names[1]),
            SCORE_OTHER: self.tr("2/2: scoring with {0} against {1}'s distributions… {2} %").format(
                names[1], names[0], int(fraction * 100)),
        }[phase])

    def _kl_done(self, outcome: KlOutcome) -> None:
        names = self._kl_names
        if names is None:
            return
        seconds = time.monotonic() - self._kl_started
        self._finish()
        self.show_result(outcome.base, outcome.other, names[1], names=names, vocab=outcome.vocab)
        self.status.setText(self.tr(
            "{0:,} tokens compared by KL divergence in {1:.1f} s (both models, one after the other); the temporary "
            "file of {2}'s distributions ({3}) is deleted.").format(outcome.other.n_scored, seconds, names[0],
                                                                   format_bytes(outcome.base_file_bytes)))

    def select_token(self, index: int) -> None:
        """A token picked in the list of top-1 differences: selected in the text, its numbers under the list."""
        if self.view.select_token(index):
            self.top_diffs.details.setText(self.view.tooltip(index))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The window closing ends the second engine process too (the dialog itself may never have closed)."""
        if watched is self.parent() and event.type() == QEvent.Type.Close:
            self.compare.close()
        return False

    # -- showing ----------------------------------------------------------------------------------------
    def set_color_by(self) -> None:
        color_by = ("probability" if self.by_probability.isChecked() else
                    "difference" if self.by_difference.isChecked() else
                    "kl" if self.by_kl.isChecked() else "rank")
        self.legend.set_color_by(color_by)
        self.view.set_color_by(color_by)

    def show_result(self, result: ScoreResult, other: ScoreResult | None = None, other_name: str = "",
                    names: tuple[str, str] | None = None, vocab: list[bytes] | None = None) -> None:
        """One model's result; with `other` (the second model's, same tokens), both side by side and the
        tokens coloured by the difference; when `other` carries KL numbers (a KL comparison: A is the base), by
        its KL, with the KL tabs. `vocab`: the models' when they are not the window's."""
        self.scored, self.other = result, other
        kl = other.kl if other is not None else None
        info = self.bridge.info
        if names is None:
            names = (Path(info.card.path).name if isinstance(info, ModelInfo) else "A", other_name or "B")
        vocab = vocab if vocab is not None else list(self.bridge.vocab)
        self.by_difference.setEnabled(other is not None)
        self.by_kl.setEnabled(kl is not None)
        if kl is not None:
            self.by_kl.setChecked(True)
        elif other is not None:
            self.by_difference.setChecked(True)
        elif self.by_difference.isChecked() or self.by_kl.isChecked():
            self.by_rank.setChecked(True)
        self.view.show_result(result, vocab, other, names, kl)
        self.histogram.set_counts(result.rank_buckets())
        self._show_kl(result, other, names, vocab)
        if other is not None and kl is not None:
            self.summary.setText(kl_summary_html(result, other, self.kl_stats.set_kl(kl, names), names))
        else:
            self.summary.setText(compare_html(result, other, names) if other is not None else summary_html(result))
        self.status.setText(self.tr("{0:,} tokens scored in {1:.2f} s ({2:,.0f} tokens/s).").format(
            result.n_scored, result.eval_s, result.tokens_per_s))

    def _show_kl(self, result: ScoreResult, other: ScoreResult | None, names: tuple[str, str],
                 vocab: list[bytes]) -> None:
        """The KL tabs: shown (the statistics in front) for a KL comparison, hidden otherwise."""
        kl = other.kl if other is not None else None
        shown = other is not None and kl is not None
        for tab in (KL_TAB, TOP_TAB):
            self.side_tabs.setTabVisible(tab, shown)
        if other is None or kl is None:
            self.side_tabs.setCurrentIndex(SUMMARY_TAB)
            return
        self.top_diffs.details.setText("")
        differ = self.top_diffs.set_kl(kl, result, other, vocab)
        self.side_tabs.setTabText(TOP_TAB, self.tr("Top-1 differs ({0:,})").format(len(differ)))
        self.side_tabs.setCurrentIndex(KL_TAB)
        total = sum(self.splitter.sizes())
        if self.splitter.sizes()[1] < total * 0.42:   # the statistics' lines are ~60 characters of monospace
            self.splitter.setSizes([round(total * 0.58), total - round(total * 0.58)])


def install(bridge: EngineBridge, parent: QWidget, actions: ActionRegistry, model_menu: QMenu,
            models: ModelController) -> tuple[ScoreDialog, QAction]:
    """The dialog and its action in the Model menu, enabled only with a local model loaded
    (the reason in its tip and in the dialog otherwise)."""
    dialog = ScoreDialog(bridge, parent)
    tip = QCoreApplication.translate(
        "ScoreDialog", "Score a text: how surprising each token was to the model, perplexity, rank histogram")
    action = actions.add(QCoreApplication.translate("ScoreDialog", "&Score a text…"), dialog.show,
                         QKeySequence(SHORTCUT), tip)
    model_menu.addAction(action)

    def update() -> None:
        info = bridge.info
        if info is None:
            reason = QCoreApplication.translate("ScoreDialog", "Load a model to score a text.")
        elif not isinstance(info, ModelInfo) or models.capabilities.get("score") is False:
            reason = QCoreApplication.translate(
                "ScoreDialog", "Scoring needs a local model: a server does not give every token's rank.")
        else:
            reason = ""
        action.setEnabled(not reason)
        action.setStatusTip(reason or tip)
        action.setToolTip(reason or tip)
        dialog.set_available(reason, info.n_ctx if isinstance(info, ModelInfo) else 0)
        dialog.picker.base_flash = isinstance(info, ModelInfo) and info.load.flash_attn

    parent.installEventFilter(dialog)  # the window closing ends the second engine process
    models.changed.connect(update)
    update()
    return dialog, action
