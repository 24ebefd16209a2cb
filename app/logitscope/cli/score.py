"""`logitscope score FILE|--text TEXT`: how surprised the model is by every token of a text.

Per-token records (the trace's keys where they apply) and a summary line: tokens, perplexity, bits per token,
GLTR rank buckets. `--chunks` follows llama-perplexity's protocol and prints its "Final estimate" line;
`--compare OTHER.gguf` scores the same token ids with a second model (its own engine process, after the first
has finished) and prints each token's surprisal difference and both perplexities. The steering flags
(`--control-vector-scaled`, `--lora-scaled`, …) score the text steered; with `--compare-steering` it is scored
twice in one engine, without them (A) and with them (B): what the vector or the fine-tune changed, token by token.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from pathlib import Path
from typing import Any

from logitscope.base.errors import InvalidSettingsError
from logitscope.cli.common import Subparsers, add_model_argument, stop_signals
from logitscope.cli.option_names import LOAD_FLAGS
from logitscope.cli.score_common import fmt as _fmt
from logitscope.cli.score_common import read_text, summary_line
from logitscope.cli.score_kl import add_kl_arguments, run_kl, wants_kl
from logitscope.cli.steering_options import add_steering_arguments, steering_from_args, steering_line
from logitscope.protocol.score import (
    DEFAULT_SCORE_CTX,
    SCORE_TOP_N,
    ScoredToken,
    ScoreRequest,
    ScoreResult,
    summary_to_json,
    token_to_json,
)


def register(sub: Subparsers) -> None:
    p = sub.add_parser("score", help="score a text: every token's probability, rank and surprisal, the perplexity")
    add_model_argument(p)
    p.add_argument("file", nargs="?", metavar="FILE", help="a UTF-8 text file")
    p.add_argument("--text", help="the text itself (instead of FILE)")
    p.add_argument(LOAD_FLAGS["n_ctx"], type=int, default=DEFAULT_SCORE_CTX,
                   help="the scoring window (with --chunks: the chunk size) in tokens; default %(default)s")
    p.add_argument("--chunks", action="store_true",
                   help="llama-perplexity's protocol: n_ctx-token chunks, the second half of each scored")
    p.add_argument("--top", type=int, default=3, metavar="N",
                   help=f"alternatives shown per token (JSON: at least {SCORE_TOP_N}); default %(default)s")
    p.add_argument("--json", action="store_true", help="JSON Lines: one object per token, then a summary")
    p.add_argument("--compare", metavar="OTHER.gguf", help="score the same tokens with a second model")
    p.add_argument(LOAD_FLAGS["n_threads"], type=int, default=0, help="CPU threads (0 = all cores)")
    p.add_argument(LOAD_FLAGS["n_gpu_layers"], type=int, default=0, help="layers to offload to the GPU (-1 = all)")
    p.add_argument("--flash-attn", action="store_true", help="flash attention (llama-perplexity's default on CPU)")
    p.add_argument("--compare-steering", action="store_true",
                   help="score the same tokens without the steering flags (A) and with them (B)")
    add_steering_arguments(p)
    add_kl_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from logitscope.cli.common import CtrlC, resolve_model, say_stopped
    from logitscope.gguf.card import read_model_card
    from logitscope.host.client import CancelledError, EngineClient
    from logitscope.host.score_compare import check_vocabulary_sizes, same_tokens, scoring_settings

    if args.top < 0:
        raise InvalidSettingsError("--top must be >= 0")
    steering = steering_from_args(args)
    if wants_kl(args):
        return run_kl(args, steering)
    text = read_text(args)
    top = max(args.top, SCORE_TOP_N) if args.json else args.top
    if args.compare_steering and steering is None:
        raise InvalidSettingsError("--compare-steering needs a steering flag (--control-vector, "
                                   "--control-vector-scaled, --lora or --lora-scaled)")
    if args.compare is not None and steering is not None:
        raise InvalidSettingsError("the steering flags go with one model: use --compare-steering, not --compare")
    request = ScoreRequest(text=text, n_ctx=args.n_ctx, mode="chunks" if args.chunks else "window", top=min(top, 128),
                           flash_attn=args.flash_attn, steering=None if args.compare_steering else steering)
    request.validate(LOAD_FLAGS)
    settings = scoring_settings(args.n_gpu_layers, args.threads, args.flash_attn)
    settings.validate(LOAD_FLAGS)
    path = resolve_model(args.model)
    card = read_model_card(path)  # bad files fail here, before an engine starts
    other_path = Path(args.compare).expanduser() if args.compare else None
    if other_path is not None:
        check_vocabulary_sizes(card, read_model_card(other_path))   # before the first model scores the whole text
    labels = (path.name, other_path.name if other_path is not None else "")
    try:
        if args.compare_steering:
            (result, other), vocab = _score_with(EngineClient(), path, settings, request, CtrlC,
                                                 progress=not args.json, then_steered=steering)
            labels = ("unsteered", "steered")
        else:
            (result, other), vocab = _score_with(EngineClient(), path, settings, request, CtrlC,
                                                 progress=not args.json)
        if other_path is not None:
            (other, _unused), _ = _score_with(EngineClient(), other_path, settings, same_tokens(result, request),
                                              CtrlC, progress=not args.json, vocab=vocab)
    except CancelledError:
        return say_stopped()
    _print(args, result, vocab, other, labels)
    return 0


def _score_with(client: Any, path: Path, settings: Any, request: ScoreRequest, ctrl_c_type: Any, progress: bool,
                vocab: list[bytes] | None = None, then_steered: Any = None,
                ) -> tuple[tuple[ScoreResult, ScoreResult | None], list[bytes]]:
    """Load `path` in its own engine process, check its vocabulary against `vocab` (a comparison), score; with
    `then_steered` (a Steering) score the same tokens again in the same engine, steered so."""
    from dataclasses import replace

    from logitscope.host.score_compare import load_for_scoring, same_tokens

    with contextlib.closing(client):
        info, own = load_for_scoring(client, path, settings, vocab)
        for notice in info.notices:
            print(f"warning: {notice}", file=sys.stderr)
        stopping = stop_signals(ctrl_c_type(client))
        shown = [-1]

        def on_progress(fraction: float) -> None:
            percent = int(fraction * 100)
            if progress and sys.stderr.isatty() and percent != shown[0]:
                print(f"\rscoring with {path.name}: {percent}%", end="", file=sys.stderr, flush=True)
                shown[0] = percent

        try:
            with stopping:
                result: ScoreResult = client.score(request, on_progress=on_progress)
                steered: ScoreResult | None = None
                if then_steered is not None:
                    shown[0] = -1
                    steered = client.score(replace(same_tokens(result, request), steering=then_steered),
                                           on_progress=on_progress)
        finally:
            if shown[0] >= 0:
                print("", file=sys.stderr)
        for notice in result.notices:
            print(f"warning: {notice}", file=sys.stderr)
        return (result, steered), own


def _line(t: ScoredToken, vocab: list[bytes], top: int, other: ScoredToken | None) -> str:
    from logitscope.protocol.trace import piece_text

    if not t.scored:
        return f"{t.i:>6} {piece_text(t.piece)!r:<18} (not scored)"
    alts = ", ".join(f"{piece_text(vocab[int(a)])!r} {math.exp(float(lp)):.3f}"
                     for a, lp in zip(t.top_ids[:top], t.top_logprobs[:top], strict=True))
    line = (f"{t.i:>6} {piece_text(t.piece)!r:<18} {t.logprob:>9.4f} {t.bits:>7.3f} {t.p:>7.4f} {t.rank:>7} "
            f"{t.entropy:>7.3f}")
    if other is not None:
        line += f" {_fmt(other.bits, '>7.3f')} {_fmt(other.bits - t.bits, '>+8.3f')}"
    return line + (f"  {alts}" if alts else "")


def _print(args: argparse.Namespace, r: ScoreResult, vocab: list[bytes], other: ScoreResult | None,
           labels: tuple[str, str]) -> None:
    """`labels`: what A and B are (the models' file names, or unsteered / steered)."""
    from logitscope.protocol.trace import dumps

    out = sys.stdout
    pairs = zip(r.tokens, other.tokens if other is not None else [None] * len(r.tokens), strict=True)
    if args.json:
        for t, o in pairs:
            record = token_to_json(t, vocab)
            if o is not None:
                record["compare"] = {"logprob": round(o.logprob, 6) if o.scored else None,
                                     "bits": round(o.bits, 5) if o.scored else None,
                                     "bits_diff": round(o.bits - t.bits, 5) if o.scored and t.scored else None}
            out.write(dumps(record) + "\n")
        summary = summary_to_json(r) | {"model": labels[0], "steering": r.steering}
        if other is not None:
            summary["compare"] = summary_to_json(other) | {"model": labels[1], "steering": other.steering}
        out.write(dumps(summary) + "\n")
        return
    head = f"{'i':>6} {'token':<18} {'logprob':>9} {'bits':>7} {'p':>7} {'rank':>7} {'entropy':>7}"
    if other is not None:
        head += f" {'bits B':>7} {'B - A':>8}"
    print(head + (f"  top {args.top}" if args.top else ""), file=out)
    for t, o in pairs:
        print(_line(t, vocab, args.top, o), file=out)
    label = f"{labels[0]}: " if other is not None else ""
    print(label + summary_line(r), file=out)
    for result in (r, other):
        if result is not None and result.steering is not None:
            print(steering_line(result.steering), file=sys.stderr)
    if r.mode == "chunks":
        print(f"Final estimate: PPL = {r.perplexity:.4f} +/- {_fmt(r.perplexity_error, '.5f')}", file=out)
    if other is not None:
        print(f"{labels[1]}: " + summary_line(other), file=out)
        ratio = other.perplexity / r.perplexity if r.perplexity > 0 else math.nan
        print(f"perplexity A {r.perplexity:.4f} vs B {other.perplexity:.4f} (B/A {_fmt(ratio, '.3f')}); "
              f"bits per token B - A {other.bits_per_token - r.bits_per_token:+.4f}", file=out)

