"""Causal tracing on the command line (protocol/causal.py has the definitions):

- `inspect ... --ablate 20.3 --ablate 21.attn [--ablate-mode zero|mean] [--ablate-positions 0,3]`: the inspected
  step with those heads and blocks knocked out together: both distributions side by side, KL(base || ablated),
  the chosen token's log-probability change, whether the top-1 changes (`--json`: ABLATE JSON below);
- `inspect ... --head-scan [--blocks] [--scan-layers 20-29]`: every head of every layer (or of those layers)
  knocked out alone (one evaluation each, progress on stderr, Ctrl+C stops), ranked by the drop of the chosen
  token, with the layers x heads grid (JSON: null rows for the layers left out);
- `patch --clean TEXT --corrupted TEXT [--answer T --versus T] [--kinds resid,attn,ffn]`: the heatmap of
  normalized logit differences, the strongest cells first, then the layers x positions grid.

JSON: {"schema": 1, "kind": "ablate" | "head_scan" | "patch", "model", ..., every token as {"token", "text"}}.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.causal import (
    ABLATE_MODES,
    PATCH_KINDS,
    AblateRequest,
    Ablation,
    AblationEffect,
    Distribution,
    HeadScan,
    HeadScanRequest,
    PatchResult,
)
from logitscope.protocol.trace import dumps, piece_text

if TYPE_CHECKING:
    from logitscope.host.client import EngineClient

CAUSAL_SCHEMA_VERSION = 1
SHOWN_TOP = 5        # tokens of each distribution in the text table
RANKED_ROWS = 20     # heads listed by a head scan
STRONGEST_CELLS = 12


def add_ablation_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("causal tracing (the inspected step, knocked out)")
    g.add_argument("--ablate", action="append", default=[], metavar="L.H|L.attn|L.ffn",
                   help="knock out head H of layer L (20.3) or a layer's attention or FFN block (21.attn); "
                        "repeatable: all together")
    g.add_argument("--head-scan", action="store_true",
                   help="knock out every head of every layer alone and rank them by their effect on the token")
    g.add_argument("--blocks", action="store_true", help="with --head-scan: every attention and FFN block too")
    g.add_argument("--scan-layers", metavar="FIRST-LAST",
                   help="with --head-scan: only the heads (and blocks) of these layers, e.g. 20-29 (default: every layer)")
    g.add_argument("--ablate-mode", choices=ABLATE_MODES, default="zero",
                   help="set what is knocked out to zero (default) or to its mean over the prompt's positions")
    g.add_argument("--ablate-positions", metavar="P,P,...",
                   help="knock out only at these positions of the context (default: every position)")


def wants_causal(args: argparse.Namespace) -> bool:
    if args.blocks and not args.head_scan:
        raise InvalidSettingsError("--blocks goes with --head-scan")
    if args.scan_layers is not None and not args.head_scan:
        raise InvalidSettingsError("--scan-layers goes with --head-scan")
    if args.ablate and args.head_scan:
        raise InvalidSettingsError("--ablate and --head-scan are two different runs: give one of them")
    extra = args.ablate_mode != "zero" or args.ablate_positions is not None
    if extra and not (args.ablate or args.head_scan):
        raise InvalidSettingsError("--ablate-mode and --ablate-positions go with --ablate or --head-scan")
    return bool(args.ablate or args.head_scan)


def parsed_ablations(args: argparse.Namespace) -> tuple[Ablation, ...]:
    """The --ablate values, checked before an engine starts ("a.b" is refused with the forms it takes)."""
    return tuple(Ablation.parse(text) for text in args.ablate)


def scan_layers_of(args: argparse.Namespace) -> tuple[int, int] | None:
    """--scan-layers 20-29 (or one layer: 23), checked against the model by the engine."""
    if args.scan_layers is None:
        return None
    first, _, last = args.scan_layers.partition("-")
    try:
        return int(first), int(last or first)
    except ValueError:
        raise InvalidSettingsError("--scan-layers takes a first and a last layer (20-29) or one layer (23), not "
                                   "{value!r}", value=args.scan_layers) from None


def positions_of(args: argparse.Namespace) -> tuple[int, ...] | None:
    if args.ablate_positions is None:
        return None
    try:
        return tuple(int(p) for p in args.ablate_positions.split(",") if p.strip())
    except ValueError:
        raise InvalidSettingsError("--ablate-positions takes positions separated by commas (0,3,5), not {value!r}",
                                   value=args.ablate_positions) from None


@contextlib.contextmanager
def progress_line(what: str) -> Iterator[Callable[[float], None]]:
    """A line on stderr that counts up (rewritten on a terminal, one line per 10 % otherwise)."""
    tty = sys.stderr.isatty()
    shown = [-1]

    def on_progress(fraction: float) -> None:
        percent = int(fraction * 100)
        if tty and percent != shown[0]:
            print(f"\r{what}: {percent} %", end="", file=sys.stderr, flush=True)
            shown[0] = percent
        elif not tty and percent // 10 != shown[0]:
            print(f"{what}: {percent} %", file=sys.stderr, flush=True)
            shown[0] = percent // 10

    try:
        yield on_progress
    finally:
        if tty and shown[0] >= 0:
            print("", file=sys.stderr)


def run_cancellable(client: EngineClient, call: Callable[[], Any]) -> Any:
    """`call()` with Ctrl+C asking the engine to stop; None when it was stopped."""
    from logitscope.cli.common import CtrlC
    from logitscope.host.client import CancelledError

    previous = signal.signal(signal.SIGINT, CtrlC(client))
    try:
        return call()
    except CancelledError:
        return None
    finally:
        signal.signal(signal.SIGINT, previous)


def run_on_step(client: EngineClient, args: argparse.Namespace, tokens: tuple[int, ...], chosen: int,
                vocab: list[bytes], model: str, steering: Any) -> int:
    """`inspect --ablate` / `--head-scan` on the step predicted from `tokens` (the token chosen there: `chosen`)."""
    positions = positions_of(args)
    if args.head_scan:
        request = HeadScanRequest(tokens, mode=args.ablate_mode, positions=positions, chosen=chosen,
                                  steering=steering, blocks=args.blocks, layers=scan_layers_of(args))
        with progress_line("heads knocked out") as on_progress:
            scan = run_cancellable(client, lambda: client.head_scan(request, on_progress=on_progress))
        if scan is None:
            print("error: interrupted", file=sys.stderr)
            return 130
        if args.json:
            print_json(scan_to_json(scan, vocab, model))
        else:
            print_scan(scan, vocab)
        return 0
    effect = client.ablate(AblateRequest(tokens, parsed_ablations(args), mode=args.ablate_mode, positions=positions,
                                         chosen=chosen, steering=steering))
    if args.json:
        print_json(effect_to_json(effect, vocab, model))
    else:
        print_effect(effect, vocab)
    return 0


# -- text ------------------------------------------------------------------------------------------------

def token_text(token: int, vocab: list[bytes]) -> str:
    return repr(piece_text(vocab[token])) if 0 <= token < len(vocab) else f"#{token}"


def print_effect(effect: AblationEffect, vocab: list[bytes]) -> None:
    out = sys.stdout
    out.write(f"knocked out ({effect.mode}): {', '.join(effect.ablations)}\n")
    out.write(f"KL(base || ablated) = {effect.kl:.6f} nats; {token_text(effect.chosen, vocab)}: log p "
              f"{effect.base.chosen_logprob:.4f} -> {effect.ablated.chosen_logprob:.4f} "
              f"({effect.delta_logprob:+.4f}), p {np.exp(effect.base.chosen_logprob):.4f} -> "
              f"{np.exp(effect.ablated.chosen_logprob):.4f}; top-1 "
              + (f"changes: {token_text(int(effect.base.top_ids[0]), vocab)} -> "
                 f"{token_text(int(effect.ablated.top_ids[0]), vocab)}" if effect.top1_changed else "unchanged")
              + "\n\n")
    out.write(f"{'rank':>4}  {'base':<28} {'ablated':<28}\n")
    for i in range(min(SHOWN_TOP, len(effect.base.top_ids))):
        cells = [f"{token_text(int(d.top_ids[i]), vocab):<18} {d.top_probs[i]:>8.4f}" for d in (effect.base,
                                                                                               effect.ablated)]
        out.write(f"{i + 1:>4}  {cells[0]:<28} {cells[1]:<28}\n")


def print_scan(scan: HeadScan, vocab: list[bytes]) -> None:
    out = sys.stdout
    base_top = int(scan.base.top_ids[0])
    n_head = scan.kl.shape[1]
    layers = scan.scanned
    out.write(f"{len(layers) * n_head} heads of layers {layers.start}-{layers.stop - 1} knocked out one at a time "
              f"({scan.mode}) in {scan.seconds:.1f} s; "
              f"{token_text(scan.chosen, vocab)} has p {np.exp(scan.base.chosen_logprob):.4f} "
              f"(top-1 {token_text(base_top, vocab)})\n\n")
    out.write(f"{'head':>6} {'Δ log p':>9} {'p after':>8} {'KL':>8}  top-1 after\n")
    for layer, head, kl, delta, changed in scan.ranked()[:RANKED_ROWS]:
        after = token_text(int(scan.top1[layer, head]), vocab) + (" (changed)" if changed else "")
        out.write(f"{layer:>3}.{head:<2} {delta:>+9.4f} {np.exp(scan.base.chosen_logprob + delta):>8.4f} "
                  f"{kl:>8.4f}  {after}\n")
    out.write("\nΔ log p of the token, layers (rows) x heads (columns):\n")
    out.write("layer " + "".join(f"{h:>7}" for h in range(n_head)) + "\n")
    for layer in layers:
        out.write(f"{layer:>5} " + "".join(f"{v:>+7.2f}" for v in scan.delta_logprob[layer]) + "\n")
    if scan.block_delta is not None and scan.block_kl is not None:
        out.write("\nblocks: layer, attn Δ log p (KL), ffn Δ log p (KL)\n")
        for layer in layers:
            out.write(f"{layer:>5}  {scan.block_delta[layer, 0]:>+8.4f} ({scan.block_kl[layer, 0]:.4f})  "
                      f"{scan.block_delta[layer, 1]:>+8.4f} ({scan.block_kl[layer, 1]:.4f})\n")


def print_patch(result: PatchResult, clean: tuple[int, ...], corrupted: tuple[int, ...], vocab: list[bytes]) -> None:
    out = sys.stdout
    out.write(f"answer {token_text(result.answer, vocab)} versus {token_text(result.versus, vocab)}: logit difference "
              f"{result.ld_clean:+.4f} clean, {result.ld_corrupted:+.4f} corrupted; score = (LD - LD corrupted) / "
              f"(LD clean - LD corrupted): 0 corrupted behaviour, 1 clean; {result.seconds:.1f} s\n")
    differ = [i for i, (a, b) in enumerate(zip(clean, corrupted, strict=True)) if a != b]
    out.write(f"the prompts differ at position{'s' if len(differ) != 1 else ''} "
              f"{', '.join(str(i) for i in differ) or 'none'}\n\nstrongest cells:\n")
    for kind, layer, position, score in result.strongest(STRONGEST_CELLS):
        out.write(f"  {kind:<5} layer {layer:>3}  position {position:>3} {token_text(clean[position], vocab):<16} "
                  f"{score:+.3f}\n")
    for kind, scores in result.scores.items():
        out.write(f"\n{kind}: layers (rows) x positions (columns: the clean prompt's tokens)\n")
        labels = [token_text(t, vocab)[:8] for t in clean]
        out.write("layer " + "".join(f"{label:>9}" for label in labels) + "\n")
        for layer in range(scores.shape[0]):
            out.write(f"{layer:>5} " + "".join(f"{v:>+9.2f}" for v in scores[layer]) + "\n")


# -- JSON ------------------------------------------------------------------------------------------------

def print_json(data: dict[str, Any]) -> None:
    """One line of strict JSON: a NaN (a model whose weights are NaN) is null, never a `NaN` no reader accepts."""
    print(dumps(data))


def _token(token: int, vocab: list[bytes]) -> dict[str, Any]:
    return {"token": int(token), "text": piece_text(vocab[token]) if 0 <= token < len(vocab) else None}


def _distribution(d: Distribution, vocab: list[bytes]) -> dict[str, Any]:
    return {"top": [{**_token(int(t), vocab), "p": round(float(p), 6)} for t, p in zip(d.top_ids, d.top_probs,
                                                                                        strict=True)],
            "chosen_logprob": d.chosen_logprob}


def effect_to_json(effect: AblationEffect, vocab: list[bytes], model: str) -> dict[str, Any]:
    return {"schema": CAUSAL_SCHEMA_VERSION, "kind": "ablate", "model": model, "ablations": effect.ablations,
            "mode": effect.mode, "chosen": _token(effect.chosen, vocab), "kl": effect.kl,
            "delta_logprob": effect.delta_logprob, "top1_changed": effect.top1_changed,
            "base": _distribution(effect.base, vocab), "ablated": _distribution(effect.ablated, vocab),
            "seconds": round(effect.seconds, 4), "steering": effect.steering}


def _rows(matrix: np.ndarray) -> list[list[Any] | None]:
    """One list per layer; a layer the scan left out (its row NaN, or -1 for top-1) is null: JSON has no NaN."""
    missing = np.isnan(matrix) if matrix.dtype.kind == "f" else np.less(matrix, 0)
    return [None if bool(missing[i].all()) else row for i, row in enumerate(matrix.tolist())]


def scan_to_json(scan: HeadScan, vocab: list[bytes], model: str) -> dict[str, Any]:
    out = {"schema": CAUSAL_SCHEMA_VERSION, "kind": "head_scan", "model": model, "mode": scan.mode,
           "chosen": _token(scan.chosen, vocab), "base": _distribution(scan.base, vocab),
           "layers": [scan.scanned.start, scan.scanned.stop - 1],
           "kl": _rows(scan.kl), "delta_logprob": _rows(scan.delta_logprob), "top1": _rows(scan.top1),
           "ranked": [{"layer": layer, "head": head, "kl": kl, "delta_logprob": delta, "top1_changed": changed}
                      for layer, head, kl, delta, changed in scan.ranked()],
           "seconds": round(scan.seconds, 3), "steering": scan.steering}
    if scan.block_kl is not None and scan.block_delta is not None and scan.block_top1 is not None:
        out["blocks"] = {"kl": _rows(scan.block_kl), "delta_logprob": _rows(scan.block_delta),
                         "top1": _rows(scan.block_top1), "columns": ["attn", "ffn"]}
    return out


def patch_to_json(result: PatchResult, clean: tuple[int, ...], corrupted: tuple[int, ...], vocab: list[bytes],
                  model: str) -> dict[str, Any]:
    return {"schema": CAUSAL_SCHEMA_VERSION, "kind": "patch", "model": model,
            "clean": [_token(t, vocab) for t in clean], "corrupted": [_token(t, vocab) for t in corrupted],
            "answer": _token(result.answer, vocab), "versus": _token(result.versus, vocab),
            "ld_clean": result.ld_clean, "ld_corrupted": result.ld_corrupted,
            "clean_distribution": _distribution(result.clean, vocab),
            "corrupted_distribution": _distribution(result.corrupted, vocab),
            "scores": {kind: s.tolist() for kind, s in result.scores.items()},
            "strongest": [{"kind": k, "layer": layer, "position": p, "score": s}
                          for k, layer, p, s in result.strongest(STRONGEST_CELLS)],
            "seconds": round(result.seconds, 3), "steering": result.steering}


def parse_kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    if not kinds or any(k not in PATCH_KINDS for k in kinds):
        raise InvalidSettingsError("--kinds takes {kinds} separated by commas, not {value!r}",
                                   kinds=", ".join(PATCH_KINDS), value=text)
    return kinds
