"""DRY ("don't repeat yourself", llama_sampler_init_dry): penalise the tokens that would extend a sequence
already present in the context, by multiplier * base ^ (length - allowed length).

Exactly llama.cpp's algorithm (src/llama-sampler.cpp, ported there from KoboldCpp), vectorised:
1. The most recent sequence breaker (a token whose text contains a breaker string, or a token ending with a
   breaker's start followed by the rest's tokens) limits how far back a repetition may reach.
2. For every earlier position k, the length of the longest suffix of the history that also ends there
   (llama.cpp's reverse Z-algorithm; here all shifts at once, comparing growing blocks).
3. The token that followed each such repeat would extend it: its penalty uses the longest repeat it extends.
4. Single-token breakers are never penalised.
The history is the context's last `penalty_last_n` tokens (prompt included, as llama-server feeds them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from logitscope.sampling.stages import Candidates

MAX_BREAKER_BYTES = 40   # llama.cpp truncates longer breakers
MAX_TAIL_TOKENS = 20     # and the tokenized rest of a breaker that starts inside a token
_MAX_BLOCK = 256         # positions compared at once when measuring repeats


@dataclass(frozen=True)
class DryBreakers:
    """Sequence breakers as token sequences: head token -> the tails that follow it (() = the head alone)."""

    heads: dict[int, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    single: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))  # heads with an empty tail
    tails_known: bool = True   # False when no tokenizer was at hand: breakers starting inside a token are missing

    @property
    def head_ids(self) -> np.ndarray:
        return np.fromiter(self.heads, dtype=np.int64, count=len(self.heads))


def build_breakers(breakers: Sequence[str], pieces: Sequence[bytes],
                   tokenize: Callable[[bytes], list[int]] | None) -> DryBreakers:
    """llama.cpp's get_overlapping_token_sequences over the whole vocabulary (once per generation; the
    engine caches it). Without `tokenize` (replay without the model) the partial overlaps are left out."""
    heads: dict[int, list[tuple[int, ...]]] = {}
    partial = False
    for breaker in breakers:
        text = breaker.encode("utf-8")[:MAX_BREAKER_BYTES]
        if not text:
            continue
        prefixes = [text[:j] for j in range(1, len(text))]
        for token, word in enumerate(pieces):
            if text in word:
                tails = heads.setdefault(token, [])
                if () not in tails:
                    tails.append(())
                continue
            for j, prefix in enumerate(prefixes, start=1):
                # a token ending with the breaker's first j bytes; llama.cpp scans every occurrence of the
                # first byte, which finds exactly these suffixes
                if word.endswith(prefix):
                    if tokenize is None:
                        partial = True
                        continue
                    tail = tuple(tokenize(text[j:])[:MAX_TAIL_TOKENS])
                    tails = heads.setdefault(token, [])
                    if tail not in tails:
                        tails.append(tail)
    frozen = {t: tuple(v) for t, v in heads.items()}
    single = np.array(sorted(t for t, v in frozen.items() if () in v), dtype=np.int64)
    return DryBreakers(frozen, single, not partial)


def _repeat_limit(rev: np.ndarray, breakers: DryBreakers) -> int:
    """Step 1: positions back to the most recent breaker (its longest matching tail counted)."""
    if not breakers.heads:
        return len(rev)
    for i in np.flatnonzero(np.isin(rev, breakers.head_ids)):
        longest = -1
        for tail in breakers.heads[int(rev[i])]:
            n = len(tail)
            if longest < n <= i and all(tail[o] == rev[i - o - 1] for o in range(n)):
                longest = n
        if longest >= 0:
            return int(i) - longest
    return len(rev)


def _suffix_matches(rev: np.ndarray, cap: int) -> np.ndarray:
    """z[k] = min(cap, length of the common prefix of rev and rev[k:]) for k >= 1 (z[0] unused)."""
    n = len(rev)
    z = np.zeros(n, dtype=np.int64)
    # a block reads at most _MAX_BLOCK past a live match (which ends before n): pads that never match
    ref = np.concatenate([rev, np.full(_MAX_BLOCK + 1, -2, dtype=np.int64)])
    pad = np.concatenate([rev, np.full(n + _MAX_BLOCK + 1, -1, dtype=np.int64)])
    alive = np.arange(1, n, dtype=np.int64)
    start, block = 0, 1
    while len(alive) and start < cap:
        cols = start + np.arange(block)
        neq = pad[alive[:, None] + cols[None, :]] != ref[cols][None, :]
        stopped = neq.any(axis=1)
        z[alive] = start + np.where(stopped, neq.argmax(axis=1), block)
        alive = alive[~stopped]
        start += block
        block = min(block * 4, _MAX_BLOCK)
    return np.minimum(z, cap)


def dry(c: Candidates, history: np.ndarray, multiplier: float, base: float, allowed_length: int,
        breakers: DryBreakers) -> tuple[Candidates, int]:
    """Returns the candidates with their penalties and how many distinct tokens were penalised."""
    n = len(history)
    if multiplier == 0.0 or base < 1.0 or n <= allowed_length or len(c) == 0:
        return c, 0
    rev = history[::-1].astype(np.int64)
    rep_limit = _repeat_limit(rev, breakers)
    if rep_limit < allowed_length:
        return c, 0
    z = _suffix_matches(rev, rep_limit)
    hits = np.flatnonzero(z[1:] >= allowed_length) + 1
    if len(hits) == 0:
        return c, 0
    # the token after each repeat (towards the present) is rev[k - 1]; keep its longest repeat
    tokens, lengths = rev[hits - 1], z[hits]
    order = np.lexsort((lengths, tokens))
    tokens, lengths = tokens[order], lengths[order]
    last = np.r_[tokens[1:] != tokens[:-1], True]
    tokens, lengths = tokens[last], lengths[last]
    if len(breakers.single):
        plain = ~np.isin(tokens, breakers.single)
        tokens, lengths = tokens[plain], lengths[plain]
    f32 = np.float32
    max_exponent = int(f32(88.7228391) / f32(np.log(f32(base)))) if base > 1.000001 else 0
    exps = lengths - allowed_length
    if max_exponent > 0:
        exps = np.minimum(exps, max_exponent)
    # float * pow(float, int) is computed in double, then subtracted from the float logit in double
    penalty = np.float64(f32(multiplier)) * np.power(np.float64(f32(base)), exps.astype(np.float64))
    if c.full:
        where = tokens[tokens < len(c)]
        penalty = penalty[tokens < len(c)]
    else:
        lookup = np.argsort(c.ids)
        pos = np.minimum(np.searchsorted(c.ids, tokens, sorter=lookup), len(c.ids) - 1)
        hit = c.ids[lookup[pos]] == tokens
        where, penalty = lookup[pos[hit]], penalty[hit]
    if len(where) == 0:
        return c, 0
    logits = c.logits.copy()
    logits[where] = (logits[where].astype(np.float64) - penalty).astype(np.float32)
    return Candidates(c.ids, logits, False, c.full), len(where)
