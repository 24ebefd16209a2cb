"""Scoring a text: what crosses the process boundary, and the numbers made from it.

Importable without llama.cpp (the CLI and the GUI use these with the engine client). The engine fills them
in engine/score.py. Two protocols:

- "window" (the default): the text is read through a sliding window of `n_ctx` positions. With a BOS token
  (models whose metadata add one), every window starts with BOS and holds n_ctx - 1 text tokens; the stride
  is half of those (`window_stride`). The first window scores every token in it; each later window scores
  only the tokens past the previous one's end. So every token of the first window is predicted from all the
  tokens before it, and every later token from between n_ctx - 1 - stride and n_ctx - 2 tokens before it
  (plus BOS): `ScoredToken.n_context` says exactly how many. A text that fits in one window is one pass.
- "chunks": llama.cpp's perplexity protocol (tools/perplexity/perplexity.cpp `perplexity()`): the tokens
  (BOS per the model's metadata, special tokens not parsed) are cut into len // n_ctx chunks of n_ctx tokens
  (the rest is dropped); each chunk's first token is replaced by BOS when the model uses one; only the
  second half of each chunk is scored (positions n_ctx // 2 + 1 .. n_ctx - 1). It needs at least
  2 * n_ctx tokens. Its perplexity is what `llama-perplexity -f TEXT -c N_CTX` calls the final estimate.

Per token: log-probability (natural log) of the actual token, its probability, its rank in the whole
vocabulary (0 = the model's top choice), the entropy of the distribution (nats) and the top alternatives,
all before any sampler (the trace's "raw" numbers). Tokens that are not scored (the first token without a
BOS, tokens a chunk does not score) carry NaN / -1, null in JSON, as the trace does for unknown values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.base.utf8 import require_utf8
from logitscope.protocol.kld import KlTokens
from logitscope.protocol.steering import Steering

ScoreMode = Literal["window", "chunks"]
SCORE_MODES: tuple[str, ...] = ("window", "chunks")
DEFAULT_SCORE_CTX = 512      # llama-perplexity's default context too
MIN_SCORE_CTX = 8            # a window must leave room for context and a half to score
MAX_SCORE_CTX = 1 << 17      # beyond any GGUF we can load on a desktop; the model's training context caps it too
SCORE_TOP_N = 10             # alternatives kept per token
MIN_CHUNKS = 2               # llama-perplexity's chunked perplexity needs two chunks of text at least
MAX_SCORE_TOP_N = 128        # the trace's RAW_TOP_N
# GLTR's rank buckets (Gehrmann et al. 2019): ranks below each bound, then the rest ("beyond").
RANK_BUCKETS: tuple[int, ...] = (10, 100, 1000)
RANK_BUCKET_NAMES: tuple[str, ...] = ("top10", "top100", "top1000", "beyond")


@dataclass(frozen=True)
class ScoreRequest:
    """Exactly one of `text` (tokenized as llama-perplexity does: BOS per the model, special tokens as plain
    text) or `tokens` (ids, used as they are: a BOS is not added)."""

    text: str | None = None
    tokens: tuple[int, ...] | None = None
    n_ctx: int = DEFAULT_SCORE_CTX
    mode: ScoreMode = "window"
    top: int = SCORE_TOP_N
    flash_attn: bool | None = None     # None: as the model was loaded (compare like with like)
    steering: Steering | None = None   # control vectors and LoRA adapters the text is scored with
    # llama-perplexity's KL divergence (protocol/kld.py), chunks only: write the base model's distributions to
    # this file (--kl-divergence-base), or compare with the ones in it (the text is the file's tokens, n_ctx its)
    save_logits: str | None = None
    kl_base: str | None = None

    def validate(self, names: Mapping[str, str] | None = None) -> None:
        """InvalidSettingsError naming the first problem; `names`: the CLI's flags (cli/option_names.py)."""
        label = {"n_ctx": Message("the scoring context")} | dict(names or {})
        if self.steering is not None:
            self.steering.validate()
        if self.save_logits is not None and self.kl_base is not None:
            raise InvalidSettingsError("save the base model's distributions or compare with saved ones, not both "
                                       "in one run")
        if (self.save_logits is not None or self.kl_base is not None) and self.mode != "chunks":
            raise InvalidSettingsError("the KL divergence follows llama-perplexity's chunks: score with --chunks")
        if self.kl_base is not None:
            if self.text is not None or self.tokens is not None:
                raise InvalidSettingsError("a comparison with saved distributions scores the text they were "
                                           "saved from: give no other text")
        elif (self.text is None) == (self.tokens is None):
            raise InvalidSettingsError("give either a text or tokens to score")
        if self.text is not None:
            if not self.text.strip():
                raise InvalidSettingsError("the text to score is empty")
            require_utf8(self.text, "the text to score")
        if self.tokens is not None and len(self.tokens) < 2:
            raise InvalidSettingsError("scoring needs at least 2 tokens (the first has no context)")
        if not MIN_SCORE_CTX <= self.n_ctx <= MAX_SCORE_CTX:
            raise InvalidSettingsError("{name} must be between {low} and {high} tokens, not {n_ctx}", name=label["n_ctx"],
                                       low=MIN_SCORE_CTX, high=MAX_SCORE_CTX, n_ctx=self.n_ctx)
        if self.mode not in SCORE_MODES:
            raise InvalidSettingsError("the scoring mode must be one of {modes}, not {mode!r}",
                                       modes=", ".join(SCORE_MODES), mode=self.mode)
        if not 0 <= self.top <= MAX_SCORE_TOP_N:
            raise InvalidSettingsError("the number of alternatives must be between 0 and {high}",
                                       high=MAX_SCORE_TOP_N)


