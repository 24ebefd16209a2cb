"""`logitscope bench --cvector`: building a control vector from 20 prompt pairs, `logitscope cvector` against
llama.cpp's own `llama-cvector-generator`, side by side.

The same prompt files (PAIRS: one persona against its opposite, on the same 20 questions, in the model's own
chat template, written in the tool's format), the same model, threads and method (mean, then PCA with the
tool's defaults: 1,000 iterations in rounds of 100), each command run as a user runs it (a process that loads
the model, builds the vector and writes its file), alternated (the order swapped every repetition), median
of the repetitions, and the best (the fastest run of each: a busy host only ever slows a run down; on the
shared development machine runs of one command ranged from 5 to 55 s). Times:
  - whole command: from the start of the process to its end (model load and file included);
  - evaluation: the prompts' evaluation, ours as the engine reports it, the tool's from its "Evaluating
    prompt[1/N]" line to its "Done evaluate prompts" line (read as they are written: bench/llama_tools.py);
  - reduction: the mean or the PCA (ours as the engine reports it; the tool's: "Done" to the process's end,
    writing the file included).
Both files are compared too: per layer cosine of ours with the tool's (mean: they must agree; PCA: the tool's
is off on about half the layers, tests/data/cvector/reference.json, so the layers that agree are counted).
Without the tool built, only ours is printed, with how to build it.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from logitscope.base.errors import LogitscopeError
from logitscope.bench.llama_tools import common_args, line_buffered, not_built, tool, tool_built, tool_env
from logitscope.gguf.control_vector import read_control_vector
from logitscope.host.client import EngineClient
from logitscope.protocol.api import ChatMessage, LoadSettings
from logitscope.protocol.cvector import escape
from logitscope.system.threads import available_cpus

GENERATOR = "llama-cvector-generator"
TARGET = 1.2  # the bound: ours within 1.2x the tool's time
METHODS = ("mean", "pca")
PERSONAS = ("Act as if you're extremely happy.", "Act as if you're extremely sad.")  # llama.cpp's example pair
QUESTIONS = (
    "How was your day?",
    "Tell me about the weather today.",
    "What do you think of your job?",
    "Describe your weekend.",
    "How do you feel about the city you live in?",
    "What did you have for breakfast?",
    "Tell me about your family.",
    "What are your plans for the summer?",
    "How was the concert last night?",
    "What do you think about getting older?",
    "Describe the view from your window.",
    "How is your new project going?",
    "What was school like for you?",
    "Tell me about your best friend.",
    "How do you feel about Mondays?",
    "What is your favourite season, and why?",
    "How did the trip to the coast go?",
    "What do you think of the book you are reading?",
    "Describe your morning commute.",
    "How do you feel about the future?",
)
PCA_AGREEMENT = 0.99  # PCA: a layer where |cosine| >= this counts as agreeing


def write_pairs(client: EngineClient, n_pairs: int, folder: Path) -> tuple[Path, Path, int]:
    """positive.txt and negative.txt: each question under each persona, in the loaded model's chat template
    with the assistant's turn opened (as llama.cpp's examples write them), one escaped prompt a line; and the
    tokens a build evaluates (both prompts of each pair, padded to the longer)."""
    prompts = {persona: [client.render_chat([ChatMessage("user", q)], system=persona) for q in QUESTIONS[:n_pairs]]
               for persona in PERSONAS}
    files = []
    for name, persona in zip(("positive", "negative"), PERSONAS, strict=True):
        path = folder / f"{name}.txt"
        path.write_bytes(b"".join(escape(text.encode("utf-8")) + b"\n" for text in prompts[persona]))
        files.append(path)
    tokens = sum(2 * max(len(client.tokenize(p, True, True)), len(client.tokenize(n, True, True)))
                 for p, n in zip(*prompts.values(), strict=True))
    return files[0], files[1], tokens


def run_ours(model: Path, positive: Path, negative: Path, method: str, threads: int,
             out: Path) -> dict[str, float]:
    """`logitscope cvector` as a user runs it: seconds of the whole command, and the engine's own phases."""
    command = [sys.executable, "-m", "logitscope", "cvector", "--model", str(model), "--positive-file", str(positive),
               "--negative-file", str(negative), "--method", method, "--threads", str(threads), "-o", str(out)]
    t0 = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - t0
    phases = re.search(r"evaluation ([\d.]+) s, \w+ ([\d.]+) s", proc.stderr)
    if proc.returncode != 0 or not phases:
        raise LogitscopeError("logitscope cvector failed: {tail}", tail=(proc.stderr.strip().splitlines() or [""])[-1])
    return {"wall_s": wall, "eval_s": float(phases.group(1)), "reduce_s": float(phases.group(2))}


def run_tool(model: Path, positive: Path, negative: Path, method: str, threads: int, out: Path) -> dict[str, float]:
    """llama-cvector-generator: seconds of the whole command, and of its phases from its lines' arrival."""
    command = line_buffered([str(tool(GENERATOR)), *common_args(model, threads), "--positive-file", str(positive),
                             "--negative-file", str(negative), "--method", method, "-o", str(out)])
    t0 = time.perf_counter()
    started = done = None
    tail: list[str] = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=tool_env()) as proc:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace")
            if started is None and line.startswith("Evaluating prompt[1/"):
                started = time.perf_counter()
            elif line.startswith("Done evaluate prompts"):
                done = time.perf_counter()
            tail = (tail + [line.strip()])[-3:] if line.strip() else tail
    end = time.perf_counter()
    if proc.returncode != 0 or not out.exists():
        raise LogitscopeError("llama-cvector-generator failed: {tail}", tail=" / ".join(tail))
    if started is None or done is None or command[0] == str(tool(GENERATOR)):  # no stdbuf: its lines came at its end
        return {"wall_s": end - t0, "eval_s": float("nan"), "reduce_s": float("nan")}
    return {"wall_s": end - t0, "eval_s": done - started, "reduce_s": end - done}


