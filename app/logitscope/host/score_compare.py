"""Scoring a text with a second model, caller's side, shared by
`logitscope score --compare` and the window's Score dialog: the second model runs in an engine process of its
own, reads exactly the token ids the first model read, and must share its vocabulary (a token-by-token
comparison of two vocabularies has no common unit: one clear error instead)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from logitscope.base.errors import InvalidSettingsError
from logitscope.gguf.card import ModelCard
from logitscope.host.client import EngineClient
from logitscope.protocol.api import LoadSettings, ModelInfo
from logitscope.protocol.score import ScoreRequest, ScoreResult

LOAD_CTX = 256  # the generation context a scoring engine loads with: scoring makes a context of its own


def scoring_settings(n_gpu_layers: int = 0, n_threads: int = 0, flash_attn: bool = False) -> LoadSettings:
    """How an engine that only scores loads its model."""
    return LoadSettings(n_ctx=LOAD_CTX, n_gpu_layers=n_gpu_layers, n_threads=n_threads, flash_attn=flash_attn)


def same_tokens(first: ScoreResult, request: ScoreRequest) -> ScoreRequest:
    """The second model's request: the token ids the first model read (BOS included), the same protocol."""
    return ScoreRequest(tokens=tuple(t.token for t in first.tokens), n_ctx=request.n_ctx, mode=request.mode,
                        top=request.top, flash_attn=request.flash_attn)


def check_vocabulary_sizes(base: ModelCard, other: ModelCard) -> None:
    """Before anything is evaluated: two vocabularies of different sizes cannot be one (the CLI once refused them
    only after the base model had scored the whole text). Same-sized ones are compared token by token when the
    other model loads (check_same_vocabulary)."""
    if base.n_vocab != other.n_vocab:
        raise InvalidSettingsError(
            "{path_name} has another vocabulary ({n_other:,} tokens, {n_base:,} in {base_name}): "
            "a token-by-token comparison needs models that share one", path_name=Path(other.path).name,
            n_other=other.n_vocab, n_base=base.n_vocab, base_name=Path(base.path).name)


def check_same_vocabulary(own: list[bytes], vocab: list[bytes], path: Path) -> None:
    if own == vocab:
        return
    differ = next((i for i, (a, b) in enumerate(zip(own, vocab, strict=False)) if a != b), min(len(own), len(vocab)))
    raise InvalidSettingsError(
        "{path_name} has another vocabulary ({n_other:,} tokens, the first difference at token {token}): "
        "a token-by-token comparison needs models that share one", path_name=path.name, n_other=len(own),
        token=differ)


def load_for_scoring(client: EngineClient, path: Path, settings: LoadSettings, vocab: list[bytes] | None = None,
                     on_progress: Callable[[float], None] | None = None) -> tuple[ModelInfo, list[bytes]]:
    """Load `path` in `client`'s engine process; with `vocab` (the first model's), refuse another vocabulary."""
    info = client.load(str(path), settings, on_progress=on_progress)
    own = client.vocab()
    if vocab is not None:
        check_same_vocabulary(own, vocab, path)
    return info, own
