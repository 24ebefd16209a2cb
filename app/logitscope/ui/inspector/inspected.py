"""A step chosen for forward-pass inspection, and what the engine found there (the docks' input)."""

from __future__ import annotations

from dataclasses import dataclass

from logitscope.protocol.forward import ForwardInspection
from logitscope.session.conversation import Answer


@dataclass(frozen=True)
class InspectedStep:
    """One step to inspect (cheap to make: its context is built only when it is asked for)."""

    turn_index: int
    step_index: int
    answer: Answer
    chosen: int

    @property
    def key(self) -> tuple[int, int, int]:
        return id(self.answer), self.step_index, self.chosen

    def answer_tokens(self) -> tuple[int, ...]:
        """The answer's tokens before the step."""
        return tuple(s.token for s in self.answer.steps[:self.step_index])


@dataclass
class Inspected:
    """An engine answer for one step: the context it read (prompt + answer so far) and the inspection."""

    step: InspectedStep
    prompt: tuple[int, ...]
    inspection: ForwardInspection

    def step_of_position(self, position: int) -> int | None:
        """The answer step whose token sits at `position` of the context; None for a prompt token."""
        index = position - len(self.prompt)
        return index if 0 <= index < self.step.step_index else None
