"""`logitscope bench --window --replay`: the window's own CPU cost per token, with no model running.

The demo model's answer to the bench's prompt is recorded once through the engine process (greedy); the
real MainWindow then receives those steps from a paced stand-in for the engine at a fixed rate (`--rate`,
default 100 tok/s, the demo model's speed here). On a 2-core machine the engine's threads share the cores
with the window: the GUI's CPU time per token then depends on how busy the machine is, and how many
tokens each repaint covers on how fast the engine happens to run. Replayed at a fixed rate, it measures
the window alone, and its growth over a long answer (`--long N`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from logitscope.base.errors import LogitscopeError
from logitscope.base.messages import Message
from logitscope.bench.window.streaming import (
    PROMPT,
    SIZES,
    TARGET_CPU_MS,
    WindowDriver,
    WindowRun,
    cpu_growth,
    start_display,
)
from logitscope.host.server import STEP_BATCH_S
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings, ModelInfo
from logitscope.protocol.engine_like import LOCAL_CAPABILITIES
from logitscope.protocol.forward import InspectRequest
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord, pack_step, unpack_step

if TYPE_CHECKING:
    from logitscope.host.client import EngineClient

DEFAULT_RATE = 100.0  # tokens per second: the demo model's speed on this project's 2-core machine


@dataclass
class Recording:
    info: ModelInfo
    vocab: list[bytes]
    steps: list[StepRecord]
    result: GenerationResult


def record(model: Path, n_ctx: int, max_tokens: int) -> Recording:
    """The demo model's greedy answer to the bench's prompt, through the engine process as the window gets it."""
    from logitscope.host.client import EngineClient

    client = EngineClient()
    try:
        info = client.load(str(model), LoadSettings(n_ctx=n_ctx))
        steps: list[StepRecord] = []
        request = GenerateRequest(messages=[ChatMessage("user", PROMPT)], settings=SamplerSettings(temperature=0.0),
                                  options=DecodeOptions(max_tokens=max_tokens))
        result = client.generate(request, steps.append)
        return Recording(info, client.vocab(), steps, result)
    finally:
        client.close()


class PacedReplay:
    """The engine interface the window's bridge uses (protocol/engine_like.py EngineLike), answering every
    request with the recorded steps, `rate` a second, each step unpacked from the bytes the engine sends
    (host/server.py), as the real client does: a fresh record per step, and the unpacking's cost counted."""

    def __init__(self, recording: Recording, rate: float) -> None:
        self.recording, self.rate = recording, rate
        self._packed = [pack_step(step) for step in recording.steps]
        self._info: ModelInfo | None = None
        self._cancel = threading.Event()
        self.last_load: tuple[str, LoadSettings] | None = None

    @property
    def info(self) -> ModelInfo | None:
        return self._info

    def load(self, path: str, settings: LoadSettings | None = None,
             on_progress: Callable[[float], None] | None = None) -> ModelInfo:
        if on_progress is not None:
            on_progress(1.0)
        self.last_load = (str(path), settings or LoadSettings())
        self._info = self.recording.info
        return self._info

    def generate(self, request: GenerateRequest, on_step: Callable[[StepRecord], None] | None = None) -> GenerationResult:
        self._cancel.clear()
        steps = self._packed[:request.options.max_tokens]
        start = time.perf_counter()
        sent: list[StepRecord] = []
        k, last_send = 0, -float("inf")
        while k < len(steps) and not self._cancel.is_set():
            # as the engine process sends them (host/server.py): step j is made at start + j / rate, and a
            # batch goes out with the first step made STEP_BATCH_S or more after the last batch
            first_due = max(start + k / self.rate, last_send + STEP_BATCH_S)
            j = min(len(steps) - 1, max(k, math.ceil((first_due - start) * self.rate - 1e-9)))
            last_send = start + j / self.rate
            delay = last_send - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            for data in steps[k:j + 1]:
                sent.append(unpack_step(data))
                if on_step is not None:
                    on_step(sent[-1])
            k = j + 1
        finish = "cancelled" if len(sent) < len(steps) else self.recording.result.finish_reason
        return replace(self.recording.result, text="".join(s.text for s in sent), tokens=[s.token for s in sent],
                       finish_reason=finish, settings=request.settings.to_dict())

    def cancel(self) -> None:
        self._cancel.set()

    def close(self) -> None:
        self._info = None

    def tokenize(self, text: str, add_special: bool = False, parse_special: bool = True) -> list[int]:
        return []

    def prompt_tokens(self, request: GenerateRequest) -> list[int]:
        return list(self.recording.result.prompt_tokens)

    def vocab(self) -> list[bytes]:
        return self.recording.vocab

    def capabilities(self) -> dict[str, object]:
        return dict(LOCAL_CAPABILITIES, forward_pass=False, kv_map=False)

    def inspect(self, request: InspectRequest) -> Any:
        raise LogitscopeError(Message("a replay has no model to inspect"))


