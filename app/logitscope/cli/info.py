"""`logitscope info`: the model card and the KV-cache memory table, without loading any weights."""

from __future__ import annotations

import argparse
import json
import sys

from logitscope.cli.common import (
    Subparsers,
    add_model_argument,
    resolve_model,
)


def run(args: argparse.Namespace) -> int:
    """The card; for a damaged file (its header reads, but llama.cpp cannot load it) the card as read plus
    its problems (`problems` in --json, where `kv_cache_bytes` is then null), and exit code 2."""
    from logitscope.gguf.card import damaged_error, read_model_card_with_problems
    from logitscope.gguf.memory import KV_CACHE_TYPES, format_bytes, kv_cache_bytes

    card = read_model_card_with_problems(resolve_model(args.model))
    contexts = sorted({512, 2048, 4096, 8192, card.n_ctx_train} - {0})
    table = {} if card.problems else {n: {t: kv_cache_bytes(card, n, t, t) for t in KV_CACHE_TYPES}
                                      for n in contexts}
    if args.json:
        data = card.to_dict()
        data.pop("chat_template", None)
        data["kv_cache_bytes"] = {str(n): row for n, row in table.items()} if table else None
        print(json.dumps(data, indent=2))
        if card.problems:
            raise damaged_error(card)
        return 0
    mix = ", ".join(f"{q.type_name} {q.n_tensors} tensors ({q.bits_per_weight:.2f} bpw)" for q in card.quant_mix)
    rows = [
        ("name", card.name), ("file", f"{card.path} ({format_bytes(card.file_size)})"),
        ("architecture", card.architecture), ("parameters", f"{card.n_params:,}"),
        ("file type", f"{card.file_type} ({card.bits_per_weight:.2f} bits per weight on average)"),
        ("tensor types", mix), ("layers", card.n_layer),
        ("attention heads", f"{card.n_head} (KV heads {card.n_head_kv}, head dim {card.head_dim_k})"),
        ("embedding / FFN", f"{card.n_embd} / {card.n_ff}"),
        ("vocabulary", f"{card.n_vocab:,} tokens ({card.tokenizer_model})"),
        ("training context", f"{card.n_ctx_train:,} tokens"), ("BOS / EOS", f"{card.bos_id} / {card.eos_id}"),
        ("chat template", "yes" if card.has_chat_template else "no (a plain fallback is used)"),
    ]
    for key, value in rows:
        print(f"{key:>17}: {value}")
    if card.problems:
        print("\nDamaged: llama.cpp cannot load this file.")
        print("\n".join(f"  - {problem}" for problem in card.problems))
        sys.stdout.flush()
        raise damaged_error(card)
    print("\nKV cache (2 x layers x KV heads x head dim x bytes per element x tokens):")
    print(f"{'n_ctx':>8} " + " ".join(f"{t:>12}" for t in KV_CACHE_TYPES))
    for n, row in table.items():
        print(f"{n:>8} " + " ".join(f"{format_bytes(v):>12}" for v in row.values()))
    return 0


def register(sub: Subparsers) -> None:
    p = sub.add_parser("info", help="the model card and KV-cache memory table, without loading weights")
    add_model_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)
