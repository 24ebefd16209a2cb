"""The GUI's only door to the engine: EngineClient calls on one worker thread, results as Qt signals.

- Every engine call runs on a single worker thread (one owner of the model; calls queue), never on the
  GUI thread, so the window never freezes during a load or a generation.
- Steps arrive from the engine in bursts; they are collected and handed to the GUI at most 25 times a
  second (`steps` signal), so painting cost does not grow with the token rate.
- Outcomes cross as typed objects (the ModelInfo, the GenerationResult, or the LogitscopeError itself:
  CancelledError / LoadCancelledError when the user stopped it), never strings to compare.
- Shared state (`info`, `vocab`, `client`) is set on the GUI thread only, in the same hop that emits the
  signal announcing it, so a slot never sees a half-changed bridge.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from logitscope.engine.api import GenerateRequest, LoadSettings, ModelInfo
from logitscope.errors import EngineCrashedError, EngineUnresponsiveError, LogitscopeError
from logitscope.host.client import EngineClient
from logitscope.host.engine_api import EngineLike, RemoteModelInfo
from logitscope.host.remote import RemoteEngine

REPAINT_INTERVAL_MS = 40  # steps reach the window 25 times a second: smooth text, and a repaint of the answer costs ~2 ms


class EngineBridge(QObject):
    loadStarted = Signal(str)                 # model path
    loadProgress = Signal(float)              # 0..1
    loaded = Signal(object)                   # ModelInfo
    loadFailed = Signal(object)               # the LogitscopeError (LoadCancelledError: the user cancelled)
    steps = Signal(list)                      # [StepRecord], coalesced
    generationFinished = Signal(object)       # GenerationResult
    generationFailed = Signal(object)         # the LogitscopeError (CancelledError: stopped by the user);
                                              # the steps received so far were already delivered
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
        self._shut_down = False
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
        if self._shut_down:  # a timer that fires after the window closed: nothing left to run it on
            dropped: Future[Any] = Future()
            dropped.cancel()
            return dropped
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

    def _in_gui(self, fn: Callable[[], Any]) -> None:
        """Run `fn` on the GUI thread (after what the worker posted before it)."""
        QTimer.singleShot(0, self, fn)

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
                self._in_gui(partial(self.loadFailed.emit, exc))
                return
            self.local.close()
            previous = self.remote
            if previous is not None and previous is not engine:
                previous.close()

            def use_it() -> None:
                self.remote, self.client = engine, engine
                self.info, self.vocab = info, []
                self.remoteConnected.emit(info, caps)

            self._in_gui(use_it)

        return self._submit(job)

    def load(self, path: str, settings: LoadSettings) -> Future[Any]:
        """Load a model in a fresh engine process. If it fails and another model was loaded before, that
        one is loaded again, so a bad file never leaves the user without a working model."""
        remote = self.remote
        if remote is not None:  # back to the local engine (the worker only uses `client` after this hop)
            self.remote, self.client = None, self.local

        def job() -> None:
            if remote is not None:
                remote.close()
            previous = self.local.last_load
            self.loadStarted.emit(path)
            try:
                self._load(path, settings)
                return
            except LogitscopeError as exc:
                self._in_gui(partial(self._load_failed, exc))
            if previous is not None and previous[0] != path:
                try:
                    self.loadStarted.emit(previous[0])
                    self._load(*previous)
                except LogitscopeError as exc:
                    self._in_gui(partial(self._load_failed, exc))

        return self._submit(job)

    def _load(self, path: str, settings: LoadSettings) -> None:  # worker thread
        info = self.local.load(path, settings, on_progress=self.loadProgress.emit)
        vocab = self.local.vocab()

        def use_it() -> None:
            self.info, self.vocab = info, vocab
            self.loaded.emit(info)

        self._in_gui(use_it)

    def _load_failed(self, exc: LogitscopeError) -> None:
        self.info = None
        self.loadFailed.emit(exc)

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
            except EngineCrashedError as exc:  # the steps that arrived are kept by the window
                ended = self._engine_ended(exc)

                def crashed(error: EngineCrashedError = exc) -> None:
                    self.info = None  # no model while the failure is handled
                    self.generationFailed.emit(error)
                    ended()

                self._flush_then(crashed)
            except LogitscopeError as exc:  # CancelledError included: the user stopped it
                self._flush_then(partial(self.generationFailed.emit, exc))

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
                    self._in_gui(self._engine_ended(exc))

        return self._submit(job)

    def _engine_ended(self, exc: EngineCrashedError) -> Callable[[], None]:
        """What to run on the GUI thread when an engine crashed or was ended: forget its model, say which."""
        def ended() -> None:
            self.info = None
            if isinstance(exc, EngineUnresponsiveError):
                self.engineUnresponsive.emit(exc.silent_s)
            else:
                self.engineCrashed.emit(str(exc))

        return ended

    def cancel(self) -> None:
        """Stop the running generation or load (any thread, returns at once)."""
        self.client.cancel()

    def shutdown(self) -> None:
        self._shut_down = True
        self.client.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.local.close()
        if self.remote is not None:
            self.remote.close()
