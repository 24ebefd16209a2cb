"""A loop's fix, checked before it is offered: the proposed sampler settings replayed over the loop's recorded
steps (sampling/replay.py: the same stages on each step's stored raw head, DRY and the penalties reading the
tokens before it) say whether the looping token would still come first. A fix that changes none of them is
not offered: DRY's default sequence breakers include "*", which starts every item of a repeated list, so
DRY alone never sees a repeat long enough to penalize there.

The replay is exact for greedy answers up to the first changed step (what follows would differ anyway); for
a sampled one it says what the fix makes most likely. Only the first LOOP_CHECK_STEPS steps of the loop are
replayed: a fix that works acts at the first repeats (and the diagnosis stays a few milliseconds).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message, join_messages
from logitscope.diagnosis import thresholds as th
from logitscope.diagnosis.findings import Fix
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import StepRecord, Vocab, piece_text
from logitscope.sampling.dry import DryBreakers, build_breakers
from logitscope.sampling.replay import replay_step


@dataclass(frozen=True)
class Change:
    """The first replayed step where the fix puts another token first."""

    step: int      # the step's index in the answer
    was: str       # the recorded token's text
    now: str       # the fix's first choice


def unreplayable(steps: Sequence[StepRecord], settings: dict[str, Any]) -> Message | None:
    """Why the loop's steps cannot be replayed (None: they can)."""
    if not steps or any(s.token < 0 or not len(s.raw_logits) or s.raw_ids[0] < 0 for s in steps):
        return Message("the trace has no token ids or raw candidates to replay")
    try:
        SamplerSettings.from_dict(settings)
    except InvalidSettingsError:
        return Message("the answer's sampler settings are unreadable")
    return None


def _pieces(steps: Sequence[StepRecord], prompt: Sequence[int], vocab: Vocab | None) -> dict[int, bytes]:
    """The bytes of every token DRY may read: the prompt's, the answer's and each step's raw head."""
    out: dict[int, bytes] = {}
    for t in prompt:
        try:
            out[int(t)] = vocab[int(t)] if vocab is not None else b""
        except (KeyError, IndexError):
            out[int(t)] = b""   # unknown bytes: never a breaker
    for s in steps:
        out[s.token] = s.piece
        if s.raw_pieces is not None:
            out.update(zip((int(t) for t in s.raw_ids), s.raw_pieces, strict=False))
        elif vocab is not None:
            for t in s.raw_ids:
                if int(t) not in out:
                    try:
                        out[int(t)] = vocab[int(t)]
                    except (KeyError, IndexError):
                        out[int(t)] = b""
    return out


def _breakers(breakers: tuple[str, ...], pieces: dict[int, bytes]) -> DryBreakers:
    """DRY's breakers over the known tokens only (llama.cpp scans the whole vocabulary; the rest never appears
    in the replayed history or heads). A breaker that begins inside a token needs the tokenizer: left out."""
    ids = list(pieces)
    sparse = build_breakers(breakers, [pieces[t] for t in ids], None)
    heads = {ids[k]: tails for k, tails in sparse.heads.items()}
    single = np.array(sorted(ids[int(k)] for k in sparse.single), dtype=np.int64)
    return DryBreakers(heads, single, sparse.tails_known)


def first_change(steps: Sequence[StepRecord], span: tuple[int, int], settings: dict[str, Any],
                 prompt: Sequence[int] = (), vocab: Vocab | None = None) -> Change | None:
    """The first step of the loop `span` (positions in `steps`, which must be replayable) where `settings`
    put another token than the recorded one first; None when the loop's token stays first at every step."""
    s = SamplerSettings.from_dict(settings)
    start, end = span
    end = min(end, start + th.LOOP_CHECK_STEPS)
    tokens = [int(t) for t in prompt] + [st.token for st in steps[:end]]
    breakers = _breakers(s.dry_sequence_breakers, _pieces(steps[:end], prompt, vocab)) if s.dry_on else None
    for k in range(start, end):
        step = steps[k]
        replay = replay_step(step, s, tokens[:len(prompt) + k], breakers=breakers)
        if len(replay.ids) and int(replay.ids[0]) != step.token:
            new = int(replay.ids[0])
            where = np.flatnonzero(step.raw_ids == new)
            try:
                piece = (step.raw_pieces[int(where[0])] if step.raw_pieces is not None and len(where)
                         else vocab[new] if vocab is not None else b"?")
            except (KeyError, IndexError):
                piece = b"?"
            return Change(step.i, step.text, piece_text(piece))
    return None