def run_replay_bench(model: Path, args: argparse.Namespace) -> int:
    from logitscope.ui.app import create_app
    from logitscope.ui.bridge import EngineBridge

    rate = args.rate or DEFAULT_RATE
    n_record = max(args.tokens, args.long or 0)
    n_ctx = n_record + 512
    print(f"recording {model.name}'s answer ({n_record} tokens, greedy) through the engine process ...",
          file=sys.stderr)
    recording = record(model, n_ctx, n_record)
    home = Path(tempfile.mkdtemp(prefix="logitscope-bench-"))
    os.environ["LOGITSCOPE_HOME"] = str(home / "window")
    where, xvfb = start_display()
    print(f"window: {where}; {len(recording.steps)} recorded steps replayed at {rate:g} tok/s, "
          f"{args.reps} repetitions per variant", file=sys.stderr)
    variants = [(size, heatmap) for size in SIZES for heatmap in (False, True)]
    runs: dict[tuple[tuple[int, int], bool], list[WindowRun]] = {v: [] for v in variants}
    long_growth: dict[str, Any] | None = None
    replay_client = PacedReplay(recording, rate)
    create_app([])  # before the bridge: its timers belong to the application's thread
    # the bridge takes the local engine's client; the stand-in has the same interface (as the UI tests' scripted engine)
    driver = WindowDriver(model, n_ctx, 1, home, bridge=EngineBridge(client=cast("EngineClient", replay_client)))
    try:
        driver.run(SIZES[0], False, 16)  # warm-up: first paint of every dock, caches
        for _rep in range(args.reps):
            for variant in variants:
                runs[variant].append(driver.run(variant[0], variant[1], args.tokens))
        if args.long:
            long_growth = cpu_growth(driver.run(SIZES[0], True, args.long))
    finally:
        driver.close()
        if xvfb is not None:
            xvfb.kill()
        shutil.rmtree(home, ignore_errors=True)
    report: dict[str, Any] = {"display": where, "model": model.name, "rate_tok_s": rate, "tokens": args.tokens,
                              "reps": args.reps, "variants": [
                                  {"size": f"{size[0]}x{size[1]}", "heatmap": heatmap,
                                   "gui_cpu_ms_per_token": statistics.median(r.cpu_ms_per_token for r in done),
                                   "streaming_cpu_ms_per_token": statistics.median(
                                       r.streaming_cpu_ms_per_token for r in done)}
                                  for (size, heatmap), done in runs.items()]}
    if long_growth is not None:
        report["long"] = {"tokens": args.long, **long_growth}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"\n{where}\n{model.name}'s recorded answer replayed at {rate:g} tok/s (no model running), "
          f"{args.tokens} tokens, median of {args.reps}")
    print(f"{'variant':<22}{'GUI CPU ms/tok':>16}{'while streaming':>17}")
    for v in report["variants"]:
        print(f"{v['size'] + ' heatmap ' + ('on' if v['heatmap'] else 'off'):<22}{v['gui_cpu_ms_per_token']:16.2f}"
              f"{v['streaming_cpu_ms_per_token']:17.2f}")
    print(f"target: GUI CPU < {TARGET_CPU_MS} ms per token")
    if long_growth is not None:
        g = long_growth
        print(f"long answer ({args.long} tokens, 1280x720, heatmap on): {g['start_ms']:.2f} ms/token over tokens "
              f"{g['start_range']}, {g['end_ms']:.2f} over {g['end_range']} (ratio {g['ratio']:.2f})")
    return 0
