"""The sampler's stages: each a small pure function over candidates, with llama.cpp's semantics.

Every stage does what llama.cpp's sampler of the same name does (src/llama-sampler.cpp), checked stage by
stage against `llama_sampler_apply` in tests/engine/test_sampler_vs_llama.py and test_samplers_vs_llama.py:

- penalties: for each token seen in the last N context tokens, logit <= 0 ? logit * repeat : logit / repeat,
  then logit -= count * frequency + presence. Nothing is removed.
- top_k: keep the k highest logits (k <= 0: off).
- top_p: keep the smallest head of the sorted distribution whose cumulative probability reaches p.
- min_p: keep tokens with p >= min_p * p_max, i.e. logit >= max_logit + log(min_p).
- temperature: logits / T; T <= 0 keeps only the best token (greedy). With a range (dynamic temperature,
  llama_sampler_init_temp_ext) T moves within [T - range, T + range] with the normalised entropy.
- typical: keep the tokens whose surprise is closest to the entropy until their mass exceeds p.
- top_n_sigma: keep logits within n standard deviations (over all candidates) of the best.
- xtc: when its draw says so, remove every token at or above the threshold except the least likely of them.
- logit_bias: add a bias to chosen tokens; -inf removes them.
- mirostat (v1, v2): truncate by the target surprise mu (the draw and mu's update are the pipeline's).
Where llama.cpp marks a token -inf instead of removing it, the stage removes it.

Candidates are (ids, logits) arrays; the first stages see the whole vocabulary, so the expensive ones avoid
touching all of it when they can (a threshold pass before a partial sort). Probabilities are computed in
float32 as llama.cpp does wherever a threshold compares them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Candidates:
    """Tokens still in the running, with their current logits. `sorted`: best first."""

    ids: np.ndarray                 # int32
    logits: np.ndarray              # float32
    sorted: bool = False
    full: bool = False              # ids is the whole vocabulary in id order (ids[i] == i)
    _lse: float | None = field(default=None, repr=False)
    # Indices of the best candidates, best first (a prefix of the full ranking), when already known:
    # lets top-k and the stage records skip a partial sort of the whole vocabulary.
    _best: np.ndarray | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def lse(self) -> float:
        """log-sum-exp of the logits (the softmax normaliser), computed once."""
        if self._lse is None:
            m = float(self.logits.max())
            self._lse = m + math.log(float(np.exp(self.logits - m, dtype=np.float32).sum(dtype=np.float64)))
        return self._lse

    def probs(self) -> np.ndarray:
        return np.exp(self.logits.astype(np.float64) - self.lse)

    def subset(self, index: np.ndarray, sorted_: bool) -> Candidates:
        return Candidates(self.ids[index], self.logits[index], sorted_)

    def best(self, k: int) -> np.ndarray:
        """Indices of the k best candidates, best first."""
        k = min(k, len(self))
        if self.sorted:
            return np.arange(k)
        if self._best is None or len(self._best) < k:
            self._best = top_indices(self.logits, max(k, 8))
        return self._best[:k]


_SAMPLE_STRIDE = 16  # the threshold is estimated on every 16th value: 3,072 of the demo model's 49,152


def top_indices(logits: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest values, best first. Exact, and cheap on a big vocabulary: a threshold that
    about 2k values reach is read off a strided sample (its 2k/16 + 4 largest), one pass keeps the values at
    or above it, and only those are partially sorted; when fewer than k reach it (a sample that missed the
    head, NaN), the whole array is. A fixed ladder of gaps below the maximum (the previous way) partially
    sorted 4,000-23,000 values on spread distributions (the 128th value 20-28 below the top): 110 µs a step
    against 48 here, on the demo model's answers."""
    n = len(logits)
    k = min(k, n)
    if k <= 0:
        return np.empty(0, dtype=np.int64)
    sample = logits[::_SAMPLE_STRIDE]
    m = 2 * k // _SAMPLE_STRIDE + 4  # the sample's m-th largest: ~2k values expected at or above it
    if n > 4096 and m < len(sample):
        threshold = np.partition(sample, len(sample) - m)[len(sample) - m]
        near = np.flatnonzero(logits >= threshold)
        if len(near) >= k:
            part = near[np.argpartition(-logits[near], k - 1)[:k]] if len(near) > k else near
            return part[np.argsort(-logits[part], kind="stable")]
    part = np.argpartition(-logits, k - 1)[:k] if k < n else np.arange(n)
    return part[np.argsort(-logits[part], kind="stable")]


