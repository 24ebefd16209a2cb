"""The checks: each reads the trace (and what else is known of the answer) and returns its findings.

Numpy over the whole answer at once where it counts (the loop search), so a 4,000-token trace is
diagnosed in a few milliseconds (`logitscope bench --diagnosis`).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from logitscope.base.messages import Message, fields, join_messages
from logitscope.diagnosis import thresholds as th
from logitscope.diagnosis.findings import Context, Finding, Fix
from logitscope.diagnosis.fix_check import checked_loop_fix, loop_fixes
from logitscope.diagnosis.quants import NEXT_SMALLER
from logitscope.gguf.memory import UNQUANTIZED_KV
from logitscope.protocol.api import DecodeOptions
from logitscope.protocol.notices import CONTEXT_FULL_NOTICE, FALLBACK_NOTICE, TRIMMED_NOTICE
from logitscope.protocol.trace import GenerationResult, StepRecord, Vocab, piece_text

SENTENCE_END = ".!?:\n"
_SENTENCE_STARTS = ("", *SENTENCE_END)   # what the last character written may be at a sentence's start


def notice_pattern(template: str) -> re.Pattern[str]:
    """(A stored notice has lost its template: it is matched as text.) A regular expression matching `template` rendered with whole numbers, each field captured by name."""
    out, rest = [], template
    for name, _spec, _conv in fields(template):
        literal, rest = rest.split("{" + name + "}", 1)
        out += [re.escape(literal), f"(?P<{name}>\\d+)"]
    return re.compile("".join(out) + re.escape(rest))


_TRIMMED = notice_pattern(TRIMMED_NOTICE)
_CONTEXT_FULL = notice_pattern(CONTEXT_FULL_NOTICE)
_SPECIAL = re.compile(th.SPECIAL_TOKEN_PATTERN)
_TURN = re.compile(th.TURN_HEADER_PATTERN)


@dataclass
class Answer:
    """One answer as the checks see it."""

    steps: Sequence[StepRecord]
    result: GenerationResult | None
    vocab: Vocab | None
    context: Context
    settings: dict[str, Any]
    whole: Sequence[StepRecord] = ()   # every step, when `steps` is the subset a check can read

    @property
    def notices(self) -> list[str]:
        return list(self.result.notices if self.result is not None else []) + list(self.context.notices)

    def alternatives(self, step: StepRecord, n: int) -> list[tuple[str, float]]:
        """The raw head's first `n` candidates as (text, probability); [] when their bytes are unknown."""
        if step.raw_pieces is not None:
            pieces = step.raw_pieces[:n]
        elif self.vocab is not None:
            try:
                pieces = [self.vocab[int(t)] for t in step.raw_ids[:n]]
            except (KeyError, IndexError):
                return []
        else:
            return []
        probs = np.exp(step.raw_logits[:len(pieces)].astype(np.float64) - step.raw_lse)   # only the head asked for
        return [(piece_text(b), float(p)) for b, p in zip(pieces, probs, strict=True)]


def engine_written(result: GenerationResult | None, offset: int = 0) -> range:
    """The steps the engine forced itself (a thinking budget's closing tags), as step indices; `offset`: where the
    generated steps start (a fork's copied prefix comes first)."""
    record = result.reasoning if result is not None else None
    span = record.get("forced") if isinstance(record, dict) else None
    if not (isinstance(span, list) and len(span) == 2 and all(isinstance(v, int) for v in span)):
        return range(0)
    return range(span[0] + offset, span[1] + offset)


