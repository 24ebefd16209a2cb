"""`logitscope bench`: what the white box costs, measured side by side in one run.

Same model, same ~512-token prompt, greedy, 128 tokens, same threads, median of several repetitions:
  (a) a bare llama.cpp loop: llama_decode + llama.cpp's greedy sampler, no per-step Python work
  (b) llama-cpp-python's create_completion(stream=True)
  (c) the Logitscope engine with full recording, through the engine process, timed from the caller
  (e) `logitscope generate --json` with its default threads (tuned), piped to a reader that parses every line,
      against the bare loop's best of 1 and of the machine's thread count (a user's CLI against llama.cpp tuned
      by hand); the ratio is the median over the repetitions of each one's (e) against its own bare runs
Prompt tok/s = prompt tokens / time until the first token is known; generation tok/s = (tokens - 1) /
time from the first token to the last. Also: trace bytes per step, engine start + model load time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import llama_cpp

from logitscope.engine.batched import counting_prompt
from logitscope.engine.handles import apply_amx_workaround, default_threads
from logitscope.engine.runtime import Runtime
from logitscope.host.client import EngineClient
from logitscope.protocol.api import DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import pack_step

TARGETS = {"c/a prompt": 0.95, "c/a gen": 0.95, "c/b prompt": 1.0, "c/b gen": 1.0, "e/best a gen": 0.95}
PIPE_TARGET = 0.95


def bench_bare(rt: Runtime, prompt: list[int], n_gen: int,
               step_times: list[float] | None = None) -> tuple[float, float, int]:
    """(prompt seconds, generation seconds, tokens) for a loop with no Python per-step work beyond ctypes;
    `step_times` (if given) receives each generated token's seconds after the first (decode + sample)."""
    ctx = rt._ctx
    mem = llama_cpp.llama_get_memory(ctx)
    llama_cpp.llama_memory_clear(mem, True)
    greedy = llama_cpp.llama_sampler_init_greedy()
    one = (llama_cpp.llama_token * 1)()
    try:
        t0 = time.perf_counter()
        for start in range(0, len(prompt), rt.n_batch):
            chunk = prompt[start:start + rt.n_batch]
            arr = (llama_cpp.llama_token * len(chunk))(*chunk)
            assert llama_cpp.llama_decode(ctx, llama_cpp.llama_batch_get_one(arr, len(chunk))) == 0
        token = llama_cpp.llama_sampler_sample(greedy, ctx, -1)
        t1 = t_step = time.perf_counter()
        n = 1
        while n < n_gen:
            one[0] = token
            assert llama_cpp.llama_decode(ctx, llama_cpp.llama_batch_get_one(one, 1)) == 0
            token = llama_cpp.llama_sampler_sample(greedy, ctx, -1)
            n += 1
            if step_times is not None:
                now = time.perf_counter()
                step_times.append(now - t_step)
                t_step = now
        t2 = time.perf_counter()
    finally:
        llama_cpp.llama_sampler_free(greedy)
    return t1 - t0, t2 - t1, n


def bench_llama_cpp_python(llm: Any, prompt: list[int], n_gen: int) -> tuple[float, float, int]:
    llm.reset()  # no prefix reuse between repetitions
    t0 = time.perf_counter()
    first = last = None
    n = 0
    for _chunk in llm.create_completion(prompt, max_tokens=n_gen, temperature=0.0, top_k=1, stream=True):
        last = time.perf_counter()
        first = first or last
        n += 1
    assert first is not None and last is not None
    return first - t0, last - first, n


def bench_engine(client: EngineClient, prompt_text: str, n_gen: int,
                 sizes: list[int]) -> tuple[float, float, int]:
    client.reset()
    arrivals: list[float] = []
    steps: list[Any] = []

    def on_step(step: Any) -> None:
        arrivals.append(time.perf_counter())
        steps.append(step)

    req = GenerateRequest(prompt=prompt_text, settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=n_gen))
    t0 = time.perf_counter()
    client.generate(req, on_step=on_step)
    sizes.extend(len(pack_step(s)) for s in steps)  # outside the timed part
    return arrivals[0] - t0, arrivals[-1] - arrivals[0], len(arrivals)


