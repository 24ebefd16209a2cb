"""The engine process: owns llama.cpp, serves one request at a time over a socket.

Started by logitscope.host.client with one end of a socketpair (`--fd N`). Messages are pickled tuples:

  caller -> engine   ("call", method, kwargs) | ("cancel",) | ("heartbeat",) | ("shutdown",)
  engine -> caller   ("progress", fraction) | ("steps", [pack_step bytes, ...]) | ("beams", [BeamProgress, ...])
                     | ("points", [ThroughputPoint, ...])
                     | ("answers", [(answer index, pack_step bytes), ...])   (answers decoded together)
                     | ("ok", value)
                     | ("err", kind, message)   ("err", "OSError", strerror, errno): the trace output failed
                     | ("alive",)

With `--trace-fd M` (the CLI's standard output), generate(trace_top=N) writes its steps there itself as JSON
lines (protocol/trace_lines.py) and sends none: a `generate --json` step then costs the CLI process nothing.

Everything the engine says goes out through a sender thread with a queue of its own, so decoding never
waits for the socket: a caller that stops reading for a while (a busy or frozen GUI) delays no step; the
steps wait in memory (a few KB each) until it reads again.
A reader thread takes every incoming message, so "cancel" is seen while the main thread is busy
(between tokens, and through llama.cpp's abort callback during a long prompt evaluation), and answers
"heartbeat" at once with "alive": a caller that hears nothing for a while asks, and an engine that does not
answer (stopped, frozen) is ended by the caller (logitscope.host.client). It runs from the engine's first
moment, before llama.cpp is even imported. The answer costs the token path nothing: the caller only asks
when no steps arrive.
If the caller goes away, the engine exits: no orphaned processes holding GBs of weights. Ctrl+C in a
terminal reaches the engine too (same process group): it is ignored here; the caller decides.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import queue
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from functools import partial
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from logitscope.host.trace_output import TraceOutput

if TYPE_CHECKING:
    from logitscope.engine.core import Engine
    from logitscope.protocol.api import ChatMessage, GenerateRequest, LoadSettings, ModelInfo
    from logitscope.protocol.batched import BatchedRequest, BatchedResult, ThroughputRequest, ThroughputResult
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
    from logitscope.protocol.forced_compare import ForcedKl
    from logitscope.protocol.forward import AttentionMatrix, ForwardInspection, InspectRequest
    from logitscope.protocol.kv_map import KvMap
    from logitscope.protocol.quantize import QuantizeRequest, QuantizeResult
    from logitscope.protocol.sampler_settings import SamplerSettings
    from logitscope.protocol.score import ScoreRequest, ScoreResult
    from logitscope.protocol.steering import Steering
    from logitscope.protocol.steering_compare import SteeringCompare, SteeringCompareRequest
    from logitscope.protocol.trace import GenerationResult

CRASH_HOOKS_ENV = "LOGITSCOPE_ENGINE_CRASH_HOOKS"  # tests set it to simulate native crashes
# Steps go out in batches, at most 20 a second (the window takes them in as often, ui/bridge.py): each
# message wakes the caller's reader, which then competes with llama.cpp's threads for the cores. 60 a
# second cost the window ~15 % more CPU per token and the engine ~3 % of its speed (2 cores, measured).
STEP_BATCH_S = 1 / 20


def _no_core_dumps() -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):
        pass


class TraceOutputError(Exception):
    """Writing the trace output failed (full, gone): the caller's output, so the caller's OSError."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(cause.strerror or str(cause))
        self.errno, self.strerror = cause.errno, cause.strerror or str(cause)


