"""`logitscope bench --contention`: generation speed while another process takes part of a core.

Another process of its own (a busy loop, busy LOADS% of every 100 ms of one core) runs beside the engine; at each
load the engine answers the same question greedily (`--tokens`, 160 by default) with the default thread count (the
tuner: system/thread_tuner.py) and with each fixed count from 1 to the CPU count, alternated, `--reps` times (7).
Each row prints each setting's median tok/s and default / best fixed: the best fixed count is the one with the best
median, and the ratio is the median of each repetition's own ratio (default over that count, measured moments
apart). A shared machine's speed drifts by 10-20 % over seconds, which moves a ratio of medians between runs by as
much; the paired ratio cancels the drift. Goals: >= 0.95x the best fixed count at every load, and
>= 0.98x on a quiet machine. The engines are the user's: one engine process per setting, loaded once, kept
through the rows (the tuner remembers what it learned, as in a long chat)."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from logitscope.host.client import EngineClient
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.system.threads import available_cpus

LOADS = (0, 30, 60, 100)    # % of one core the other process takes
PERIOD_S = 0.1
QUESTION = "Tell me a long story about a lighthouse keeper."
TARGET, QUIET_TARGET = 0.95, 0.98
DEFAULT_TOKENS = 160
REPS = 7   # the paired ratio's median settles within ~2 % on this machine (3 left it moving by 5-10 %)


def load_process(percent: int) -> subprocess.Popen[bytes] | None:
    """A process that keeps one core busy `percent` % of the time (None for 0)."""
    if percent <= 0:
        return None
    busy = PERIOD_S * percent / 100
    code = ("import time\nwhile True:\n    t = time.perf_counter()\n"
            f"    while time.perf_counter() - t < {busy}: pass\n    time.sleep({PERIOD_S - busy})\n")
    return subprocess.Popen([sys.executable, "-c", code])


def tok_per_s(client: EngineClient, tokens: int) -> float:
    request = GenerateRequest(messages=[ChatMessage("user", QUESTION)], settings=PRESETS["Greedy"],
                              options=DecodeOptions(max_tokens=tokens))
    result = client.generate(request)
    return result.timings.gen_tps


def run_contention_bench(model: Path, args: argparse.Namespace) -> int:
    tokens = args.tokens if args.tokens != 128 else DEFAULT_TOKENS   # bench's general default is 128
    reps = args.reps or REPS
    counts = list(range(1, available_cpus() + 1))
    names = ["default", *(f"--threads {n}" for n in counts)]
    clients = {name: EngineClient() for name in names}
    rows: list[dict[str, Any]] = []
    try:
        for name, client in clients.items():
            client.load(str(model), LoadSettings(n_ctx=1024, n_threads=0 if name == "default" else int(name.split()[-1])))
            tok_per_s(client, 16)   # warm: the first answer's page faults are no one's speed
        for percent in LOADS:
            load = load_process(percent)
            time.sleep(0.3)
            try:
                measured: dict[str, list[float]] = {name: [] for name in names}
                for rep in range(reps):
                    order = names if rep % 2 == 0 else names[::-1]   # alternated
                    for name in order:
                        measured[name].append(tok_per_s(clients[name], tokens))
            finally:
                if load is not None:
                    load.kill()
                    load.wait()
            medians = {name: statistics.median(values) for name, values in measured.items()}
            best = max(names[1:], key=lambda n: medians[n])
            paired = statistics.median(d / b for d, b in zip(measured["default"], measured[best], strict=True))
            rows.append({"load_percent": percent, **{n: round(v, 1) for n, v in medians.items()}, "best": best,
                         "default/best": round(paired, 3),
                         "ratio_of_medians": round(medians["default"] / medians[best], 3)})
    finally:
        for client in clients.values():
            client.close()
    if args.json:
        print(json.dumps({"tokens": tokens, "reps": reps, "rows": rows}))
        return 0
    print(f"generation tok/s, demo question greedy, {tokens} tokens, median of {reps}, settings alternated; "
          f"another process takes part of one core; default/best: the median of the {reps} paired ratios")
    print(f"{'load':>6} " + " ".join(f"{n:>12}" for n in names) + f" {'default/best':>13}")
    ok = True
    for row in rows:
        goal = QUIET_TARGET if row["load_percent"] == 0 else TARGET
        ok &= row["default/best"] >= goal
        print(f"{row['load_percent']:>5}% " + " ".join(f"{row[n]:>12.1f}" for n in names)
              + f" {row['default/best']:>12.3f}x  (goal >= {goal})")
    print("all goals met" if ok else "a goal was missed")
    return 0