def bench_in_process(engine: Any, prompt_text: str, n_gen: int) -> tuple[float, float, int]:
    """Diagnostic: the same engine without the process boundary (what the recording costs by itself)."""
    engine.reset()
    arrivals: list[float] = []
    req = GenerateRequest(prompt=prompt_text, settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=n_gen))
    t0 = time.perf_counter()
    for _event in engine.generate(req):
        arrivals.append(time.perf_counter())
    arrivals.pop()  # the result
    return arrivals[0] - t0, arrivals[-1] - arrivals[0], len(arrivals)


def run_bench(model: Path, args: argparse.Namespace) -> int:
    threads = args.threads or default_threads()
    settings = LoadSettings(n_ctx=2048, n_threads=threads)
    rt = Runtime(model, settings)
    prompt = counting_prompt(rt, args.prompt_tokens)
    prompt_text = b"".join(rt.piece(t) for t in prompt).decode("utf-8", "replace")
    apply_amx_workaround()  # the reference loads the model as the engine does
    llm = llama_cpp.Llama(str(model), n_ctx=2048, n_threads=threads, n_threads_batch=threads, n_batch=512,
                          verbose=False)
    start_times = []
    for _ in range(3):
        t0 = time.perf_counter()
        with EngineClient() as probe:
            probe.load(str(model), settings)
        start_times.append(time.perf_counter() - t0)
    client = EngineClient()
    client.load(str(model), settings)
    n_engine_prompt = len(client.prompt_tokens(GenerateRequest(prompt=prompt_text)))
    from logitscope.engine.core import Engine

    in_process = Engine()
    in_process.load(model, settings)
    results: dict[str, list[tuple[float, float, int]]] = {"a": [], "b": [], "c": [], "d": [], "e": [], "a1": []}
    sizes: list[int] = []
    try:
        bench_bare(rt, prompt, 8)  # warm-up
        for rep in range(args.reps):
            results["a"].append(bench_bare(rt, prompt, args.tokens))
            results["b"].append(bench_llama_cpp_python(llm, prompt, args.tokens))
            results["c"].append(bench_engine(client, prompt_text, args.tokens, sizes))
            results["d"].append(bench_in_process(in_process, prompt_text, args.tokens))
            results["e"].append(pipe_run(model, prompt_text, args.tokens, args.threads))
            if threads > 1:
                rt.use_threads(1)
                results["a1"].append(bench_bare(rt, prompt, args.tokens))
                rt.use_threads(threads)
            if not args.json:
                print(f"repetition {rep + 1}/{args.reps} done", file=sys.stderr)
    finally:
        client.close()
        rt.close()
        llm.close()
        in_process.unload()
    n_prompt = {"a": len(prompt), "a1": len(prompt), "b": len(prompt), "c": n_engine_prompt, "d": n_engine_prompt,
                "e": n_engine_prompt}

    def rates(key: str) -> tuple[float, float, int]:
        pp = statistics.median(n_prompt[key] / r[0] for r in results[key])
        tg = statistics.median((r[2] - 1) / r[1] for r in results[key])
        return pp, tg, min(r[2] for r in results[key])

    (pa, ga, na), (pb, gb, nb), (pc, gc, nc), (pd, gd, nd) = rates("a"), rates("b"), rates("c"), rates("d")
    _, ge, ne = rates("e")
    g1 = rates("a1")[1] if results["a1"] else 0.0
    # the stream against the better bare loop of the same repetition (a slow minute of the host slows both)
    gen = {key: [(r[2] - 1) / r[1] for r in results[key]] for key in ("a", "a1", "e")}
    best_a = [max(a, a1) for a, a1 in zip(gen["a"], gen["a1"] or gen["a"], strict=True)]
    ratios = {"c/a prompt": pc / pa, "c/a gen": gc / ga, "c/b prompt": pc / pb, "c/b gen": gc / gb,
              "e/best a gen": statistics.median(e / a for e, a in zip(gen["e"], best_a, strict=True))}
    report = {
        "model": model.name, "threads": threads, "prompt_tokens": len(prompt), "gen_tokens": args.tokens,
        "reps": args.reps,
        "tok_per_s": {"a_bare_llama_cpp": {"prompt": pa, "gen": ga, "n": na},
                      "b_llama_cpp_python": {"prompt": pb, "gen": gb, "n": nb},
                      "c_logitscope": {"prompt": pc, "gen": gc, "n": nc},
                      "c_in_process_diagnostic": {"prompt": pd, "gen": gd, "n": nd},
                      "e_generate_json_piped": {"gen": ge, "n": ne, "threads": args.threads or "default"},
                      "a_bare_1_thread": {"gen": g1}},
        "ratios": ratios,
        "targets": TARGETS,
        "trace_bytes_per_step": {"mean": statistics.mean(sizes), "max": max(sizes)},
        "engine_start_and_load_s": statistics.median(start_times),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"\n{model.name}, {threads} threads, prompt {len(prompt)} tokens, {args.tokens} generated, "
          f"greedy, median of {args.reps}")
    print(f"{'':34}{'prompt tok/s':>14}{'gen tok/s':>12}")
    for label, pp, tg in (("(a) bare llama.cpp loop", pa, ga), ("(b) llama-cpp-python stream", pb, gb),
                          ("(c) Logitscope, full recording", pc, gc),
                          ("    same, in-process (diagnostic)", pd, gd)):
        print(f"{label:34}{pp:14.1f}{tg:12.1f}")
    if results["a1"]:
        print(f"{'    same, 1 thread':34}{'':14}{g1:12.1f}")
    who = f"{args.threads} threads" if args.threads else "default threads"
    print(f"{'(e) generate --json | reader':34}{'':14}{ge:12.1f}   ({who}: the lines as the reader gets them)")
    print()
    for name, value in ratios.items():
        verdict = "ok" if value >= TARGETS[name] else "below target"
        print(f"{name:>12}: {value:5.3f}  (target >= {TARGETS[name]:.2f}, {verdict})")
    ts = report["trace_bytes_per_step"]
    print(f"\ntrace: {ts['mean']:.0f} bytes per step on average, {ts['max']} at most (target <= 2048)")
    print(f"engine start + model load: {report['engine_start_and_load_s']:.3f} s (target < 1 s)")
    return 0




