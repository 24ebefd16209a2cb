"""`logitscope bench --score`: scoring speed, Logitscope against llama.cpp's llama-perplexity, side by side.

Same model, same text, same chunk size, same threads, alternated repetitions (ours, then the tool's), median
of each. Both run llama-perplexity's chunk protocol (every chunk evaluated in full, its second half scored),
so they evaluate the same positions. Ours: positions / time in the engine (llama_decode plus the numbers per
token: log-probability, rank, entropy, top alternatives), and / the whole call seen from the caller (tokenizing
and the records crossing the process boundary included). llama-perplexity: positions / time between its
"calculating perplexity" and "Final estimate" log lines (it prints no timings of its own there). The tool is
found as bench/llama_tools.py finds llama.cpp's tools; without it only our figures are printed.
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

from logitscope.base.errors import LogitscopeError
from logitscope.bench.llama_tools import common_args, not_built, tool, tool_built, tool_env
from logitscope.host.client import EngineClient
from logitscope.host.score_compare import LOAD_CTX
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.score import ScoreRequest
from logitscope.system.threads import available_cpus

BENCH_CTX = 256           # as the recorded reference (tests/data/score): short runs on small machines
BENCH_CHUNKS = 4
_STAMP = r"(\d+)\.(\d+)\.(\d+)\.(\d+) I "  # llama.cpp's log time stamps: minutes.seconds.ms.us


def bench_text(n_tokens_hint: int) -> str:
    """Plain numbered sentences: what the text says does not change the speed, only its length does."""
    words = ("the lamp", "the gulls", "the tide", "the clock", "the logbook", "the keeper", "the boat")
    lines = [f"On day {i} {words[i % 7]} was checked at {i % 24:02d}.{(7 * i) % 60:02d}, and all was well."
             for i in range(1, n_tokens_hint // 10 + 2)]
    return "\n".join(lines) + "\n"


def _seconds(stamp: re.Match[str]) -> float:
    m, s, ms, us = (int(g) for g in stamp.groups()[:4])
    return m * 60 + s + ms / 1e3 + us / 1e6


def run_tool(model: Path, text_file: Path, n_ctx: int, threads: int) -> tuple[float, float]:
    """(seconds scoring, perplexity) of one llama-perplexity run."""
    args = [str(tool("llama-perplexity")), *common_args(model, threads), "-f", str(text_file), "-c", str(n_ctx)]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=1800, env=tool_env())
    log = proc.stdout + proc.stderr
    start = re.search(_STAMP + r"perplexity: calculating perplexity", log)
    end = re.search(_STAMP + r"Final estimate: PPL = ([\d.]+)", log)
    if proc.returncode != 0 or not start or not end:
        raise LogitscopeError("llama-perplexity failed: {tail}", tail=(log.strip().splitlines() or [""])[-1])
    return _seconds(end) - _seconds(start), float(end.group(5))


def run_score_bench(model: Path, args: argparse.Namespace) -> int:
    n_ctx = BENCH_CTX
    threads = args.threads or available_cpus()  # both sides: what the engine itself takes for 0
    text = bench_text(n_ctx * (BENCH_CHUNKS + 1))
    built = tool_built("llama-perplexity")
    ours, ours_wall, theirs = [], [], []
    ppl_ours = ppl_theirs = float("nan")
    with tempfile.TemporaryDirectory() as tmp, EngineClient() as client:
        text_file = Path(tmp) / "bench.txt"
        text_file.write_text(text, encoding="utf-8")
        client.load(str(model), LoadSettings(n_ctx=LOAD_CTX, n_threads=threads, flash_attn=True))
        tokens = client.tokenize(text, True, False)
        n_chunks = len(tokens) // n_ctx
        request = ScoreRequest(text=text, n_ctx=n_ctx, mode="chunks", flash_attn=True)  # the tool's default on CPU
        client.score(request)  # warm-up: the scoring context is made once
        for _ in range(args.reps):
            t0 = time.perf_counter()
            result = client.score(request)
            ours_wall.append(result.n_evaluated / (time.perf_counter() - t0))
            ours.append(result.tokens_per_s)
            ppl_ours = result.perplexity
            if built:
                seconds, ppl_theirs = run_tool(model, text_file, n_ctx, threads)
                theirs.append(n_chunks * n_ctx / seconds)
    figures = {"text_tokens": len(tokens), "n_ctx": n_ctx, "chunks": n_chunks, "threads": threads, "reps": args.reps,
               "logitscope_tok_s": round(statistics.median(ours), 1),
               "logitscope_call_tok_s": round(statistics.median(ours_wall), 1),
               "llama_perplexity_tok_s": round(statistics.median(theirs), 1) if theirs else None,
               "perplexity": {"logitscope": round(ppl_ours, 4), "llama_perplexity": round(ppl_theirs, 4) if theirs else None}}
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"scoring {len(tokens)} tokens in {n_chunks} chunks of {n_ctx} (llama-perplexity's protocol), "
          f"{threads} threads, flash attention on, median of {args.reps} alternated runs")
    print(f"  Logitscope (engine)        {figures['logitscope_tok_s']:>9} tok/s")
    print(f"  Logitscope (whole call)    {figures['logitscope_call_tok_s']:>9} tok/s")
    if theirs:
        print(f"  llama-perplexity           {figures['llama_perplexity_tok_s']:>9} tok/s   "
              f"(ratio {statistics.median(ours) / statistics.median(theirs):.2f})")
        print(f"  perplexity: Logitscope {ppl_ours:.4f}, llama-perplexity {ppl_theirs:.4f}")
    else:
        print(f"  {not_built('llama-perplexity')}", file=sys.stderr)
    return 0
