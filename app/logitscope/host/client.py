"""The caller's side of the engine process: the Engine API, over a socket, with crash detection.

- A native abort or segfault in the engine (GGML_ASSERT, CUDA OOM, a hostile file) closes the socket;
  the waiting call raises EngineCrashedError within a fraction of a second, with the tail of the
  engine's log. The next call starts a fresh engine.
- `cancel()` may be called from any thread: a generation stops within one token, a load within one
  progress tick. It stops whatever call runs; `cancel_token(cancelled)` names the caller's own calls instead
  (the window's bridge: one job's Cancel never stops another job's call).
- An engine that makes no progress (stopped with SIGSTOP, frozen) is ended: whenever the engine has been
  quiet for a moment during a call, the caller asks for a sign of life, which the engine's reader thread
  gives at once however busy llama.cpp is. No sign of life for `timeout_s` (DEFAULT_TIMEOUT_S, or
  $LOGITSCOPE_ENGINE_TIMEOUT seconds, 0 = never) ends it with EngineUnresponsiveError; after a cancel,
  CANCEL_TIMEOUT_S is enough. A slow but alive engine (a big model on a slow machine, a long prompt) keeps
  answering, so it is never ended for being slow; the timeout only needs to cover a machine too overloaded
  to schedule a small thread.
- A call broken off on the caller's side (Ctrl+C, a failing callback) ends the engine: it is still busy with
  that call, and its late answers would be taken for the next call's.
- Loading a model ends the previous engine process first: the only sure way to give all native memory
  back.
"""

from __future__ import annotations

import collections
import fcntl
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any

from logitscope.base import errors
from logitscope.base.messages import Message
from logitscope.host.crash_log import crash_hint
from logitscope.protocol.api import ChatMessage, GenerateRequest, LoadSettings, ModelInfo
from logitscope.protocol.batched import (
    AnswerStep,
    BatchedRequest,
    BatchedResult,
    ThroughputPoint,
    ThroughputRequest,
    ThroughputResult,
)
from logitscope.protocol.beams import BeamProgress, BeamRequest, BeamResult
from logitscope.protocol.causal import (
    AblateRequest,
    Ablation,
    AblationEffect,
    HeadScan,
    HeadScanRequest,
    PatchRequest,
    PatchResult,
)
from logitscope.protocol.cvector import CvectorRequest, CvectorResult
from logitscope.protocol.engine_like import LOCAL_CAPABILITIES
from logitscope.protocol.forced_compare import ForcedKl
from logitscope.protocol.forward import AttentionMatrix, ForwardInspection, InspectRequest
from logitscope.protocol.kv_map import KvMap
from logitscope.protocol.quantize import QuantizeRequest, QuantizeResult
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.score import ScoreRequest, ScoreResult
from logitscope.protocol.steering import Steering
from logitscope.protocol.steering_compare import SteeringCompare, SteeringCompareRequest
from logitscope.protocol.trace import GenerationResult, StepRecord, unpack_step

POLL_MS = 50               # a waiting call looks at its cancel flag and the engine's silence this often
SHUTDOWN_WAIT_S = 3.0
TIMEOUT_ENV = "LOGITSCOPE_ENGINE_TIMEOUT"
DEFAULT_TIMEOUT_S = 20.0   # of silence: the engine answers in milliseconds whatever it is doing
CANCEL_TIMEOUT_S = 2.0     # of silence after a cancel (Ctrl+C, Stop): a live engine answers at once
HEARTBEAT_S = 1.0          # quiet this long: ask for a sign of life (never while steps are flowing)
OWN_PAUSE_S = 1.0          # the caller itself did not run this long (suspended, Ctrl+Z): not the engine's silence

log = logging.getLogger(__name__)


