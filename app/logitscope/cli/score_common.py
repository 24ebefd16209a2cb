"""What `logitscope score` and its KL-divergence mode (cli/score_kl.py) share: reading the text, the summary line."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.utf8 import read_text_file
from logitscope.protocol.score import ScoreResult


def read_text(args: argparse.Namespace) -> str:
    if (args.file is None) == (args.text is None):
        raise InvalidSettingsError("give the text to score as FILE or with --text (one of them)")
    if args.text is not None:
        return str(args.text)
    return read_text_file(Path(args.file))


def fmt(x: float, spec: str) -> str:
    return "-" if not math.isfinite(x) else format(x, spec)


def summary_line(r: ScoreResult) -> str:
    b = r.rank_buckets()
    protocol = (f"{r.n_passes} chunks of {r.n_ctx} (llama-perplexity's protocol)" if r.mode == "chunks" else
                f"window {r.n_ctx} (stride {r.stride}), {r.n_passes} pass{'es' if r.n_passes != 1 else ''}")
    return (f"{len(r.tokens)} tokens, {r.n_scored} scored: perplexity {fmt(r.perplexity, '.4f')}, "
            f"{fmt(r.bits_per_token, '.4f')} bits per token, ranks top10 {b['top10']} / top100 {b['top100']} / "
            f"top1000 {b['top1000']} / beyond {b['beyond']}; {protocol}; {r.tokens_per_s:.0f} tok/s")