def agreement(ours: Path, theirs: Path) -> list[float]:
    """Per layer cosine of our directions with the tool's."""
    a, b = read_control_vector(ours).directions, read_control_vector(theirs).directions
    if sorted(a) != sorted(b):
        raise LogitscopeError("the two files hold other layers: {ours} and {theirs}", ours=str(sorted(a)),
                              theirs=str(sorted(b)))
    return [float(np.dot(a[n], b[n]) / (np.linalg.norm(a[n]) * np.linalg.norm(b[n]))) for n in sorted(a)]


def _median(runs: list[dict[str, float]], key: str) -> float:
    return round(statistics.median(r[key] for r in runs), 3)


def _figures(runs: list[dict[str, float]]) -> dict[str, Any]:
    return {**{k: _median(runs, k) for k in ("wall_s", "eval_s", "reduce_s")},
            "best_wall_s": round(min(r["wall_s"] for r in runs), 3),
            "best_eval_s": round(min(r["eval_s"] for r in runs), 3),
            "wall_runs": [round(r["wall_s"], 3) for r in runs]}


def run_cvector_bench(model: Path, args: argparse.Namespace) -> int:
    threads = args.threads or available_cpus()  # both sides: what the engine itself takes for 0
    n_pairs = args.pairs
    if not 1 <= n_pairs <= len(QUESTIONS):
        raise LogitscopeError("--pairs must be between 1 and {n}", n=len(QUESTIONS))
    built = tool_built(GENERATOR)
    report: dict[str, Any] = {"model": model.name, "threads": threads, "pairs": n_pairs, "reps": args.reps,
                              "target": TARGET, "llama_cvector_generator": built, "methods": {}}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        with EngineClient() as client:
            client.load(str(model), LoadSettings(n_ctx=2048, n_threads=threads))
            positive, negative, report["tokens"] = write_pairs(client, n_pairs, folder)
        for method in METHODS:
            ours_runs: list[dict[str, float]] = []
            tool_runs: list[dict[str, float]] = []
            cosines: list[float] = []
            for rep in range(args.reps):
                sides = ("ours", "tool") if rep % 2 == 0 else ("tool", "ours")
                for side in sides:
                    out = folder / f"{side}-{method}.gguf"
                    if side == "ours":
                        ours_runs.append(run_ours(model, positive, negative, method, threads, out))
                    elif built:
                        tool_runs.append(run_tool(model, positive, negative, method, threads, out))
                if built and not cosines:
                    cosines = agreement(folder / f"ours-{method}.gguf", folder / f"tool-{method}.gguf")
                if not args.json:
                    print(f"{method}: repetition {rep + 1}/{args.reps} done", file=sys.stderr)
            row: dict[str, Any] = {"ours": _figures(ours_runs)}
            if built:
                row["tool"] = _figures(tool_runs)
                for key in ("wall_s", "eval_s", "best_wall_s", "best_eval_s"):
                    row[f"ratio_{key.removesuffix('_s')}"] = round(row["ours"][key] / row["tool"][key], 3)
                row["min_cosine"] = round(min(cosines), 6)
                row["layers_agreeing"] = sum(abs(c) >= PCA_AGREEMENT for c in cosines)
                row["layers"] = len(cosines)
            report["methods"][method] = row
    if built:
        report["within_target"] = all(r["ratio_wall"] <= TARGET for r in report["methods"].values())
        report["best_within_target"] = all(r["ratio_best_wall"] <= TARGET for r in report["methods"].values())
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0


def print_report(report: dict[str, Any]) -> None:
    print(f"\n{report['model']}: a control vector from {report['pairs']} prompt pairs ({report['tokens']} tokens "
          f"evaluated), {report['threads']} threads, {report['reps']} alternated runs, in seconds: median (best)")
    print(f"{'method':8}{'':14}{'whole command':>18}{'evaluation':>18}{'reduction':>11}")
    for method, row in report["methods"].items():
        sides = [("logitscope", row["ours"])] + ([("the tool", row["tool"])] if "tool" in row else [])
        for i, (name, r) in enumerate(sides):
            print(f"{method if i == 0 else '':8}{name:14}{r['wall_s']:>10.2f} ({r['best_wall_s']:5.2f})"
                  f"{r['eval_s']:>10.2f} ({r['best_eval_s']:5.2f}){r['reduce_s']:>11.2f}")
        if "tool" in row:
            agree = (f"cosine >= {row['min_cosine']:.6f} on every layer" if method == "mean" else
                     f"|cosine| >= {PCA_AGREEMENT} on {row['layers_agreeing']} of {row['layers']} layers")
            print(f"{'':8}{'ours/tool':14}{row['ratio_wall']:>10.3f} ({row['ratio_best_wall']:5.3f})"
                  f"{row['ratio_eval']:>10.3f} ({row['ratio_best_eval']:5.3f})    {agree}")
    if report["llama_cvector_generator"]:
        verdict = "met" if report["within_target"] else "NOT met"
        best = "met" if report["best_within_target"] else "NOT met"
        print(f"whole command within {report['target']}x the tool's: median {verdict}, best {best}")
    else:
        print(not_built(GENERATOR), file=sys.stderr)