# -- the stages ---------------------------------------------------------------------------------

def penalties(c: Candidates, recent: np.ndarray, repeat: float, frequency: float, presence: float) -> Candidates:
    """`recent`: the last N context tokens (already cut to the window)."""
    if len(recent) == 0 or (repeat == 1.0 and frequency == 0.0 and presence == 0.0):
        return c
    tokens, counts = np.unique(recent, return_counts=True)
    if c.full:
        where = tokens[tokens < len(c.ids)]
        counts = counts[tokens < len(c.ids)]
    else:
        lookup = np.argsort(c.ids)
        pos = np.searchsorted(c.ids, tokens, sorter=lookup)
        pos = np.minimum(pos, len(c.ids) - 1)
        hit = c.ids[lookup[pos]] == tokens
        where, counts = lookup[pos[hit]], counts[hit]
    logits = c.logits.copy()
    lv = logits[where]
    r = np.float32(repeat)
    lv = np.where(lv <= 0, lv * r, lv / r).astype(np.float32)
    lv -= counts.astype(np.float32) * np.float32(frequency) + np.float32(presence)
    logits[where] = lv
    return Candidates(c.ids, logits, False, c.full)


def top_k(c: Candidates, k: int) -> Candidates:
    if k <= 0:
        return c
    k = min(k, len(c))
    if c.sorted:
        return Candidates(c.ids[:k], c.logits[:k], True)
    return c.subset(c.best(k), True)


def top_p(c: Candidates, p: float, min_keep: int = 1) -> Candidates:
    if p >= 1.0 or len(c) == 0:
        return c
    # Probabilities exactly as llama.cpp computes them: float32 exp, a sequential float32 sum in the
    # candidates' current order, then a float32 running sum over the sorted head. A pairwise or float64
    # sum moves the cut by one token now and then.
    e = np.exp(c.logits - c.logits.max(), dtype=np.float32)
    probs = e / np.cumsum(e, dtype=np.float32)[-1]
    if c.sorted:
        # a sorted head's running sum never falls: the first position that reaches p, by bisection (a NaN in
        # the logits makes the sum NaN: the general path below keeps its handling of that)
        cum = np.cumsum(probs, dtype=np.float32)
        if not math.isnan(float(cum[-1])):
            first = max(int(np.searchsorted(cum, np.float32(p))), min_keep - 1)
            last = first + 1 if first < len(c) else len(c)
            return Candidates(c.ids[:last], c.logits[:last], True)
        order = np.arange(len(c))
    else:
        # Like llama.cpp: try the best 256 first, sort everything only if they do not reach p.
        order = c.best(256 if len(c) > 1024 else len(c))
    for attempt in range(2):
        cum = np.cumsum(probs[order], dtype=np.float32)
        reached = np.flatnonzero((cum >= np.float32(p)) & (np.arange(1, len(order) + 1) >= min_keep))
        if len(reached) or len(order) == len(c) or attempt:
            break
        order = top_indices(c.logits, len(c))
    last = int(reached[0]) + 1 if len(reached) else len(order)
    return c.subset(order[:last], True)


def min_p(c: Candidates, p: float, min_keep: int = 1) -> Candidates:
    if p <= 0.0 or len(c) == 0:
        return c
    floor = np.float32(c.logits.max()) + np.float32(math.log(p))
    keep = np.flatnonzero(c.logits >= floor)
    if len(keep) >= max(1, min_keep):
        return c.subset(keep, c.sorted)
    order = top_indices(c.logits, len(c))
    return c.subset(order[:max(1, min_keep)], True)


def temperature(c: Candidates, t: float) -> Candidates:
    if len(c) == 0:
        return c
    if t <= 0:
        best = int(np.argmax(c.logits))  # first of equal maxima, as llama.cpp
        return c.subset(np.array([best]), True)
    # dividing by a positive number keeps the ranking: the known best stay the best
    return Candidates(c.ids, (c.logits / np.float32(t)).astype(np.float32), c.sorted, c.full, None, c._best)


