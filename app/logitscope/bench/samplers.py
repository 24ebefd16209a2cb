"""`logitscope bench --samplers`: what each sampler stage costs per token, and that the new stages cost
nothing while off.

1. Each stage alone, on the whole vocabulary (the worst place in a chain: where the first stage sits) of
   real logits from the model, median over calls on several steps' logits, alternating the stages.
2. The whole sampler per token (stages, records and the draw, as decode runs it) at the default settings
   against the classic chain alone (penalties, top-k, top-p, min-p, temperature: the chain before the new
   stages existed), alternated.
3. Generation tok/s in process at the default settings against the classic chain alone, alternated.
Every model given is measured (e.g. the demo model's 49k vocabulary and Gemma 3's 262k).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from logitscope.engine.core import Engine
from logitscope.grammars import ready_grammar
from logitscope.protocol.api import DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import RAW_TOP_N, GenerationResult
from logitscope.sampling.sampler import sample, stage_functions
from logitscope.sampling.sampler_state import SamplerState
from logitscope.sampling.stages import Candidates, top_indices

CLASSIC = ("penalties", "top_k", "top_p", "min_p", "temperature")
PROMPT = "Repeat after me: I like apples, I like pears, I like apples, I like"
# each stage on, with a setting people use
STAGE_SETTINGS: dict[str, SamplerSettings] = {
    "penalties": SamplerSettings(repeat_penalty=1.1),
    "dry": SamplerSettings(dry_multiplier=0.8, dry_penalty_last_n=-1),
    "top_n_sigma": SamplerSettings(top_n_sigma=1.0),
    "top_k": SamplerSettings(),
    "typ_p": SamplerSettings(typical_p=0.9),
    "top_p": SamplerSettings(),
    "min_p": SamplerSettings(),
    "xtc": SamplerSettings(xtc_probability=1.0, xtc_threshold=0.02),
    "temperature": SamplerSettings(),
    "temperature (dynamic)": SamplerSettings(dynatemp_range=0.5),
    "mirostat": SamplerSettings(mirostat=1),
    "mirostat_v2": SamplerSettings(mirostat=2),
    "logit_bias": SamplerSettings(logit_bias=((13, 1.0), (198, float("-inf")), (" the", -2.0))),
    "grammar": SamplerSettings(grammar=ready_grammar("json")),
}


def _steps(engine: Engine, n: int) -> tuple[list[np.ndarray], np.ndarray]:
    """n consecutive real steps' logits (greedy) and the context before the last."""
    rt = engine.runtime
    assert rt is not None
    rt.sync(rt.tokenize(PROMPT, True, True))
    out = []
    for _ in range(n):
        logits = rt.logits().copy()
        out.append(logits)
        rt.eval([int(np.argmax(logits))])
    return out, np.array(rt.tokens, dtype=np.int32)


def _full(logits: np.ndarray, all_ids: np.ndarray) -> Candidates:
    best = top_indices(logits, RAW_TOP_N)
    return Candidates(all_ids, logits, False, True, None, best)


def measure_stages(engine: Engine, reps: int) -> dict[str, float]:
    """Median ms per call of each stage alone on the whole vocabulary."""
    decoder = engine.decoder
    assert decoder is not None and engine.runtime is not None
    steps, context = _steps(engine, 6)
    all_ids = np.arange(engine.runtime.n_vocab, dtype=np.int32)
    timed: dict[str, list[float]] = {name: [] for name in STAGE_SETTINGS}
    prepared: dict[str, tuple[Callable[[Candidates], Candidates], SamplerState]] = {}
    for label, s in STAGE_SETTINGS.items():
        state = decoder.new_state(s, np.random.default_rng(0))
        name = label.split(" ")[0]
        prepared[label] = (stage_functions(s, context, state)[name], state)
    for _ in range(reps):
        for label, (func, _state) in prepared.items():  # alternate the stages against drift
            for logits in steps:
                c = _full(logits, all_ids)
                t0 = time.perf_counter()
                func(c)
                timed[label].append(time.perf_counter() - t0)
    for _func, state in prepared.values():
        state.close()
    return {label: statistics.median(v) * 1e3 for label, v in timed.items()}


