"""`logitscope bench --speculative`: generation tok/s of plain greedy decoding against prompt-lookup drafting,
side by side, on two chat prompts: one that asks to edit a text (the answer repeats most of the prompt:
lookup should help) and one that asks for free writing (little to look up: lookup must not slow it down).

Through the engine process, flash attention on (a batch then evaluates bit for bit as single tokens do, so
both answers are the same and the comparison is like for like: checked every run), runs alternated
(plain, lookup, then lookup, plain, ...) so that a machine whose speed drifts affects both alike; the median
of the repetitions. tok/s is the engine's own: tokens / time from the prompt's end to the last token.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from logitscope.host.client import EngineClient
from logitscope.protocol.api import DRAFT_LOOKUP, ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS

TEXT = ("The quick brown fox jumps over the lazy dog. It was a sunny day in the small village of Millbrook, "
        "where everyone knew each other by name. The baker opened his shop at six every morning, and the smell "
        "of fresh bread filled the streets. Children walked to school along the river, and the old clock on the "
        "town hall struck eight as they passed. In the evening, the square filled with music and laughter.")
PROMPTS = {
    "edit this text": "Rewrite this text, replacing 'fox' with 'cat' and keeping everything else exactly the "
                      "same:\n\n" + TEXT,
    "free writing": "Write a short story about a robot who learns to paint.",
}
FREE_WRITING_FLOOR = 0.95   # lookup may cost free writing at most 5 % (the bound)


def _run(client: EngineClient, prompt: str, n_tokens: int, draft: str, draft_max: int) -> tuple[float, Any]:
    client.reset()
    request = GenerateRequest(messages=[ChatMessage("user", prompt)], settings=PRESETS["Greedy"],
                              options=DecodeOptions(max_tokens=n_tokens, draft=draft, draft_max=draft_max))
    result = client.generate(request)
    return result.timings.gen_tps, result


def run_speculative_bench(model: Path, args: argparse.Namespace) -> int:
    settings = LoadSettings(n_ctx=2048, n_threads=args.threads, flash_attn=True)
    rows: dict[str, dict[str, Any]] = {}
    with EngineClient() as client:
        client.load(str(model), settings)
        _run(client, "Hello", 8, DRAFT_LOOKUP, args.draft_max)  # warm-up: caches, first allocations
        for name, prompt in PROMPTS.items():
            tps: dict[str, list[float]] = {"plain": [], "lookup": []}
            same, stats = True, []
            for rep in range(args.reps):
                order = ("plain", "lookup") if rep % 2 == 0 else ("lookup", "plain")
                results = {}
                for mode in order:
                    speed, results[mode] = _run(client, prompt, args.tokens, DRAFT_LOOKUP if mode == "lookup" else "",
                                                args.draft_max)
                    tps[mode].append(speed)
                same = same and results["plain"].tokens == results["lookup"].tokens
                stats.append(results["lookup"].speculative)
            plain, lookup = statistics.median(tps["plain"]), statistics.median(tps["lookup"])
            rows[name] = {"plain_tps": round(plain, 2), "lookup_tps": round(lookup, 2),
                          "speedup": round(lookup / plain, 3) if plain else 0.0,
                          "acceptance": round(statistics.median(s.acceptance for s in stats), 3),
                          "tokens_per_evaluation": round(statistics.median(s.tokens_per_evaluation for s in stats), 3),
                          "identical": same, "runs_plain": [round(x, 2) for x in tps["plain"]],
                          "runs_lookup": [round(x, 2) for x in tps["lookup"]]}
    free_ok = rows["free writing"]["speedup"] >= FREE_WRITING_FLOOR
    if args.json:
        print(json.dumps({"tokens": args.tokens, "reps": args.reps, "draft_max": args.draft_max, "prompts": rows,
                          "free_writing_within_5_percent": free_ok}))
    else:
        print(f"speculative decoding, prompt lookup (up to {args.draft_max} drafts), greedy, {args.tokens} tokens, "
              f"median of {args.reps} alternated runs, flash attention on")
        print(f"{'prompt':<16} {'plain tok/s':>11} {'lookup tok/s':>12} {'speed-up':>9} {'accepted':>9} "
              f"{'tok/eval':>9}  identical")
        for name, r in rows.items():
            print(f"{name:<16} {r['plain_tps']:>11.1f} {r['lookup_tps']:>12.1f} {r['speedup']:>8.2f}x "
                  f"{r['acceptance']:>8.0%} {r['tokens_per_evaluation']:>9.2f}  {'yes' if r['identical'] else 'NO'}")
        print(f"free writing within 5 % of plain: {'yes' if free_ok else 'NO'}")
    return 0 if all(r["identical"] for r in rows.values()) else 1
