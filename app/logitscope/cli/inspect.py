"""`logitscope inspect`: generate greedily up to step N, then show inside the forward pass of that step.

Text: a table of the layers (the logit lens: the top 3 tokens after each layer, the rank and probability of
the token finally chosen, the entropy, the residual norm) and, per layer, the context tokens the step looks
at most (mean over heads). `--json`: one object (INSPECT_SCHEMA_VERSION):

  {"schema": 1, "model": file name, "step": N, "token": id, "text": the token's text,
   "context": [{"position", "token", "text"}, ...]          the tokens the step was predicted from,
   "lens": null | {"layers": [{"layer": "embd" | "0" | ..., "top": [{"token", "text", "p"}, ...10],
             "chosen_rank", "chosen_p", "entropy", "resid_norm", "attn_norm", "ffn_norm"}, ...]},
   "attention": null | {"position", "kv_head_of": [kv head per query head], "window": [int | null per layer],
                 "weights": [layer][head][position] (rounded to 5 decimals)},
   "unavailable": {view: why}, "seconds": engine time, "context_bytes": memory of the inspection context,
   "steering": null | the control vectors and LoRA adapters applied (the trace's done-line record)}

"attn_norm" / "ffn_norm" are null for the embeddings row and where unknown.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from logitscope.base.errors import InvalidSettingsError, LogitscopeError
from logitscope.cli.causal import add_ablation_arguments, parsed_ablations, run_on_step, wants_causal
from logitscope.cli.common import Subparsers, add_load_arguments, add_model_argument
from logitscope.cli.steering_options import add_steering_arguments, steering_from_args, steering_line
from logitscope.protocol.causal import Ablation
from logitscope.protocol.forward import ForwardInspection, InspectRequest
from logitscope.protocol.steering import Steering
from logitscope.protocol.trace import dumps, piece_text

if TYPE_CHECKING:
    from logitscope.host.client import EngineClient

INSPECT_SCHEMA_VERSION = 1
TABLE_TOP = 3       # tokens per layer in the text table
ATTENDED_TOP = 3    # most attended context tokens per layer in the text output


def add_inspect_arguments(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--prompt", help="raw text, tokenized as llama.cpp does for this model")
    src.add_argument("--chat", help="one user turn, wrapped in the model's chat template")
    src.add_argument("--history", metavar="CONV[:TURN]",
                     help="a past answer from the history: conversation CONV (as `logitscope history list` shows "
                          "it), its question TURN from 1 (default: the last answered), on the model that wrote it, "
                          "steered and knocked out as it was")
    p.add_argument("--system", help="system prompt (with --chat)")
    p.add_argument("--step", type=int, default=0, metavar="N",
                   help="the answer's token to inspect, from 0 (the answer is generated greedily up to it, or "
                        "read from the history)")
    p.add_argument("--layers", action="store_true", help="the logit lens (default: both views)")
    p.add_argument("--attention", action="store_true", help="the attention weights (default: both views)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout (documented in the README)")


def run(args: argparse.Namespace) -> int:
    from logitscope.cli.common import load_settings
    from logitscope.gguf.card import read_model_card
    from logitscope.host.client import EngineClient

    if args.step < 0:
        raise InvalidSettingsError("--step must be >= 0, not {step}", step=args.step)
    if args.system and args.chat is None:
        raise InvalidSettingsError("--system needs --chat")
    causal = wants_causal(args)
    parsed_ablations(args)  # a bad --ablate is refused before an engine starts
    source = _past_source(args) if args.history is not None else _greedy_source(args)
    settings = load_settings(args)
    read_model_card(source.path)  # bad files fail here, before an engine starts
    both = not (args.layers or args.attention)
    with contextlib.closing(EngineClient()) as client:
        client.load(str(source.path), settings)
        prompt, answer = source.tokens(client)
        if len(answer) <= args.step:
            raise LogitscopeError("step {step} is past the answer, which has {n} tokens (steps 0 to {last})",
                                  step=args.step, n=len(answer), last=len(answer) - 1)
        chosen = answer[args.step]
        context = tuple(prompt + answer[:args.step])
        if causal:   # knocked out instead of the lens and attention (cli/causal.py)
            if source.knockouts:
                print(f"note: this answer was written with {', '.join(a.label for a in source.knockouts)} knocked "
                      "out; what is knocked out here is measured on the model without them", file=sys.stderr)
            return run_on_step(client, args, context, chosen, client.vocab(), source.path.name, source.steering)
        inspection = client.inspect(InspectRequest(context, chosen=chosen, lens=both or args.layers,
                                                   attention=both or args.attention, steering=source.steering,
                                                   knockouts=source.knockouts, n_prompt=len(prompt)))
        vocab = client.vocab()
    if args.json:
        print(dumps(inspection_to_json(inspection, args.step, chosen, vocab, source.path.name)))   # NaN: null
    else:
        print_inspection(inspection, args.step, chosen, vocab)
    return 0


@dataclass(frozen=True)
class _Source:
    """Where the inspected answer comes from: the model file, how it is steered and knocked out, and (asked of
    the loaded engine) the prompt's tokens and the answer's."""

    path: Path
    steering: Steering | None
    knockouts: tuple[Ablation, ...]
    tokens: Callable[[EngineClient], tuple[list[int], list[int]]]


def _greedy_source(args: argparse.Namespace) -> _Source:
    """--prompt / --chat: the answer generated greedily up to the step."""
    from logitscope.cli.common import resolve_model
    from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
    from logitscope.protocol.sampler_settings import SamplerSettings

    request = GenerateRequest(prompt=args.prompt,
                              messages=[ChatMessage("user", args.chat)] if args.chat is not None else None,
                              system=args.system, settings=SamplerSettings(temperature=0.0),
                              options=DecodeOptions(max_tokens=args.step + 1), steering=steering_from_args(args))
    request.validate()

    def tokens(client: EngineClient) -> tuple[list[int], list[int]]:
        assert client.info is not None
        room = client.info.n_ctx - len(client.prompt_tokens(request))   # refused now, not after the whole answer
        if args.step >= room:
            raise InvalidSettingsError("step {step} cannot be reached: the context holds {n_ctx} tokens and the "
                                       "prompt takes {n_prompt}, so the answer ends by step {last} (a larger "
                                       "--n-ctx makes room)", step=args.step, n_ctx=client.info.n_ctx,
                                       n_prompt=client.info.n_ctx - room, last=max(room - 1, 0))
        result = client.generate(request)
        return result.prompt_tokens, result.tokens

    return _Source(resolve_model(args.model), request.steering, (), tokens)


def _past_source(args: argparse.Namespace) -> _Source:
    """--history: a stored answer, its prompt rebuilt through the chat template (cli/history_step.py)."""
    from logitscope.cli.history_step import load_past_answer, model_of
    from logitscope.protocol.api import GenerateRequest
    from logitscope.protocol.steering import knockouts_from_record, steering_from_record

    if steering_from_args(args) is not None:
        raise InvalidSettingsError("--history inspects the answer steered as it was (its trace says how): leave "
                                   "out the steering options")
    past = load_past_answer(args.history)
    path = model_of(past, args.model)
    request = GenerateRequest(messages=past.messages, system=past.system)

    def tokens(client: EngineClient) -> tuple[list[int], list[int]]:
        return client.prompt_tokens(request), past.tokens

    knockouts = tuple(Ablation.parse(label) for label in knockouts_from_record(past.steering))
    return _Source(path, steering_from_record(past.steering), knockouts, tokens)


def inspection_to_json(inspection: ForwardInspection, step: int, chosen: int, vocab: list[bytes],
                       model: str) -> dict[str, Any]:
    def text(token: int) -> str:
        return piece_text(vocab[token])

    out: dict[str, Any] = {
        "schema": INSPECT_SCHEMA_VERSION, "model": model, "step": step, "token": chosen, "text": text(chosen),
        "context": [{"position": i, "token": t, "text": text(t)} for i, t in enumerate(inspection.tokens)],
        "lens": None, "attention": None, "unavailable": dict(inspection.unavailable),
        "seconds": round(inspection.seconds, 4), "context_bytes": inspection.context_bytes,
        "steering": inspection.steering}
    lens = inspection.lens
    if lens is not None:
        out["lens"] = {"layers": [{
            "layer": name,
            "top": [{"token": int(t), "text": text(int(t)), "p": round(float(p), 6)}
                    for t, p in zip(lens.top_ids[row], lens.top_probs[row], strict=True)],
            "chosen_rank": int(lens.chosen_rank[row]), "chosen_p": round(float(lens.chosen_prob[row]), 6),
            "entropy": round(float(lens.entropy[row]), 5), "resid_norm": round(float(lens.resid_norm[row]), 4),
            "attn_norm": _number(lens.attn_norm[row - 1]) if row else None,
            "ffn_norm": _number(lens.ffn_norm[row - 1]) if row else None,
        } for row, name in enumerate(lens.layer_names)]}
    attention = inspection.attention
    if attention is not None:
        out["attention"] = {"position": attention.position, "kv_head_of": attention.kv_head_of,
                            "window": attention.window, "weights": np.round(attention.weights, 5).tolist()}
    return out


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(float(value), 4)


def print_inspection(inspection: ForwardInspection, step: int, chosen: int, vocab: list[bytes]) -> None:
    def show(token: int, width: int = 0) -> str:
        return f"{piece_text(vocab[token])!r:<{width}}"

    out = sys.stdout
    n = len(inspection.tokens)
    out.write(f"step {step}: {show(chosen)} (token {chosen}), predicted from {n} token{'s' if n != 1 else ''}; "
              f"{inspection.seconds * 1000:.0f} ms in the engine\n")
    if inspection.steering is not None:
        out.write(steering_line(inspection.steering) + "\n")
    lens = inspection.lens
    if lens is not None:
        out.write(f"\nlayers: the {TABLE_TOP} most likely next tokens after each layer (logit lens); "
                  f"rank and p of {show(chosen)}\n")
        out.write(f"{'layer':>5}  {'top ' + str(TABLE_TOP):<54} {'rank':>6} {'p':>7} {'entropy':>7} {'|resid|':>8}\n")
        for row, name in enumerate(lens.layer_names):
            tops = "  ".join(f"{show(int(t))} {p:.2f}" for t, p in
                             zip(lens.top_ids[row, :TABLE_TOP], lens.top_probs[row, :TABLE_TOP], strict=True))
            out.write(f"{name:>5}  {tops:<54} {int(lens.chosen_rank[row]):>6} {lens.chosen_prob[row]:>7.3f} "
                      f"{lens.entropy[row]:>7.2f} {lens.resid_norm[row]:>8.1f}\n")
    attention = inspection.attention
    if attention is not None:
        out.write(f"\nattention of position {attention.position} (mean over heads): the {ATTENDED_TOP} "
                  f"context tokens it looks at most\n")
        for layer, heads in enumerate(attention.weights):
            mean = heads.mean(axis=0)
            best = np.argsort(-mean, kind="stable")[:ATTENDED_TOP]
            window = attention.window[layer]
            cells = "  ".join(f"{show(inspection.tokens[int(i)])}@{int(i)} {mean[int(i)]:.2f}" for i in best)
            note = f"  (window {window})" if window else ""
            out.write(f"{layer:>5}  {cells}{note}\n")
    for view, why in inspection.unavailable.items():
        print(f"note: {view}: {why}", file=sys.stderr)


def register(sub: Subparsers) -> None:
    p = sub.add_parser("inspect", help="inside the forward pass of one step: the logit lens and attention")
    add_model_argument(p)
    add_inspect_arguments(p)
    add_load_arguments(p)
    add_steering_arguments(p)
    add_ablation_arguments(p)
    p.set_defaults(run=run)
