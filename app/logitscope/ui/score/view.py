"""The Score dialog: paste or open a text and see how surprising every token was to the
loaded model — coloured by GLTR rank bucket or by probability, each token's numbers and alternatives on
hover, a histogram of the ranks, and the text's perplexity and bits per token. Opened from Model ▸ Score a
text… (Ctrl+Shift+T).

Scoring runs on the bridge's worker (the engine process), never on the GUI thread; the engine's progress
comes back through a signal, and Cancel stops it. Only a local engine scores (a remote server cannot give
every token's rank), so the action is disabled with the reason otherwise.
"""

from __future__ import annotations

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
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import LogitscopeError
from logitscope.base.utf8 import read_text_file
from logitscope.host.score_compare import same_tokens
from logitscope.protocol.api import ModelInfo
from logitscope.protocol.score import DEFAULT_SCORE_CTX, MIN_SCORE_CTX, ScoreRequest, ScoreResult
from logitscope.ui.bridge import JOB_GENERATE, JOB_SCORE, EngineBridge
from logitscope.ui.common.messages import translate_message
from logitscope.ui.score.compare import CompareEngine, ComparePicker, settings_like
from logitscope.ui.score.summary import compare_html, summary_html
from logitscope.ui.score.widgets import RankHistogram, ScoredText, ScoreLegend
from logitscope.ui.window.layout import scroll_area

if TYPE_CHECKING:
    from logitscope.ui.controllers.model import ModelController
    from logitscope.ui.window.actions import ActionRegistry

SHORTCUT = "Ctrl+Shift+T"
PROGRESS_STEPS = 1000


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
        self.finished.connect(self._closed)
        self._first: ScoreResult | None = None   # the first model's result while the second one scores
        self._comparing = ""                     # the second model's name while it loads / scores
        self._request = ScoreRequest()           # the last one run
        self.running = False
        self.reason = ""          # why scoring is not possible now ("" when it is)
        self.setWindowTitle(self.tr("Score a text"))
        self.resize(1000, 680)
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
        self.n_ctx = QSpinBox()
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
        layout.addWidget(self.picker)
        colors = QHBoxLayout()
        colors.addWidget(QLabel(self.tr("Colour by:")))
        self.by_rank = QRadioButton(self.tr("rank (GLTR)"))
        self.by_probability = QRadioButton(self.tr("probability"))
        self.by_difference = QRadioButton(self.tr("difference (B − A)"))
        self.by_difference.setToolTip(self.tr("Comparing two models: how much more (red) or less (blue) surprised "
                                              "model B was by each token than model A, in bits."))
        self.by_difference.setEnabled(False)
        self.by_rank.setChecked(True)
        group = QButtonGroup(self)
        for button in (self.by_rank, self.by_probability, self.by_difference):
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
        splitter.addWidget(self.side)
        splitter.setSizes([680, 320])
        layout.addWidget(splitter, 1)
        self.status = QLabel(self.tr("Paste or open a text and press Score."))
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.progressed.connect(lambda f: self.progress.setValue(round(f * PROGRESS_STEPS)))

    # -- input ------------------------------------------------------------------------------------------
    def open_file(self, path: str | None = None) -> bool:
        """Put a UTF-8 text file in the box; a file that is not one says so in the status line."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a text to score"), "",
                                                  self.tr("Text files (*.txt *.md);;All files (*)"))
            if not path:
                return False
        try:
            text = read_text_file(Path(path))
        except LogitscopeError as exc:
            self.status.setText(translate_message(exc))
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
        self.reason = reason
        if model_ctx >= MIN_SCORE_CTX:
            self.n_ctx.setMaximum(model_ctx)
        self.score_button.setEnabled(not reason and not self.running)
        if reason and not self.running:
            self.status.setText(reason)

    # -- running ----------------------------------------------------------------------------------------
    def run(self) -> None:
        if self.running:
            return
        if self.reason:
            self.status.setText(self.reason)
            return
        request = ScoreRequest(text=self.text.toPlainText(), n_ctx=self.n_ctx.value(), mode=self.mode.currentData())
        try:
            request.validate()
        except LogitscopeError as exc:
            self.status.setText(translate_message(exc))
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
        if self._first is not None:
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
        self._first, self._comparing = None, ""
        self.score_button.setEnabled(not self.reason)
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

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The window closing ends the second engine process too (the dialog itself may never have closed)."""
        if watched is self.parent() and event.type() == QEvent.Type.Close:
            self.compare.close()
        return False

    # -- showing ----------------------------------------------------------------------------------------
    def set_color_by(self) -> None:
        color_by = ("probability" if self.by_probability.isChecked() else
                    "difference" if self.by_difference.isChecked() else "rank")
        self.legend.set_color_by(color_by)
        self.view.set_color_by(color_by)

    def show_result(self, result: ScoreResult, other: ScoreResult | None = None, other_name: str = "") -> None:
        """One model's result; with `other` (the second model's, same tokens), both side by side and the
        tokens coloured by the difference."""
        self.scored, self.other = result, other
        info = self.bridge.info
        names = (Path(info.card.path).name if isinstance(info, ModelInfo) else "A", other_name or "B")
        self.by_difference.setEnabled(other is not None)
        if other is not None:
            self.by_difference.setChecked(True)
        elif self.by_difference.isChecked():
            self.by_rank.setChecked(True)
        self.view.show_result(result, self.bridge.vocab, other, names)
        self.histogram.set_counts(result.rank_buckets())
        self.summary.setText(compare_html(result, other, names) if other is not None else summary_html(result))
        self.status.setText(self.tr("{0:,} tokens scored in {1:.2f} s ({2:,.0f} tokens/s).").format(
            result.n_scored, result.eval_s, result.tokens_per_s))


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

    parent.installEventFilter(dialog)  # the window closing ends the second engine process
    models.changed.connect(update)
    update()
    return dialog, action
