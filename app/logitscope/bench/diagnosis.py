"""`logitscope bench --diagnosis`: how long the diagnosis of a BENCH_TOKENS-token answer takes.

The model writes a real answer (`--tokens`, sampled, so it does not loop); its steps are laid end to end
up to BENCH_TOKENS two ways, measured alternately: "varied" (the steps in a shuffled order: no loop, so
every check reads the whole trace) and "looping" (the answer repeated as it is: the loop search's worst
case, one period covering everything).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

from logitscope.diagnosis.diagnose import diagnose
from logitscope.diagnosis.thresholds import BENCH_BUDGET_MS, BENCH_TOKENS
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord


def run_diagnosis_bench(model: Path, args: argparse.Namespace) -> int:
    from logitscope.host.client import EngineClient

    request = GenerateRequest(messages=[ChatMessage("user", "Tell me a long story about a lighthouse keeper.")],
                              settings=SamplerSettings(temperature=0.9, seed=11),
                              options=DecodeOptions(max_tokens=args.tokens))
    with EngineClient() as client:
        client.load(str(model), LoadSettings(n_threads=args.threads))
        steps: list[StepRecord] = []
        result = client.generate(request, on_step=steps.append)
        vocab = client.vocab()
    if not steps:
        raise SystemExit("error: the model wrote nothing")
    shuffled = random.Random(0)
    varied: list[StepRecord] = []
    looping: list[StepRecord] = []
    while len(varied) < BENCH_TOKENS:
        order = list(steps)
        shuffled.shuffle(order)
        varied += [replace(s, i=len(varied) + k) for k, s in enumerate(order)]
        looping += [replace(s, i=len(looping) + k) for k, s in enumerate(steps)]
    traces = {"varied": varied[:BENCH_TOKENS], "looping": looping[:BENCH_TOKENS]}
    timings: dict[str, list[float]] = {name: [] for name in traces}
    kinds: dict[str, list[str]] = {}
    for _ in range(max(args.reps, 5)):
        for name, trace in traces.items():   # alternated, so a busy moment hits both
            res = _as_result(result, trace)
            t0 = time.perf_counter()
            diagnosis = diagnose(trace, res, vocab)
            timings[name].append((time.perf_counter() - t0) * 1000)
            kinds[name] = [f.kind for f in diagnosis.findings]
    figures = {name: {"median_ms": round(statistics.median(ms), 2), "max_ms": round(max(ms), 2)}
               for name, ms in timings.items()}
    if args.json:
        print(json.dumps({"tokens": BENCH_TOKENS, "source_tokens": len(steps), "budget_ms": BENCH_BUDGET_MS,
                          "traces": {name: fig | {"findings": kinds[name]} for name, fig in figures.items()}},
                         indent=2))
        return 0
    print(f"diagnosis of a {BENCH_TOKENS}-token trace (from a real {len(steps)}-token answer), "
          f"{len(timings['varied'])} runs each, budget {BENCH_BUDGET_MS:.0f} ms")
    print(f"{'trace':>8} {'median ms':>10} {'max ms':>8}  findings")
    for name, fig in figures.items():
        print(f"{name:>8} {fig['median_ms']:>10.2f} {fig['max_ms']:>8.2f}  {', '.join(kinds[name]) or '-'}")
    return 0


def _as_result(result: GenerationResult, steps: list[StepRecord]) -> GenerationResult:
    return replace(result, tokens=[s.token for s in steps], text="".join(s.text for s in steps))
