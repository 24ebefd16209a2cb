"""`logitscope bench --batched`: llama-batched-bench's table (PP, TG, B, N_KV, T_PP, S_PP, T_TG, S_TG, T, S), ours
beside the tool's, alternated run by run.

The tool runs with a shared prompt and one KV stream (`-pps -kvu`), flash attention on, the same threads, `-npp`,
`-ntg`, `-npl`; it decodes token 0 at every step and reads no logits. Ours (engine/batched.py) decodes B real
answers to a counting prompt of PP tokens, each step of each answer fully recorded by the recorded sampler
(greedy), the prompt evaluated once and shared with llama_memory_seq_cp. T_PP: the prompt and the sharing;
T_TG: TG batched decodes after it (ours asks for TG + 1 tokens: the first comes from the prompt's logits, so it
too decodes TG times, and records one step more). The tool's definitions: S_PP = PP / T_PP, S_TG = B x TG / T_TG,
N_KV = PP + B x TG, S = N_KV / (T_PP + T_TG). Without the tool built, its figures recorded on this machine are
shown instead (REFERENCE, with the command that regenerates them).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from logitscope.base.errors import LogitscopeError
from logitscope.bench.llama_tools import common_args, not_built, tool, tool_built, tool_env
from logitscope.engine.batched import BatchedDecoding, answer_settings, counting_prompt
from logitscope.engine.decode import Decoder
from logitscope.engine.handles import default_threads
from logitscope.engine.runtime import Runtime
from logitscope.gguf.memory import KV_CELL_PADDING
from logitscope.protocol.api import DecodeOptions, LoadSettings
from logitscope.protocol.batched import BatchedResult
from logitscope.protocol.sampler_settings import PRESETS

TARGET = 0.9  # our S_TG against the tool's, at every batch size

# llama-batched-bench on this 2-core machine, 2026-12-05, median of 3 runs of:
#   llama-batched-bench -m SmolLM2-135M-Instruct.Q4_1.gguf -c 1280 -b 2048 -ub 512 -npp 128 -ntg 128 -npl 1,2,4,8
#       -pps -kvu -fa on -t 2 --output-format jsonl
REFERENCE_COMMAND = ("llama-batched-bench -m SmolLM2-135M-Instruct.Q4_1.gguf -c 1280 -b 2048 -ub 512 -npp 128 "
                     "-ntg 128 -npl 1,2,4,8 -pps -kvu -fa on -t 2 --output-format jsonl")
REFERENCE: dict[int, tuple[float, float]] = {  # B -> (T_PP, T_TG) in seconds, for PP 128, TG 128
    1: (0.399, 1.071), 2: (0.393, 1.976), 4: (0.402, 3.070), 8: (0.393, 5.224)}


@dataclass(frozen=True)
class Row:
    """One line of llama-batched-bench's table."""
    pp: int
    tg: int
    pl: int
    t_pp: float
    t_tg: float

    @property
    def n_kv(self) -> int:
        return self.pp + self.pl * self.tg

    @property
    def speed_pp(self) -> float:
        return self.pp / self.t_pp

    @property
    def speed_tg(self) -> float:
        return self.pl * self.tg / self.t_tg

    @property
    def speed(self) -> float:
        return self.n_kv / (self.t_pp + self.t_tg)

    def line(self, who: str) -> str:
        return (f"|{self.pp:6d} | {self.tg:6d} | {self.pl:4d} | {self.n_kv:6d} | {self.t_pp:8.3f} | "
                f"{self.speed_pp:8.2f} | {self.t_tg:8.3f} | {self.speed_tg:8.2f} | {self.t_pp + self.t_tg:8.3f} | "
                f"{self.speed:8.2f} | {who}")


HEADER = ("|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |\n"
          "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|")


