"""The GUI's only door to the engine: EngineClient calls on one worker thread, results as Qt signals.

- Every engine call runs on a single worker thread (one owner of the model; calls queue), never on the
  GUI thread, so the window never freezes during a load or a generation.
- Steps arrive from the engine in bursts; they are collected and handed to the GUI at most 20 times a
  second (REPAINT_INTERVAL_MS) (`steps` signal), so painting cost does not grow with the token rate.
- Cancelling names the kind of job it stops (JOB_GENERATE, JOB_SCORE, ...): the chat's Stop never stops a
  score, the Score dialog's Cancel never stops a chat answer. A queued job of that kind is dropped at once
  (its caller hears "cancelled"); the running one is stopped through the engine client's cancel token for
  that job (EngineClient.cancel_token), which no other job's call carries.
- Outcomes cross as typed objects (the ModelInfo, the GenerationResult, or the LogitscopeError itself:
  CancelledError / LoadCancelledError when the user stopped it), never strings to compare.
- Shared state (`info`, `vocab`, `client`) is set on the GUI thread only, in the same hop that emits the
  signal announcing it, so a slot never sees a half-changed bridge.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from logitscope.base.errors import (
    EngineCrashedError,
    EngineUnresponsiveError,
    LoadCancelledError,
    LogitscopeError,
)
from logitscope.host.client import CancelledError, EngineClient
from logitscope.host.remote import RemoteEngine
from logitscope.protocol.api import GenerateRequest, LoadSettings, ModelInfo
from logitscope.protocol.batched import BatchedRequest, BatchedResult
from logitscope.protocol.engine_like import EngineLike, RemoteModelInfo
from logitscope.protocol.trace import GenerationResult

# Steps reach the window 20 times a second: smooth text. Each drain wakes the GUI and repaints the answer;
# bench --window --replay measured 25 a second at ~0.1 ms more GUI CPU per token (100 tok/s).
REPAINT_INTERVAL_MS = 50
WATCHDOG_INTERVAL_MS = 1_000   # how soon an engine process that died while idle is noticed
CANCELLED = "cancelled"   # what a job dropped before it ran reports (the engine says the same when it stops one)
# The kinds of job a cancel can name.
JOB_CALL, JOB_GENERATE, JOB_LOAD, JOB_SCORE, JOB_BEAMS = "call", "generate", "load", "score", "beams"
JOB_CVECTOR = "cvector"   # building a control vector (the Steering dock's Build…)
JOB_THROUGHPUT = "throughput"   # tokens/s against the batch size (Model ▸ Throughput…)


@dataclass(eq=False)
class _Job:
    kind: str
    skipped: Callable[[], Any] | None = None  # what reports it cancelled before it ran (GUI thread)
    cancelled: bool = False


class EngineBridge(QObject):
    loadStarted = Signal(str)                 # model path
    loadProgress = Signal(float)              # 0..1
    loaded = Signal(object)                   # ModelInfo
    loadFailed = Signal(object)               # the LogitscopeError (LoadCancelledError: the user cancelled)
    steps = Signal(list)                      # [StepRecord], coalesced
    generationFinished = Signal(object)       # GenerationResult (BatchedResult for answers decoded together)
    generationFailed = Signal(object)         # the LogitscopeError (CancelledError: stopped by the user);
                                              # the steps received so far were already delivered
    engineCrashed = Signal(str)               # message; a model can be reloaded
    engineUnresponsive = Signal(float)        # seconds without a sign of life; it was ended, a model can be reloaded
    capabilities = Signal(dict)               # {"backend", "gpu_offload", ...}: see protocol/engine_like.py
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
        self._jobs_lock = threading.Lock()   # guards _queued / _running: a cancel sees which job runs
        self._queued: list[_Job] = []
        self._running: _Job | None = None
        self._tokens = isinstance(self.local, EngineClient)  # a stand-in engine (tests) has no cancel tokens
        self.info: ModelInfo | RemoteModelInfo | None = None
        self.vocab: list[bytes] = []
        self._timer = QTimer(self)
        self._timer.setInterval(REPAINT_INTERVAL_MS)
        self._timer.timeout.connect(self._drain)
        # an engine that ends while idle (killed, out of memory) is said at once, as a crash mid-answer is
        self._watchdog = QTimer(self)
        self._watchdog.setInterval(WATCHDOG_INTERVAL_MS)
        self._watchdog.timeout.connect(self._check_engine)
        self._watchdog.start()

    # -- plumbing ----------------------------------------------------------------------------------
    def _submit(self, job: Callable[[], Any], kind: str = JOB_CALL, skipped: Callable[[], Any] | None = None,
                started: Callable[[], Any] | None = None) -> Future[Any]:
        """Queue `job` on the worker. `skipped` runs on the GUI thread instead when the job is cancelled
        before it started (at once: not when its turn would have come); `started` runs there when it starts."""
        if self._shut_down:  # a timer that fires after the window closed: nothing left to run it on
            dropped: Future[Any] = Future()
            dropped.cancel()
            return dropped
        self._set_busy(+1)
        entry = _Job(kind, skipped)
        with self._jobs_lock:
            self._queued.append(entry)

        def run() -> Any:
            try:
                with self._jobs_lock:
                    self._queued.remove(entry)
                    if not entry.cancelled:
                        self._running = entry
                if entry.cancelled:  # its caller was told when it was cancelled
                    return None
                if started is not None:
                    self._in_gui(started)
                if self._tokens:
                    with self.local.cancel_token(lambda: entry.cancelled):
                        return job()
                return job()
            finally:
                with self._jobs_lock:
                    if self._running is entry:
                        self._running = None
                self._set_busy(-1)

        return self._pool.submit(run)

    @property
    def running_kind(self) -> str | None:
        """The kind of job the worker runs now (None: idle)."""
        running = self._running
        return running.kind if running is not None else None

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

        return self._submit(job, JOB_LOAD, partial(self.loadFailed.emit, LoadCancelledError("model load cancelled")))

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
            except CancelledError:   # a Cancel landing between the load and its vocabulary: a cancelled load too
                self._in_gui(partial(self._load_failed, LoadCancelledError("model load cancelled")))
            except LogitscopeError as exc:
                self._in_gui(partial(self._load_failed, exc))
            if previous is not None and previous != (path, settings):  # the same file too, with other settings
                try:
                    self.loadStarted.emit(previous[0])
                    # a cancelled load brings the previous model back too: under a token of its own, as the
                    # job's (true after a Cancel) would stop this load before it starts
                    with self.local.cancel_token(lambda: False) if self._tokens else nullcontext():
                        self._load(*previous)
                except LogitscopeError as exc:
                    self._in_gui(partial(self._load_failed, exc))

        return self._submit(job, JOB_LOAD, partial(self._load_failed, LoadCancelledError("model load cancelled")))

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

    def generate(self, request: GenerateRequest | BatchedRequest) -> Future[Any]:
        """One answer, or several decoded together (a BatchedRequest: `steps` then brings AnswerSteps and
        generationFinished a BatchedResult)."""
        def job() -> None:
            self._timer_start()
            try:
                result: GenerationResult | BatchedResult = (
                    self.client.generate_batched(request, on_step=self._on_step) if isinstance(request, BatchedRequest)
                    else self.client.generate(request, on_step=self._on_step))
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

        return self._submit(job, JOB_GENERATE, partial(self.generationFailed.emit, CancelledError(CANCELLED)))

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
             failed: Callable[[str], None] | None = None, kind: str = JOB_CALL,
             started: Callable[[], None] | None = None) -> Future[Any]:
        """Run any client call on the worker; `done`/`failed`/`started` are called in the GUI thread. `kind`
        names it for cancel(); cancelled before it ran, it fails with CANCELLED."""
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

        return self._submit(job, kind, partial(failed, CANCELLED) if failed else None, started)

    def _check_engine(self) -> None:
        if self._shut_down or self.busy or self.remote is not None or self.info is None:
            return
        if isinstance(self.local, EngineClient) and (gone := self.local.ended_with_model()) is not None:
            self._engine_ended(gone)()

    def _engine_ended(self, exc: EngineCrashedError) -> Callable[[], None]:
        """What to run on the GUI thread when an engine crashed or was ended: forget its model, say which."""
        def ended() -> None:
            self.info = None
            if isinstance(exc, EngineUnresponsiveError):
                self.engineUnresponsive.emit(exc.silent_s)
            else:
                self.engineCrashed.emit(str(exc))

        return ended

    def cancel(self, kind: str | None = None) -> None:
        """Stop the jobs of this kind: the queued ones never run, the running one is stopped (any thread,
        returns at once). None: whatever runs now, whatever its kind (the queue is left alone)."""
        with self._jobs_lock:  # the worker cannot switch to the next job meanwhile
            if kind is not None:
                for entry in self._queued:
                    if entry.kind == kind and not entry.cancelled:
                        entry.cancelled = True  # the worker drops it; its caller hears now, not after the queue
                        if entry.skipped is not None:
                            self._in_gui(entry.skipped)
            running = self._running
            if running is not None and kind in (None, running.kind):
                running.cancelled = True  # the local engine's call sees its token
                if kind is None or not self._tokens or self.client is not self.local:
                    self.client.cancel()

    def shutdown(self) -> None:
        self._shut_down = True
        self._watchdog.stop()
        self.client.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.local.close()
        if self.remote is not None:
            self.remote.close()