def loop_fixes(settings: dict[str, Any], block: str) -> list[Fix]:
    """The fixes a loop may take, the smallest change first: DRY (when off), DRY without the sequence breakers
    that occur in the repeated block (they cut every repeat short), a higher repeat penalty."""
    dry = float(settings.get("dry_multiplier") or 0.0)
    breakers = tuple(settings.get("dry_sequence_breakers") or ())
    out: list[Fix] = []
    if not dry:
        out.append(Fix(Message("turn on DRY (multiplier {m}), which penalizes repeating a sequence", m=th.LOOP_FIX_DRY),
                       sampler=(("dry_multiplier", th.LOOP_FIX_DRY),)))
    cutting = [b for b in breakers if b in block]
    if cutting:
        kept = tuple(b for b in breakers if b not in cutting)
        out.append(Fix(Message("turn on DRY (multiplier {m}) without the sequence breakers {breakers}, which cut "
                               "every repeat short", m=max(dry, th.LOOP_FIX_DRY), breakers=_quoted(cutting)),
                       sampler=(("dry_multiplier", max(dry, th.LOOP_FIX_DRY)), ("dry_sequence_breakers", kept))))
    penalty = round(max(float(settings.get("repeat_penalty", 1.0)), 1.0) + th.LOOP_FIX_PENALTY_STEP, 2)
    out.append(Fix(Message("raise the repeat penalty to {value}", value=penalty), sampler=(("repeat_penalty", penalty),)))
    return out


def _quoted(texts: Sequence[str]) -> str:
    return ", ".join(json.dumps(t, ensure_ascii=False) for t in texts)   # a newline reads "\n"


def checked_loop_fix(steps: Sequence[StepRecord], span: tuple[int, int], block: str, settings: dict[str, Any],
                     prompt: Sequence[int] = (), vocab: Vocab | None = None) -> tuple[Fix | None, Message]:
    """The first of `loop_fixes` that changes a recorded step of the loop, and what the check found (a sentence
    for the finding's text); no fix when none does. Unreplayable steps: the first fix, said to be unchecked."""
    fixes = loop_fixes(settings, block)
    why = unreplayable(steps[span[0]:span[1]], settings)
    if why is not None:
        return fixes[0], Message("the fix could not be checked on the recorded steps: {why}", why=why)
    failed: list[Fix] = []
    for fix in fixes:
        change = first_change(steps, span, {**settings, **dict(fix.sampler)}, prompt, vocab)
        if change is None:
            failed.append(fix)
            continue
        found = Message("checked on the recorded steps: the fix makes step {i} \"{now}\" instead of "
                        "\"{was}\"", i=change.step, now=short_text(change.now), was=short_text(change.was))
        if not failed:
            return fix, found
        return fix, Message("{failed} would not change any step of the loop; {found}",
                            failed=_labels(failed), found=found)
    return None, Message("no fix is offered: none of these would change a recorded step of the loop: {failed}",
                         failed=_labels(failed))


def _labels(fixes: Sequence[Fix]) -> Message:
    return join_messages("; ", [f.label for f in fixes])


def short_text(text: str) -> str:
    """A token's text as quoted in a sentence: whitespace shown as escapes (a newline is the usual loop token)."""
    return json.dumps(text, ensure_ascii=False)[1:-1] or " "
