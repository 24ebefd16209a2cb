"""`logitscope bench --steering`: generation speed without steering, with a control vector, with a LoRA adapter
and with both, side by side in one run.

llama.cpp applies both inside its graph (the vector is one add per layer, the adapter two small matrix products
per adapted weight), and the engine applies them once per request (engine/steering/apply.py): nothing is added
per token on our side. Two columns show that apart:
  - Logitscope: the engine process with full recording, timed by the engine itself (prompt tok/s: prompt tokens
    / evaluation time; generation tok/s: tokens / time from the prompt's end to the last token);
  - llama.cpp: a bare loop in this process (llama_decode + llama.cpp's greedy sampler, nothing else per token),
    on the generation context of an in-process Engine, steered by its own Steerer;
  - and, where llama.cpp's tools are built (bench/llama_tools.py), llama-completion itself with the same files
    (--control-vector-scaled, --lora-scaled), prompt, threads, context and flash attention (off, the engine's
    default), --ignore-eos: its own "prompt eval time" and "eval time" figures.
Each variant's ratio is its speed over the unsteered speed of the same round, the median over the rounds; the
variants are alternated (the order rotated every round) so that a machine whose speed drifts affects them
alike. What we add per token, measured directly: the same in-process Engine generates once per variant after
the rounds, and each step's time minus the llama_decode call before it is our work for that token (sampling,
recording, the generator); its median must not grow with steering. "ours - bare" is the engine process's fast
step minus the bare loop's (that work plus the process boundary).

Equal work: a counting prompt (as `bench`'s) and the end-of-generation tokens banned (logit bias -inf) in the
engine, so every run generates exactly --tokens tokens (checked); the bare loop never stops early.
Files: the --control-vector* / --lora* files given, else made for the model, seeded (bench/steering_files.py):
a unit vector on every layer at VECTOR_SCALE, a rank-8 adapter of attn_q and attn_v in every layer at scale 1.
Whether each steering changes the greedy answer is checked on a chat question (PROBE), outside the timed runs:
the counting goes on unchanged under steering that visibly changes an answer (the speed does not depend on the
text: the same graph runs for every token).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import llama_cpp

from logitscope.base.errors import LogitscopeError
from logitscope.bench.generation import bench_bare
from logitscope.bench.llama_tools import common_args, not_built, tool, tool_built, tool_env
from logitscope.bench.steering_files import lora_for, vector_for
from logitscope.engine.batched import counting_prompt
from logitscope.engine.core import Engine
from logitscope.engine.handles import default_threads
from logitscope.engine.runtime import Runtime
from logitscope.engine.steering.apply import Steerer
from logitscope.host.client import EngineClient
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS, SamplerSettings
from logitscope.protocol.steering import ScaledFile, Steering

TARGET = 0.97            # the bound: steered generation at >= 0.97x the unsteered speed
VECTOR_SCALE = 8.0       # a unit vector on every layer changes the demo model's greedy text from ~6 on (FACTS.md)
LORA_SCALE = 1.0
LORA_RANK = 8
LORA_TARGETS = ("attn_q", "attn_v")
VARIANTS = ("no steering", "control vector", "LoRA", "both")
WARM_UP_TOKENS = 8
FAST_QUANTILE = 0.25
COMPLETION = "llama-completion"
_TPS = r"=\s*[\d.]+ ms /\s*\d+ (?:tokens|runs)\s*\(\s*[\d.]+ ms per token,\s*([\d.]+) tokens per second\)"
PROBE = "How was your day?"
PROBE_TOKENS = 24


def bench_files(model: Path, args: argparse.Namespace, tmp: Path) -> tuple[Steering, Steering, dict[str, Any]]:
    """The control-vector steering and the LoRA steering measured (given, or made for the model), and what
    they are, for the report."""
    vectors = tuple(getattr(args, "control_vectors", []) or ())
    loras = tuple(getattr(args, "loras", []) or ())
    layer_range = getattr(args, "control_vector_layer_range", None) or (0, 0)
    about: dict[str, Any] = {}
    if not vectors:
        vectors = (ScaledFile(str(vector_for(model, tmp / "bench-vector.gguf", seed=1)), VECTOR_SCALE),)
        about["control_vector"] = {"file": "seeded (bench/steering_files.vector_for, seed 1): a unit vector on "
                                           "every layer", "scale": VECTOR_SCALE}
    else:
        about["control_vector"] = {"files": [f"{Path(v.path).name}:{v.scale:g}" for v in vectors]}
    if not loras:
        loras = (ScaledFile(str(lora_for(model, tmp / "bench-lora.gguf", seed=1, rank=LORA_RANK,
                                         targets=LORA_TARGETS)), LORA_SCALE),)
        about["lora"] = {"file": f"seeded (bench/steering_files.lora_for, seed 1): rank {LORA_RANK}, "
                                 f"{' and '.join(LORA_TARGETS)} of every layer, F32", "scale": LORA_SCALE}
    else:
        about["lora"] = {"files": [f"{Path(a.path).name}:{a.scale:g}" for a in loras]}
    start, end = layer_range
    about["control_vector"]["layer_range"] = [start, end] if start or end else "all"
    return (Steering(control_vectors=vectors, layer_start=start, layer_end=end), Steering(loras=loras), about)


def variants(vector: Steering, lora: Steering) -> dict[str, Steering | None]:
    both = Steering(control_vectors=vector.control_vectors, layer_start=vector.layer_start,
                    layer_end=vector.layer_end, loras=lora.loras)
    return dict(zip(VARIANTS, (None, vector, lora, both), strict=True))


def no_end_of_text(rt: Runtime) -> SamplerSettings:
    """Greedy, with every end-of-generation token banned: each run generates exactly the tokens asked for."""
    banned = tuple((t, -math.inf) for t in range(rt.n_vocab) if rt.is_eog(t))
    return replace(PRESETS["Greedy"], logit_bias=banned)


def engine_run(client: EngineClient, prompt_text: str, n_gen: int, settings: SamplerSettings,
               steering: Steering | None) -> tuple[float, float, list[float]]:
    """(prompt tok/s, generation tok/s, each step's seconds after the first) of one answer through the engine
    process, from an empty cache."""
    client.reset()
    steps: list[float] = []
    result = client.generate(GenerateRequest(prompt=prompt_text, settings=settings,
                                             options=DecodeOptions(max_tokens=n_gen), steering=steering),
                             on_step=lambda step: steps.append(step.latency_s))
    if len(result.tokens) != n_gen:
        raise RuntimeError(f"the engine generated {len(result.tokens)} tokens, not {n_gen}: the runs would not "
                           "do the same work")
    return result.timings.prompt_tps, result.timings.gen_tps, steps[1:]


def probe(client: EngineClient, steering: Steering | None) -> str:
    """The greedy answer to PROBE under `steering` (to see that it changes answers)."""
    client.reset()
    return client.generate(GenerateRequest(messages=[ChatMessage("user", PROBE)], settings=PRESETS["Greedy"],
                                           options=DecodeOptions(max_tokens=PROBE_TOKENS), steering=steering)).text


def bare_run(rt: Runtime, steerer: Steerer, prompt: list[int], n_gen: int,
             steering: Steering | None) -> tuple[float, float, list[float]]:
    """(prompt tok/s, generation tok/s, each step's seconds after the first) of the bare llama.cpp loop, its
    context steered as asked."""
    steerer.apply(steering)  # once per run, as the engine does per request; bench_bare clears the cache
    steps: list[float] = []
    prompt_s, gen_s, n = bench_bare(rt, prompt, n_gen, steps)
    return len(prompt) / prompt_s, (n - 1) / gen_s, steps


def our_work_per_token(engine: Engine, prompt_text: str, n_gen: int, settings: SamplerSettings,
                       steering: Steering | None) -> float:
    """Milliseconds per token the in-process engine spends outside llama_decode while generating (the median
    step): each step's time minus the decode that gave its logits."""
    decodes: list[tuple[float, float]] = []  # (end, seconds)
    real = llama_cpp.llama_decode

    def timed(ctx: Any, batch: Any) -> int:
        t0 = time.perf_counter()
        rc: int = real(ctx, batch)
        t1 = time.perf_counter()
        decodes.append((t1, t1 - t0))
        return rc

    engine.reset()
    arrivals: list[float] = []
    llama_cpp.llama_decode = timed  # the runtime looks it up at each call
    try:
        for _event in engine.generate(GenerateRequest(prompt=prompt_text, settings=settings,
                                                      options=DecodeOptions(max_tokens=n_gen), steering=steering)):
            arrivals.append(time.perf_counter())
    finally:
        llama_cpp.llama_decode = real
    arrivals.pop()  # the result
    ours = []
    for before, at in zip(arrivals, arrivals[1:], strict=False):
        inside = [seconds for end, seconds in decodes if before < end <= at]
        ours.append(at - before - sum(inside))
    return 1000 * statistics.median(ours)


def completion_args(steering: Steering | None) -> list[str]:
    """llama.cpp's own flags for `steering`."""
    if steering is None:
        return []
    args = [arg for v in steering.control_vectors for arg in ("--control-vector-scaled", f"{v.path}:{v.scale}")]
    if steering.layer_start or steering.layer_end:
        args += ["--control-vector-layer-range", str(steering.layer_start), str(steering.layer_end)]
    return args + [arg for a in steering.loras for arg in ("--lora-scaled", f"{a.path}:{a.scale}")]


def completion_run(model: Path, prompt_file: Path, n_gen: int, threads: int, n_ctx: int,
                   steering: Steering | None) -> tuple[float, float]:
    """(prompt tok/s, generation tok/s) of one llama-completion run, as it reports them itself."""
    command = [str(tool(COMPLETION)), *common_args(model, threads), "-f", str(prompt_file), "-n", str(n_gen),
               "--ignore-eos", "--temp", "0", "-no-cnv", "-c", str(n_ctx), "-fa", "off", "--no-display-prompt",
               *completion_args(steering)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, env=tool_env())
    log = proc.stdout + proc.stderr
    prompt = re.search(r"prompt eval time\s*" + _TPS, log)
    gen = re.search(r"\beval time\s*" + _TPS.replace("(?:tokens|runs)", "runs"), log)
    if proc.returncode != 0 or not prompt or not gen:
        raise LogitscopeError("llama-completion failed: {tail}", tail=(log.strip().splitlines() or [""])[-1])
    return float(prompt.group(1)), float(gen.group(1))


def _summary(values: list[float], base: list[float]) -> dict[str, Any]:
    """Median, spread and the ratio to the unsteered runs of the same rounds (median of the per-round ratios);
    and the ratio of the best runs (the fastest of each: a busy host only ever slows a run down)."""
    ratios = [v / b for v, b in zip(values, base, strict=True)]
    return {"median": round(statistics.median(values), 2), "min": round(min(values), 2),
            "max": round(max(values), 2), "ratio": round(statistics.median(ratios), 4),
            "best_ratio": round(max(values) / max(base), 4),
            "ratio_min": round(min(ratios), 4), "ratio_max": round(max(ratios), 4),
            "runs": [round(v, 2) for v in values]}


def fast_step_s(steps: list[float]) -> float:
    """The time of a token when the host leaves llama.cpp alone: the FAST_QUANTILE of every step's time (a
    busy host only ever adds time to a step)."""
    return statistics.quantiles(steps, n=100)[round(FAST_QUANTILE * 100) - 1]


def _fast(steps: list[float], base: list[float]) -> dict[str, float]:
    return {"tok_s": round(1 / fast_step_s(steps), 2), "ratio": round(fast_step_s(base) / fast_step_s(steps), 4),
            "ms": round(1000 * fast_step_s(steps), 3), "steps": len(steps)}


SIDES = ("engine", "bare")


def run_steering_bench(model: Path, args: argparse.Namespace) -> int:
    threads = args.threads or default_threads()
    settings = LoadSettings(n_ctx=2048, n_threads=threads)
    completion = tool_built(COMPLETION)
    sides = (*SIDES, "completion") if completion else SIDES
    measured: dict[str, dict[str, list[float]]] = {  # tok/s per run
        v: {f"{side}_{kind}": [] for side in sides for kind in ("prompt", "gen")} for v in VARIANTS}
    steps: dict[str, dict[str, list[float]]] = {v: {side: [] for side in SIDES} for v in VARIANTS}  # seconds
    texts: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        vector, lora, about = bench_files(model, args, Path(tmp))
        steerings = variants(vector, lora)
        engine = Engine()
        engine.load(model, settings)
        client = EngineClient()
        try:
            rt, steerer = engine.runtime, engine.steerer
            assert rt is not None and steerer is not None
            prompt = counting_prompt(rt, args.prompt_tokens)
            prompt_text = b"".join(rt.piece(t) for t in prompt).decode("utf-8", "replace")
            sampler = no_end_of_text(rt)
            prompt_file = Path(tmp) / "prompt.txt"
            prompt_file.write_text(prompt_text, encoding="utf-8")
            client.load(str(model), settings)
            for name, steering in steerings.items():  # warm-up: each adapter loaded, each graph made once
                texts[name] = probe(client, steering)
                engine_run(client, prompt_text, WARM_UP_TOKENS, sampler, steering)
                bare_run(rt, steerer, prompt, WARM_UP_TOKENS, steering)
            for rep in range(args.reps):
                order = VARIANTS[rep % len(VARIANTS):] + VARIANTS[:rep % len(VARIANTS)]
                for name in order:
                    for side in sides:
                        if side == "engine":
                            pp, tg, times = engine_run(client, prompt_text, args.tokens, sampler, steerings[name])
                        elif side == "bare":
                            pp, tg, times = bare_run(rt, steerer, prompt, args.tokens, steerings[name])
                        else:
                            pp, tg = completion_run(model, prompt_file, args.tokens, threads, settings.n_ctx,
                                                    steerings[name])
                            times = []
                        measured[name][f"{side}_prompt"].append(pp)
                        measured[name][f"{side}_gen"].append(tg)
                        steps[name].get(side, []).extend(times)
                if not args.json:
                    print(f"round {rep + 1}/{args.reps} done", file=sys.stderr)
            work = {name: our_work_per_token(engine, prompt_text, args.tokens, sampler, steering)
                    for name, steering in steerings.items()}
        finally:
            client.close()
            engine.unload()
    base = measured[VARIANTS[0]]
    rows: dict[str, Any] = {}
    for name in VARIANTS:
        m, t = measured[name], steps[name]
        overhead = 1000 * (fast_step_s(t["engine"]) - fast_step_s(t["bare"]))
        rows[name] = {**{key: _summary(m[key], base[key]) for key in m},
                      **{f"{side}_fast_step": _fast(t[side], steps[VARIANTS[0]][side]) for side in SIDES},
                      "ours_minus_bare_ms_per_token": round(overhead, 3),
                      "our_work_ms_per_token": round(work[name], 4),
                      "probe_answer": texts[name], "text_differs_from_unsteered": texts[name] != texts[VARIANTS[0]]}
    steered = [rows[n] for n in VARIANTS[1:]]
    report = {"model": model.name, "threads": threads, "prompt_tokens": len(prompt), "gen_tokens": args.tokens,
              "reps": args.reps, "target": TARGET, "files": about, "probe": PROBE, "variants": rows,
              "llama_completion": completion,
              "engine_gen_meets_target": all(r["engine_gen"]["ratio"] >= TARGET for r in steered),
              "fast_quantile": FAST_QUANTILE,
              "engine_fast_step_meets_target": all(r["engine_fast_step"]["ratio"] >= TARGET for r in steered),
              "every_steering_changes_the_text": all(r["text_differs_from_unsteered"] for r in steered)}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0


def print_report(report: dict[str, Any]) -> None:
    print(f"\n{report['model']}, {report['threads']} threads, prompt {report['prompt_tokens']} tokens, "
          f"{report['gen_tokens']} generated (end of text banned), greedy, {report['reps']} alternated rounds")
    cv, lo = report["files"]["control_vector"], report["files"]["lora"]
    print(f"control vector: {_described(cv)}, layers {cv['layer_range']}")
    print(f"LoRA: {_described(lo)}")
    q = round(100 * report["fast_quantile"])
    print(f"tok/s: median of the rounds (min-max); x: the median of each round's ratio to no steering; best x: the "
          f"fastest run's ratio; fast step: 1 / the {q}th percentile of every token's time (what a busy host adds "
          "left out)")
    for side, title in (("engine", "Logitscope (the engine process, full recording)"),
                        ("bare", "bare llama.cpp loop (llama_decode + greedy sampler), steered alike"),
                        ("completion", "llama-completion (its own timings; same files, prompt and threads)")):
        if side == "completion" and not report["llama_completion"]:
            print(f"\n{not_built(COMPLETION)}", file=sys.stderr)
            continue
        print(f"\n{title}")
        fast_head = f"{'fast step tok/s':>17}{'x':>7}" if side != "completion" else ""
        print(f"  {'':16}{'prompt tok/s':>21}{'x':>7}{'best x':>7}{'generation tok/s':>23}{'x':>7}{'best x':>7}"
              f"{fast_head}")
        for name, r in report["variants"].items():
            cells = "".join(f"{c['median']:>{w}.1f} ({c['min']:.1f}-{c['max']:.1f}){c['ratio']:>7.3f}"
                            f"{c['best_ratio']:>7.3f}"
                            for c, w in ((r[f"{side}_prompt"], 7), (r[f"{side}_gen"], 10)))
            fast = r.get(f"{side}_fast_step")
            print(f"  {name:16}{cells}" + (f"{fast['tok_s']:>17.1f}{fast['ratio']:>7.3f}" if fast else ""))
    print("\nour work per token outside llama_decode (in-process engine, median step), ms: "
          + ", ".join(f"{n} {r['our_work_ms_per_token']:.3f}" for n, r in report["variants"].items()))
    print("engine process - bare loop, ms per token (fast step): "
          + ", ".join(f"{n} {r['ours_minus_bare_ms_per_token']:.3f}" for n, r in report["variants"].items()))
    gen = "met" if report["engine_gen_meets_target"] else "NOT met"
    fast = "met" if report["engine_fast_step_meets_target"] else "NOT met"
    print(f"steered generation >= {report['target']:.2f}x unsteered (Logitscope): tok/s {gen}, fast step {fast}")
    print(f"greedy answers to {report['probe']!r} ({PROBE_TOKENS} tokens):")
    for name, r in report["variants"].items():
        changed = "" if name == VARIANTS[0] else ("  (changed)" if r["text_differs_from_unsteered"] else "  (SAME)")
        print(f"  {name:16}{r['probe_answer']!r}{changed}")
    if not report["every_steering_changes_the_text"]:
        print("a steering did not change the answer: raise its scale for a meaningful comparison")


def _described(files: dict[str, Any]) -> str:
    if "file" in files:
        return f"{files['file']}, scale {files['scale']:g}"
    return ", ".join(files["files"])