def timeout_from_env() -> float | None:
    """Seconds of silence before an engine is taken for stopped ($LOGITSCOPE_ENGINE_TIMEOUT; 0 = never)."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if not raw:
        return DEFAULT_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        log.warning("%s=%r is not a number of seconds >= 0; using %g", TIMEOUT_ENV, raw, DEFAULT_TIMEOUT_S)
        return DEFAULT_TIMEOUT_S
    return value or None


def engine_command(fd: int, trace_fd: int | None = None) -> list[str]:
    """How to start the engine: `python -m ...` from source, the app itself when frozen (PyInstaller)."""
    options = ["--fd", str(fd), *(["--trace-fd", str(trace_fd)] if trace_fd is not None else [])]
    if getattr(sys, "frozen", False):
        return [sys.executable, "--engine-server", *options]
    return [sys.executable, "-m", "logitscope.host.server", *options]


def _signal_name(returncode: int | None) -> str:
    if returncode is None:
        return Message("stopped answering")
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        meaning = {"SIGABRT": Message("native abort"), "SIGSEGV": Message("segmentation fault"),
                   "SIGKILL": Message("killed"), "SIGBUS": Message("bus error"),
                   "SIGFPE": Message("arithmetic error")}.get(name)
        return Message("{signal}: {meaning}", signal=name, meaning=meaning) if meaning else name
    return Message("exit code {code}", code=returncode)


class EngineClient:
    """Same methods as logitscope.engine.core.Engine, run in a child process."""

    def __init__(self, env: dict[str, str] | None = None, trace_output: int | None = None) -> None:
        """`trace_output`: a file descriptor (the CLI's standard output) for generate(trace_top=...)'s JSON lines,
        which the engine process writes itself; the client keeps a copy (above 2: the child's standard streams
        are its own) for every engine it starts, so the caller may close its own."""
        self._env = env
        self._trace_output: int | None = None
        if trace_output is not None:
            self._trace_output = fcntl.fcntl(trace_output, fcntl.F_DUPFD_CLOEXEC, 3)
            weakref.finalize(self, os.close, self._trace_output)
        self.timeout_s: float | None = timeout_from_env()  # of silence before the engine is ended; None: never
        self._cancel = threading.Event()  # sent by the calling thread (a signal handler must not block)
        self._token = threading.local()   # .cancelled: the cancel token of calls made from that thread
        self._proc: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        self._call_lock = threading.Lock()   # one request at a time
        self._send_lock = threading.Lock()   # cancel() may send while a call is waiting
        self._log: collections.deque[str] = collections.deque(maxlen=200)
        self.info: ModelInfo | None = None
        self._vocab: list[bytes] | None = None
        self.last_load: tuple[str, LoadSettings] | None = None

    # -- process ---------------------------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc and self._proc.poll() is None else None

    @property
    def alive(self) -> bool:
        return self.pid is not None

    def start(self) -> None:
        if self.alive:
            return
        self._discard()
        parent_sock, child_sock = socket.socketpair()
        fd = child_sock.fileno()
        env = dict(os.environ if self._env is None else self._env)
        env.setdefault("PYTHONUNBUFFERED", "1")
        self._log.clear()
        trace = self._trace_output
        self._proc = subprocess.Popen(engine_command(fd, trace), pass_fds=(fd,) if trace is None else (fd, trace),
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      env=env)
        child_sock.close()
        self._conn = Connection(parent_sock.detach())
        threading.Thread(target=self._pump_log, args=(self._proc,), daemon=True, name="engine-log").start()

    def _pump_log(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            self._log.append(raw.decode("utf-8", "replace").rstrip())

    def log_tail(self, n: int = 20) -> list[str]:
        return list(self._log)[-n:]

    def _discard(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._proc = None
        self.info = None
        self._vocab = None

    def close(self) -> None:
        """End the engine process (politely, then by force)."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                with self._send_lock:
                    assert self._conn is not None
                    self._conn.send(("shutdown",))
                proc.wait(SHUTDOWN_WAIT_S)
            except (OSError, subprocess.TimeoutExpired, AssertionError):
                proc.kill()
                proc.wait()
        self._discard()

    def kill(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()

    def _end(self) -> None:
        """End the engine at once (it is mid-call or not answering) and forget it."""
        proc = self._proc
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        self._discard()

    def __enter__(self) -> EngineClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- messaging -------------------------------------------------------------------------------
    def _send(self, msg: tuple[Any, ...]) -> None:
        assert self._conn is not None
        try:
            with self._send_lock:
                self._conn.send(msg)
        except OSError:
            raise self._crashed() from None

    def _wait_for_reply(self, on_progress: Callable[[float], None] | None,
                        on_step: Callable[[Any], None] | None,
                        token: Callable[[], bool] | None = None) -> tuple[Any, ...]:
        """Hand progress and steps to the callbacks until the call's answer ("ok" or "err") arrives. Sends a
        pending cancel (or the call's own, when `token()` turns true), asks a quiet engine for a sign of life,
        and ends one that gives none."""
        conn, proc = self._conn, self._proc
        assert conn is not None and proc is not None
        limit, stopping = self.timeout_s, False
        heard = asked = checked = time.monotonic()
        # one poll object for the call: Connection.poll builds a selector at every call, ~100 µs of Python
        # here, 20-40 times a second while an answer streams (2-core machine, measured)
        readable = select.poll()
        readable.register(conn.fileno(), select.POLLIN)
        while True:
            # sent from here: cancel() may run in a signal handler, which must not block
            if self._cancel.is_set() or (token is not None and not stopping and token()):
                self._cancel.clear()
                self._send(("cancel",))
                limit, stopping = min(limit or CANCEL_TIMEOUT_S, CANCEL_TIMEOUT_S), True
                heard, asked = time.monotonic(), float("-inf")  # ask at once
            try:
                msg: tuple[Any, ...] | None = conn.recv() if readable.poll(POLL_MS) else None
            except (EOFError, OSError):
                raise self._crashed() from None
            now = time.monotonic()
            if msg is not None or now - checked > OWN_PAUSE_S:
                heard = now  # a message; or this process did not run for a while: that silence is not the engine's
            checked = now
            if msg is None:
                if proc.poll() is not None:
                    raise self._crashed()
                if limit is not None:
                    if now - heard >= limit:
                        raise self._unresponsive(limit, stopping)
                    interval = min(HEARTBEAT_S, limit / 4)
                    if now - heard >= interval and now - asked >= interval:
                        self._send(("heartbeat",))
                        asked = now
                continue
            if msg[0] in ("ok", "err"):
                return msg
            if msg[0] == "progress" and on_progress:
                on_progress(msg[1])
            elif msg[0] == "steps" and on_step:
                for data in msg[1]:
                    on_step(unpack_step(data))
            elif msg[0] == "answers" and on_step:
                for answer, data in msg[1]:
                    on_step(AnswerStep(answer, unpack_step(data)))
            elif msg[0] in ("beams", "points") and on_step:
                for event in msg[1]:
                    on_step(event)

    def _unresponsive(self, silent_s: float, stopping: bool) -> errors.EngineUnresponsiveError:
        self._end()
        if stopping:
            return errors.EngineUnresponsiveError("the engine did not answer the request to stop (no sign of life "
                                                  "for {seconds:g} s), so it was ended", silent_s, seconds=silent_s)
        return errors.EngineUnresponsiveError("the engine stopped responding (no sign of life for {seconds:g} s), "
                                              "so it was ended (a very slow machine can allow longer with "
                                              "{variable}=SECONDS)", silent_s, seconds=silent_s, variable=TIMEOUT_ENV)

    def _crashed(self) -> errors.EngineCrashedError:
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(1.0)
            except subprocess.TimeoutExpired:
                proc.kill()  # it closed its socket but lingers: finish it
                code = proc.wait()
        time.sleep(0.05)  # let the log pump read the last lines
        tail = [line for line in self.log_tail(40) if line.strip()]
        hint = crash_hint(tail)  # never a routine line that happened to come last
        self._discard()
        crashed = Message("the engine process crashed ({how})", how=_signal_name(code))
        if "GGML_ASSERT" in hint:
            err = errors.EngineCrashedError("{crashed}; llama.cpp gave up on a check: {check}", crashed=crashed,
                                            check=hint[hint.index("GGML_ASSERT"):].strip()[:300])
        elif hint:
            err = errors.EngineCrashedError("{crashed}; its log ends with: {line}", crashed=crashed,
                                            line=hint.strip()[:300])
        else:
            err = errors.EngineCrashedError(crashed)
        err.log_tail = tail
        return err

    def ended_with_model(self) -> errors.EngineCrashedError | None:
        """The crash of an engine process that ended between calls (killed, out of memory) with a model loaded,
        said once (the process is forgotten then); None while it runs, when it held no model, or while a call
        is under way (that call reports it). Any thread: a watchdog asks while the engine is idle."""
        if not self._call_lock.acquire(blocking=False):
            return None
        try:
            return self._ended_with_model()
        finally:
            self._call_lock.release()

    def _ended_with_model(self) -> errors.EngineCrashedError | None:
        proc = self._proc
        if proc is None or proc.poll() is None or self.info is None:
            return None
        return self._crashed()

    def call(self, method: str, on_progress: Callable[[float], None] | None = None,
             on_step: Callable[[Any], None] | None = None, **kwargs: Any) -> Any:
        """`on_step` gets each StepRecord of the call's "steps" messages, or each BeamProgress of beam_search's.
        A call to a model whose process ended since the last one fails with that crash (EngineCrashedError),
        never with a fresh engine's "no model is loaded"; a load starts a fresh one."""
        with self._call_lock:
            if method != "load" and (gone := self._ended_with_model()) is not None:
                raise gone
            self.start()
            self._cancel.clear()  # a cancel meant for an earlier call
            token = getattr(self._token, "cancelled", None)
            if token is not None and token():
                # its job was cancelled already: not sent (a cancel sent right behind the call could be
                # cleared by the engine as it starts the call, and then never be sent again)
                raise errors.LoadCancelledError("model load cancelled") if method == "load" else CancelledError("cancelled")
            self._send(("call", method, kwargs))
            try:
                reply = self._wait_for_reply(on_progress, on_step, token)
            except errors.EngineCrashedError:
                raise
            except BaseException:
                self._end()  # broken off here (Ctrl+C, a failing callback) while the engine is mid-call
                raise
        if reply[0] == "ok":
            return reply[1]
        raise _rebuild_error(*reply[1:])

    def cancel(self) -> None:
        """Stop the current generation or load (any thread, a signal handler too: it only sets a flag,
        which the waiting call sends). An engine that does not answer it is ended (CANCEL_TIMEOUT_S)."""
        self._cancel.set()

    @contextmanager
    def cancel_token(self, cancelled: Callable[[], bool]) -> Iterator[None]:
        """Calls made from this thread inside the block also stop (as by cancel()) once `cancelled()` is true,
        and only they: a cancel token that names its job. It is polled while a call waits (every POLL_MS)."""
        outer = getattr(self._token, "cancelled", None)
        self._token.cancelled = cancelled
        try:
            yield
        finally:
            self._token.cancelled = outer  # blocks nest: an inner one (a fresh token) ends back at the outer

    # -- the Engine API --------------------------------------------------------------------------
    def load(self, path: str, settings: LoadSettings | None = None,
             on_progress: Callable[[float], None] | None = None) -> ModelInfo:
        settings = settings or LoadSettings()
        settings.validate()
        if self.info is not None:
            self.close()  # a fresh process per model: all memory of the old one is returned
        self.info = self.call("load", on_progress=on_progress, path=str(path), settings=settings)
        self.last_load = (str(path), settings)
        return self.info

    def reload(self, on_progress: Callable[[float], None] | None = None) -> ModelInfo:
        if self.last_load is None:
            raise errors.NoModelLoadedError("no model was loaded before")
        return self.load(*self.last_load, on_progress=on_progress)

    def generate(self, request: GenerateRequest, on_step: Callable[[StepRecord], None] | None = None,
                 trace_top: int | None = None) -> GenerationResult:
        """`trace_top`: the engine process writes the steps as JSON lines (that many candidates each) to the
        trace output this client was made with, and sends none here; OSError (BrokenPipeError, ...) when that
        output is full or gone (the answer stops there)."""
        request.validate()
        if trace_top is not None and self._trace_output is None:
            raise ValueError("trace_top needs a client made with a trace output")
        result: GenerationResult = self.call("generate", on_step=on_step, request=request, trace_top=trace_top)
        if self.last_load is not None:  # provenance, as a remote engine records its server and model
            result.settings["engine"] = {"local": os.path.basename(self.last_load[0])}
        return result

    def generate_batched(self, request: BatchedRequest,
                         on_step: Callable[[AnswerStep], None] | None = None) -> BatchedResult:
        """N answers decoded together (engine/batched.py), each step to `on_step` with its answer's index."""
        request.validate()
        result: BatchedResult = self.call("generate_batched", on_step=on_step, request=request)
        if self.last_load is not None:
            for answer in result.answers:
                answer.settings["engine"] = {"local": os.path.basename(self.last_load[0])}
        return result

    def check_settings(self, settings: SamplerSettings) -> None:
        """InvalidSettingsError when the loaded model cannot run these settings (a grammar or JSON schema that
        does not parse, a logit-bias token outside the vocabulary, an out-of-range value)."""
        self.call("check_settings", settings=settings)

    def tokenize(self, text: str, add_special: bool = False, parse_special: bool = True) -> list[int]:
        tokens: list[int] = self.call("tokenize", text=text, add_special=add_special, parse_special=parse_special)
        return tokens

    def vocab(self) -> list[bytes]:
        if self._vocab is None:
            self._vocab = self.call("vocab")
        return self._vocab

    def render_chat(self, messages: list[ChatMessage], system: str | None = None) -> str:
        prompt: str = self.call("render_chat", messages=messages, system=system)
        return prompt

    def prompt_tokens(self, request: GenerateRequest) -> list[int]:
        tokens: list[int] = self.call("prompt_tokens", request=request)
        return tokens

    def kv_map(self) -> KvMap:
        """The generation context's KV cells after the last request (protocol/forward.py)."""
        kv: KvMap = self.call("kv_map")
        return kv

    def beam_search(self, request: BeamRequest,
                    on_progress: Callable[[BeamProgress], None] | None = None) -> BeamResult:
        """Beam search in a context of the engine's own (engine/beams.py), each step to `on_progress` as it is
        taken; `cancel` ends it with the live beams (result.cancelled), or with CancelledError during the prompt."""
        request.validate()
        result: BeamResult = self.call("beam_search", on_step=on_progress, request=request)
        return result

    def inspect(self, request: InspectRequest) -> ForwardInspection:
        """The logit lens and the attention weights of the step at the last of `request.tokens`, computed in
        the engine's inspection context (engine/forward/inspection.py)."""
        inspection: ForwardInspection = self.call("inspect", request=request)
        return inspection

    def attention_matrix(self, tokens: list[int], layer: int, head: int, steering: Steering | None = None,
                         knockouts: tuple[Ablation, ...] = ()) -> AttentionMatrix:
        """Where every position of `tokens` looks, in one layer and query head (steered as `steering` says, the
        heads and blocks `knockouts` names knocked out)."""
        matrix: AttentionMatrix = self.call("attention_matrix", tokens=list(tokens), layer=layer, head=head,
                                            steering=steering, knockouts=tuple(knockouts))
        return matrix

    def save_distributions(self, tokens: list[int], first: int, path: str, steering: Steering | None = None) -> int:
        """Write the model's next-token distributions predicting tokens[first:] to `path` (llama.cpp's quantized
        rows, np.save; engine/forced_compare.py); returns how many. cancel() stops it (CancelledError)."""
        n: int = self.call("save_distributions", tokens=[int(t) for t in tokens], first=first, path=path,
                           steering=steering)
        return n

    def compare_distributions(self, tokens: list[int], first: int, path: str,
                              steering: Steering | None = None) -> ForcedKl:
        """This model's distributions predicting tokens[first:] against the ones save_distributions wrote at
        `path` (another engine's): per token KLD, Δp, top-1 agreement; index 0 = tokens[first]."""
        result: ForcedKl = self.call("compare_distributions", tokens=[int(t) for t in tokens], first=first,
                                     path=path, steering=steering)
        return result

    def set_threads(self, n_threads: int) -> int:
        """The generation context's CPU threads from now on (0: one per CPU); returns the count before."""
        before: int = self.call("set_threads", n_threads=n_threads)
        return before

    def throughput(self, request: ThroughputRequest, on_progress: Callable[[float], None] | None = None,
                   on_point: Callable[[ThroughputPoint], None] | None = None) -> ThroughputResult:
        """Tokens per second against the batch size (engine/batched.py); `on_point` gets each batch size's figures as
        soon as they are measured; cancel() stops it (CancelledError)."""
        request.validate()
        result: ThroughputResult = self.call("throughput", on_progress=on_progress, on_step=on_point, request=request)
        return result

    def score(self, request: ScoreRequest, on_progress: Callable[[float], None] | None = None) -> ScoreResult:
        """Every token of a text scored by the model (engine/score.py); progress as a fraction of the positions
        to evaluate; cancel() stops it (CancelledError)."""
        request.validate()
        result: ScoreResult = self.call("score", on_progress=on_progress, request=request)
        return result

    def quantize_estimate(self, request: QuantizeRequest) -> int:
        """The bytes the quantized model will take on disk (llama.cpp's dry run; nothing is written)."""
        request.validate()
        need: int = self.call("quantize_estimate", request=request)
        return need

    def quantize(self, request: QuantizeRequest, on_progress: Callable[[float], None] | None = None
                 ) -> QuantizeResult:
        """llama_model_quantize in the engine process (no model loaded needed); progress as tensors done. It
        cannot be stopped mid-way: host/quantize_job.py cancels by ending the process."""
        request.validate()
        result: QuantizeResult = self.call("quantize", on_progress=on_progress, request=request)
        return result

    def compare_steering(self, request: SteeringCompareRequest) -> SteeringCompare:
        """An answer's distributions under two steerings, step by step (engine/steering/compare.py)."""
        result: SteeringCompare = self.call("compare_steering", request=request)
        return result

    def ablate(self, request: AblateRequest) -> AblationEffect:
        """The step at the last token with heads or blocks knocked out (engine/forward/causal.py)."""
        result: AblationEffect = self.call("ablate", request=request)
        return result

    def head_scan(self, request: HeadScanRequest, on_progress: Callable[[float], None] | None = None) -> HeadScan:
        """Every head knocked out alone; progress as the fraction of heads done; cancel() stops it."""
        result: HeadScan = self.call("head_scan", on_progress=on_progress, request=request)
        return result

    def patch(self, request: PatchRequest, on_progress: Callable[[float], None] | None = None) -> PatchResult:
        """Activation patching, clean into corrupted; progress as the fraction of cells done; cancel() stops it."""
        result: PatchResult = self.call("patch", on_progress=on_progress, request=request)
        return result

    def build_cvector(self, request: CvectorRequest,
                      on_progress: Callable[[float], None] | None = None) -> CvectorResult:
        """A control vector from prompt pairs, as llama-cvector-generator builds it (engine/steering); progress
        as the fraction of the pairs evaluated; cancel() stops it (CancelledError)."""
        request.validate()
        result: CvectorResult = self.call("build_cvector", on_progress=on_progress, request=request)
        return result

    def capabilities(self) -> dict[str, object]:
        """{"backend": "CPU" | "CUDA" | ..., "gpu_offload": bool} of the engine's llama.cpp build, and
        what it reports (engine_api.CAPABILITY_KEYS: everything, locally)."""
        return {**LOCAL_CAPABILITIES, **self.call("capabilities")}

    def reset(self) -> None:
        """Forget the KV cache (the next prompt is evaluated from scratch)."""
        self.call("reset")

    def ping(self) -> int:
        pid: int = self.call("ping")
        return pid


class CancelledError(errors.LogitscopeError):
    pass


def _rebuild_error(kind: str, message: str, *details: Any) -> Exception:
    cls = getattr(errors, kind, None)
    if kind == "CancelledError":
        return CancelledError(message)
    if kind == "OSError":  # writing the trace output failed: ("OSError", strerror, errno), as if written here
        return OSError(details[0], message)  # (EPIPE gives BrokenPipeError, as Python's own would)
    if isinstance(cls, type) and issubclass(cls, errors.LogitscopeError):
        return cls(message)
    return errors.LogitscopeError(message)