def pipe_run(model: Path, prompt_text: str, n_gen: int, threads: int) -> tuple[float, float, int]:
    """`logitscope generate --json` piped to this process, which parses every line as a trace consumer
    would: (seconds to the first step, seconds from the first step to the last, steps)."""
    cmd = [sys.executable, "-m", "logitscope", "generate", "--model", str(model), "--prompt", prompt_text,
           "--temperature", "0", "--max-tokens", str(n_gen), "--n-ctx", "2048", "--threads", str(threads), "--json"]
    t0 = time.perf_counter()
    arrivals: list[float] = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            record = json.loads(line)
            if record["type"] == "step":
                arrivals.append(time.perf_counter())
    if proc.returncode != 0 or len(arrivals) < 2:
        raise RuntimeError(f"logitscope generate --json failed (exit {proc.returncode})")
    return arrivals[0] - t0, arrivals[-1] - arrivals[0], len(arrivals)


def run_pipe_bench(model: Path, args: argparse.Namespace) -> int:
    """Generation tok/s of `generate --json | reader` against the bare llama.cpp loop, alternated."""
    threads = args.threads or default_threads()
    rt = Runtime(model, LoadSettings(n_ctx=2048, n_threads=threads))
    try:
        prompt = counting_prompt(rt, args.prompt_tokens)
        prompt_text = b"".join(rt.piece(t) for t in prompt).decode("utf-8", "replace")
        bench_bare(rt, prompt, 8)  # warm-up
        bare, piped = [], []
        for rep in range(args.reps):
            bare.append(bench_bare(rt, prompt, args.tokens))
            piped.append(pipe_run(model, prompt_text, args.tokens, threads))
            if not args.json:
                print(f"repetition {rep + 1}/{args.reps} done", file=sys.stderr)
    finally:
        rt.close()
    bare_rates = [(r[2] - 1) / r[1] for r in bare]
    piped_rates = [(r[2] - 1) / r[1] for r in piped]
    gen_bare, gen_piped = statistics.median(bare_rates), statistics.median(piped_rates)
    # each piped run against the bare run just before it: a slow minute of a shared host slows both
    pairs = [p / b for p, b in zip(piped_rates, bare_rates, strict=True)]
    report = {"model": model.name, "threads": threads, "prompt_tokens": len(prompt), "gen_tokens": args.tokens,
              "reps": args.reps, "bare_gen_tok_s": gen_bare, "piped_gen_tok_s": gen_piped,
              "ratio_of_medians": gen_piped / gen_bare, "pair_ratios": pairs, "ratio": statistics.median(pairs),
              "target": PIPE_TARGET}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"\n{model.name}, {threads} threads, prompt {len(prompt)} tokens, {args.tokens} generated, greedy, "
          f"median of {args.reps} alternated runs")
    print(f"(a) bare llama.cpp loop                 {gen_bare:8.1f} tok/s")
    print(f"(p) generate --json | a JSON reader     {gen_piped:8.1f} tok/s   (as the reader receives the steps)")
    print("p/a of each alternated pair: " + " ".join(f"{r:.3f}" for r in pairs))
    verdict = "ok" if report["ratio"] >= PIPE_TARGET else "below target"
    print(f"p/a: {report['ratio']:.3f} (median of the pairs; of the medians above: {gen_piped / gen_bare:.3f})  "
          f"(target >= {PIPE_TARGET:.2f}, {verdict})")
    return 0


