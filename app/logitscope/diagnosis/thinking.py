"""The thinking-specific findings of a reasoning model's answer (its trace's `reasoning` record and the steps the
engine marked `thinking`): a block that never ended, a budget that cut the thinking short, thinking that goes round
in circles. A loop inside the block is reported here, not as the answer's loop (checks.check_loop reads the answer's
steps only), since its fix is a budget, not a penalty on the answer's words."""

from __future__ import annotations

from logitscope.base.messages import Message
from logitscope.diagnosis import thresholds as th
from logitscope.diagnosis.checks import Answer, longest_repeat, loop_fix, short, token_keys
from logitscope.diagnosis.findings import Finding, Fix
from logitscope.protocol.api import DecodeOptions
from logitscope.protocol.reasoning import BY_BUDGET, UNCLOSED


def thinking_prefix(a: Answer) -> int:
    """How many of the answer's first steps are its thinking block."""
    n = 0
    while n < len(a.steps) and a.steps[n].thinking:
        n += 1
    return n


def check_thinking(a: Answer) -> list[Finding]:
    record = a.result.reasoning if a.result is not None else None
    n = thinking_prefix(a)
    if not n:
        return []
    findings = _loop_in_block(a, n, record is not None and record.get("ended") == UNCLOSED)
    if record is None:
        return findings
    if record.get("ended") == UNCLOSED:
        findings.insert(0, _never_closed(a, n))
    budget = int(record.get("budget", -1))
    if record.get("ended") == BY_BUDGET and budget > 0:
        more = budget * th.THINKING_BUDGET_FACTOR
        findings.append(Finding("thinking_budget", "warning", Message(
            "the thinking budget ({budget} tokens) closed the block before the model ended it: the answer may rest on "
            "reasoning it did not finish", budget=budget), ((budget, n),),
            Fix(Message("allow {n} tokens of thinking", n=more), decode=(("reasoning_budget", more),))))
    return findings


def _never_closed(a: Answer, n: int) -> Finding:
    max_tokens = int(a.settings.get("max_tokens") or DecodeOptions().max_tokens)
    budget = max(th.THINKING_MIN_BUDGET, min(n, max_tokens) * 3 // 4)   # room left for the answer after it
    if a.result is not None and a.result.finish_reason == "length":
        text = Message("the model thought for {n} tokens and the token limit came before it ended its thinking: "
                       "there is no answer", n=n)
    else:
        text = Message("the model thought for {n} tokens and stopped without ending its thinking block: the answer "
                       "is inside it, or missing", n=n)
    return Finding("thinking_unclosed", "problem", text, ((0, n),), Fix(Message(
        "set a thinking budget of {n} tokens: the engine then closes the block and the answer follows", n=budget),
        decode=(("reasoning_budget", budget),)))


def _loop_in_block(a: Answer, n: int, unclosed: bool) -> list[Finding]:
    found = longest_repeat(token_keys(a.steps[:n]))
    if found is None:
        return []
    start, end, period = found
    block = "".join(s.text for s in a.steps[start:start + period]).strip()
    text = Message("the thinking goes round in circles: \"{block}\" {times} times in a row (steps {first}-{last})",
                   block=short(block), times=(end - start) // period, first=start, last=end - 1)
    # a block that never ended is fixed by its budget (the finding above); one that did, by the loop's own fix
    return [Finding("thinking_loop", "problem" if unclosed else "warning", text, ((start, end),),
                    None if unclosed else loop_fix(a.settings))]
