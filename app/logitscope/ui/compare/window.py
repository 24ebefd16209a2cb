"""The compare window: one question to two engines, the answers streaming in two columns.

Column A is the window's engine (the loaded model); column B an engine process of its own (engine_b.py): another
GGUF file with the same vocabulary, or the same model in another configuration. Both answer the same messages
with the same system prompt and sampler settings, at once, each on half the CPUs. Once both are done (and on
"B reads A's tokens"), B reads A's prompt and answer token by token (forced.py): A's text is coloured by
KL(A || B) per token, the tokens where the top-1 differs underlined, the first of them marked, and a summary
line says the mean KLD, the share of same top-1 tokens and the mean Δp. Clicking a token shows the
distributions side by side (inspector.py). Closing the window ends B's engine process."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings, ModelInfo
from logitscope.protocol.forced_compare import ForcedKl, ForcedSummary, summarize
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.common.messages import translate_message
from logitscope.ui.compare.config import ConfigPicker, describe, shared_threads
from logitscope.ui.compare.engine_b import SecondEngine
from logitscope.ui.compare.forced import ForcedRun
from logitscope.ui.compare.inspector import TwoDistributions
from logitscope.ui.compare.runner import ColumnRunner, is_cancel
from logitscope.ui.compare.scale import KlLegend
from logitscope.ui.compare.token_view import CompareTokenView
from logitscope.ui.window.screen_fit import resize_within_screen

ERROR_STYLE = "color: #c00000;"


class Column(QWidget):
    """One answer: its header, its tokens, its speed and its inspector."""

    def __init__(self, title: str, inspector: TwoDistributions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        self.title = QLabel(title)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)   # clipped, not wrapped:
        layout.addWidget(self.title)                                                         # both columns align
        self.view = CompareTokenView()
        layout.addWidget(self.view, 3)
        self.speed = QLabel()
        layout.addWidget(self.speed)
        self.inspector = inspector
        layout.addWidget(inspector, 2)


class CompareWindow(QDialog):
    """Given what it needs: the window's bridge (A), how to get the sampler settings, the decode options and the
    system prompt of a new answer, and the model's display name."""

    kl_shown = Signal(object)    # ForcedSummary, once the KL is drawn (tests, the screenshot)

    def __init__(self, bridge: EngineBridge, settings: Callable[[], SamplerSettings],
                 options: Callable[[], DecodeOptions], system: Callable[[], str | None],
                 second: SecondEngine | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Compare two models"))
        self.setObjectName("CompareWindow")
        resize_within_screen(self, 1300, 820)
        self.bridge, self._settings, self._options, self._system = bridge, settings, options, system
        self.second = SecondEngine(parent=self)
        self.runner_a = ColumnRunner(bridge, self)
        self.runner_b: ColumnRunner | None = None
        self.forced = ForcedRun(self)
        self.kl: ForcedKl | None = None
        self.summary: ForcedSummary | None = None
        self._pending: str | None = None     # a question waiting for B to load
        self._a_loaded: tuple[str, object] | None = None
        self._shown_once = False
        self._build()
        self._connect()
        self.set_second_engine(second or self.second)
        self._speed_timer = QTimer(self)
        self._speed_timer.setInterval(250)
        self._speed_timer.timeout.connect(self._show_speeds)
        self._update()

    # -- construction ----------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.config = ConfigPicker()
        top.addWidget(self.config, 1)
        self.load_button = QPushButton(self.tr("Load B"))
        self.load_button.setToolTip(self.tr("Start B's engine process with this model and these settings "
                                            "(Send does it too)."))
        top.addWidget(self.load_button)
        layout.addLayout(top)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error.hide()
        layout.addWidget(self.error)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        self.column_a = Column(self.tr("A"), TwoDistributions(self.tr("A (its trace)"),
                                                              self.tr("B, reading A's tokens")))
        self.column_b = Column(self.tr("B"), TwoDistributions(self.tr("B (its trace)"), None))
        splitter.addWidget(self.column_a)
        splitter.addWidget(self.column_b)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([1, 1])   # two equal columns, whatever their titles' lengths
        self.splitter = splitter
        layout.addWidget(splitter, 1)
        kl_row = QHBoxLayout()
        self.forced_button = QPushButton(self.tr("B reads A's tokens"))
        self.forced_button.setToolTip(self.tr(
            "Force A's prompt and answer through B: per token KL(A‖B), top-1 agreement and Δp, drawn under A's text"))
        kl_row.addWidget(self.forced_button)
        self.summary_label = QLabel()
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        kl_row.addWidget(self.summary_label, 1)
        layout.addLayout(kl_row)
        self.legend = KlLegend()
        layout.addWidget(self.legend)
        bottom = QHBoxLayout()
        self.prompt = QPlainTextEdit()
        self.prompt.setPlaceholderText(self.tr("One question for both models… (Ctrl+Enter to send)"))
        self.prompt.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        bottom.addWidget(self.prompt, 1)
        self.send_button = QPushButton(self.tr("Send to both"))
        self.stop_button = QPushButton(self.tr("Stop"))
        bottom.addWidget(self.send_button)
        bottom.addWidget(self.stop_button)
        layout.addLayout(bottom)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.send)

    def _connect(self) -> None:
        self.load_button.clicked.connect(lambda: self.load_b())
        self.send_button.clicked.connect(lambda: self.send())
        self.stop_button.clicked.connect(self.stop)
        self.forced_button.clicked.connect(lambda: self.read_a_with_b())
        self.config.changed.connect(self._update)
        self.runner_a.steps.connect(self.column_a.view.append_steps)
        self.runner_a.finished.connect(lambda _result: self._answer_ended())
        self.runner_a.failed.connect(lambda message: self._answer_failed("A", message))
        self.forced.done.connect(self._show_kl)
        self.forced.failed.connect(self._forced_failed)
        self.forced.started.connect(self._update)
        self.column_a.view.tokenClicked.connect(self._inspect_a)
        self.column_b.view.tokenClicked.connect(self._inspect_b)
        self.bridge.busyChanged.connect(lambda _busy: self._update())

    def set_second_engine(self, second: SecondEngine) -> None:
        """Column B's engine (tests give a scripted one)."""
        if second is not self.second:
            self.second.close()
        self.second = second
        second.setParent(self)
        second.loading.connect(lambda f: self.status.setText(self.tr("Loading B… {0:.0%}").format(f)))
        second.loaded.connect(self._b_loaded)
        second.failed.connect(self._b_failed)

    # -- what A and B are ------------------------------------------------------------------------------
    @property
    def info_a(self) -> ModelInfo | None:
        info = self.bridge.info
        return info if isinstance(info, ModelInfo) else None

    def _wanted_b(self) -> tuple[str, LoadSettings] | None:
        info = self.info_a
        if info is None:
            return None
        path = self.config.path(info.card.path)
        return (path, self.config.settings(info.load)) if path else None

    def set_available(self) -> None:
        """A's model changed (or was loaded): B's engine, checked against the old one, is ended."""
        info = self.info_a
        key = (info.card.path, info.load) if info is not None else None
        if key != self._a_loaded and self.second.bridge is not None:
            self.stop()
            self.second.close()
            self.runner_b = None
        self._a_loaded = key
        self.config.follow_a(info.load if info is not None else None)
        self._update()

    # -- B ---------------------------------------------------------------------------------------------
    def load_b(self) -> bool:
        info, wanted = self.info_a, self._wanted_b()
        self._clear_error()
        if info is None:
            self._show_error(self.tr("Load a local model first: it is column A."))
            return False
        if wanted is None:
            self._show_error(self.tr("Choose the model file for column B."))
            return False
        path, settings = wanted
        self.status.setText(self.tr("Loading B…"))
        started = self.second.load(path, settings, info, self.bridge.vocab)
        self._update()
        return started

    def _b_loaded(self, info: ModelInfo) -> None:
        assert self.second.bridge is not None
        if self.runner_b is None or self.runner_b.bridge is not self.second.bridge:
            self.runner_b = ColumnRunner(self.second.bridge, self)
            self.runner_b.steps.connect(self.column_b.view.append_steps)
            self.runner_b.finished.connect(lambda _result: self._answer_ended())
            self.runner_b.failed.connect(lambda message: self._answer_failed("B", message))
        self.status.setText(self.tr("B is ready: {0}").format(Path(info.card.path).name))
        self._update()
        if self._pending is not None:
            text, self._pending = self._pending, None
            self._start(text)

    def _b_failed(self, message: str) -> None:
        self._pending = None
        self.status.clear()
        self._show_error(self.tr("B could not be loaded: {0}").format(message))
        self._update()

    # -- asking both -----------------------------------------------------------------------------------
    @property
    def answering(self) -> bool:
        return self.runner_a.running or (self.runner_b is not None and self.runner_b.running)

    def send(self, text: str | None = None) -> bool:
        text = (self.prompt.toPlainText() if text is None else text).strip()
        if not text or self.answering or self.forced.running or self._pending is not None:
            return False
        self._clear_error()
        if self.info_a is None:
            self._show_error(self.tr("Load a local model first: it is column A."))
            return False
        if not self.second.ready or self.second.loaded_as != self._wanted_b():
            self._pending = text
            if not self.load_b():
                self._pending = None
                return False
            return True
        return self._start(text)

    def _request(self, text: str) -> GenerateRequest | None:
        try:
            settings = self._settings()
        except InvalidSettingsError as exc:
            self._show_error(self.tr("Not sent: {0}").format(translate_message(exc)))
            return None
        options = replace(self._options(), draft="", forced=())   # no draft model in a comparison
        return GenerateRequest(messages=[ChatMessage("user", text)], system=self._system() or None,
                               settings=settings, options=options)

    def _start(self, text: str) -> bool:
        request = self._request(text)
        if request is None or self.runner_b is None:
            return False
        self.prompt.clear()
        self.question = text
        self.kl = self.summary = None
        self.summary_label.clear()
        for column in (self.column_a, self.column_b):
            column.view.clear_answer()
            column.inspector.clear_token()
        self._titles()
        threads = shared_threads()
        self.runner_a.start(request, threads)
        self.runner_b.start(request, 0)   # B was loaded on its share of the CPUs already
        self._speed_timer.start()
        self._update()
        return True

    def stop(self) -> None:
        """Stop both answers, the comparison and B's load (whatever runs)."""
        self._pending = None
        self.runner_a.stop()
        if self.runner_b is not None:
            self.runner_b.stop()
        self.forced.stop()
        if self.second.bridge is not None and not self.second.ready:
            self.second.cancel()

    def _answer_ended(self) -> None:
        self._show_speeds()
        if self.answering:
            return
        self._speed_timer.stop()
        self._update()
        if self._both_done():
            self.read_a_with_b()

    def _answer_failed(self, which: str, message: str) -> None:
        if not is_cancel(message):
            self._show_error(self.tr("{0}'s answer failed: {1}").format(which, translate_message(message)))
        self._answer_ended()

    def _both_done(self) -> bool:
        b = self.runner_b
        return (self.runner_a.result is not None and b is not None and b.result is not None
                and bool(self.runner_a.result.tokens))

    # -- B reads A's tokens ----------------------------------------------------------------------------
    def read_a_with_b(self) -> bool:
        result = self.runner_a.result
        if result is None or not result.tokens or not self.second.ready or self.forced.running or self.answering:
            return False
        assert self.second.bridge is not None
        self.summary_label.setText(self.tr("B is reading A's tokens…"))
        self.forced.start(self.bridge, self.second.bridge, list(result.prompt_tokens) + list(result.tokens),
                          len(result.prompt_tokens))
        return True

    def _show_kl(self, kl: ForcedKl) -> None:
        summary = summarize(kl)
        self.kl, self.summary = kl, summary
        self.column_a.view.set_kl(kl, summary.first_divergence)
        self.summary_label.setText(self.summary_text(summary))
        self._update()
        self.kl_shown.emit(summary)

    def summary_text(self, s: ForcedSummary) -> str:
        text = self.tr("B reading A's {0} tokens: mean KLD {1:.5f} nats (max {2:.4f}) · same top-1 {3:.1%} · "
                       "mean Δp {4:+.4f}").format(s.n, s.mean_kld, s.max_kld, s.same_top, s.mean_p_diff)
        if s.first_divergence < 0:
            return text + " · " + self.tr("B would have chosen every token as A did")
        steps = self.column_a.view.steps
        piece = steps[s.first_divergence].text if s.first_divergence < len(steps) else ""
        return text + " · " + self.tr("first divergence at token {0} “{1}”").format(s.first_divergence + 1,
                                                                                   piece.strip() or piece)

    def _forced_failed(self, message: str) -> None:
        self.summary_label.clear()
        if not is_cancel(message):
            self._show_error(self.tr("B could not read A's tokens: {0}").format(message))
        self._update()

    # -- inspectors ------------------------------------------------------------------------------------
    def _inspect_a(self, index: int) -> None:
        steps = self.column_a.view.steps
        if 0 <= index < len(steps):
            self.column_a.inspector.show_token(index, steps[index], self.bridge.vocab, self.kl)

    def _inspect_b(self, index: int) -> None:
        steps: list[StepRecord] = self.column_b.view.steps
        if 0 <= index < len(steps):
            self.column_b.inspector.show_token(index, steps[index], self.bridge.vocab)

    # -- what the window shows -------------------------------------------------------------------------
    def _titles(self) -> None:
        info = self.info_a
        if info is not None:
            # the file's name, as B's: two quantizations of one model differ by what a display name drops
            self.column_a.title.setText(self.tr("A: {0} · {1}").format(Path(info.card.path).name, describe(info.load)))
            self.column_a.title.setToolTip(self.column_a.title.text())
        wanted = self._wanted_b()
        if wanted is not None:
            path, settings = wanted
            self.column_b.title.setText(self.tr("B: {0} · {1}").format(Path(path).name, describe(settings)))
            self.column_b.title.setToolTip(self.column_b.title.text())

    def _show_speeds(self) -> None:
        for column, runner in ((self.column_a, self.runner_a), (self.column_b, self.runner_b)):
            if runner is None:
                continue
            column.speed.setText(self.speed_text(runner.n_tokens, runner.tokens_per_second(), runner.result))

    def speed_text(self, n: int, tps: float, result: GenerationResult | None) -> str:
        if result is not None:
            n = len(result.tokens)
        return self.tr("{0} tokens · {1:.1f} tokens/s").format(n, tps)

    def _update(self) -> None:
        has_a = self.info_a is not None
        busy = self.answering or self.forced.running or self._pending is not None
        loading = self.second.bridge is not None and not self.second.ready and self.second.bridge.busy
        self.send_button.setEnabled(has_a and not busy and not loading)
        self.load_button.setEnabled(has_a and not busy and not loading)
        self.stop_button.setEnabled(busy or loading)
        self.forced_button.setEnabled(not busy and self.runner_a.result is not None
                                      and bool(self.runner_a.result.tokens) and self.second.ready)
        self.config.setEnabled(not busy and not loading)
        if not self.answering:
            self._titles()

    def _show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.show()
        self.last_error = message

    def _clear_error(self) -> None:
        self.error.clear()
        self.error.hide()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._shown_once:   # two equal columns (A's inspector has two tables: it would take more)
            self._shown_once = True
            half = max(1, self.splitter.width() // 2)
            self.splitter.setSizes([half, half])

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing ends B's engine process (it starts again on the next Send)."""
        self.stop()
        self.second.close()
        self.runner_b = None
        self._update()
        super().closeEvent(event)

    def done(self, code: int) -> None:   # Esc closes a dialog without a close event
        self.stop()
        self.second.close()
        self.runner_b = None
        super().done(code)
