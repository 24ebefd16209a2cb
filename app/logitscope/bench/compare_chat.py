"""`logitscope bench --compare-chat`: the compare window's chat (ui/compare/) without the window. One answer
alone (engine A on all its threads, as the chat answers) against two engines answering the same question at
once (A on its share of the cores through set_threads, B — the same model with a q8_0 KV cache and flash
attention, the window's default — loaded on its share), alternated, the median of --reps; then B reading A's
tokens (save_distributions on A, compare_distributions on B). Goal: each column >= 0.45x a single answer's
speed on 2 cores."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import tempfile
import threading
from dataclasses import replace
from pathlib import Path
from time import perf_counter

from logitscope.bench.steering import no_end_of_text
from logitscope.engine.core import Engine
from logitscope.host.client import EngineClient
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.forced_compare import summarize
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.system.threads import available_cpus

GOAL = 0.45
QUESTION = "Write a long story about a cat who learns to sail."


def _answer(client: EngineClient, request: GenerateRequest) -> tuple[float, list[int], list[int]]:
    client.reset()   # from an empty cache each time: both sides evaluate the prompt
    result = client.generate(request)
    return result.timings.gen_tps, list(result.prompt_tokens), list(result.tokens)


def _pair(a: EngineClient, b: EngineClient, request: GenerateRequest, shared: int
          ) -> tuple[float, float, list[int], list[int]]:
    out: dict[str, tuple[float, list[int], list[int]]] = {}

    def column(name: str, client: EngineClient) -> None:
        out[name] = _answer(client, request)

    before = a.set_threads(shared)
    try:
        threads = [threading.Thread(target=column, args=(n, c)) for n, c in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        a.set_threads(before)
    return out["a"][0], out["b"][0], out["a"][1], out["a"][2]


def run_compare_chat_bench(model: Path, args: argparse.Namespace) -> int:
    load_a = LoadSettings(n_ctx=2048, n_threads=args.threads)
    shared = max(1, (args.threads or available_cpus()) // 2)
    load_b = replace(load_a, type_k="q8_0", type_v="q8_0", flash_attn=True, n_threads=shared)
    probe = Engine()   # only to name the end-of-generation tokens (banned: every answer has --tokens tokens)
    probe.load(model, LoadSettings(n_ctx=256))
    assert probe.runtime is not None
    settings: SamplerSettings = no_end_of_text(probe.runtime)
    probe.unload()
    request = GenerateRequest(messages=[ChatMessage("user", QUESTION)], settings=settings,
                              options=DecodeOptions(max_tokens=args.tokens))
    single: list[float] = []
    col_a: list[float] = []
    col_b: list[float] = []
    forced_s: list[float] = []
    mean_kld = same_top = 0.0
    a, b = EngineClient(), EngineClient()
    try:
        a.load(str(model), load_a)
        b.load(str(model), load_b)
        _answer(a, replace(request, options=DecodeOptions(max_tokens=8)))   # warm-up: both graphs made once
        _pair(a, b, replace(request, options=DecodeOptions(max_tokens=8)), shared)
        for rep in range(args.reps):
            runs = ("single", "pair") if rep % 2 == 0 else ("pair", "single")
            for run in runs:
                if run == "single":
                    single.append(_answer(a, request)[0])
                    continue
                tps_a, tps_b, prompt, answer = _pair(a, b, request, shared)
                col_a.append(tps_a)
                col_b.append(tps_b)
                fd, path = tempfile.mkstemp(prefix="logitscope-bench-", suffix=".npy")
                os.close(fd)
                try:
                    t0 = perf_counter()
                    a.save_distributions(prompt + answer, len(prompt), path)
                    kl = b.compare_distributions(prompt + answer, len(prompt), path)
                    forced_s.append(perf_counter() - t0)
                finally:
                    with contextlib.suppress(OSError):
                        os.unlink(path)
                summary = summarize(kl)
                mean_kld, same_top = summary.mean_kld, summary.same_top
    finally:
        a.close()
        b.close()
    s, ta, tb = statistics.median(single), statistics.median(col_a), statistics.median(col_b)
    figures = {
        "model": model.name, "cpus": available_cpus(), "tokens": args.tokens, "reps": args.reps,
        "threads_single": load_a.n_threads or available_cpus(), "threads_each_in_pair": shared,
        "b_config": "q8_0 KV, flash attention", "single_tok_s": round(s, 1), "a_tok_s": round(ta, 1),
        "b_tok_s": round(tb, 1), "a_ratio": round(ta / s, 3), "b_ratio": round(tb / s, 3),
        "forced_compare_s": round(statistics.median(forced_s), 3), "mean_kld": mean_kld, "same_top": same_top,
        "goal": GOAL, "meets_goal": min(ta, tb) / s >= GOAL, "load_average": os.getloadavg()[0],
        "single_runs": [round(x, 1) for x in single], "a_runs": [round(x, 1) for x in col_a],
        "b_runs": [round(x, 1) for x in col_b],
    }
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"compare chat: {model.name}, {args.tokens} tokens, median of {args.reps}, {available_cpus()} CPUs "
          f"(load average {figures['load_average']:.2f} at the end: other work on the machine skews the figures)")
    print(f"  one answer alone ({figures['threads_single']} threads): {s:7.1f} tok/s  runs {figures['single_runs']}")
    print(f"  column A, with B at once ({shared} thread(s)): {ta:7.1f} tok/s  {ta / s:.2f}x  runs {figures['a_runs']}")
    print(f"  column B, {figures['b_config']} ({shared} thread(s)): {tb:7.1f} tok/s  {tb / s:.2f}x  "
          f"runs {figures['b_runs']}")
    print(f"  B reads A's tokens: {figures['forced_compare_s']:.3f} s  (mean KLD {mean_kld:.5f}, "
          f"same top-1 {same_top:.1%})")
    print(f"  goal: each column >= {GOAL:.2f}x a single answer: {'met' if figures['meets_goal'] else 'NOT met'}")
    return 0
