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
from dataclasses import asdict, dataclass, field, fields, replace

import numpy as np

from logitscope.engine.trace import STAGE_NAMES, STAGE_TOP_K, StageRecord
from logitscope.errors import InvalidSettingsError
from logitscope.grammars import ready_grammar
from logitscope.messages import Message

# llama-server's sampler names (its `samplers` list and llama.cpp's `--samplers`), and the aliases
# llama.cpp accepts for them (common/sampling.cpp, common_sampler_types_from_names).
CHAIN_STAGES = ("penalties", "dry", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p", "xtc", "temperature")
DEFAULT_SAMPLERS = CHAIN_STAGES   # llama.cpp's default order (common.h, common_params_sampling::samplers)
SAMPLER_ALIASES: dict[str, str] = {
    **{name.replace("_", "-"): name for name in CHAIN_STAGES if "_" in name},
    **{name.replace("_", ""): name for name in CHAIN_STAGES if "_" in name},
    "nucleus": "top_p", "typical-p": "typ_p", "typical": "typ_p", "typ-p": "typ_p", "typ": "typ_p",
    "min-p": "min_p", "temp": "temperature",
}
# The order a schema-1 trace or an old preset named with its `order` field.
LEGACY_ORDERS: dict[str, tuple[str, ...]] = {
    "temperature_last": DEFAULT_SAMPLERS,
    "temperature_first": ("penalties", "dry", "temperature", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p", "xtc"),
}
# Stages outside the orderable chain, where llama.cpp puts them: logit bias and the grammar before the
# chain; with Mirostat on, the chain is replaced by temperature then Mirostat (common_sampler_init).
FIXED_BEFORE = ("logit_bias", "grammar")
MIROSTAT_CHAIN = {1: ("temperature", "mirostat"), 2: ("temperature", "mirostat_v2")}
DRY_BREAKERS = ("\n", ":", "\"", "*")


def sampler_name(name: str) -> str:
    """The canonical name of a sampler given by any of llama.cpp's spellings; InvalidSettingsError if none."""
    key = name.strip().lower()
    key = SAMPLER_ALIASES.get(key, key)
    if key not in CHAIN_STAGES:
        raise InvalidSettingsError("unknown sampler {name!r}: use {names}", name=name, names=", ".join(CHAIN_STAGES))
    return key


def _finite(x: float) -> bool:
    return math.isfinite(x)


@dataclass(frozen=True)
class SamplerSettings:
    """Every setting of the sampler. Names and defaults are llama.cpp's (common_params_sampling); each
    stage is off at its default except temperature, top-k, top-p and min-p."""

    temperature: float = 0.8
    top_k: int = 40
    top_p: float = 0.95
    min_p: float = 0.05
    repeat_penalty: float = 1.0
    repeat_last_n: int = 64
    frequency_penalty: float = 0.0
    presence_penalty: float = 0.0
    seed: int | None = None       # None: a fresh random seed, recorded with the generation
    samplers: tuple[str, ...] = DEFAULT_SAMPLERS   # the chain's order; a stage left out is not applied
    min_keep: int = 0             # top-p, min-p, typical and XTC keep at least this many (0: llama.cpp's default)
    # DRY: penalty multiplier * base ^ (length of the repeated sequence - allowed length)
    dry_multiplier: float = 0.0   # 0 = off
    dry_base: float = 1.75
    dry_allowed_length: int = 2
    dry_penalty_last_n: int = -1  # tokens scanned; -1 = the whole context, 0 = off
    dry_sequence_breakers: tuple[str, ...] = DRY_BREAKERS
    # XTC: with this probability, remove every token above the threshold except the least likely of them
    xtc_probability: float = 0.0  # 0 = off
    xtc_threshold: float = 0.1    # > 0.5 = off
    typical_p: float = 1.0        # locally typical sampling; 1 = off
    top_n_sigma: float = -1.0     # keep logits within n standard deviations of the best; <= 0 = off
    dynatemp_range: float = 0.0   # dynamic temperature: temperature +- range by entropy; 0 = off
    dynatemp_exponent: float = 1.0
    mirostat: int = 0             # 0 = off, 1 = Mirostat, 2 = Mirostat 2.0 (replaces the chain)
    mirostat_tau: float = 5.0     # target surprise (bits)
    mirostat_eta: float = 0.1     # learning rate
    # (token id or text, bias): a text biases every token of its tokenization (as llama-server);
    # -inf bans the token
    logit_bias: tuple[tuple[int | str, float], ...] = ()
    grammar: str = ""             # GBNF; "" = unconstrained
    json_schema: str = ""         # a JSON schema (text), converted to GBNF by the engine; exclusive with grammar

    def validate(self) -> None:
        checks = [
            (_finite(self.temperature) and self.temperature >= 0, Message("temperature must be >= 0 (0 = greedy)")),
            (self.top_k >= 0, Message("top-k must be >= 0 (0 = off)")),
            (_finite(self.top_p) and 0 < self.top_p <= 1, Message("top-p must be in (0, 1] (1 = off)")),
            (_finite(self.min_p) and 0 <= self.min_p <= 1, Message("min-p must be in [0, 1] (0 = off)")),
            (_finite(self.repeat_penalty) and self.repeat_penalty > 0, Message("repeat penalty must be > 0 (1 = off)")),
            (self.repeat_last_n >= 0, Message("repeat-last-n must be >= 0 (0 = off)")),
            (_finite(self.frequency_penalty), Message("frequency penalty must be a finite number")),
            (_finite(self.presence_penalty), Message("presence penalty must be a finite number")),
            (self.seed is None or 0 <= self.seed < 2**63, Message("seed must be between 0 and 2^63 - 1")),
            (len(self.samplers) == len(set(self.samplers)) and all(n in CHAIN_STAGES for n in self.samplers),
             Message("samplers must be distinct names among {names}", names=", ".join(CHAIN_STAGES))),
            (0 <= self.min_keep <= 1 << 20, Message("min-keep must be >= 0")),
            (_finite(self.dry_multiplier) and self.dry_multiplier >= 0, Message("DRY multiplier must be >= 0 (0 = off)")),
            (_finite(self.dry_base) and self.dry_base >= 1, Message("DRY base must be >= 1")),
            (0 <= self.dry_allowed_length <= 1 << 16, Message("DRY allowed length must be >= 0")),
            (self.dry_penalty_last_n >= -1, Message("DRY penalty-last-n must be >= -1 (-1 = the whole context, 0 = off)")),
            (all(b for b in self.dry_sequence_breakers), Message("a DRY sequence breaker cannot be empty")),
            (_finite(self.xtc_probability) and 0 <= self.xtc_probability <= 1, Message("XTC probability must be in [0, 1] (0 = off)")),
            (_finite(self.xtc_threshold) and 0 <= self.xtc_threshold <= 1, Message("XTC threshold must be in [0, 1] (> 0.5 = off)")),
            (_finite(self.typical_p) and 0 < self.typical_p <= 1, Message("typical-p must be in (0, 1] (1 = off)")),
            (_finite(self.top_n_sigma), Message("top-n-sigma must be a finite number (<= 0 = off)")),
            (_finite(self.dynatemp_range) and self.dynatemp_range >= 0, Message("dynamic temperature range must be >= 0 (0 = off)")),
            (_finite(self.dynatemp_exponent) and self.dynatemp_exponent > 0, Message("dynamic temperature exponent must be > 0")),
            (self.mirostat in (0, 1, 2), Message("mirostat must be 0 (off), 1 or 2")),
            (_finite(self.mirostat_tau) and self.mirostat_tau > 0, Message("Mirostat tau must be > 0")),
            (_finite(self.mirostat_eta) and self.mirostat_eta > 0, Message("Mirostat eta must be > 0")),
            (all(not math.isnan(b) and b != math.inf for _, b in self.logit_bias),
             Message("a logit bias must be a number or -inf (ban)")),
            (all((isinstance(t, int) and t >= 0) or (isinstance(t, str) and t) for t, _ in self.logit_bias),
             Message("a logit bias applies to a token id >= 0 or a non-empty text")),
            (not (self.grammar and self.json_schema), Message("give a grammar or a JSON schema, not both")),
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

    def chain(self) -> tuple[str, ...]:
        """Every stage applied, in order (STAGE_NAMES): logit bias and grammar first when set, then the
        orderable chain, or temperature + Mirostat when Mirostat is on."""
        before = tuple(n for n, on in (("logit_bias", bool(self.logit_bias)),
                                       ("grammar", bool(self.grammar or self.json_schema))) if on)
        return before + (MIROSTAT_CHAIN[self.mirostat] if self.mirostat else self.samplers)

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["samplers"] = list(self.samplers)
        d["dry_sequence_breakers"] = list(self.dry_sequence_breakers)
        d["logit_bias"] = [[t, b if math.isfinite(b) else "-inf"] for t, b in self.logit_bias]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> SamplerSettings:
        """The inverse of to_dict; also reads the schema-1 form (an `order` name instead of `samplers`).
        Unknown keys are ignored; wrong types raise InvalidSettingsError (then validate())."""
        d = dict(d)
        order = d.pop("order", None)
        if "samplers" not in d and isinstance(order, str) and order in LEGACY_ORDERS:
            d["samplers"] = LEGACY_ORDERS[order]
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in d.items() if k in known}
        try:
            if "samplers" in values:
                values["samplers"] = tuple(sampler_name(str(n)) for n in values["samplers"])  # type: ignore[attr-defined]
            if "dry_sequence_breakers" in values:
                values["dry_sequence_breakers"] = tuple(str(b) for b in values["dry_sequence_breakers"])  # type: ignore[attr-defined]
            if "logit_bias" in values:
                values["logit_bias"] = tuple(
                    (t if isinstance(t, str) else int(t), -math.inf if b == "-inf" else float(b))
                    for t, b in values["logit_bias"])  # type: ignore[attr-defined]
            settings = cls(**values)  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            raise InvalidSettingsError("sampler settings: {error}", error=str(exc)) from exc
        settings.validate()
        return settings


# keys are Messages (equal to and stored as the English name) so the window can show them translated
PRESETS: dict[str, SamplerSettings] = {
    Message("Greedy"): SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0),
    Message("Precise"): SamplerSettings(temperature=0.3, top_k=40, top_p=0.9, min_p=0.05, repeat_penalty=1.1),
    Message("Balanced"): SamplerSettings(),
    Message("Creative"): SamplerSettings(temperature=1.1, top_k=100, top_p=0.98, min_p=0.02, repeat_penalty=1.05),
    # the common recipe for stories: min-p alone for truncation, DRY against repeated passages
    Message("Creative writing (min-p + DRY)"): SamplerSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.05,
                                                               dry_multiplier=0.8),
    # XTC's authors' suggestion: drop the obvious choices half of the time
    Message("XTC creative"): SamplerSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.02,
                                             xtc_probability=0.5, xtc_threshold=0.1),
    Message("JSON"): SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0, grammar=ready_grammar("json")),
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


def _not_yet(name: str) -> Callable[[Candidates], Candidates]:
    def apply(c: Candidates) -> Candidates:
        raise InvalidSettingsError("the {name} sampler is not available yet", name=name)
    return apply


# Stages recorded even when their settings leave them without effect (the waterfall always shows these);
# every other stage is recorded only when on.
ALWAYS_RECORDED = ("penalties", "top_k", "top_p", "min_p", "temperature")


def is_on(name: str, s: SamplerSettings) -> bool:
    """Whether a chain stage changes anything under these settings."""
    return {
        "dry": s.dry_multiplier > 0 and s.dry_penalty_last_n != 0,
        "xtc": s.xtc_probability > 0 and s.xtc_threshold <= 0.5,
        "typ_p": s.typical_p < 1.0,
        "top_n_sigma": s.top_n_sigma > 0,
    }.get(name, True)


def stage_functions(s: SamplerSettings, recent: np.ndarray) -> dict[str, Callable[[Candidates], Candidates]]:
    window = recent[-s.repeat_last_n:] if s.repeat_last_n > 0 else recent[:0]
    return {name: _not_yet(name) for name in STAGE_NAMES} | {
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
    for name in s.chain():
        if not is_on(name, s):
            continue
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