def tool_rows(model: Path, pp: int, tg: int, npl: list[int], threads: int) -> list[Row]:
    """One run of llama-batched-bench over every batch size."""
    n_ctx = -(-(pp + max(npl) * tg) // KV_CELL_PADDING) * KV_CELL_PADDING
    cmd = [str(tool("llama-batched-bench")), *common_args(model, threads), "-c", str(n_ctx), "-b", "2048",
           "-ub", "512", "-npp", str(pp), "-ntg", str(tg), "-npl", ",".join(map(str, npl)), "-pps", "-kvu",
           "-fa", "on", "--output-format", "jsonl"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=tool_env(), timeout=600)
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or len(rows) != len(npl):
        raise LogitscopeError("llama-batched-bench failed: {tail}", tail=(proc.stderr.strip().splitlines() or [""])[-1])
    return [Row(r["pp"], r["tg"], r["pl"], r["t_pp"], r["t_tg"]) for r in rows]


def our_row(rt: Runtime, decoder: Decoder, prompt: list[int], tg: int, pl: int, threads: int) -> Row:
    batch = BatchedDecoding(rt, decoder, len(prompt), pl, tg + 1, threads)
    try:
        result = None
        for event in batch.run(prompt, answer_settings(PRESETS["Greedy"], pl), DecodeOptions(max_tokens=tg + 1)):
            if isinstance(event, BatchedResult):
                result = event
    finally:
        batch.close()
    assert result is not None
    if result.n_decodes != tg or any(a.timings.n_gen != tg + 1 for a in result.answers):
        raise LogitscopeError("an answer of the batch ended before {tg} tokens", tg=tg + 1)
    return Row(len(prompt), tg, pl, result.prompt_s, result.gen_s)


def run_batched_bench(model: Path, args: argparse.Namespace) -> int:
    threads = args.threads or default_threads()
    npl = sorted(set(args.npl))  # checked by cli/bench.py
    built = tool_built("llama-batched-bench")
    rt = Runtime(model, LoadSettings(n_ctx=max(2048, args.npp + args.ntg + 1), n_threads=threads, flash_attn=True))
    ours: dict[int, list[Row]] = {pl: [] for pl in npl}
    theirs: dict[int, list[Row]] = {pl: [] for pl in npl}
    try:
        decoder = Decoder(rt, 0.0)
        prompt = counting_prompt(rt, args.npp)
        our_row(rt, decoder, prompt[:16], 4, 1, threads)  # warm-up
        for rep in range(args.reps):
            if built:
                for row in tool_rows(model, args.npp, args.ntg, npl, threads):
                    theirs[row.pl].append(row)
            for pl in npl:
                ours[pl].append(our_row(rt, decoder, prompt, args.ntg, pl, threads))
            if not args.json:
                print(f"repetition {rep + 1}/{args.reps} done", file=sys.stderr)
    finally:
        rt.close()

    def median(rows: list[Row]) -> Row:
        return Row(rows[0].pp, rows[0].tg, rows[0].pl, statistics.median(r.t_pp for r in rows),
                   statistics.median(r.t_tg for r in rows))

    reference = not built and args.npp == 128 and args.ntg == 128 and bool(REFERENCE)
    table = []
    for pl in npl:
        mine = median(ours[pl])
        tool_row = (median(theirs[pl]) if built else
                    Row(128, 128, pl, *REFERENCE[pl]) if reference and pl in REFERENCE else None)
        table.append((mine, tool_row))
    report = {"model": model.name, "threads": threads, "reps": args.reps, "tool": "built" if built else
              "reference" if reference else "not built", "target": TARGET,
              "rows": [{"ours": asdict(m) | {"speed_tg": m.speed_tg},
                        "llama_batched_bench": None if t is None else asdict(t) | {"speed_tg": t.speed_tg},
                        "s_tg_ratio": None if t is None else m.speed_tg / t.speed_tg} for m, t in table]}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"\n{model.name}, {threads} threads, flash attention on, shared prompt, one KV stream, "
          f"median of {args.reps}" + (" alternated runs" if built else ""))
    if not built:
        print(not_built("llama-batched-bench"))
        if reference:
            print(f"its figures: recorded on the development machine with `{REFERENCE_COMMAND}`")
    print(HEADER)
    for mine, tool_row in table:
        print(mine.line("Logitscope, every step recorded"))
        if tool_row is not None:
            print(tool_row.line("llama-batched-bench" + ("" if built else " (recorded)")))
    print()
    for mine, tool_row in table:
        if tool_row is not None:
            ratio = mine.speed_tg / tool_row.speed_tg
            verdict = "ok" if ratio >= TARGET else "below target"
            print(f"B = {mine.pl}: S_TG {mine.speed_tg:7.1f} against {tool_row.speed_tg:7.1f} t/s: {ratio:.3f}x "
                  f"(target >= {TARGET:.2f}, {verdict})")
    return 0
