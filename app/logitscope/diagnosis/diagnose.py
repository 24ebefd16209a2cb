"""The diagnosis of one answer: every check, and what was skipped because the trace lacks its data."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from logitscope.base.messages import Message
from logitscope.diagnosis import checks
from logitscope.diagnosis.findings import SEVERITIES, Context, Diagnosis, Finding
from logitscope.diagnosis.thinking import check_thinking, thinking_prefix
from logitscope.diagnosis.thresholds import SLOW_REFERENCE_MIN_ANSWERS
from logitscope.protocol.trace import GenerationResult, StepRecord, Vocab


def diagnose(steps: Sequence[StepRecord], result: GenerationResult | None, vocab: Vocab | None = None,
             context: Context | None = None, settings: dict[str, Any] | None = None) -> Diagnosis:
    """`result`: None for an answer that never finished (no finish reason, no timings); `vocab`: token bytes
    by id, to read the candidates of a local trace (a remote one carries them); `settings`: the sampler and
    decode settings the answer was made with when `result` does not say (default: the result's)."""
    context = context or Context()
    used = dict(settings if settings is not None else result.settings if result is not None else {})
    answer = checks.Answer(steps, result, vocab, context, used)
    skipped: list[Message] = []
    findings: list[Finding] = []
    n_thinking = thinking_prefix(answer)   # a loop inside a reasoning model's block is the thinking check's
    findings += checks.check_loop(answer, offset=n_thinking)
    loop_end = findings[0].spans[0][1] if findings else -1
    to_the_end = bool(steps) and loop_end >= len(steps)
    # the token limit came inside a block that never ended: the thinking finding says so, with a budget as its fix
    to_the_end = to_the_end or (bool(steps) and n_thinking == len(steps) and result is not None
                                and result.reasoning is not None)
    if result is None:
        skipped.append(Message("the answer did not finish: how it ended and its speed were not checked"))
    findings += checks.check_cut_off(answer, to_the_end)
    findings += checks.check_stop_missed(answer)
    known_p = [s for s in steps if math.isfinite(s.p_raw) and math.isfinite(s.entropy_raw)]
    if steps and len(known_p) < len(steps):
        skipped.append(Message("the engine reported no raw probability or entropy for {n} of {total} tokens: the "
                               "guessing and off-course checks skipped them", n=len(steps) - len(known_p),
                               total=len(steps)))
    ranked = [s for s in known_p if s.rank_raw >= 0]
    findings += checks.check_guessing(checks.Answer(known_p, result, vocab, context, used, whole=steps))
    findings += checks.check_opening(checks.Answer(ranked, result, vocab, context, used, whole=steps), n_thinking)
    findings += checks.check_off_course(checks.Answer(ranked, result, vocab, context, used))
    findings += checks.check_trimmed(answer)
    if result is not None and not math.isfinite(result.timings.gen_s):
        skipped.append(Message("the engine reported no generation time: the speed was not checked"))
    elif result is not None and context.reference_tps is None:
        skipped.append(Message("no speed of this model on this machine to compare with (it needs {n} finished "
                               "answers of it generated on this machine): the speed was not judged",
                               n=SLOW_REFERENCE_MIN_ANSWERS))
    findings += checks.check_slow(answer)
    findings += check_thinking(answer)
    findings.sort(key=lambda f: -SEVERITIES.index(f.severity))   # the worst first (stable within a severity)
    return Diagnosis(tuple(findings), tuple(skipped), len(steps))

