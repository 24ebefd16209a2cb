"""The white-box sampler: each stage a small pure function over candidates, each stage recorded.

Every stage has the semantics of llama.cpp's sampler of the same name (src/llama-sampler.cpp, checked
stage by stage against `llama_sampler_apply` in tests/engine/test_sampler_vs_llama.py):

- penalties: for each token seen in the last N context tokens, logit <= 0 ? logit * repeat : logit / repeat,
  then logit -= count * frequency + presence. Nothing is removed.
- top_k: keep the k highest logits (k <= 0: off).
- top_p: keep the smallest head of the sorted distribution whose cumulative probability reaches p.
- min_p: keep tokens with p >= min_p * p_max, i.e. logit >= max_logit + log(min_p).
- temperature: logits / T; T <= 0 keeps only the best token (greedy).
Then one draw from the softmax of what is left, with a seeded numpy RNG.

Candidates are (ids, logits) arrays; the first stages see the whole vocabulary, so the expensive ones
avoid touching all of it when they can (a threshold pass before a partial sort).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace

import numpy as np

from logitscope.engine.trace import STAGE_NAMES, STAGE_TOP_K, StageRecord
from logitscope.errors import InvalidSettingsError
from logitscope.messages import Message

# Each order applies every stage of STAGE_NAMES once.
ORDERS: dict[str, tuple[str, ...]] = {
    "temperature_last": STAGE_NAMES,   # llama.cpp's default
    "temperature_first": ("penalties", "temperature", "top_k", "top_p", "min_p"),
}


@dataclass(frozen=True)
class SamplerSettings:
    temperature: float = 0.8
    top_k: int = 40
    top_p: float = 0.95
    min_p: float = 0.05
    repeat_penalty: float = 1.0
    repeat_last_n: int = 64
    frequency_penalty: float = 0.0
    presence_penalty: float = 0.0
    seed: int | None = None       # None: a fresh random seed, recorded with the generation
    order: str = "temperature_last"

    def validate(self) -> None:
        checks = [
            (math.isfinite(self.temperature) and self.temperature >= 0, Message("temperature must be >= 0 (0 = greedy)")),
            (self.top_k >= 0, Message("top-k must be >= 0 (0 = off)")),
            (math.isfinite(self.top_p) and 0 < self.top_p <= 1, Message("top-p must be in (0, 1] (1 = off)")),
            (math.isfinite(self.min_p) and 0 <= self.min_p <= 1, Message("min-p must be in [0, 1] (0 = off)")),
            (math.isfinite(self.repeat_penalty) and self.repeat_penalty > 0, Message("repeat penalty must be > 0 (1 = off)")),
            (self.repeat_last_n >= 0, Message("repeat-last-n must be >= 0 (0 = off)")),
            (math.isfinite(self.frequency_penalty), Message("frequency penalty must be a finite number")),
            (math.isfinite(self.presence_penalty), Message("presence penalty must be a finite number")),
            (self.seed is None or 0 <= self.seed < 2**63, Message("seed must be between 0 and 2^63 - 1")),
            (self.order in ORDERS, Message("order must be one of {orders}", orders=", ".join(ORDERS))),
        ]
        for ok, message in checks:
            if not ok:
                raise InvalidSettingsError(message)

    def with_seed(self) -> SamplerSettings:
        """The same settings with a concrete seed (drawn now if none was given)."""
        return self if self.seed is not None else replace(self, seed=secrets.randbits(63))

    @property
    def greedy(self) -> bool:
        return self.temperature <= 0

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


# keys are Messages (equal to and stored as the English name) so the window can show them translated
PRESETS: dict[str, SamplerSettings] = {
    Message("Greedy"): SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0),
    Message("Precise"): SamplerSettings(temperature=0.3, top_k=40, top_p=0.9, min_p=0.05, repeat_penalty=1.1),
    Message("Balanced"): SamplerSettings(),
    Message("Creative"): SamplerSettings(temperature=1.1, top_k=100, top_p=0.98, min_p=0.02, repeat_penalty=1.05),
}


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


_GAPS = (3.0, 5.0, 7.0, 9.0, 11.0, 13.0, 16.0, 20.0, 28.0, 40.0)
_last_gap: dict[int, int] = {}  # k -> the ladder step that worked last time (distributions change slowly)


def top_indices(logits: np.ndarray, k: int, top: float | None = None) -> np.ndarray:
    """Indices of the k largest values, best first. Exact, and cheap on a big vocabulary: only values
    within a gap of the maximum are partially sorted, the gap being the smallest on a ladder that holds
    k values (the search starts where it succeeded last time)."""
    n = len(logits)
    k = min(k, n)
    if k <= 0:
        return np.empty(0, dtype=np.int64)
    if n > 4096:
        top = logits.max() if top is None else top
        step = max(0, _last_gap.get(k, 0) - 1)
        while step < len(_GAPS):
            near = np.flatnonzero(logits >= top - np.float32(_GAPS[step]))
            if len(near) >= k:
                _last_gap[k] = step
                part = near[np.argpartition(-logits[near], k - 1)[:k]] if len(near) > k else near
                return part[np.argsort(-logits[part], kind="stable")]
            step += 1
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


# -- the pipeline -------------------------------------------------------------------------------

@dataclass
class SampleOutcome:
    token: int
    final: Candidates
    final_probs: np.ndarray   # aligned with final.ids
    stages: list[StageRecord]


def _record(name: str, before: Candidates, after: Candidates) -> StageRecord:
    mass = 1.0 if len(after) == len(before) else math.exp(after.lse - before.lse)
    head = after.best(STAGE_TOP_K)
    probs = np.exp(after.logits[head].astype(np.float64) - after.lse).astype(np.float32)
    return StageRecord(name, len(before), len(after), min(mass, 1.0), after.ids[head].astype(np.int32), probs)


def stage_functions(s: SamplerSettings, recent: np.ndarray) -> dict[str, Callable[[Candidates], Candidates]]:
    window = recent[-s.repeat_last_n:] if s.repeat_last_n > 0 else recent[:0]
    return {
        "penalties": lambda c: penalties(c, window, s.repeat_penalty, s.frequency_penalty, s.presence_penalty),
        "top_k": lambda c: top_k(c, s.top_k),
        "top_p": lambda c: top_p(c, s.top_p),
        "min_p": lambda c: min_p(c, s.min_p),
        "temperature": lambda c: temperature(c, s.temperature),
    }


def run_stages(c: Candidates, s: SamplerSettings, recent: Sequence[int] | np.ndarray,
               record: bool = True) -> tuple[Candidates, list[StageRecord]]:
    """Apply the stages in the settings' order; return the final candidates and one record per stage."""
    funcs = stage_functions(s, np.asarray(recent, dtype=np.int32))
    records: list[StageRecord] = []
    for name in ORDERS[s.order]:
        after = funcs[name](c)
        if record:
            records.append(_record(name, c, after))
        c = after
    return c, records


def draw(final: Candidates, rng: np.random.Generator, greedy: bool) -> tuple[int, np.ndarray]:
    """Pick one candidate index; return it with the final probabilities."""
    probs = final.probs()
    if greedy or len(final) == 1:
        return int(np.argmax(final.logits)), probs
    cum = np.cumsum(probs)
    index = int(np.searchsorted(cum, rng.random() * cum[-1], side="left"))
    return min(index, len(final) - 1), probs


def sample(c: Candidates, s: SamplerSettings, recent: Sequence[int] | np.ndarray,
           rng: np.random.Generator, record: bool = True) -> SampleOutcome:
    final, stages = run_stages(c, s, recent, record)
    index, probs = draw(final, rng, s.greedy)
    return SampleOutcome(int(final.ids[index]), final, probs, stages)
