"""The GUI's only door to the engine: EngineClient calls on one worker thread, results as Qt signals.

- Every engine call runs on a single worker thread (one owner of the model; calls queue), never on the
  GUI thread, so the window never freezes during a load or a generation.
- Steps arrive from the engine in bursts; they are collected and handed to the GUI at most ~60 times a
  second (`steps` signal), so painting cost does not grow with the token rate.
- Signals are emitted from the worker thread and delivered to GUI objects through Qt's queued
  connections.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from logitscope.engine.api import GenerateRequest, LoadSettings, ModelInfo
from logitscope.errors import EngineCrashedError, EngineUnresponsiveError, LogitscopeError, RemoteEngineError
from logitscope.host.client import CancelledError, EngineClient
from logitscope.host.engine_api import EngineLike, RemoteModelInfo
from logitscope.host.remote import RemoteEngine

REPAINT_INTERVAL_MS = 16


class EngineBridge(QObject):
    loadStarted = Signal(str)                 # model path
    loadProgress = Signal(float)              # 0..1
    loaded = Signal(object)                   # ModelInfo
    loadFailed = Signal(str)                  # message
    steps = Signal(list)                      # [StepRecord], coalesced
    generationFinished = Signal(object)       # GenerationResult
    generationFailed = Signal(str)            # message (the steps received so far were already delivered)
    engineCrashed = Signal(str)               # message; a model can be reloaded
    engineUnresponsive = Signal(float)        # seconds without a sign of life; it was ended, a model can be reloaded
    capabilities = Signal(dict)               # {"backend", "gpu_offload", ...}: see host/engine_api.py
    remoteConnected = Signal(object, dict)    # RemoteModelInfo, capabilities
    busyChanged = Signal(bool)

    def __init__(self, client: EngineClient | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.local = client or EngineClient()
        self.client: EngineLike = self.local  # the local engine process, or a remote server
        self.remote: RemoteEngine | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine-bridge")
        self._pending: list[Any] = []
        self._lock = threading.Lock()
        self._busy = 0
        self.info: ModelInfo | RemoteModelInfo | None = None
        self.vocab: list[bytes] = []
        self._timer = QTimer(self)
        self._timer.setInterval(REPAINT_INTERVAL_MS)
        self._timer.timeout.connect(self._drain)

    # -- plumbing ----------------------------------------------------------------------------------
    def _submit(self, job: Callable[[], Any]) -> Future[Any]:
        self._set_busy(+1)

        def run() -> Any:
            try:
                return job()
            finally:
                self._set_busy(-1)

        return self._pool.submit(run)

    def _set_busy(self, delta: int) -> None:
        with self._lock:
            before = self._busy > 0
            self._busy += delta
            after = self._busy > 0
        if before != after:
            self.busyChanged.emit(after)

    @property
    def busy(self) -> bool:
        return self._busy > 0

    def _drain(self) -> None:
        with self._lock:
            batch, self._pending = self._pending, []
        if batch:
            self.steps.emit(batch)

    def _on_step(self, step: Any) -> None:  # worker thread
        with self._lock:
            self._pending.append(step)

    # -- the API used by the window ------------------------------------------------------------------
    def probe(self) -> Future[Any]:
        def job() -> None:
            try:
                self.capabilities.emit(self.local.capabilities())
            except LogitscopeError:
                self.capabilities.emit({"backend": "unknown", "gpu_offload": False})

        return self._submit(job)

    def connect_remote(self, engine: RemoteEngine) -> Future[Any]:
        """Use a remote server instead of the local engine (whose process is ended: no memory held)."""
        def job() -> None:
            try:
                info = engine.connect()
                caps = engine.capabilities()
            except LogitscopeError as exc:
                self.loadFailed.emit(str(exc))
                return
            self.local.close()
            if self.remote is not None:
                self.remote.close()
            self.remote, self.client = engine, engine
            self.info, self.vocab = info, []
            self.remoteConnected.emit(info, caps)

        return self._submit(job)

    def load(self, path: str, settings: LoadSettings) -> Future[Any]:
        """Load a model in a fresh engine process. If it fails and another model was loaded before, that
        one is loaded again, so a bad file never leaves the user without a working model."""
        def job() -> None:
            if self.remote is not None:  # back to the local engine
                self.remote.close()
                self.remote, self.client = None, self.local
            previous = self.local.last_load
            self.loadStarted.emit(path)
            try:
                self._load(path, settings)
                return
            except LogitscopeError as exc:
                self.info = None
                self.loadFailed.emit(str(exc))
            if previous is not None and previous[0] != path:
                try:
                    self.loadStarted.emit(previous[0])
                    self._load(*previous)
                except LogitscopeError as exc:
                    self.loadFailed.emit(str(exc))

        return self._submit(job)

    def _load(self, path: str, settings: LoadSettings) -> None:
        info = self.local.load(path, settings, on_progress=self.loadProgress.emit)
        self.vocab = self.local.vocab()
        self.info = info
        self.loaded.emit(info)

    def reload(self) -> Future[Any] | None:
        if self.remote is not None:
            return self.connect_remote(self.remote)
        if self.local.last_load is None:
            return None
        return self.load(*self.local.last_load)

    def generate(self, request: GenerateRequest) -> Future[Any]:
        def job() -> None:
            self._timer_start()
            try:
                result = self.client.generate(request, on_step=self._on_step)
                self._flush_then(lambda: self.generationFinished.emit(result))
            except CancelledError:
                self._flush_then(lambda: self.generationFailed.emit("stopped"))
            except RemoteEngineError as exc:  # the steps that arrived are kept by the window
                failure = str(exc)
                self._flush_then(lambda: self.generationFailed.emit(failure))
            except EngineCrashedError as exc:
                crash, ended = str(exc), self._engine_ended(exc)

                def fail_then_end() -> None:
                    self.generationFailed.emit(crash)
                    ended()

                self._flush_then(fail_then_end)
            except LogitscopeError as exc:
                failure = str(exc)
                self._flush_then(lambda: self.generationFailed.emit(failure))

        return self._submit(job)

    def _timer_start(self) -> None:
        # QTimer lives in the GUI thread: start it there.
        QTimer.singleShot(0, self, self._timer.start)

    def _flush_then(self, emit: Callable[[], Any]) -> None:
        """Deliver the last steps before the end signal (both in the GUI thread, in this order)."""
        def finish() -> None:
            self._timer.stop()
            self._drain()
            emit()

        QTimer.singleShot(0, self, finish)

    def call(self, fn: Callable[[EngineLike], Any], done: Callable[[Any], None] | None = None,
             failed: Callable[[str], None] | None = None) -> Future[Any]:
        """Run any client call on the worker; `done`/`failed` are called in the GUI thread."""
        def job() -> None:
            try:
                value = fn(self.client)
                if done:
                    QTimer.singleShot(0, self, lambda: done(value))
            except LogitscopeError as exc:
                if failed:
                    message = str(exc)
                    QTimer.singleShot(0, self, lambda: failed(message))
                if isinstance(exc, EngineCrashedError):
                    self._engine_ended(exc)()

        return self._submit(job)

    def _engine_ended(self, exc: EngineCrashedError) -> Callable[[], None]:
        """Forget the model of an engine that crashed or was ended; returns the emit that says which."""
        self.info = None
        if isinstance(exc, EngineUnresponsiveError):
            return lambda: self.engineUnresponsive.emit(exc.silent_s)
        message = str(exc)
        return lambda: self.engineCrashed.emit(message)

    def cancel(self) -> None:
        """Stop the running generation or load (any thread, returns at once)."""
        self.client.cancel()

    def shutdown(self) -> None:
        self.client.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.local.close()
        if self.remote is not None:
            self.remote.close()