def measure_pipeline(engine: Engine, reps: int) -> dict[str, float]:
    """Median ms per token of the whole sampler (stages, records, draw): default settings vs the classic chain."""
    assert engine.runtime is not None
    steps, context = _steps(engine, 6)
    all_ids = np.arange(engine.runtime.n_vocab, dtype=np.int32)
    settings = {"default": SamplerSettings(seed=1), "classic chain only": SamplerSettings(seed=1, samplers=CLASSIC)}
    timed: dict[str, list[float]] = {k: [] for k in settings}
    for _ in range(reps * 20):
        for label, s in settings.items():
            for logits in steps:
                c = _full(logits, all_ids)
                t0 = time.perf_counter()
                sample(c, s, context[-64:], state=SamplerState(np.random.default_rng(1)))
                timed[label].append(time.perf_counter() - t0)
    return {label: statistics.median(v) * 1e3 for label, v in timed.items()}


def measure_generation(engine: Engine, n_tokens: int, reps: int) -> dict[str, float]:
    """Generation tok/s (in process), default settings vs the classic chain only, alternated."""
    settings = {"default": SamplerSettings(seed=1), "classic chain only": SamplerSettings(seed=1, samplers=CLASSIC)}
    rates: dict[str, list[float]] = {k: [] for k in settings}
    for rep in range(reps):
        for label in (list(settings) if rep % 2 == 0 else list(settings)[::-1]):
            engine.reset()
            *_, result = engine.generate(GenerateRequest(prompt=PROMPT, settings=settings[label],
                                                         options=DecodeOptions(max_tokens=n_tokens)))
            assert isinstance(result, GenerationResult)
            rates[label].append(result.timings.gen_tps)
    return {label: statistics.median(v) for label, v in rates.items()}


def run_sampler_bench(models: list[Path], args: argparse.Namespace) -> int:
    reports: list[dict[str, Any]] = []
    for model in models:
        engine = Engine()
        try:
            engine.load(model, LoadSettings(n_ctx=1024, n_threads=args.threads))
            assert engine.runtime is not None
            reports.append({"model": model.name, "n_vocab": engine.runtime.n_vocab,
                            "stage_ms": measure_stages(engine, args.reps),
                            "sampler_ms_per_token": measure_pipeline(engine, args.reps),
                            "generation_tok_s": measure_generation(engine, args.tokens, args.reps)})
        finally:
            engine.unload()
    if args.json:
        print(json.dumps(reports, indent=2))
        return 0
    print(f"Per-token cost of each sampler stage alone on the whole vocabulary (median ms; {args.reps} reps "
          f"x 6 real steps, alternated):")
    print(f"  {'stage':24}" + "".join(f"{r['model'][:28] + ' (' + str(r['n_vocab']) + ')':>40}" for r in reports))
    for label in STAGE_SETTINGS:
        print(f"  {label:24}" + "".join(f"{r['stage_ms'][label]:40.3f}" for r in reports))
    print("\nThe whole sampler per token (stages + records + draw; median ms) and generation (median tok/s):")
    for r in reports:
        ms, tok = r["sampler_ms_per_token"], r["generation_tok_s"]
        print(f"  {r['model']}: default {ms['default']:.3f} ms vs classic chain only {ms['classic chain only']:.3f} ms; "
              f"{tok['default']:.1f} vs {tok['classic chain only']:.1f} tok/s "
              f"(ratio {tok['default'] / tok['classic chain only']:.3f})")
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m logitscope.bench.samplers MODEL [MODEL ...]` (what `logitscope bench --samplers` runs)."""
    p = argparse.ArgumentParser(prog="logitscope-sampler-bench")
    p.add_argument("models", nargs="+", type=Path)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--tokens", type=int, default=128)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    return run_sampler_bench(list(args.models), args)


if __name__ == "__main__":
    sys.exit(main())
