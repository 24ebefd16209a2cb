"""`logitscope score --kl`, `--save-logits` and `--kl-base`: the KL divergence between two models' (or two
configurations') full next-token distributions, as `llama-perplexity --kl-divergence-base` then
`--kl-divergence` measure it (protocol/kld.py): llama.cpp's chunks, its base file, its running chunk lines and
its statistics block, to the last printed digit.

- `score FILE --chunks --n-ctx N --compare OTHER.gguf --kl`: the --model is the base, OTHER is compared with it;
  `--compare-kv-type T` / `--compare-flash-attn on|off` / the steering flags with `--compare-steering` compare
  the base model with itself in another configuration instead.
- `score FILE --chunks --n-ctx N --save-logits BASE.kld`: only the base's distributions, in llama.cpp's file
  (its size is said first, and refused when the disk cannot hold it); `--kl` with it keeps the file.
- `score --kl-base BASE.kld OTHER.gguf` (or `--model OTHER.gguf`): compare with a saved file, without loading the
  base model (the text is the file's tokens, n_ctx the file's).
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from logitscope.base.errors import InvalidSettingsError
from logitscope.cli.option_names import LOAD_FLAGS
from logitscope.cli.score_common import read_text, summary_line
from logitscope.protocol.kld import KldStats, kld_file_bytes
from logitscope.protocol.score import MIN_CHUNKS, ScoreRequest, ScoreResult, summary_to_json, token_to_json

if TYPE_CHECKING:
    from logitscope.gguf.card import ModelCard
    from logitscope.protocol.api import LoadSettings

CHUNK_HEADER = ("chunk             PPL               ln(PPL(Q)/PPL(base))          KL Divergence              "
                "Δp RMS            Same top p")


def add_kl_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kl", action="store_true",
                   help="with --compare (or --compare-kv-type, --compare-flash-attn, --compare-steering) and --chunks: "
                        "the KL divergence over the whole vocabulary, as llama-perplexity --kl-divergence")
    p.add_argument("--save-logits", metavar="BASE.kld",
                   help="write the model's distributions in llama-perplexity's --kl-divergence-base file (--chunks)")
    p.add_argument("--kl-base", metavar="BASE.kld",
                   help="compare the model (FILE or --model) with the distributions saved in BASE.kld")
    p.add_argument("--compare-kv-type", metavar="TYPE",
                   help="with --kl: compare with the same model, its K and V caches of TYPE (f16, q8_0, q4_0, ...)")
    p.add_argument("--compare-flash-attn", choices=("on", "off"),
                   help="with --kl: compare with the same model, flash attention on or off")


def wants_kl(args: argparse.Namespace) -> bool:
    return bool(args.kl or args.kl_base or args.save_logits or args.compare_kv_type or args.compare_flash_attn)


def _check(args: argparse.Namespace) -> None:
    configs = [args.compare is not None, args.compare_kv_type is not None, args.compare_flash_attn is not None,
               bool(args.compare_steering)]
    if (args.compare_kv_type or args.compare_flash_attn) and not args.kl:
        raise InvalidSettingsError("--compare-kv-type and --compare-flash-attn go with --kl")
    if args.kl and sum(configs) != 1:
        raise InvalidSettingsError("--kl compares the model with one other: give --compare OTHER.gguf, "
                                   "--compare-kv-type, --compare-flash-attn or --compare-steering (one of them)")
    if args.kl_base and (args.kl or args.save_logits or any(configs)):
        raise InvalidSettingsError("--kl-base compares one model with a saved file: give no other comparison")
    if (args.kl or args.save_logits) and not args.chunks:
        raise InvalidSettingsError("the KL divergence follows llama-perplexity's chunks: add --chunks")


def run_kl(args: argparse.Namespace, steering: Any) -> int:
    from logitscope.base.output_paths import check_output
    from logitscope.cli.common import resolve_model
    from logitscope.gguf.card import read_model_card
    from logitscope.host.client import CancelledError
    from logitscope.host.kl_job import TEMP_PREFIX
    from logitscope.host.score_compare import scoring_settings

    _check(args)
    settings = scoring_settings(args.n_gpu_layers, args.threads, args.flash_attn)
    settings.validate(LOAD_FLAGS)
    try:
        if args.kl_base:
            model = args.model
            if args.file is not None and args.file.endswith(".gguf") and model is None:
                model = args.file
            elif args.file is not None or args.text is not None:
                raise InvalidSettingsError("--kl-base scores the text the file was saved from: give only a model")
            path = resolve_model(model)
            read_model_card(path)
            request = ScoreRequest(mode="chunks", top=max(args.top, 10), flash_attn=args.flash_attn,
                                   kl_base=args.kl_base)
            result, vocab = _score(path, settings, request, None)
            _print_kl(args, None, result, vocab, (args.kl_base, path.name))
            return 0
        text = read_text(args)
        path = resolve_model(args.model)
        if args.save_logits:   # written as the chunks are scored: never over the model llama.cpp maps, or the text
            check_output(args.save_logits, (path, args.file, args.compare))
        card = read_model_card(path)
        target = _other(args, card, settings, steering) if args.kl else None   # refused before the base pass
        keep = args.save_logits
        folder = tempfile.mkdtemp(prefix=TEMP_PREFIX) if keep is None else None
        base_file = keep or str(Path(folder or ".") / "base.kld")
        try:
            request = ScoreRequest(text=text, n_ctx=args.n_ctx, mode="chunks", top=max(args.top, 10),
                                   flash_attn=args.flash_attn,
                                   steering=None if args.compare_steering else steering, save_logits=base_file)
            request.validate(LOAD_FLAGS)
            base, vocab = _score(path, settings, request, None, announce=True)
            if not args.kl:
                print(f"wrote {base_file}: the distributions of {base.n_scored} tokens "
                      f"({Path(base_file).stat().st_size:,} bytes)", file=sys.stderr)
                _print_kl(args, base, None, vocab, (path.name, ""))
                return 0
            assert target is not None
            other_path, other_settings, other_steering, label, flash = target
            other_request = ScoreRequest(mode="chunks", top=max(args.top, 10), flash_attn=flash,
                                         steering=other_steering, kl_base=base_file)
            other, _ = _score(other_path, other_settings, other_request, vocab)
            _print_kl(args, base, other, vocab, (path.name, label))
            return 0
        finally:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
    except CancelledError:
        print("error: interrupted", file=sys.stderr)
        return 130


def _other(args: argparse.Namespace, card: ModelCard, settings: LoadSettings,
           steering: Any) -> tuple[Path, LoadSettings, Any, str, bool]:
    """What the base (`card`) is compared with (model, load settings, steering, label, flash attention), checked
    before the base pass: a refused configuration or another vocabulary is said at once, not after the whole text."""
    from logitscope.gguf.card import read_model_card
    from logitscope.host.kl_job import other_configuration
    from logitscope.host.score_compare import check_vocabulary_sizes

    path = Path(card.path)
    if args.compare is not None:
        other_path = Path(args.compare).expanduser()
        check_vocabulary_sizes(card, read_model_card(other_path))
        return other_path, settings, None, other_path.name, args.flash_attn
    if args.compare_kv_type is not None:
        return (path, other_configuration(settings, kv_type=args.compare_kv_type), None,
                f"{path.name}, KV cache {args.compare_kv_type}", args.flash_attn)
    if args.compare_flash_attn is not None:
        flash = args.compare_flash_attn == "on"
        return (path, other_configuration(settings, flash_attn=flash), None,
                f"{path.name}, flash attention {args.compare_flash_attn}", flash)
    return path, settings, steering, f"{path.name}, steered", args.flash_attn


def _score(path: Path, settings: Any, request: ScoreRequest, vocab: list[bytes] | None,
           announce: bool = False) -> tuple[ScoreResult, list[bytes]]:
    """One model in its own engine process; with `announce`, the base file's size is said (and refused when
    the disk cannot hold it) before the text is evaluated."""
    from logitscope.cli.common import CtrlC
    from logitscope.host.client import EngineClient
    from logitscope.host.score_compare import load_for_scoring

    client = EngineClient()
    with contextlib.closing(client):
        info, own = load_for_scoring(client, path, settings, vocab)
        for notice in info.notices:
            print(f"warning: {notice}", file=sys.stderr)
        if announce and request.save_logits and request.text is not None:
            n_chunk = len(client.tokenize(request.text, True, False)) // request.n_ctx
            if n_chunk >= MIN_CHUNKS:   # a shorter text is refused by the engine next: no size said before that
                check_base_file_space(request.save_logits, kld_file_bytes(request.n_ctx, len(own), n_chunk))
        previous = signal.signal(signal.SIGINT, CtrlC(client))
        tty = sys.stderr.isatty()
        shown = [-1]

        def on_progress(fraction: float) -> None:
            percent = int(fraction * 100)
            if tty and percent != shown[0]:
                print(f"\rscoring with {path.name}: {percent}%", end="", file=sys.stderr, flush=True)
                shown[0] = percent

        try:
            result: ScoreResult = client.score(request, on_progress=on_progress)
        finally:
            signal.signal(signal.SIGINT, previous)
            if shown[0] >= 0:
                print("", file=sys.stderr)
        for notice in result.notices:
            print(f"warning: {notice}", file=sys.stderr)
        return result, own


def check_base_file_space(path: str, need: int) -> None:
    """Say the base file's size; refuse it when its folder cannot hold it."""
    from logitscope.gguf.memory import format_bytes

    folder = Path(path).expanduser().resolve().parent
    if not folder.is_dir():
        raise InvalidSettingsError("cannot write {path}: its folder does not exist", path=path)
    free = shutil.disk_usage(folder).free
    if need > free:
        raise InvalidSettingsError("the base distributions need {need} and {folder} has {free} free: use "
                                   "a smaller text, or another folder", need=format_bytes(need),
                                   folder=str(folder), free=format_bytes(free))
    print(f"the base distributions take {format_bytes(need)} ({need:,} bytes) in {path}", file=sys.stderr)


