"""One quantization at a time off the GUI thread: `host.quantize_job.quantize_model` (blocking: it starts an
engine process of its own, never the chat's) runs on a worker thread; what it reports comes back as signals,
delivered on the GUI thread (queued: the runner lives there, the worker emits)."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from logitscope.base.errors import LogitscopeError
from logitscope.host.quantize_job import quantize_model
from logitscope.protocol.quantize import QuantizeRequest, QuantizeResult

QuantizeJob = Callable[..., QuantizeResult]   # quantize_model's signature (a stand-in in the fast tests)


class QuantizeRunner(QObject):
    estimated = Signal(int)          # bytes the quantized file needs, once llama.cpp's dry run said
    progressed = Signal(float)       # 0..1, as tensors are done
    succeeded = Signal(object)       # QuantizeResult
    failed = Signal(object)          # the exception: CancelledError after a cancel (nothing left on disk)
    _ended = Signal(object)          # the worker's outcome, handed to the GUI thread

    def __init__(self, job: QuantizeJob = quantize_model, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.job = job
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._ended.connect(self._end)

    @property
    def running(self) -> bool:
        """True from start() until succeeded / failed is emitted (on the GUI thread)."""
        return self._thread is not None

    @property
    def cancelling(self) -> bool:
        return self.running and self._stop.is_set()

    def start(self, request: QuantizeRequest) -> None:
        if self.running:
            raise RuntimeError("a quantization is running already")
        self._stop = stop = threading.Event()

        def work() -> None:   # the worker thread: only emits
            try:
                outcome: object = self.job(request, self.progressed.emit, stop.is_set, self.estimated.emit)
            except LogitscopeError as exc:
                outcome = exc
            except Exception as exc:  # a bug: reported as one, the details in the log
                traceback.print_exc()
                outcome = exc
            self._ended.emit(outcome)

        self._thread = threading.Thread(target=work, name="quantize-dialog", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        """Stop the running quantization: its engine process ends and the half-written file is deleted."""
        self._stop.set()

    def wait(self, timeout_s: float) -> bool:
        """Block until the worker is done (the window closing); True if it was, or none ran."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout_s)
            return not thread.is_alive()
        return True

    def _end(self, outcome: object) -> None:   # GUI thread
        self._thread = None
        if isinstance(outcome, QuantizeResult):
            self.succeeded.emit(outcome)
        else:
            self.failed.emit(outcome)
