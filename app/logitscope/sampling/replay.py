"""Replay a recorded step under other sampler settings, without the model.

The step keeps the top RAW_TOP_N raw logits and the log-sum-exp of all of them. Running the same
sampler stages on that head gives what the new settings would have done, except for the tail outside
the head: its share of the raw mass is reported (`tail_mass`) so the UI can say how exact the preview is.

The stateful stages replay from what the step recorded: Mirostat from its recorded mu, the grammar as the
mask it applied to the head, XTC with its recorded draw, DRY and the penalties from `recent` (the context
before the step). What the stored head cannot replay is said in `not_replayed`, one plain message each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from logitscope.base.messages import Message
from logitscope.protocol.sampler_settings import SamplerSettings, is_on
from logitscope.protocol.trace import StageRecord, StepRecord, Vocab
from logitscope.sampling.dry import DryBreakers, build_breakers
from logitscope.sampling.sampler import run_stages
from logitscope.sampling.sampler_state import GrammarDeadEnd, RecordedMask, SamplerState, resolve_bias
from logitscope.sampling.stages import Candidates


@dataclass
class Replay:
    ids: np.ndarray          # final candidates, best first
    probs: np.ndarray        # their probabilities
    stages: list[StageRecord]
    tail_mass: float         # raw probability mass outside the stored head (not replayed)
    not_replayed: list[str] = field(default_factory=list)   # Messages: what the stored head cannot replay


_breakers: dict[tuple[int, int, tuple[str, ...]], DryBreakers] = {}


def _dry_breakers(vocab: Vocab, breakers: tuple[str, ...]) -> DryBreakers:
    """DRY's breakers over the vocabulary's pieces, once per vocabulary (a slider moves many times)."""
    key = (id(vocab), len(vocab), breakers)
    if key not in _breakers:
        _breakers.clear()
        _breakers[key] = build_breakers(breakers, [vocab[t] for t in range(len(vocab))], None)
    return _breakers[key]


def _state(step: StepRecord, s: SamplerSettings, vocab: Vocab | None, notes: list[str],
           breakers: DryBreakers | None = None) -> SamplerState:
    recorded = {r.name: r for r in step.stages}
    n_vocab = len(vocab) if vocab is not None else 0
    state = SamplerState(np.random.default_rng(0), n_vocab)
    if s.mirostat:
        rec = recorded.get("mirostat_v2" if s.mirostat == 2 else "mirostat")
        if rec is not None and "mu" in rec.info:
            state.mu = rec.info["mu"]
            state.n_vocab = int(rec.info.get("n_vocab", n_vocab))
        else:
            notes.append(Message("Mirostat was not on at this step: it is replayed from its starting state (mu = 2 × tau)"))
        if s.mirostat == 1 and not state.n_vocab:
            state.n_vocab = len(step.raw_ids)
            notes.append(Message("Mirostat 1 needs the vocabulary's size: the stored head's is used"))
    if is_on("grammar", s):
        rec = recorded.get("grammar")
        if rec is not None:
            state.grammar = RecordedMask(rec.removed_ids)
            notes.append(Message("the grammar is replayed as this step applied it: a changed grammar cannot be "
                                 "replayed from the stored head"))
        else:
            notes.append(Message("the grammar was not on at this step: it cannot be replayed from the stored head"))
    if is_on("xtc", s):
        rec = recorded.get("xtc")
        state.xtc_triggered = bool(rec.info.get("triggered", 0.0)) if rec is not None else True
        notes.append(Message("XTC replays this step's draw (cut or not); a new probability does not draw again")
                     if rec is not None else
                     Message("XTC was not on at this step: the preview shows the cut it makes when its draw says so"))
    if s.logit_bias:
        pairs = [(t, b) for t, b in s.logit_bias if isinstance(t, int) and (not n_vocab or t < n_vocab)]
        if len(pairs) < len(s.logit_bias):
            notes.append(Message("a logit bias on a text needs the model's tokenizer: only biases on token ids "
                                 "are replayed"))
        state.bias_ids, state.bias_values = resolve_bias(pairs, n_vocab or 1 << 31, None)
    if s.dry_on:
        if breakers is not None:
            state.dry_breakers = breakers
        elif vocab is not None:
            state.dry_breakers = _dry_breakers(vocab, tuple(s.dry_sequence_breakers))
            if not state.dry_breakers.tails_known:
                notes.append(Message("DRY's sequence breakers that begin inside a token need the model's "
                                     "tokenizer: they are not replayed"))
        else:
            notes.append(Message("DRY's sequence breakers need the vocabulary: replayed without them"))
    return state


def replay_step(step: StepRecord, settings: SamplerSettings, recent: Sequence[int] = (),
                vocab: Vocab | None = None, breakers: DryBreakers | None = None) -> Replay:
    """`recent`: the context tokens before the step (DRY and the penalties read them); `vocab`: every
    token's bytes (DRY's sequence breakers), when at hand; `breakers`: DRY's breakers already built (over
    the tokens the caller knows: those of `recent` and the head are all DRY reads), instead of the vocab's."""
    head = Candidates(step.raw_ids.astype(np.int32), step.raw_logits.astype(np.float32), True)
    notes: list[str] = []
    state = _state(step, settings, vocab, notes, breakers)
    head_mass = float(np.exp(step.raw_logits.astype(np.float64) - step.raw_lse).sum())
    tail = max(0.0, 1.0 - min(head_mass, 1.0))
    try:
        final, stages = run_stages(head, settings, np.asarray(recent, dtype=np.int32), state=state)
    except GrammarDeadEnd:
        notes.append(Message("the grammar allows none of the stored head's tokens"))
        return Replay(np.empty(0, dtype=np.int32), np.empty(0, dtype=np.float32), [], tail, notes)
    probs = final.probs()
    order = np.argsort(-probs, kind="stable")
    return Replay(final.ids[order], probs[order].astype(np.float32), stages, tail, notes)
