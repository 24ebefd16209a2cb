"""`logitscope bench --kl`: the KL-divergence run, Logitscope against llama.cpp's `llama-perplexity
--kl-divergence`, side by side.

The base model's distributions are written once (`score --save-logits`, the tool's own --kl-divergence-base
file); then the compared model (the base quantized to Q8_0 here, by `quantize`) is run against that file,
ours then the tool's, alternated, on the same text, chunk size, threads and flash attention (on: the tool's
default on CPU), median of each. Ours: scored positions / time in the engine (llama_decode plus the whole-vocabulary
arithmetic), and / the whole call seen from the caller. The tool: positions / time from its "kl_divergence:
computing over" log line to its last chunk line, read line-buffered as it prints them. Both print the same
statistics; the Mean KLD lines are shown side by side as a check.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from logitscope.base.errors import LogitscopeError
from logitscope.bench.llama_tools import common_args, line_buffered, not_built, tool, tool_built, tool_env
from logitscope.bench.score import BENCH_CTX, bench_text
from logitscope.host.client import EngineClient
from logitscope.host.quantize_job import quantize_model
from logitscope.host.score_compare import LOAD_CTX
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.kld import KldStats, scored_per_chunk
from logitscope.protocol.quantize import QuantizeRequest
from logitscope.protocol.score import ScoreRequest, ScoreResult
from logitscope.system.threads import available_cpus

BENCH_KL_CHUNKS = 16      # two of the tool's passes of 8 sequences at n_ctx 256
COMPARED_TYPE = "Q8_0"


def run_tool(model: Path, base_file: Path, threads: int) -> tuple[float, str]:
    """(seconds comparing, its Mean KLD line) of one llama-perplexity --kl-divergence run."""
    args = [str(tool("llama-perplexity")), *common_args(model, threads), "-c", str(BENCH_CTX),
            "--kl-divergence-base", str(base_file), "--kl-divergence"]
    proc = subprocess.Popen(line_buffered(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=tool_env())
    assert proc.stdout is not None
    start = last_chunk = None
    lines = []
    for line in proc.stdout:
        now = time.perf_counter()
        lines.append(line.rstrip("\n"))
        if "kl_divergence: computing over" in line:
            start = now
        elif start is not None and line[:4].strip().isdigit():
            last_chunk = now
    proc.wait(timeout=60)
    mean = next((s for s in lines if s.startswith("Mean    KLD:")), "")
    if proc.returncode != 0 or start is None or last_chunk is None or not mean:
        raise LogitscopeError("llama-perplexity failed: {tail}", tail=(lines or [""])[-1])
    return last_chunk - start, mean


def _score(client: EngineClient, request: ScoreRequest) -> tuple[ScoreResult, float]:
    t0 = time.perf_counter()
    result = client.score(request)
    return result, time.perf_counter() - t0


def run_kl_bench(model: Path, args: argparse.Namespace) -> int:
    threads = args.threads or available_cpus()  # both sides: what the engine itself takes for 0
    built = tool_built("llama-perplexity")
    ours, ours_call, theirs = [], [], []
    mean_ours = mean_theirs = ""
    with tempfile.TemporaryDirectory(prefix="logitscope-bench-kl-") as tmp:
        folder = Path(tmp)
        base_file, other = folder / "base.kld", folder / f"compared-{COMPARED_TYPE}.gguf"
        quantize_model(QuantizeRequest(source=str(model), target=str(other), type=COMPARED_TYPE,
                                       allow_requantize=True, threads=threads))
        settings = LoadSettings(n_ctx=LOAD_CTX, n_threads=threads, flash_attn=True)
        text = bench_text(BENCH_CTX * BENCH_KL_CHUNKS * 2 // 5)   # its lines run ~2.4 tokens a "token" of hint
        with EngineClient() as client:
            client.load(str(model), settings)
            base, _ = _score(client, ScoreRequest(text=text, n_ctx=BENCH_CTX, mode="chunks", flash_attn=True,
                                                  save_logits=str(base_file)))
        n_chunks = base.n_passes
        positions = n_chunks * scored_per_chunk(BENCH_CTX)
        request = ScoreRequest(mode="chunks", flash_attn=True, kl_base=str(base_file))
        with EngineClient() as client:
            client.load(str(other), settings)
            _score(client, request)  # warm-up: the scoring context is made once
            for _ in range(args.reps):
                result, seconds = _score(client, request)
                ours.append(result.n_evaluated / result.eval_s)
                ours_call.append(result.n_evaluated / seconds)
                assert result.kl is not None
                mean_ours = KldStats.of(result.kl).statistics_block()[9]
                if built:
                    seconds, mean_theirs = run_tool(other, base_file, threads)
                    theirs.append(n_chunks * BENCH_CTX / seconds)
    figures = {"chunks": n_chunks, "n_ctx": BENCH_CTX, "scored_tokens": positions, "threads": threads,
               "reps": args.reps, "compared": f"{model.name} → {COMPARED_TYPE}",
               "logitscope_tok_s": round(statistics.median(ours), 1),
               "logitscope_call_tok_s": round(statistics.median(ours_call), 1),
               "llama_perplexity_tok_s": round(statistics.median(theirs), 1) if theirs else None,
               "ratio": round(statistics.median(ours) / statistics.median(theirs), 3) if theirs else None,
               "mean_kld_line": {"logitscope": mean_ours, "llama_perplexity": mean_theirs or None}}
    if args.json:
        print(json.dumps(figures, indent=2, ensure_ascii=False))
        return 0
    print(f"KL divergence of {model.name} quantized to {COMPARED_TYPE} against it: {n_chunks} chunks of "
          f"{BENCH_CTX} ({positions} scored tokens), {threads} threads, flash attention on, median of "
          f"{args.reps} alternated runs (tokens evaluated per second)")
    print(f"  Logitscope (engine)        {figures['logitscope_tok_s']:>9} tok/s")
    print(f"  Logitscope (whole call)    {figures['logitscope_call_tok_s']:>9} tok/s")
    if theirs:
        print(f"  llama-perplexity           {figures['llama_perplexity_tok_s']:>9} tok/s   "
              f"(ratio {figures['ratio']:.2f}; goal >= 0.9)")
        print(f"  Logitscope       {mean_ours}")
        print(f"  llama-perplexity {mean_theirs}")
    else:
        print(f"  {not_built('llama-perplexity')}", file=sys.stderr)
    return 0