class EngineServer:
    def __init__(self, conn: Connection, trace_fd: int | None = None) -> None:
        self.conn = conn
        self.outbox: queue.Queue[tuple[Any, ...]] = queue.Queue()  # unbounded: putting never blocks
        self._engine: Engine | None = None  # the reader thread runs before it exists
        self.inbox: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self.cancel = threading.Event()
        # the caller's standard output (its `generate --json`), written as UTF-8 as JSON is; flushed by StepLines;
        # a cancel is not stuck behind a reader that stopped reading (host/trace_output.py)
        self.trace_raw = TraceOutput(trace_fd, self.cancel) if trace_fd is not None else None
        self.trace_out = (io.TextIOWrapper(io.BufferedWriter(self.trace_raw, 1 << 16), encoding="utf-8")
                          if self.trace_raw is not None else None)
        threading.Thread(target=self._write, name="engine-sender", daemon=True).start()
        threading.Thread(target=self._read, name="engine-reader", daemon=True).start()
        from logitscope.engine.core import Engine  # slow (llama.cpp): the reader already answers

        self._engine = Engine()

    @property
    def engine(self) -> Engine:
        assert self._engine is not None, "the engine is created in __init__"
        return self._engine

    def send(self, msg: tuple[Any, ...]) -> None:
        """Queue a message for the caller (any thread; never blocks)."""
        self.outbox.put(msg)

    def _write(self) -> None:
        while True:
            msg = self.outbox.get()
            try:
                self.conn.send(msg)
            except OSError:
                os._exit(0)  # the caller is gone
            finally:
                self.outbox.task_done()

    def flush(self) -> None:
        """Wait until everything queued went out (before the process ends on purpose)."""
        self.outbox.join()

    def _read(self) -> None:
        while True:
            try:
                msg = self.conn.recv()
                if msg[0] == "heartbeat":
                    self.send(("alive",))
                    continue
            except (EOFError, OSError):
                os._exit(0)  # the caller is gone
            if msg[0] == "cancel":
                self.cancel.set()
                if self._engine is not None:
                    self._engine.abort()
            else:
                # a cancel that came before this call was meant for an earlier one; cleared here, in the
                # order the messages came, so a cancel right behind the call is never cleared with it
                self.cancel.clear()
                self.inbox.put(msg)

    def serve(self) -> None:
        while True:
            msg = self.inbox.get()
            if msg[0] == "shutdown":
                self.engine.unload()
                self.flush()
                return
            _, method, kwargs = msg
            try:
                value = getattr(self, f"do_{method}")(**kwargs)
                self.send(("ok", value))
            except Exception as exc:  # every failure goes back to the caller as a message
                self.send(_error_reply(exc))

    # -- methods (each `do_X` is callable as client.call("X", ...)) ------------------------------
    def do_ping(self) -> int:
        return os.getpid()

    def do_load(self, path: str, settings: LoadSettings) -> ModelInfo:
        return self.engine.load(path, settings, lambda f: self.send(("progress", f)), self.cancel.is_set)

    def do_capabilities(self) -> dict[str, object]:
        return self.engine.capabilities()

    def do_reset(self) -> None:
        self.engine.reset()

    def do_unload(self) -> None:
        self.engine.unload()

    def do_generate(self, request: GenerateRequest, trace_top: int | None = None) -> GenerationResult | None:
        """Steps go out in small batches (STEP_BATCH_S), packed as the history stores them: pickling a
        StepRecord (its numpy arrays) cost ~77 µs here and ~30-100 µs in the caller's reader, packing ~13 and
        unpacking ~12. The first step goes out at once. `trace_top`: the steps go to the trace output instead,
        as JSON lines, written here and flushed before the answer ends."""
        # not at the top: the reader starts before numpy loads
        from logitscope.protocol.trace import StepRecord, pack_step
        from logitscope.protocol.trace_lines import StepLines

        lines: StepLines | None = None
        if trace_top is not None:
            if self.trace_out is None or self.trace_raw is None:
                raise ValueError("no trace output was given to this engine")
            self.trace_raw.start_answer()
            lines = StepLines(self.trace_out, self.engine.pieces(), trace_top)
        result: GenerationResult | None = None
        batch: list[bytes] = []
        last_send = 0.0
        failed: OSError | None = None
        for event in self.engine.generate(request, self.cancel.is_set):
            if not isinstance(event, StepRecord):
                result = event
            elif lines is not None:
                if failed is None:
                    failed = _write_or_stop(partial(lines.write, event), self.cancel)
            else:
                batch.append(pack_step(event))
                now = time.perf_counter()
                if now - last_send >= STEP_BATCH_S:
                    self.send(("steps", batch))
                    batch, last_send = [], now
        if lines is not None and failed is None:
            failed = _write_or_stop(lines.flush, self.cancel)
        if failed is not None:
            raise TraceOutputError(failed)
        if batch:
            self.send(("steps", batch))
        return result

    def do_generate_batched(self, request: BatchedRequest) -> BatchedResult | None:
        """As do_generate, each step with the answer it belongs to: ("answers", [(answer, pack_step bytes), ...])."""
        from logitscope.protocol.batched import AnswerStep
        from logitscope.protocol.trace import pack_step

        result: BatchedResult | None = None
        batch: list[tuple[int, bytes]] = []
        last_send = 0.0
        for event in self.engine.generate_batched(request, self.cancel.is_set):
            if not isinstance(event, AnswerStep):
                result = event
                continue
            batch.append((event.answer, pack_step(event.step)))
            now = time.perf_counter()
            if now - last_send >= STEP_BATCH_S:
                self.send(("answers", batch))
                batch, last_send = [], now
        if batch:
            self.send(("answers", batch))
        return result

    def do_check_settings(self, settings: SamplerSettings) -> None:
        self.engine.check_settings(settings)

    def do_tokenize(self, text: str, add_special: bool, parse_special: bool) -> list[int]:
        return self.engine.tokenize(text, add_special, parse_special)

    def do_vocab(self) -> list[bytes]:
        return self.engine.vocab()

    def do_render_chat(self, messages: list[ChatMessage], system: str | None) -> str:
        return self.engine.render_chat(messages, system)

    def do_prompt_tokens(self, request: GenerateRequest) -> list[int]:
        return self.engine.prepare(request)[0]

    def do_kv_map(self) -> KvMap:
        return self.engine.kv_map()

    def do_beam_search(self, request: BeamRequest) -> BeamResult:
        """Each step goes out as a BeamProgress, batched as generate's steps are."""
        batch: list[BeamProgress] = []
        last_send = 0.0

        def progress(event: BeamProgress) -> None:
            nonlocal batch, last_send
            batch.append(event)
            now = time.perf_counter()
            if now - last_send >= STEP_BATCH_S:
                self.send(("beams", batch))
                batch, last_send = [], now

        result = self.engine.beam_search(request, self.cancel.is_set, progress)
        if batch:
            self.send(("beams", batch))
        return result

    def do_inspect(self, request: InspectRequest) -> ForwardInspection:
        return self.engine.inspect(request)

    def do_score(self, request: ScoreRequest) -> ScoreResult:
        return self.engine.score(request, lambda f: self.send(("progress", f)), self.cancel.is_set)

    def do_throughput(self, request: ThroughputRequest) -> ThroughputResult:
        return self.engine.throughput(request, lambda f: self.send(("progress", f)), self.cancel.is_set,
                                      lambda point: self.send(("points", [point])))

    def do_build_cvector(self, request: CvectorRequest) -> CvectorResult:
        return self.engine.build_cvector(request, lambda f: self.send(("progress", f)), self.cancel.is_set)

    def do_compare_steering(self, request: SteeringCompareRequest) -> SteeringCompare:
        return self.engine.compare_steering(request, self.cancel.is_set)

    def do_ablate(self, request: AblateRequest) -> AblationEffect:
        return self.engine.ablate(request, self.cancel.is_set)

    def do_head_scan(self, request: HeadScanRequest) -> HeadScan:
        return self.engine.head_scan(request, lambda f: self.send(("progress", f)), self.cancel.is_set)

    def do_patch(self, request: PatchRequest) -> PatchResult:
        return self.engine.patch(request, lambda f: self.send(("progress", f)), self.cancel.is_set)

    def do_quantize_estimate(self, request: QuantizeRequest) -> int:
        return self.engine.quantize_estimate(request)

    def do_quantize(self, request: QuantizeRequest) -> QuantizeResult:
        return self.engine.quantize(request, lambda f: self.send(("progress", f)))

    def do_attention_matrix(self, tokens: list[int], layer: int, head: int, steering: Steering | None = None,
                            knockouts: tuple[Ablation, ...] = ()) -> AttentionMatrix:
        return self.engine.attention_matrix(tokens, layer, head, steering, knockouts)

    def do_save_distributions(self, tokens: list[int], first: int, path: str,
                              steering: Steering | None = None) -> int:
        return self.engine.save_distributions(tokens, first, path, steering, self.cancel.is_set)

    def do_compare_distributions(self, tokens: list[int], first: int, path: str,
                                 steering: Steering | None = None) -> ForcedKl:
        return self.engine.compare_distributions(tokens, first, path, steering, self.cancel.is_set)

    def do_set_threads(self, n_threads: int) -> int:
        return self.engine.set_threads(n_threads)

    def do_crash(self, how: str) -> None:
        if os.environ.get(CRASH_HOOKS_ENV) != "1":
            raise PermissionError("crash hooks are only enabled in tests")
        if how == "abort":
            os.abort()
        if how == "segfault":
            import ctypes

            ctypes.string_at(0)
        if how == "hang":
            threading.Event().wait()
        raise ValueError(f"unknown crash kind {how!r}")

    def do_stall(self, seconds: float) -> str:
        """Busy without a word for `seconds` (tests: an engine that is slow but alive)."""
        if os.environ.get(CRASH_HOOKS_ENV) != "1":
            raise PermissionError("test hooks are only enabled in tests")
        time.sleep(seconds)
        return "done"


