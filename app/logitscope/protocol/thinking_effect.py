"""What the thinking did to an answer: the answer a reasoning model gave after thinking, against the one it gives
with the block closed at once (same question, seed and settings; *Answer without thinking*), token by token up to
the first token where they part. Whitespace steps at the answer's start (after `</think>`) are not compared: the
model's own closing and the engine's (`CLOSE_TEXT`) may leave different line breaks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from logitscope.protocol.trace import StepRecord


def answer_steps(steps: Sequence[StepRecord]) -> list[StepRecord]:
    """The answer's steps: after its thinking block, and after the whitespace that follows the block."""
    n = 0
    while n < len(steps) and steps[n].thinking:
        n += 1
    while n < len(steps) and not steps[n].text.strip():
        n += 1
    return list(steps[n:])


def thinking_steps(steps: Sequence[StepRecord]) -> int:
    n = 0
    while n < len(steps) and steps[n].thinking:
        n += 1
    return n


@dataclass(frozen=True)
class ThinkingEffect:
    with_thinking: list[StepRecord]      # the answer's steps after its thinking
    without_thinking: list[StepRecord]   # the answer's steps with the block closed at once
    n_thinking: int                      # the thinking block's steps (tags included)
    thinking_s: float                    # the time they took
    parting: int | None                  # the first answer step whose token differs (None: the same answer)

    @property
    def same(self) -> bool:
        return self.parting is None


def thinking_effect(with_steps: Sequence[StepRecord], without_steps: Sequence[StepRecord]) -> ThinkingEffect:
    """Both answers' steps as generated (thinking included); one that is the other's start parts where it ends."""
    a, b = answer_steps(with_steps), answer_steps(without_steps)
    parting = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x.token != y.token), None)
    if parting is None and len(a) != len(b):
        parting = min(len(a), len(b))
    n = thinking_steps(with_steps)
    return ThinkingEffect(a, b, n, sum(s.latency_s for s in with_steps[:n]), parting)
