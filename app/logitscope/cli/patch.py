"""`logitscope patch --clean TEXT --corrupted TEXT`: activation patching (causal tracing, as in ROME): the clean
run's residual stream (or block outputs, `--kinds`) at each layer and position written into the corrupted run,
scored by the normalized logit difference of two answer tokens (cli/causal.py prints it)."""

from __future__ import annotations

import argparse
import contextlib
import sys

from logitscope.base.errors import InvalidSettingsError
from logitscope.cli.causal import (
    parse_kinds,
    patch_to_json,
    print_json,
    print_patch,
    progress_line,
    run_cancellable,
    token_text,
)
from logitscope.cli.common import Subparsers, add_load_arguments, add_model_argument
from logitscope.cli.steering_options import add_steering_arguments, steering_from_args


def run(args: argparse.Namespace) -> int:
    from logitscope.cli.common import load_settings, resolve_model
    from logitscope.gguf.card import read_model_card
    from logitscope.host.client import EngineClient
    from logitscope.protocol.causal import PatchRequest, answer_token

    kinds = parse_kinds(args.kinds)
    steering = steering_from_args(args)
    settings = load_settings(args)
    path = resolve_model(args.model)
    read_model_card(path)  # bad files fail here, before an engine starts
    with contextlib.closing(EngineClient()) as client:
        client.load(str(path), settings)
        vocab = client.vocab()
        clean = tuple(client.tokenize(args.clean, True, False))
        corrupted = tuple(client.tokenize(args.corrupted, True, False))
        if len(clean) != len(corrupted):
            def shown(tokens: tuple[int, ...]) -> str:
                return " ".join(token_text(t, vocab) for t in tokens)

            raise InvalidSettingsError(
                "the clean and the corrupted prompts must have the same number of tokens, here {clean} and "
                "{corrupted}: patching copies position P of one into position P of the other (clean: {a}; "
                "corrupted: {b})", clean=len(clean), corrupted=len(corrupted), a=shown(clean), b=shown(corrupted))
        def tokenize(text: str) -> list[int]:
            return client.tokenize(text, False, False)

        request = PatchRequest(clean, corrupted, answer=answer_token(tokenize, args.answer, len(vocab), "--answer"),
                               versus=answer_token(tokenize, args.versus, len(vocab), "--versus"), kinds=kinds,
                               steering=steering)
        with progress_line("cells patched") as on_progress:
            result = run_cancellable(client, lambda: client.patch(request, on_progress=on_progress))
    if result is None:
        print("error: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print_json(patch_to_json(result, clean, corrupted, vocab, path.name))
    else:
        print_patch(result, clean, corrupted, vocab)
    return 0


def register(sub: Subparsers) -> None:
    p = sub.add_parser("patch", help="activation patching: which layer and position carry the answer")
    add_model_argument(p)
    p.add_argument("--clean", required=True, help="the prompt whose answer is traced (raw text)")
    p.add_argument("--corrupted", required=True, help="the same prompt with the fact changed, as many tokens")
    p.add_argument("--answer", metavar="TOKEN", help="the clean answer's token (text or #ID; default: its top-1)")
    p.add_argument("--versus", metavar="TOKEN",
                   help="the token it is measured against (default: the corrupted run's top-1)")
    p.add_argument("--kinds", default="resid", metavar="resid,attn,ffn",
                   help="what is patched: the residual stream, the attention blocks' or the FFNs' outputs")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    add_load_arguments(p)
    add_steering_arguments(p)
    p.set_defaults(run=run)
