"""The white-box sampler: the pipeline that applies the stages in order, recording each one, then draws the
token (its settings and presets, which cross the process boundary, are protocol/sampler_settings.py).

The stages themselves are in sampling/stages.py (stateless), sampling/dry.py and engine/grammar.py; what a
generation carries from step to step (Mirostat's mu, the grammar, the RNG) is a SamplerState. The stage
order is llama.cpp's common_sampler_init: logit bias and the grammar first, then the orderable chain (or
temperature + Mirostat), then one draw from the softmax of what is left, with the generation's numpy RNG.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from logitscope.protocol.sampler_settings import SamplerSettings, is_on
from logitscope.protocol.trace import RAW_TOP_N, STAGE_TOP_K, StageRecord
from logitscope.sampling import stages as st
from logitscope.sampling.dry import dry
from logitscope.sampling.sampler_state import GrammarDeadEnd, SamplerState
from logitscope.sampling.stages import Candidates, min_p, penalties, temperature, top_k, top_p

# -- the pipeline -------------------------------------------------------------------------------

@dataclass
class SampleOutcome:
    token: int
    final: Candidates
    final_probs: np.ndarray   # aligned with final.ids
    stages: list[StageRecord]


def _removed(before: Candidates, after: Candidates) -> np.ndarray:
    """Which of the input's best STAGE_TOP_K the stage removed, best first (cheap: a small membership test)."""
    if len(after) == len(before):
        return _NONE_REMOVED
    best = before.ids[before.best(STAGE_TOP_K)]
    if len(after) == 1:
        removed_but_one: np.ndarray = best[best != after.ids[0]]
        return removed_but_one
    if after.sorted and len(after) >= len(best) and bool((after.ids[:len(best)] == best).all()):
        return _NONE_REMOVED  # a truncation that kept the head (top-k, top-p, min-p): the usual case
    if len(after) <= 256:
        kept = (best[:, None] == after.ids[None, :]).any(axis=1)
    else:
        mark = np.zeros(int(max(best.max(), after.ids.max())) + 1, dtype=bool)
        mark[after.ids] = True
        kept = mark[best]
    removed: np.ndarray = best[~kept]
    return removed


_NONE_REMOVED = np.empty(0, dtype=np.int32)


def _record(name: str, before: Candidates, after: Candidates, info: dict[str, float],
            removed: np.ndarray | None = None) -> StageRecord:
    if len(after) == 1:  # greedy's last stage, and often top-p's: the one survivor holds all the mass
        mass = 1.0 if len(before) == 1 else math.exp(float(after.logits[0]) - before.lse)
        ids, probs = after.ids.astype(np.int32), np.ones(1, dtype=np.float32)
    else:
        mass = 1.0 if len(after) == len(before) else math.exp(after.lse - before.lse)
        head = slice(0, STAGE_TOP_K) if after.sorted else after.best(STAGE_TOP_K)  # sorted: the first ones
        ids = after.ids[head].astype(np.int32)
        probs = np.exp(after.logits[head].astype(np.float64) - after.lse).astype(np.float32)
    return StageRecord(name, len(before), len(after), min(mass, 1.0), ids, probs,
                       info, _removed(before, after) if removed is None else removed)


