"""One column's answer: a generation on an engine bridge, streamed into the column.

It runs as a bridge call of its own kind (JOB_COMPARE), with its own step buffer, not through the bridge's
`generate` and `steps` signal: the main window's chat listens to those, and a compare answer on the window's
engine must not land in the chat. Steps are handed over at the bridge's repaint rate. While it runs the
engine answers on `threads` CPU threads (the two columns share the cores; its own count again afterwards)."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import QObject, QTimer, Signal

from logitscope.protocol.api import GenerateRequest
from logitscope.protocol.engine_like import EngineLike
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.ui.bridge import CANCELLED, REPAINT_INTERVAL_MS, EngineBridge

JOB_COMPARE = "compare"


class ColumnRunner(QObject):
    steps = Signal(list)          # [StepRecord], GUI thread
    finished = Signal(object)     # GenerationResult
    failed = Signal(str)          # one line ("cancelled" when stopped before it ran)

    def __init__(self, bridge: EngineBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.running = False
        self.result: GenerationResult | None = None
        self.n_tokens = 0
        self._started = 0.0
        self._first = 0.0     # when the first token arrived (tok/s counts from there, as the engine's does)
        self._pending: list[StepRecord] = []
        self._lock = threading.Lock()
        self._timer = QTimer(self)
        self._timer.setInterval(REPAINT_INTERVAL_MS)
        self._timer.timeout.connect(self._drain)

    def start(self, request: GenerateRequest, threads: int = 0) -> None:
        self.running, self.result, self.n_tokens = True, None, 0
        self._started, self._first = time.perf_counter(), 0.0
        with self._lock:
            self._pending = []

        def on_step(step: StepRecord) -> None:   # the bridge's worker thread
            with self._lock:
                self._pending.append(step)

        def job(client: EngineLike) -> GenerationResult:
            before = client.set_threads(threads) if threads else 0
            try:
                return client.generate(request, on_step=on_step)
            finally:
                if threads:
                    client.set_threads(before)

        self._timer.start()
        self.bridge.call(job, self._done, self._failed, kind=JOB_COMPARE)

    def stop(self) -> None:
        if self.running:
            self.bridge.cancel(JOB_COMPARE)

    def tokens_per_second(self) -> float:
        """Tokens a second since the first token (live while it runs; the engine's figure once done)."""
        result = self.result
        if result is not None and result.timings.gen_s > 0:
            return result.timings.gen_tps
        if self.n_tokens < 2 or not self._first:
            return 0.0
        return (self.n_tokens - 1) / max(time.perf_counter() - self._first, 1e-6)

    def _drain(self) -> None:
        with self._lock:
            batch, self._pending = self._pending, []
        if batch:
            if not self._first:
                self._first = time.perf_counter()
            self.n_tokens += len(batch)
            self.steps.emit(batch)

    def _done(self, result: GenerationResult) -> None:
        self._timer.stop()
        self._drain()
        self.running, self.result = False, result
        self.finished.emit(result)

    def _failed(self, message: str) -> None:
        self._timer.stop()
        self._drain()
        self.running = False
        self.failed.emit(message)


def is_cancel(message: str) -> bool:
    return message == CANCELLED