def _print_kl(args: argparse.Namespace, base: ScoreResult | None, other: ScoreResult | None, vocab: list[bytes],
              labels: tuple[str, str]) -> None:
    from logitscope.protocol.trace import dumps

    out = sys.stdout
    if other is None:   # only the base file was written
        assert base is not None
        if args.json:
            out.write(dumps(summary_to_json(base) | {"model": labels[0], "save_logits": args.save_logits}) + "\n")
        else:
            print(summary_line(base), file=out)
        return
    kl = other.kl
    assert kl is not None
    stats = KldStats.of(kl)
    if args.json:
        for t in other.tokens:
            record = token_to_json(t, vocab)
            if kl.scored[t.i]:
                record["kl"] = {"kld": round(float(kl.kld[t.i]), 7), "p_diff": round(float(kl.p_diff[t.i]), 7),
                                "same_top": bool(kl.same_top[t.i]), "nll_base": round(float(kl.nll_base[t.i]), 6)}
            out.write(dumps(record) + "\n")
        summary = summary_to_json(other) | {"model": labels[1], "base": labels[0], "kld": stats.to_json()}
        out.write(dumps(summary) + "\n")
        return
    print(CHUNK_HEADER, file=out)
    for chunk in range(other.n_passes):
        print(KldStats.of(kl, upto=(chunk + 1) * other.n_ctx).chunk_line(chunk + 1), file=out)
    print("", file=out)
    block = stats.statistics_block()
    if block:
        print("\n".join(block), file=out)
    else:
        print(f"({stats.count} tokens scored: llama-perplexity prints no statistics for fewer than 100)", file=out)
    print(f"base: {labels[0]}; compared: {labels[1]}; " + summary_line(other), file=sys.stderr)
