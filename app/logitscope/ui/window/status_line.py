"""The status bar's permanent fields: the model, the backend and layers offloaded, the context used and
the speed of the last answer."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QPushButton, QStatusBar

from logitscope.protocol.api import ModelInfo
from logitscope.protocol.engine_like import RemoteModelInfo
from logitscope.protocol.trace import SpeculativeStats, Timings
from logitscope.ui.common.visibility import Coalescer

STREAMING_CONTEXT_MS = 250  # the context count while tokens stream: a label's new text relayouts the status bar
NOTICE_MS, NOTICE_MS_PER_CHAR = 8000, 60  # a passing message shows 8 s, a long one as long as reading it takes
SPEEDUP_SHOWN = 10  # a thread change's speed-up up to this is written as a figure, above it as "over"


class StatusLine(QObject):
    def __init__(self, bar: QStatusBar) -> None:
        super().__init__(bar)
        self.bar = bar
        self.model, self.backend, self.context, self.speed = QLabel(), QLabel(), QLabel(), QLabel()
        for label in (self.model, self.backend, self.context, self.speed):
            bar.addPermanentWidget(label)
        self._n_ctx: int | None = None
        self._used = 0
        self._model_name: str | None = None   # the model the line shows (the speed belongs to it)
        self._context_update = Coalescer(STREAMING_CONTEXT_MS, lambda: self.show_context(self._used), self)
        self._set_aside: list[QLabel] = []   # the fields a long message took the room of, while it shows
        bar.messageChanged.connect(self._message_changed)
        self._reserve_undo_height()

    def _reserve_undo_height(self) -> None:
        """The bar is as tall as it is with offer_undo's button from the start: the window's contents do not move
        by a few pixels when the button comes and goes."""
        probe = self._undo_button()
        self.bar.addWidget(probe)
        self.bar.setMinimumHeight(self.bar.sizeHint().height())
        self.bar.removeWidget(probe)
        probe.deleteLater()

    def _undo_button(self) -> QPushButton:
        button = QPushButton(self.tr("Undo"))
        button.setObjectName("undoDelete")
        return button

    def show_notice(self, text: str) -> None:
        """A passing message. One longer than the room the fields leave takes the whole bar while it shows (the
        fields come back when it ends), and it stays as long as it takes to read."""
        self._bring_back()
        self._make_room(text)
        self.bar.showMessage(text, max(NOTICE_MS, NOTICE_MS_PER_CHAR * len(text)))

    def _make_room(self, text: str) -> None:
        """The fields set aside while `text` shows when it does not fit beside them."""
        fields = [label for label in (self.model, self.backend, self.context, self.speed) if label.isVisible()]
        room = self.bar.width() - sum(label.sizeHint().width() for label in fields) - 40   # the grip, the spacings
        if fields and self.bar.fontMetrics().horizontalAdvance(text) > room:
            for label in fields:
                label.hide()
            self._set_aside += fields

    def _refit(self) -> None:
        """A field grew under a message that fitted beside it (the answer's speed comes after the batch's cost):
        the message keeps the room it needs."""
        text = self.bar.currentMessage()
        if text and not self._set_aside:
            self._make_room(text)

    def _message_changed(self, text: str) -> None:
        if not text:   # the message ended (its time ran out, or it was cleared)
            self._bring_back()

    def _bring_back(self) -> None:
        for label in self._set_aside:
            label.show()
        self._set_aside = []

    def show_model(self, name: str, info: ModelInfo | RemoteModelInfo | None, caps: dict[str, object]) -> None:
        """The model, its backend and context; another model's (or none) also clears the last answer's speed,
        which was that of the model before."""
        if name != self._model_name:
            self.speed.clear()
            self.speed.setToolTip("")
            self._model_name = name
        self.model.setText(name or self.tr("no model"))
        backend = str(caps.get("backend", "…"))
        if isinstance(info, RemoteModelInfo):
            self.backend.setText(self.tr("remote: {0}").format(info.server))
        elif isinstance(info, ModelInfo):
            self.backend.setText(self.tr("{0} · {1} of {2} layers offloaded").format(
                backend, info.n_gpu_layers, info.card.n_offloadable))
        else:   # llama.cpp's device name ("CPU", "CUDA0"), said to be one: words, in every language
            self.backend.setText(self.tr("{0} backend").format(backend) if backend != "…" else backend)
        self._n_ctx = None if info is None else (info.n_ctx or 0)
        self.show_context(0)
        self._refit()

    def show_context_soon(self, used: int) -> None:
        """While an answer streams: the count is shown a few times a second, not for every token."""
        self._used = used
        self._context_update.request()

    def show_context(self, used: int) -> None:
        self._context_update.cancel()
        if self._n_ctx is None or used < 0:
            self.context.setText("")
            return
        self.context.setText(self.tr("context {0} / {1}").format(used, self._n_ctx or "?"))
        # a fixed size that only grows: a label of fixed size changes its text without relaying out the window
        hint = self.context.sizeHint()
        if hint.width() > self.context.minimumWidth() or hint.height() != self.context.minimumHeight():
            self.context.setFixedSize(max(hint.width(), self.context.minimumWidth()), hint.height())
            self._refit()

    def show_speed(self, timings: Timings, spec: SpeculativeStats | None = None,
                   threads: dict[str, object] | None = None) -> None:
        if timings.n_gen == 0:   # stopped before it: no first token, no rate (Esc during the prompt)
            text = self.tr("stopped before the first token")
        elif timings.n_gen >= 2 and timings.gen_tps > 0:
            text = self.tr("first token {0:.0f} ms · {1:.1f} tok/s").format(timings.ttft_s * 1000, timings.gen_tps)
        else:   # one token: a rate needs two
            text = self.tr("first token {0:.0f} ms").format(timings.ttft_s * 1000)
        if spec is not None:
            text += self.tr(" · drafts accepted {0:.0%} · {1:.2f} tokens per evaluation").format(
                spec.acceptance, spec.tokens_per_evaluation)
        tip = ""
        runs, changes = (threads or {}).get("runs"), (threads or {}).get("changes")
        if isinstance(runs, list) and runs:   # the count the answer ended with, and why it moved (the trace's)
            text += " · " + self.tr("threads {0}").format(int(runs[-1][1]))
            if isinstance(changes, list) and changes:
                step, before, after, speedup, why = changes[-1]
                # tokens stalled under a burst of load give ratios like 263.0×: a bound reads better (the tooltip
                # keeps the figure)
                text += " " + (self.tr("(was {0}: {1:.1f}× faster)").format(before, speedup) if speedup < SPEEDUP_SHOWN
                               else self.tr("(was {0}: over {1}× faster)").format(before, SPEEDUP_SHOWN))
                tip = (self.tr("At token {0} another program was taking a core: {1} threads were {2:.1f}× faster "
                               "than {3}") if why == "slowdown" else
                       self.tr("At token {0} a probe found {1} threads {2:.1f}× faster than {3}")).format(
                    step, after, speedup, before)
            elif threads and threads.get("auto"):
                tip = self.tr("The thread count follows the machine's load (a count chosen when loading fixes it)")
        self.speed.setText(text)
        self.speed.setToolTip(tip)
        self._refit()

    def offer_undo(self, text: str, undo: Callable[[], None]) -> None:
        """`text` and an Undo button for 15 s (e.g. after deleting a conversation)."""
        button = self._undo_button()
        label = QLabel(text)
        self.bar.addWidget(label)
        self.bar.addWidget(button)

        def remove() -> None:
            for widget in (label, button):
                self.bar.removeWidget(widget)
                widget.deleteLater()

        def undo_then_remove() -> None:
            undo()
            remove()

        button.clicked.connect(undo_then_remove)
        QTimer.singleShot(15_000, label, remove)  # bound to the label: dropped if the window goes first
