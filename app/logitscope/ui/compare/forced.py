"""B reads A's tokens: A's prompt and answer go through `save_distributions` on engine A (a temporary file of
A's distributions in llama.cpp's quantized rows), then `compare_distributions` on engine B, which reads the
same token ids; the file is deleted afterwards, whatever happened. Each call runs on its engine's bridge
worker (never on the GUI thread), as a job of kind JOB_FORCED that Stop cancels."""

from __future__ import annotations

import contextlib
import os
import tempfile

from PySide6.QtCore import QObject, Signal

from logitscope.protocol.engine_like import EngineLike
from logitscope.protocol.forced_compare import ForcedKl
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.common.messages import translate_message

JOB_FORCED = "forced-compare"


class ForcedRun(QObject):
    started = Signal()
    done = Signal(object)     # ForcedKl (index 0 = A's first answer token)
    failed = Signal(str)      # one line; "cancelled" when stopped

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.running = False
        self._bridges: tuple[EngineBridge, EngineBridge] | None = None
        self._path = ""
        self._run = 0     # which start() the answers belong to: a stopped run's late answer is dropped

    def start(self, bridge_a: EngineBridge, bridge_b: EngineBridge, tokens: list[int], first: int) -> None:
        fd, path = tempfile.mkstemp(prefix="logitscope-compare-", suffix=".npy")
        os.close(fd)
        self._path, self._bridges, self.running = path, (bridge_a, bridge_b), True
        self._run += 1
        run = self._run
        self.started.emit()
        tokens = list(tokens)

        def save(client: EngineLike) -> int:
            return client.save_distributions(tokens, first, path)

        def compare(client: EngineLike) -> ForcedKl:
            return client.compare_distributions(tokens, first, path)

        def saved(_n: int) -> None:
            if run == self._run and self.running:
                bridge_b.call(compare, lambda kl: self._done(run, kl), lambda m: self._failed(run, m), kind=JOB_FORCED)

        bridge_a.call(save, saved, lambda m: self._failed(run, m), kind=JOB_FORCED)

    def stop(self) -> None:
        if self.running and self._bridges is not None:
            for bridge in self._bridges:
                bridge.cancel(JOB_FORCED)
            self._failed(self._run, "cancelled")

    def _cleanup(self) -> None:
        self.running = False
        if self._path:
            with contextlib.suppress(OSError):
                os.unlink(self._path)
            self._path = ""

    def _done(self, run: int, kl: ForcedKl) -> None:
        if run != self._run or not self.running:
            return
        self._cleanup()
        self.done.emit(kl)

    def _failed(self, run: int, message: str) -> None:
        if run != self._run or not self.running:
            return
        self._cleanup()
        self.failed.emit(message if message == "cancelled" else translate_message(message))