class _Stages:
    """The stage functions for one step, each (Candidates) -> Candidates; what a stage knows beyond its
    survivors goes to `info[name]`, and the grammar's masked head to `removed`."""

    def __init__(self, s: SamplerSettings, recent: np.ndarray, state: SamplerState) -> None:
        self.s, self.recent, self.state = s, recent, state
        self.info: dict[str, dict[str, float]] = {}
        self.removed: dict[str, np.ndarray] = {}

    def penalties(self, c: Candidates) -> Candidates:
        s = self.s
        window = self.recent[-s.repeat_last_n:] if s.repeat_last_n > 0 else self.recent[:0]
        return penalties(c, window, s.repeat_penalty, s.frequency_penalty, s.presence_penalty)

    def dry(self, c: Candidates) -> Candidates:
        s = self.s
        history = self.recent[-s.dry_window(len(self.recent)):]
        out, n = dry(c, history, s.dry_multiplier, s.dry_base, s.dry_allowed_length, self.state.dry_breakers)
        self.info["dry"] = {"penalized": float(n)}
        return out

    def xtc(self, c: Candidates) -> Candidates:
        s, state = self.s, self.state
        if len(c) < 2:  # llama.cpp draws nothing then
            self.info["xtc"] = {"triggered": 0.0}
            return c
        triggered = state.xtc_triggered if state.xtc_triggered is not None else (
            float(state.rng.random()) <= s.xtc_probability)
        self.info["xtc"] = {"triggered": float(triggered)}
        return st.xtc(c, s.xtc_threshold, s.min_keep, triggered)

    def temperature(self, c: Candidates) -> Candidates:
        s = self.s
        if s.dynatemp_range > 0 and not s.mirostat:
            out, t = st.dynamic_temperature(c, s.temperature, s.dynatemp_range, s.dynatemp_exponent)
            self.info["temperature"] = {"temperature": t}
            return out
        return temperature(c, s.temperature)

    def mirostat(self, c: Candidates, v2: bool) -> Candidates:
        s, state = self.s, self.state
        mu = state.mu if state.mu is not None else float(np.float32(2) * np.float32(s.mirostat_tau))
        name = "mirostat_v2" if v2 else "mirostat"
        self.info[name] = {"mu": mu} if v2 else {"mu": mu, "n_vocab": float(state.n_vocab)}
        return st.mirostat_v2(c, mu) if v2 else st.mirostat_v1(c, mu, state.n_vocab or len(c))

    def logit_bias(self, c: Candidates) -> Candidates:
        return st.logit_bias(c, self.state.bias_ids, self.state.bias_values)

    def grammar(self, c: Candidates) -> Candidates:
        grammar = self.state.grammar
        if grammar is None:
            return c
        ok = grammar.allowed(c.ids, c.full)
        keep = np.flatnonzero(ok)
        if len(keep) == 0:
            raise GrammarDeadEnd("no token fits the grammar")
        head = self.state.head_ids if self.state.head_ids is not None else c.ids[c.best(RAW_TOP_N)]
        if c.full:
            masked = head[~ok[head]]
        else:
            masked = head[np.isin(head, c.ids[~ok])]
        self.removed["grammar"] = masked.astype(np.int32)
        self.info["grammar"] = {"allowed": float(len(keep))}
        return c if len(keep) == len(c) else c.subset(keep, c.sorted)

    def functions(self) -> dict[str, Callable[[Candidates], Candidates]]:
        s = self.s
        return {
            "penalties": self.penalties, "dry": self.dry, "xtc": self.xtc, "temperature": self.temperature,
            "top_k": lambda c: top_k(c, s.top_k),
            "top_p": lambda c: top_p(c, s.top_p, max(s.min_keep, 1)),
            "min_p": lambda c: min_p(c, s.min_p, max(s.min_keep, 1)),
            "typ_p": lambda c: st.typical(c, s.typical_p, s.min_keep),
            "top_n_sigma": lambda c: st.top_n_sigma(c, s.top_n_sigma),
            "mirostat": lambda c: self.mirostat(c, False), "mirostat_v2": lambda c: self.mirostat(c, True),
            "logit_bias": self.logit_bias, "grammar": self.grammar,
        }


def stage_functions(s: SamplerSettings, recent: np.ndarray,
                    state: SamplerState | None = None) -> dict[str, Callable[[Candidates], Candidates]]:
    return _Stages(s, np.asarray(recent, dtype=np.int32), state or SamplerState(np.random.default_rng(0))).functions()


def run_stages(c: Candidates, s: SamplerSettings, recent: Sequence[int] | np.ndarray,
               record: bool = True, state: SamplerState | None = None) -> tuple[Candidates, list[StageRecord]]:
    """Apply the stages in the settings' order; return the final candidates and one record per stage.
    GrammarDeadEnd when the grammar allows no token."""
    stages = _Stages(s, np.asarray(recent, dtype=np.int32), state or SamplerState(np.random.default_rng(0)))
    funcs = stages.functions()
    records: list[StageRecord] = []
    for name in s.chain():
        if not is_on(name, s):
            continue
        after = funcs[name](c)
        if record:
            records.append(_record(name, c, after, stages.info.get(name, {}), stages.removed.get(name)))
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


def mirostat_update(mu: float, p_chosen: float, tau: float, eta: float) -> float:
    """mu - eta * (surprise - tau), in float32 as llama.cpp (the chosen token's surprise in bits)."""
    f32 = np.float32
    with np.errstate(divide="ignore"):
        surprise = -np.log2(f32(p_chosen))
    return float(f32(mu) - f32(eta) * (surprise - f32(tau)))


def sample(c: Candidates, s: SamplerSettings, recent: Sequence[int] | np.ndarray,
           rng: np.random.Generator | None = None, record: bool = True, state: SamplerState | None = None,
           forced: int | None = None) -> SampleOutcome:
    """One step: the stages, the draw (or `forced`), then the state moves on (Mirostat's mu, the grammar)."""
    if state is None:
        state = SamplerState(rng if rng is not None else np.random.default_rng())
    final, stages = run_stages(c, s, recent, record, state)
    index, probs = draw(final, state.rng, s.greedy)
    token = int(final.ids[index]) if forced is None else forced
    if s.mirostat:
        mu = state.mu if state.mu is not None else float(np.float32(2) * np.float32(s.mirostat_tau))
        where = np.flatnonzero(final.ids == token)
        if len(where):  # a forced token outside the truncation has no surprise to learn from
            state.mu = mirostat_update(mu, float(probs[where[0]]), s.mirostat_tau, s.mirostat_eta)
        for rec in stages:
            if rec.name in ("mirostat", "mirostat_v2"):
                rec.info["mu_next"] = state.mu if state.mu is not None else mu
    return SampleOutcome(token, final, probs, stages)
