"""One answer read by two engines: what crosses the process boundary (engine/forced_compare.py computes it).

Engine A writes its next-token distributions for the positions that predict an answer's tokens
(`save_distributions`), in llama.cpp's quantized row format (protocol/kld.py: per row two float32, then every
token's log-probability in 16 bits), to a temporary .npy file; engine B reads the same token ids and compares
its own distributions with A's rows (`compare_distributions`): per answer token KL(A || B) as llama-perplexity
sums it, Δp of A's token, whether both top-1 tokens agree, and both sides' best tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.kld import BASE_TOP_N, KlTokens

MAX_FORCED_TOKENS = 4096    # answer tokens compared at most (each row is the whole vocabulary in the file)


def check_span(tokens: list[int], first: int) -> None:
    """`tokens[first:]` is the part compared: at least one token before it and one in it."""
    if not 1 <= first < len(tokens):
        raise InvalidSettingsError("comparing distributions needs at least one token before the compared ones "
                                   "and one compared token (first {first}, {n} tokens)", first=first, n=len(tokens))
    if len(tokens) - first > MAX_FORCED_TOKENS:
        raise InvalidSettingsError("at most {limit} tokens can be compared at once, not {n}",
                                   limit=MAX_FORCED_TOKENS, n=len(tokens) - first)


@dataclass
class ForcedKl(KlTokens):
    """KlTokens of the compared tokens (index 0 = tokens[first]); the base is A (its rows from the file: its
    best tokens are base_top_*), the compared model B, whose own best tokens are top_ids / top_logprobs."""

    top_ids: np.ndarray         # [n, BASE_TOP_N] int32, B's best tokens, best first
    top_logprobs: np.ndarray    # float32, their log-probabilities under B

    @classmethod
    def empty(cls, n: int) -> ForcedKl:
        base = KlTokens.empty(n)
        return cls(**{f.name: getattr(base, f.name) for f in fields(KlTokens)},
                   top_ids=np.zeros((n, BASE_TOP_N), dtype=np.int32),
                   top_logprobs=np.zeros((n, BASE_TOP_N), dtype=np.float32))


@dataclass(frozen=True)
class ForcedSummary:
    n: int                      # tokens compared
    mean_kld: float
    max_kld: float
    same_top: float             # fraction of tokens whose top-1 both models agree on
    mean_p_diff: float          # mean Δp = p_B(token) - p_A(token)
    first_divergence: int       # index of the first token where B's top-1 differs from A's (-1: none)


def summarize(kl: KlTokens) -> ForcedSummary:
    scored = np.asarray(kl.scored, dtype=bool)
    n = int(scored.sum())
    if n == 0:
        return ForcedSummary(0, 0.0, 0.0, 1.0, 0.0, -1)
    kld = np.asarray(kl.kld, dtype=np.float64)[scored]
    differ = np.flatnonzero(scored & ~np.asarray(kl.same_top, dtype=bool))
    return ForcedSummary(n, float(kld.mean()), float(kld.max()), float(np.asarray(kl.same_top)[scored].mean()),
                         float(np.asarray(kl.p_diff, dtype=np.float64)[scored].mean()),
                         int(differ[0]) if len(differ) else -1)