def _spans(indices: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Sorted step indices as [start, end) ranges."""
    out: list[list[int]] = []
    for i in indices:
        if out and out[-1][1] == i:
            out[-1][1] = i + 1
        else:
            out.append([i, i + 1])
    return tuple((a, b) for a, b in out)


# -- repetition loop ---------------------------------------------------------------------------------

def token_keys(steps: Sequence[StepRecord]) -> np.ndarray:
    """One integer per step that is equal for equal tokens: the id, or (a remote step without ids) its bytes."""
    ids = np.fromiter((s.token for s in steps), dtype=np.int64, count=len(steps))
    if len(ids) and ids.min() < 0:
        interned: dict[bytes, int] = {}
        ids = np.fromiter((interned.setdefault(s.piece, len(interned)) for s in steps), dtype=np.int64,
                          count=len(steps))
    return ids


def longest_repeat(keys: np.ndarray) -> tuple[int, int, int] | None:
    """(start, end, period) of the longest run where the tokens repeat with a period up to LOOP_MAX_PERIOD,
    at least LOOP_MIN_REPEATS times and LOOP_MIN_TOKENS tokens long; None if there is none."""
    best: tuple[int, int, int] | None = None
    for period in range(1, min(th.LOOP_MAX_PERIOD, len(keys) // th.LOOP_MIN_REPEATS) + 1):
        equal = keys[period:] == keys[:-period]
        if np.count_nonzero(equal) < th.LOOP_MIN_TOKENS - period:   # too few repeats at this period for any run
            continue
        same = np.concatenate(([0], equal.astype(np.int8), [0]))
        edges = np.flatnonzero(np.diff(same))
        if not len(edges):
            continue
        starts, ends = edges[0::2], edges[1::2]
        k = int(np.argmax(ends - starts))
        length = int(ends[k] - starts[k]) + period   # the first block plus its repeats
        if length < max(th.LOOP_MIN_TOKENS, th.LOOP_MIN_REPEATS * period):
            continue
        if best is None or length > best[1] - best[0]:
            best = (int(starts[k]), int(starts[k]) + length, period)
    return best


def check_loop(a: Answer, offset: int = 0) -> list[Finding]:
    """`offset`: the answer's steps are read from there on (after a reasoning model's thinking block)."""
    found = longest_repeat(token_keys(a.steps[offset:]))
    if found is None:
        return []
    start, end, period = (found[0] + offset, found[1] + offset, found[2])
    # the model locks in as the loop goes on: its certainty is read over the run's last stretch
    probs = np.array([s.p_raw for s in a.steps[max(start, end - th.LOOP_MIN_TOKENS):end]], dtype=np.float64)
    whole_block = "".join(s.text for s in a.steps[start:start + period])
    block = whole_block.strip()
    if np.isfinite(probs).all() and probs.mean() >= th.LOOP_SURE_P:
        text = Message("the answer repeats itself: \"{block}\" {times} times in a row (steps {first}-{last}), "
                       "and by then the model was sure of each repeated token (mean p {p:.2f}): it is stuck in a loop",
                       block=short(block), times=(end - start) // period, first=start, last=end - 1,
                       p=float(probs.mean()))
    else:
        text = Message("the answer repeats itself: \"{block}\" {times} times in a row (steps {first}-{last})",
                       block=short(block), times=(end - start) // period, first=start, last=end - 1)
    prompt = a.result.prompt_tokens if a.result is not None else []
    fix, checked = checked_loop_fix(a.steps, (start, end), whole_block, a.settings, prompt, a.vocab)
    return [Finding("loop", "problem", join_messages("; ", [text, checked]),
                    ((start, end),), fix)]


def loop_fix(settings: dict[str, Any]) -> Fix:
    """The loop's first fix, unchecked (a thinking block's loop: its steps are not replayed)."""
    return loop_fixes(settings, "")[0]


def short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


# -- cut off -----------------------------------------------------------------------------------------

def check_cut_off(a: Answer, loop_to_the_end: bool) -> list[Finding]:
    if a.result is None:
        return []
    last = ((len(a.steps) - 1, len(a.steps)),) if a.steps else ()
    for notice in a.notices:
        full = _CONTEXT_FULL.search(notice)
        if full:
            n_ctx = int(full["n_ctx"])
            return [Finding("cut_off", "problem", Message(
                "the answer was cut off: the context window ({n_ctx} tokens) filled up", n_ctx=n_ctx), last,
                Fix(Message("reload the model with a context of {n} tokens (the KV cache grows with it)",
                            n=n_ctx * th.CUT_N_CTX_FACTOR), load=(("n_ctx", n_ctx * th.CUT_N_CTX_FACTOR),)))]
    if a.result.finish_reason != "length" or loop_to_the_end:  # a loop to the end: the loop is the cause
        return []
    max_tokens = int(a.settings.get("max_tokens") or DecodeOptions().max_tokens)
    more = min(th.CUT_MAX_TOKENS_CAP, max_tokens * th.CUT_MAX_TOKENS_FACTOR)
    fix = Fix(Message("allow {n} tokens", n=more), decode=(("max_tokens", more),)) if more > max_tokens else None
    return [Finding("cut_off", "problem", Message(
        "the answer was cut off: it reached the limit of {n} tokens before the model ended it", n=max_tokens),
        last, fix)]


# -- guessing ----------------------------------------------------------------------------------------

def _fact_like(text: str) -> bool:
    """A token that starts a name or a number."""
    word = text.strip()
    return bool(word) and (word[0].isdigit() or word[0].isupper()) and word != "I"   # "I": a pronoun


def check_guessing(a: Answer) -> list[Finding]:
    slots: list[StepRecord] = []
    before = ""   # the last non-space character written so far
    for step in a.steps:
        text = step.text
        if (step.p_raw < th.GUESS_MAX_P and step.entropy_raw >= th.GUESS_MIN_ENTROPY   # the cheap tests first
                and before not in _SENTENCE_STARTS and _fact_like(text)):
            mine = text.strip()
            rivals = [t for t, p in a.alternatives(step, 5)
                      if p >= th.GUESS_RIVAL_P and _fact_like(t) and t.strip() != mine]
            if rivals:
                slots.append(step)
        stripped = text.rstrip(" \t")
        if stripped:
            before = stripped[-1]
    if len(slots) < th.GUESS_MIN_SLOTS:
        return []
    words = ", ".join(f"\"{w}\"" for w in _words(a.whole or a.steps, slots)[:5])
    temperature = float(a.settings.get("temperature", 0.0))
    fix = (Fix(Message("greedy decoding (temperature 0): the model's best guess every time"),
               sampler=(("temperature", th.GUESS_FIX_TEMPERATURE),))
           if temperature > th.GUESS_FIX_TEMPERATURE else None)
    return [Finding("guessing", "warning", Message(
        "the model was guessing: {n} names or numbers were chosen among close rivals ({words}); "
        "check them, it may have made them up", n=len(slots), words=words), _spans([s.i for s in slots]), fix)]


def check_opening(a: Answer, offset: int = 0) -> list[Finding]:
    """A long-shot opening: the answer's first tokens (from step `offset`, after a thinking block) drawn far
    down a flat raw distribution, together much less likely than the model's own first choices. What follows
    is built on them: a short answer that opens on a guess is usually made up ("Estée Lauder ... is Bastia")."""
    forked = a.context.forked_at
    forced = engine_written(a.result, forked or 0)
    picks: list[tuple[StepRecord, float]] = []
    odds = 1.0
    for step in a.steps:
        if not offset <= step.i < offset + th.OPENING_TOKENS:
            continue
        if ((forked is not None and step.i <= forked) or step.i in forced or step.rank_raw < th.OPENING_MIN_RANK
                or step.entropy_raw < th.OPENING_MIN_ENTROPY or not len(step.raw_logits)
                or any(s.name in _CONSTRAINTS for s in step.stages)):
            continue
        top = math.exp(float(step.raw_logits[0]) - step.raw_lse)
        picks.append((step, top))
        odds *= top / max(step.p_raw, 1e-12)
    if not picks or odds < th.OPENING_ODDS:
        return []
    named = [Message("\"{token}\" (p {p:.2f}, rank {rank}; more likely: {better})", token=_token(step),
                     p=step.p_raw, rank=step.rank_raw + 1, better=", ".join(
                         f"\"{t.strip() or t}\" {p:.2f}" for t, p in a.alternatives(step, min(step.rank_raw, 3))))
             for step, _top in picks]
    opening = short("".join(s.text for s in (a.whole or a.steps)[offset:offset + th.OPENING_TOKENS]))
    temperature = float(a.settings.get("temperature", 0.0))
    fix = (Fix(Message("greedy decoding (temperature 0): the model's best guess every time"),
               sampler=(("temperature", th.GUESS_FIX_TEMPERATURE),))
           if temperature > th.GUESS_FIX_TEMPERATURE else None)
    # greedy can trade a guess for a loop on a small model: a lower temperature keeps some variety
    lower = (Fix(Message("a lower temperature ({temperature:g}): long shots become rarer",
                         temperature=th.OPENING_FIX_TEMPERATURE),
                 sampler=(("temperature", th.OPENING_FIX_TEMPERATURE),))
             if temperature > th.OPENING_FIX_TEMPERATURE and fix is not None else None)
    text = Message("the model was guessing from the first words: the opening \"{opening}\" was drawn from a spread-out "
                   "distribution, {odds:.0f} times less likely than the model's own first choices ({picks}); what "
                   "follows is built on it, check it (a lower temperature makes such picks rarer)",
                   opening=opening, odds=odds, picks=join_messages(", ", named))
    return [Finding("guessing", "warning", text, _spans([s.i for s, _top in picks]), fix,
                    (lower,) if lower is not None else ())]


def _token(step: StepRecord) -> str:
    return step.text.strip() or piece_text(step.piece)


def _inside_word(text: str, k: int) -> bool:
    """Whether character k belongs to a word: a letter or digit, or an apostrophe, hyphen or (between digits)
    a point or comma with word characters on both sides ("King's", "Jean-Paul", "1,603")."""
    c = text[k]
    if c.isalnum():
        return True
    if not (0 < k < len(text) - 1 and text[k - 1].isalnum() and text[k + 1].isalnum()):
        return False
    return c in "'’-" or (c in ".," and text[k - 1].isdigit() and text[k + 1].isdigit())


def _words(steps: Sequence[StepRecord], slots: Sequence[StepRecord]) -> list[str]:
    """The whole words (once each, in order) that hold the slots' tokens: a token is often a piece of a word
    ("Cit" of "Cité"), and the user reads words."""
    text = "".join(s.text for s in steps)
    starts, at = {}, 0
    for s in steps:
        starts[id(s)] = at
        at += len(s.text)
    out: list[str] = []
    for slot in slots:
        a = starts.get(id(slot))
        if a is None:   # not a step of this answer's text: as it is
            out.append(slot.text.strip())
            continue
        a += len(slot.text) - len(slot.text.lstrip())   # the word starts after the token's leading space
        b = a + len(slot.text.strip())
        while a > 0 and _inside_word(text, a - 1):
            a -= 1
        while b < len(text) and _inside_word(text, b):
            b += 1
        word = short(text[a:b])
        if word and word not in out:
            out.append(word)
    return out


# -- sampling drove it off course -------------------------------------------------------------------

_CONSTRAINTS = ("grammar", "logit_bias")   # a stage that moves tokens on purpose: not the sampler's chance


def check_off_course(a: Answer) -> list[Finding]:
    strays: list[StepRecord] = []
    forked = a.context.forked_at
    forced = engine_written(a.result, forked or 0)
    for step in a.steps:
        if (forked is not None and step.i <= forked) or step.i in forced:
            continue
        if step.rank_raw < th.OFF_MIN_RANK or not step.p_raw < th.OFF_MAX_P or not len(step.raw_logits):
            continue
        top = math.exp(float(step.raw_logits[0]) - step.raw_lse)
        if top >= th.OFF_TOP_P and not any(s.name in _CONSTRAINTS for s in step.stages):
            strays.append(step)
    if not strays:
        return []
    first = strays[0]
    top_text = (a.alternatives(first, 1) or [("?", 0.0)])[0][0]
    s = a.settings
    temperature, top_p = float(s.get("temperature", 0.8)), float(s.get("top_p", 1.0))
    changes = (("temperature", min(temperature, th.OFF_FIX_TEMPERATURE)), ("top_p", min(top_p, th.OFF_FIX_TOP_P)))
    text = Message("sampling drove it off course: at step {i} the model was {top:.0%} sure of \"{best}\" but the "
                   "sampler drew \"{chosen}\" (p {p:.3f}, rank {rank}){more}",
                   i=first.i, top=math.exp(float(first.raw_logits[0]) - first.raw_lse), best=top_text.strip(),
                   chosen=first.text.strip() or piece_text(first.piece), p=first.p_raw, rank=first.rank_raw + 1,
                   more=Message("; {n} such steps in all", n=len(strays)) if len(strays) > 1 else "")
    fix = Fix(Message("regenerate from step {i} with the model's first choice, at temperature {t} and top-p {p}",
                      i=first.i, t=changes[0][1], p=changes[1][1]),
              sampler=changes, fork=(first.i, int(first.raw_ids[0])) if first.raw_ids[0] >= 0 else None)
    return [Finding("off_course", "warning", text, _spans([st.i for st in strays]), fix)]


# -- end of turn missed ------------------------------------------------------------------------------

def check_stop_missed(a: Answer) -> list[Finding]:
    fallback = any(FALLBACK_NOTICE in n for n in a.notices)
    text = "".join(s.text for s in a.steps)
    hit = _SPECIAL.search(text) or _TURN.search(text)
    if hit is None:
        if not fallback:
            return []
        return [Finding("stop_missed", "warning", Message(
            "this model has no chat template: a plain 'User:' / 'Assistant:' format was used, which the model "
            "may not know how to end; a model file with its own chat template answers better"))]
    where = _step_at(a.steps, hit.start() + (1 if hit.group().startswith("\n") else 0))
    marker = hit.group().strip()
    stops = tuple(a.settings.get("stop") or ())
    fix = (Fix(Message("stop at \"{marker}\"", marker=marker), decode=(("stop", (*stops, marker)),))
           if marker not in stops else None)
    cause = Message(" (no chat template: a plain format was used)") if fallback else ""
    return [Finding("stop_missed", "warning", Message(
        "the model went past the end of its turn: \"{marker}\" at step {i}, the rest is not its answer{cause}",
        marker=marker, i=a.steps[where].i, cause=cause), ((a.steps[where].i, a.steps[-1].i + 1),), fix)]


def _step_at(steps: Sequence[StepRecord], offset: int) -> int:
    """The position of the step that wrote character `offset` of the answer."""
    total = 0
    for k, s in enumerate(steps):
        total += len(s.text)
        if total > offset:
            return k
    return len(steps) - 1


# -- context trimmed ---------------------------------------------------------------------------------

def check_trimmed(a: Answer) -> list[Finding]:
    for notice in a.notices:
        m = _TRIMMED.search(notice)
        if m:
            n_ctx, trimmed = int(m["n_ctx"]), int(m["trimmed"])
            return [Finding("trimmed", "warning", Message(
                "the conversation did not fit the context ({n_ctx} tokens): the {trimmed} oldest message(s) "
                "were left out, so the model did not see them", n_ctx=n_ctx, trimmed=trimmed), (),
                Fix(Message("reload the model with a context of {n} tokens (the KV cache grows with it), "
                            "or start a new chat with a summary", n=n_ctx * th.CUT_N_CTX_FACTOR),
                    load=(("n_ctx", n_ctx * th.CUT_N_CTX_FACTOR),)))]
    return []


# -- slow --------------------------------------------------------------------------------------------

def check_slow(a: Answer) -> list[Finding]:
    t = a.result.timings if a.result is not None else None
    if t is None or t.n_gen < th.SLOW_MIN_TOKENS or not (math.isfinite(t.gen_s) and t.gen_s > 0):
        return []
    tps, ref = t.gen_tps, a.context.reference_tps
    if ref is None or ref <= 0 or tps >= th.SLOW_FRACTION * ref:  # no reference: no judgement (a slow machine
        return []                                                # is not a slow answer)
    text = Message("slow: {tps:.1f} tokens/s, {share:.0%} of the {ref:.1f} tokens/s this model reaches on "
                   "this machine{quant}", tps=tps, share=tps / ref, ref=ref, quant=_smaller_quant(a.context))
    return [Finding("slow", "info", text, (), _speed_fix(a.context))]


def _smaller_quant(context: Context) -> Message | str:
    """What the text says of a smaller quantization: the library's, or the usual next step down."""
    quant, smaller = context.quant, context.smaller
    if quant is None:
        return ""
    if smaller is not None:
        return Message("; a smaller quantization of this model is in the library: {name} ({type}, {bpw:.2f} bits "
                       "per weight instead of {now:.2f})", name=os.path.basename(smaller.path), type=smaller.file_type,
                       bpw=smaller.bits_per_weight, now=quant.bits_per_weight)
    if quant.file_type in NEXT_SMALLER:
        return Message("; a smaller quantization would be faster: {smaller} instead of {now} (none is in the "
                       "library)", smaller=NEXT_SMALLER[quant.file_type], now=quant.file_type)
    return ""


def _speed_fix(context: Context) -> Fix | None:
    load = context.load
    if load is None:
        return None
    if context.gpu_offload and load.n_gpu_layers != -1:
        return Fix(Message("reload the model with every layer on the GPU"), load=(("n_gpu_layers", -1),))
    if context.smaller is not None:
        return Fix(Message("load {name}, the smaller quantization ({type})", name=os.path.basename(context.smaller.path),
                           type=context.smaller.file_type), model=context.smaller.path)
    if load.type_k == UNQUANTIZED_KV or not load.flash_attn:
        return Fix(Message("reload the model with flash attention and a {kv} KV cache", kv=th.FIX_KV_TYPE),
                   load=(("type_k", th.FIX_KV_TYPE), ("type_v", th.FIX_KV_TYPE), ("flash_attn", True)))
    return None