def _write_or_stop(write: Callable[[], None], cancel: threading.Event) -> OSError | None:
    """Write; when the output is full or gone, stop the answer as a cancel would (nobody reads it) and say why."""
    try:
        write()
    except OSError as exc:
        cancel.set()
        return exc
    return None


def _error_reply(exc: Exception) -> tuple[Any, ...]:
    from logitscope.base.errors import LogitscopeError
    from logitscope.base.messages import Message

    if isinstance(exc, LogitscopeError):
        return ("err", type(exc).__name__, exc.message)  # a Message: pickled with its template
    if isinstance(exc, InterruptedError):
        return ("err", "CancelledError", "cancelled")
    if isinstance(exc, TraceOutputError):
        return ("err", "OSError", exc.strerror, exc.errno)
    logging.getLogger("logitscope.engine").error("internal error:\n%s", traceback.format_exc())
    return ("err", "EngineError", Message("internal engine error: {kind}: {exc}", kind=type(exc).__name__, exc=exc))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="logitscope-engine")
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--trace-fd", type=int, help="the caller's output, for generate's JSON lines")
    args = parser.parse_args(argv)
    # Ctrl+C and SIGTERM sent to the whole process group (a terminal, `timeout`, a service manager) are the
    # caller's to handle: it stops the answer, keeps what came, and ends this process
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _no_core_dumps()
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(name)s: %(message)s")
    logging.getLogger("logitscope.llama").setLevel(logging.INFO)
    conn = Connection(args.fd)
    EngineServer(conn, args.trace_fd).serve()


if __name__ == "__main__":
    main()