def sorted_probs(c: Candidates, k: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(indices of the k best candidates, best first; their probabilities over all candidates), as
    llama_sampler_softmax_impl(cur_p, true) computes them: float32, summed in sorted order when all are
    asked for (the cut of a cumulative threshold depends on it); a float64 sum when only the head is."""
    if k is None or k >= len(c):
        # a whole ranking: numpy's default sort (a stable one takes 6x as long on 49k values); the order of
        # equal logits is arbitrary, as in llama.cpp's std::partial_sort
        order = np.arange(len(c)) if c.sorted else np.argsort(-c.logits)
        top = c.logits[order[0]]
        e = np.exp(c.logits[order] - top, dtype=np.float32)
        return order, e / np.cumsum(e, dtype=np.float32)[-1]
    order = c.best(k)
    top = c.logits[order[0]]
    z = np.float32(np.exp(c.logits - top, dtype=np.float32).sum(dtype=np.float64))
    return order, np.exp(c.logits[order] - top, dtype=np.float32) / z


def dynamic_temperature(c: Candidates, t: float, delta: float, exponent: float) -> tuple[Candidates, float]:
    """llama_sampler_init_temp_ext: with delta > 0 the temperature is min + (max - min) * (H / H_max) ^ exponent
    over [max(0, t - delta), t + delta]; returns the candidates and the temperature used."""
    if delta <= 0:
        return temperature(c, t), t
    if len(c) <= 1:
        return c, t
    f32 = np.float32
    lo, hi = max(f32(0), f32(t) - f32(delta)), f32(t) + f32(delta)
    max_entropy = -np.log(f32(1) / f32(len(c)))
    # llama.cpp's float32 sums in sorted order, not a more exact float64 one: over a whole vocabulary they
    # differ by ~1e-5, enough to move every logit measurably
    ranked = np.sort(c.logits)[::-1]  # values only: a sort of values is cheaper than ranking ids
    e = np.exp(ranked - ranked[0], dtype=np.float32)
    p = e / np.cumsum(e, dtype=np.float32)[-1]
    nz = p[p > 0]
    entropy = f32(np.cumsum(-nz * np.log(nz), dtype=np.float32)[-1])
    dyn = f32(lo + (hi - lo) * np.power(f32(entropy / max_entropy), f32(exponent)))
    return temperature(c, float(dyn)), float(dyn)


def typical(c: Candidates, p: float, min_keep: int = 0) -> Candidates:
    """llama_sampler_init_typical: sort by |surprise - entropy|, keep until the mass exceeds p."""
    if p >= 1.0 or len(c) == 0:
        return c
    order, probs = sorted_probs(c)
    with np.errstate(divide="ignore", invalid="ignore"):
        logp = np.log(probs)
        entropy = np.cumsum(-probs * logp, dtype=np.float32)[-1]   # float32, in order, as llama.cpp
        shifted = np.abs(-logp - entropy)
    by_score = np.argsort(shifted)  # std::sort is not stable either
    cum = np.cumsum(probs[by_score], dtype=np.float32)
    over = np.flatnonzero((cum > np.float32(p)) & (np.arange(1, len(cum) + 1) >= max(min_keep, 1)))
    last = int(over[0]) + 1 if len(over) else len(cum)
    return c.subset(order[by_score[:last]], False)


def top_n_sigma(c: Candidates, n: float) -> Candidates:
    """llama_sampler_init_top_n_sigma: keep logits >= max - n * std (over the finite logits)."""
    if n <= 0 or len(c) <= 1:
        return c
    finite = c.logits[np.isfinite(c.logits)]
    if len(finite) == 0:
        return c
    f32 = np.float32
    mean = f32(f32(np.cumsum(finite, dtype=np.float32)[-1]) / f32(len(finite)))
    acc = f32(np.square((finite - mean).astype(np.float64)).sum())
    std = f32(math.sqrt(float(f32(acc / f32(len(finite))))))
    floor = f32(finite.max()) - f32(f32(n) * std)
    keep = np.flatnonzero(c.logits >= floor)
    return c if len(keep) == len(c) else c.subset(keep, c.sorted)


def xtc(c: Candidates, threshold: float, min_keep: int, triggered: bool) -> Candidates:
    """llama_sampler_init_xtc once its draw has said to cut: of the tokens with p >= threshold (a head of the
    sorted distribution), remove all but the last, if at least two reach it and min_keep stay."""
    if not triggered or threshold > 0.5 or len(c) < 2:
        return c
    top = c.logits.max()
    p = np.exp(c.logits - top, dtype=np.float32) / np.float32(np.exp(c.logits - top, dtype=np.float32).sum(dtype=np.float64))
    pos_last = max(int(np.count_nonzero(p >= np.float32(threshold))) - 1, 0)
    if pos_last == 0 or len(c) - pos_last < min_keep:
        return c
    cut = c.best(pos_last)
    keep = np.ones(len(c), dtype=bool)
    keep[cut] = False
    return c.subset(np.flatnonzero(keep), c.sorted)


def logit_bias(c: Candidates, ids: np.ndarray, biases: np.ndarray) -> Candidates:
    """llama_sampler_init_logit_bias: logit += bias for each (id, bias) (repeated ids add up); tokens biased to
    -inf are removed. `ids` must be in the vocabulary (the engine checks)."""
    if len(ids) == 0 or len(c) == 0:
        return c
    logits = c.logits.copy()
    if c.full:
        np.add.at(logits, ids, biases.astype(np.float32))
    else:
        lookup = np.argsort(c.ids)
        pos = np.minimum(np.searchsorted(c.ids, ids, sorter=lookup), len(c.ids) - 1)
        hit = c.ids[lookup[pos]] == ids
        np.add.at(logits, lookup[pos[hit]], biases[hit].astype(np.float32))
    if np.isneginf(biases).any():
        keep = np.flatnonzero(~np.isneginf(logits))
        return Candidates(c.ids[keep], logits[keep], False)
    return Candidates(c.ids, logits, False, c.full)


def mirostat_v1(c: Candidates, mu: float, n_vocab: int, m: int = 100) -> Candidates:
    """llama_sampler_init_mirostat's truncation: estimate the Zipf exponent s from the best m tokens, keep the
    top k = ((s - 1) 2^mu / (1 - n_vocab^(1 - s)))^(1 / s)."""
    if len(c) <= 1:
        return c
    f32 = np.float32
    order, p = sorted_probs(c, min(m, len(c)))
    n = min(m - 1, len(c) - 1, len(p) - 1)
    i = np.arange(n, dtype=np.float32)
    t = np.log((i + f32(2)) / (i + f32(1)), dtype=np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.log(p[:n] / p[1:n + 1], dtype=np.float32)
        s_hat = f32(np.cumsum(t * b, dtype=np.float32)[-1]) / f32(np.cumsum(t * t, dtype=np.float32)[-1])
        eps = s_hat - f32(1)
        k = np.power((eps * np.power(f32(2), f32(mu))) / (f32(1) - np.power(f32(n_vocab), -eps)), f32(1) / s_hat)
    # int(k) as x86 converts a float: NaN, infinities and values past int32 become INT_MIN, so k = 1
    k_int = int(k) if np.isfinite(k) and abs(float(k)) < 2**31 else 1
    return c.subset(c.best(min(max(k_int, 1), len(c))), True)


def mirostat_v2(c: Candidates, mu: float) -> Candidates:
    """llama_sampler_init_mirostat_v2's truncation: keep the tokens whose surprise -log2(p) is at most mu
    (at least the best one)."""
    if len(c) <= 1:
        return c
    top = c.logits.max()
    e = np.exp(c.logits - top, dtype=np.float32)
    p = e / np.float32(e.sum(dtype=np.float64))
    with np.errstate(divide="ignore"):
        keep = np.flatnonzero(-np.log2(p) <= np.float32(mu))
    if len(keep) == 0:
        return c.subset(c.best(1), True)
    return c if len(keep) == len(c) else c.subset(keep, c.sorted)
