"""A KL divergence comparison made by hand (no model): the base's ScoreResult of a text in llama.cpp's chunks, the
compared model's of the chunks' tokens with its KlTokens, and their vocabulary — what host/kl_job.run_kl_job
returns, for the Score dialog's KL view in the fast tier."""

from __future__ import annotations

import math

import numpy as np

from logitscope.host.kl_job import KlOutcome
from logitscope.protocol.kld import BASE_TOP_N, KlTokens
from logitscope.protocol.score import ScoredToken, ScoreResult

VOCAB = [b"<s>"] + [f" w{k}".encode() for k in range(1, 60)]
TOP = 10


def _result(ids: list[int], scored: np.ndarray, n_ctx: int, n_chunk: int, rng: np.random.Generator,
            tops: dict[int, int]) -> ScoreResult:
    tokens = []
    nll = [0.0, 0.0]
    for i, tok in enumerate(ids):
        piece = VOCAB[tok]
        if i < len(scored) and scored[i]:
            lp = float(-rng.uniform(0.1, 5.0))
            top = [tops.get(i, tok)] + [t for t in range(1, TOP + 2) if t not in (tops.get(i, tok), tok)][:TOP - 1]
            logprobs = np.sort(-rng.uniform(0.05, 6.0, TOP)).astype(np.float32)[::-1].copy()
            tokens.append(ScoredToken(i, tok, piece, piece.decode(), lp, 0 if tops.get(i, tok) == tok else 1, 2.0,
                                      np.array(top, dtype=np.int32), logprobs, i % n_ctx + 1))
            nll[0] -= lp
            nll[1] += lp * lp
        else:
            tokens.append(ScoredToken(i, tok, piece, "" if tok == 0 else piece.decode(), math.nan, -1, math.nan,
                                      np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32), 0))
    return ScoreResult(tokens, "chunks", n_ctx, n_ctx, n_chunk, n_chunk * n_ctx, 0.5, True, False,
                       nll_sum=nll[0], nll2_sum=nll[1])


def kl_outcome(n_ctx: int = 16, n_chunk: int = 3, seed: int = 1, every_differs: int = 5) -> KlOutcome:
    """`n_chunk` chunks of `n_ctx` (the second half of each scored: n_chunk * (n_ctx - 1 - n_ctx // 2) tokens), 4
    tokens past them that fill no chunk; every `every_differs`-th scored token's top-1 differs."""
    rng = np.random.default_rng(seed)
    n = n_chunk * n_ctx
    ids = [0 if i % n_ctx == 0 else 1 + (7 * i) % (len(VOCAB) - 1) for i in range(n + 4)]
    scored = np.zeros(n, dtype=bool)
    for c in range(n_chunk):
        scored[c * n_ctx + n_ctx // 2 + 1:(c + 1) * n_ctx] = True
    kl = KlTokens.empty(n)
    where = np.flatnonzero(scored)
    kl.scored[:] = scored
    kl.kld[where] = 10.0 ** rng.uniform(-5.5, 0.5, len(where))
    kl.p_diff[where] = rng.uniform(-0.2, 0.2, len(where))
    kl.nll[where] = rng.uniform(0.1, 5.0, len(where))
    kl.nll_base[where] = kl.nll[where] - rng.uniform(-0.1, 0.1, len(where)).astype(np.float32)
    kl.same_top[where] = True
    differs = where[::every_differs]
    kl.same_top[differs] = False
    b_tops: dict[int, int] = {}
    for i in where:   # B's best guess is the text's token; A's too, but where the top-1 differs
        tok = ids[i]
        a_top = tok if kl.same_top[i] else 1 + (tok % (len(VOCAB) - 1))
        b_tops[int(i)] = tok
        kl.base_top_ids[i] = [a_top] + [t for t in range(1, BASE_TOP_N + 2) if t != a_top][:BASE_TOP_N - 1]
        kl.base_top_logprobs[i] = np.log(np.array([0.5, 0.2, 0.1, 0.05, 0.02], dtype=np.float32))
    base = _result(ids, scored, n_ctx, n_chunk, rng, {int(i): int(kl.base_top_ids[i][0]) for i in where})
    other = _result(ids[:n], scored, n_ctx, n_chunk, rng, b_tops)
    other.kl = kl
    return KlOutcome(base, other, list(VOCAB), 12345678)
