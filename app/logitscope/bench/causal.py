"""`logitscope bench --causal`: what causal tracing costs, in the engine process as the app and the CLI use it.

On a prompt of about 20 tokens (PROMPT), alternated repetitions, median of each:
  - one evaluation: `ablate` with nothing knocked out (the base run alone: the whole prompt evaluated once);
  - one ablation: a head knocked out (the base run, then the ablated one); its cost beyond the evaluation is
    what one ablation adds (the issue's bound: about one prompt evaluation);
  - a full head scan (every head of every layer, one evaluation each; the issue's goal: under 20 s for the
    demo model's 270 heads on 2 cores), and its cost per head;
  - the patch heatmap (the residual stream, layers x positions) from a clean prompt into a corrupted one;
  - beside them, where llama.cpp's tools are built, llama-bench's prompt processing of as many tokens (`-p 20`,
    no graph callback, no Python): a head costs one such evaluation, so the scan's floor is heads x that.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from logitscope.bench.llama_tools import common_args, not_built, tool, tool_built, tool_env
from logitscope.host.client import EngineClient
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.causal import AblateRequest, Ablation, HeadScanRequest, PatchRequest
from logitscope.system.threads import available_cpus

PROMPT = "The Eiffel Tower is in the city of Paris and the Colosseum is in the city of"   # 20 tokens (SmolLM2)
CLEAN, CORRUPTED = "The capital of France is", "The capital of Italy is"
SCAN_GOAL_S = 20.0


def _timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def llama_bench_evaluation_ms(model: Path, n_tokens: int, threads: int, reps: int) -> float | None:
    """llama-bench's time for one evaluation of `n_tokens` prompt tokens (`-p N -n 0`, its mean of `reps`), in
    ms; None where the tool is not built or fails."""
    if not tool_built("llama-bench"):
        return None
    command = [str(tool("llama-bench")), *common_args(model, threads), "-p", str(n_tokens), "-n", "0",
               "-r", str(max(reps, 3)), "-o", "json"]
    try:
        out = subprocess.run(command, capture_output=True, text=True, env=tool_env(), timeout=300, check=True).stdout
        (row,) = json.loads(out)
        return 1e3 * n_tokens / float(row["avg_ts"])
    except (OSError, subprocess.SubprocessError, ValueError, KeyError):
        return None


def run_causal_bench(model: Path, args: argparse.Namespace) -> int:
    threads = args.threads or available_cpus()
    with EngineClient() as client:
        info = client.load(str(model), LoadSettings(n_ctx=2048, n_threads=threads))
        n_layer, n_head = info.card.n_layer, info.card.n_head
        tokens = tuple(client.tokenize(PROMPT, True, False))
        clean, corrupted = (tuple(client.tokenize(t, True, False)) for t in (CLEAN, CORRUPTED))
        nothing = AblateRequest(tokens, ())
        one_head = AblateRequest(tokens, (Ablation(n_layer // 2, head=0),))
        client.ablate(one_head)  # warm-up: the inspection context is made once
        evaluation: list[float] = []
        ablation: list[float] = []
        scan: list[float] = []
        patch: list[float] = []
        floor: list[float] = []     # llama-bench's evaluation, ms (between our repetitions)
        for rep in range(args.reps):
            pair = [(evaluation, nothing), (ablation, one_head)]
            for times, request in pair if rep % 2 == 0 else pair[::-1]:
                times.append(_timed(partial(client.ablate, request)))
            scan.append(_timed(lambda: client.head_scan(HeadScanRequest(tokens))))
            patch.append(_timed(lambda: client.patch(PatchRequest(clean, corrupted))))
            bare = llama_bench_evaluation_ms(model, len(tokens), threads, 3)
            if bare is not None:
                floor.append(bare)
    med = {name: statistics.median(values) for name, values in
           (("evaluation", evaluation), ("ablation", ablation), ("scan", scan), ("patch", patch))}
    extra = med["ablation"] - med["evaluation"]
    figures = {
        "model": model.name, "threads": threads, "prompt_tokens": len(tokens), "reps": args.reps,
        "evaluation_ms": med["evaluation"] * 1e3, "ablation_ms": med["ablation"] * 1e3,
        "ablation_extra_over_evaluation": extra / med["evaluation"],
        "head_scan_s": med["scan"], "heads": n_layer * n_head, "per_head_ms": med["scan"] / (n_layer * n_head) * 1e3,
        "patch_s": med["patch"], "patch_cells": n_layer * len(clean), "patch_tokens": len(clean),
        "best_head_scan_s": min(scan),
        "llama_bench_evaluation_ms": statistics.median(floor) if floor else None,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{model.name}, {threads} threads, a {len(tokens)}-token prompt, median of {args.reps}, alternated")
    print(f"  one evaluation (nothing knocked out)   {med['evaluation'] * 1e3:8.1f} ms")
    print(f"  one head knocked out                   {med['ablation'] * 1e3:8.1f} ms   "
          f"(+{extra * 1e3:.1f} ms: {extra / med['evaluation']:.2f}x one evaluation)")
    print(f"  head scan, {n_layer * n_head} heads                  {med['scan']:8.2f} s    "
          f"({figures['per_head_ms']:.1f} ms a head; goal < {SCAN_GOAL_S:.0f} s: "
          f"{'met' if med['scan'] < SCAN_GOAL_S else 'NOT met'}; best {min(scan):.2f} s)")
    if floor:
        bare = statistics.median(floor)
        print(f"  llama-bench -p {len(tokens)} (bare llama.cpp)       {bare:8.1f} ms   (the scan's floor: "
              f"{n_layer * n_head} x {bare:.1f} ms = {n_layer * n_head * bare / 1e3:.2f} s; a head here costs "
              f"{figures['per_head_ms'] / bare:.2f}x)")
    else:
        print("  " + not_built("llama-bench"))
    print(f"  patch heatmap, {n_layer} x {len(clean)} cells            {med['patch']:8.2f} s    "
          f"({med['patch'] / (n_layer * len(clean)) * 1e3:.1f} ms a cell)")
    return 0