def window_stride(n_ctx: int, bos: bool) -> int:
    """Text tokens a window moves by: half of the text tokens a window holds."""
    return max(1, (n_ctx - (1 if bos else 0)) // 2)


@dataclass
class ScoredToken:
    i: int                    # position in the scored token sequence (0 = the first, BOS included)
    token: int
    piece: bytes
    text: str                 # what this token adds to the visible text ("" mid-character, BOS)
    logprob: float            # natural log; NaN when not scored
    rank: int                 # 0 = the model's top choice; -1 when not scored
    entropy: float            # nats, whole vocabulary
    top_ids: np.ndarray       # int32, the best alternatives, best first
    top_logprobs: np.ndarray  # float32
    n_context: int            # tokens the prediction was made from (BOS included); 0 when not scored

    @property
    def scored(self) -> bool:
        return self.rank >= 0

    @property
    def p(self) -> float:
        return math.exp(self.logprob) if self.scored else math.nan

    @property
    def bits(self) -> float:
        """Surprisal in bits."""
        return -self.logprob / math.log(2) if self.scored else math.nan


@dataclass
class ScoreResult:
    tokens: list[ScoredToken]
    mode: str
    n_ctx: int
    stride: int               # window: text tokens a window moves by; chunks: n_ctx
    n_passes: int             # windows or chunks evaluated
    n_evaluated: int          # token positions evaluated in all (windows overlap)
    eval_s: float             # time in llama_decode and the numbers after it (not tokenizing)
    bos: bool                 # each window / chunk began with BOS
    flash_attn: bool
    nll_sum: float = 0.0      # sum of -logprob over the scored tokens (float64, in the order llama.cpp sums)
    nll2_sum: float = 0.0     # sum of logprob^2 (llama-perplexity's error estimate)
    notices: list[str] = field(default_factory=list)
    steering: dict[str, Any] | None = None  # what it was scored with (protocol/steering.steering_record)
    kl: KlTokens | None = None  # against the base file of ScoreRequest.kl_base (protocol/kld.py)

    @property
    def scored(self) -> list[ScoredToken]:
        return [t for t in self.tokens if t.scored]

    @property
    def n_scored(self) -> int:
        return sum(1 for t in self.tokens if t.scored)

    @property
    def mean_nll(self) -> float:
        n = self.n_scored
        return self.nll_sum / n if n else math.nan

    @property
    def perplexity(self) -> float:
        return math.exp(self.mean_nll) if self.n_scored else math.nan

    @property
    def perplexity_error(self) -> float:
        """llama-perplexity's "+/-": the standard error of the mean NLL, times the perplexity."""
        n = self.n_scored
        if n < 2:
            return math.nan
        mean = self.nll_sum / n
        var = self.nll2_sum / n - mean * mean
        return math.sqrt(var / (n - 1)) * self.perplexity if var > 0 else math.nan

    @property
    def bits_per_token(self) -> float:
        return self.mean_nll / math.log(2)

    @property
    def tokens_per_s(self) -> float:
        return self.n_evaluated / self.eval_s if self.eval_s > 0 else 0.0

    def rank_buckets(self) -> dict[str, int]:
        ranks = np.array([t.rank for t in self.tokens if t.scored], dtype=np.int64)
        counts = np.bincount(np.searchsorted(RANK_BUCKETS, ranks, side="right"), minlength=len(RANK_BUCKET_NAMES))
        return {name: int(n) for name, n in zip(RANK_BUCKET_NAMES, counts, strict=True)}


def rank_bucket(rank: int) -> int:
    """0 = top 10, 1 = top 100, 2 = top 1000, 3 = beyond (GLTR); -1 when not scored."""
    return -1 if rank < 0 else int(np.searchsorted(RANK_BUCKETS, rank, side="right"))


def _num(x: float, digits: int) -> float | None:
    return round(x, digits) if math.isfinite(x) else None


def token_to_json(t: ScoredToken, vocab: Any) -> dict[str, Any]:
    """One token's record: the trace's keys where they apply (i, token, text, piece, bytes, p, rank,
    entropy, top_raw), plus logprob, bits, n_context. `vocab`: every token's bytes by id."""
    from logitscope.protocol.trace import piece_text

    return {
        "type": "token", "i": t.i, "token": t.token, "text": t.text, "piece": piece_text(t.piece),
        "bytes": t.piece.hex(), "logprob": _num(t.logprob, 6), "bits": _num(t.bits, 5), "p": _num(t.p, 6),
        "rank": t.rank if t.scored else None, "entropy": _num(t.entropy, 5),
        "n_context": t.n_context if t.scored else None,
        "top_raw": [{"token": int(a), "text": piece_text(vocab[int(a)]), "p": _num(math.exp(float(lp)), 6)}
                    for a, lp in zip(t.top_ids, t.top_logprobs, strict=True)] if t.scored else None,
    }


def summary_to_json(r: ScoreResult) -> dict[str, Any]:
    return {"type": "summary", "mode": r.mode, "n_ctx": r.n_ctx, "stride": r.stride, "bos": r.bos,
            "flash_attn": r.flash_attn, "n_tokens": len(r.tokens), "n_scored": r.n_scored,
            "n_passes": r.n_passes, "n_evaluated": r.n_evaluated,
            "perplexity": _num(r.perplexity, 6), "perplexity_error": _num(r.perplexity_error, 6),
            "bits_per_token": _num(r.bits_per_token, 6), "mean_nll": _num(r.mean_nll, 6),
            "rank_buckets": r.rank_buckets(), "eval_s": round(r.eval_s, 4), "tokens_per_s": round(r.tokens_per_s, 1),
            "notices": list(r.notices)}