def generation_with_and_without_inspection(engine: Any, prompt_text: str, n_gen: int, reps: int,
                                           inspect: Any) -> tuple[list[float], list[float]]:
    """Generation tok/s of the engine's generation context while no inspection context exists, and while one
    exists (made by `inspect()`), alternated (the order swapped every repetition, against drift)."""
    without: list[float] = []
    with_it: list[float] = []

    def run(into: list[float]) -> None:
        _prompt_s, gen_s, n = bench_in_process(engine, prompt_text, n_gen)
        into.append((n - 1) / gen_s)

    for rep in range(reps):
        for exists in ((False, True) if rep % 2 == 0 else (True, False)):
            if exists:
                inspect()        # creates the inspection context (and the dequantized head) and fills it
                run(with_it)
            else:
                if engine.inspector is not None:
                    engine.inspector.close()   # frees the inspection context: the state before anyone asked
                run(without)
    return without, with_it


def run_inspect_bench(model: Path, args: argparse.Namespace) -> int:
    """The forward-pass views' costs: opening the lens + attention of one step, the inspection context's memory, and the
    generation speed without and with an inspection context (zero effect expected: it is a separate one)."""
    from logitscope.bench.forward import measure_opening, print_opening
    from logitscope.engine.core import Engine
    from logitscope.protocol.forward import InspectRequest

    threads = args.threads or default_threads()
    engine = Engine()
    try:
        engine.load(model, LoadSettings(n_ctx=2048, n_threads=threads))
        opening = {"threads": threads, **measure_opening(engine, args.reps)}
        assert engine.runtime is not None
        prompt = counting_prompt(engine.runtime, args.prompt_tokens)
        prompt_text = b"".join(engine.runtime.piece(t) for t in prompt).decode("utf-8", "replace")
        inspected = InspectRequest(tuple(prompt[:opening["context_tokens"]]))
        bench_in_process(engine, prompt_text, 8)  # warm-up
        without, with_it = generation_with_and_without_inspection(
            engine, prompt_text, args.tokens, args.reps, lambda: engine.inspect(inspected))
    finally:
        engine.unload()
    gen_without, gen_with = statistics.median(without), statistics.median(with_it)
    report = {"model": model.name, "threads": threads, "reps": args.reps, "opening": opening,
              "generation": {"prompt_tokens": len(prompt), "gen_tokens": args.tokens,
                             "tok_s_without_inspection_context": gen_without,
                             "tok_s_with_inspection_context": gen_with, "ratio": gen_with / gen_without}}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print_opening([opening], model.name, args.reps)
    print(f"\nGeneration ({threads} threads, prompt {len(prompt)} tokens, {args.tokens} generated, greedy, "
          f"median of {args.reps} alternated runs):")
    print(f"  no inspection context        {gen_without:8.1f} tok/s")
    print(f"  with an inspection context   {gen_with:8.1f} tok/s   (with/without: {gen_with / gen_without:.3f})")
    return 0
