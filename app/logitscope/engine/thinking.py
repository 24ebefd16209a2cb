"""A reasoning model's thinking block in the generation loop (protocol/reasoning.py has the format): whether the
prompt opened it, the tokens the engine writes to close it when the budget is spent, and what it forces at the
start for a budget of 0 (the block closed at once)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from logitscope.protocol.api import DecodeOptions
from logitscope.protocol.reasoning import (
    BY_BUDGET,
    BY_MODEL,
    DEEPSEEK,
    THINKING,
    UNCLOSED,
    ThinkingSyntax,
    ThinkingTracker,
    prompt_opens_block,
    syntax_for,
    template_switches_thinking,
    template_thinks,
)


@dataclass(frozen=True)
class ThinkingPlan:
    inside: bool                 # the prompt ends inside the block (the template opened it)
    budget: int                  # UNLIMITED, 0, or tokens
    close: tuple[int, ...]       # CLOSE_TEXT's tokens, forced when the budget is spent
    start: tuple[int, ...] = ()  # forced first (a budget of 0: the block closed at once)
    syntax: ThinkingSyntax = DEEPSEEK

    def record(self, tracker: ThinkingTracker, closed_by_budget: bool,
               forced: tuple[int, int] | None = None) -> dict[str, Any] | None:
        """The trace's `reasoning` (None: the answer had no block); `forced`: the steps the engine wrote itself."""
        if not tracker.opened:
            return None
        ended = BY_BUDGET if closed_by_budget else BY_MODEL if tracker.closed else UNCLOSED
        return {"format": self.syntax.name, "budget": self.budget, "opened_by_prompt": self.inside,
                "n_thinking": tracker.n_thinking, "ended": ended, "forced": list(forced) if forced else None}


def plan_thinking(options: DecodeOptions, prompt_text: str, template: str | None,
                  tokenize: Callable[[str], list[int]]) -> ThinkingPlan | None:
    """`tokenize`: text to tokens without BOS, special tokens parsed (a vocabulary with `</think>` as a special
    token writes that token)."""
    if options.reasoning_format == "none":
        return None
    syntax = syntax_for(template)
    inside = prompt_opens_block(prompt_text, syntax)
    close = tuple(tokenize(syntax.close_text))
    start: tuple[int, ...] = ()
    if options.reasoning_budget == 0:
        if inside:
            start = close
        elif template_switches_thinking(template):   # rendered with the switch off: the template closed the block
            start = ()
        elif template_thinks(template):   # a template that knows the block but leaves its opening to the model
            start = tuple(tokenize(syntax.open_tag + syntax.close_text))
    return ThinkingPlan(inside, options.reasoning_budget, close, start, syntax)


class ThinkingSteps:
    """The loop's side: each step's phase, and the tokens to force next (the start, then the closing tags once
    the budget is spent)."""

    def __init__(self, plan: ThinkingPlan, prefix_texts: Sequence[str] = ()) -> None:
        self.plan = plan
        self.tracker = ThinkingTracker(plan.inside, plan.syntax)
        for text in prefix_texts:   # a fork's answer so far, token by token: its block may be open, and counts
            self.tracker.feed(text)
        self.pending = list(plan.start)
        self.closed_by_budget = bool(plan.start)   # a budget of 0: the engine closes it at once
        self.n_steps = 0   # steps generated so far
        # the steps the engine wrote itself, [start, end) among the generated ones (the diagnosis does not blame
        # the sampler for them)
        self.forced_span: tuple[int, int] | None = (0, len(plan.start)) if plan.start else None
        self._arm()   # a fork's prefix may have spent the budget already

    def forced(self) -> int | None:
        return self.pending.pop(0) if self.pending else None

    def step(self, text: str) -> bool:
        """Whether the step whose text this is was thinking; arms the closing tags when the budget is spent."""
        thinking = self.tracker.feed(text) == THINKING
        self.n_steps += 1
        self._arm()
        return thinking

    def _arm(self) -> None:
        """The closing tags next, once the block has had its budget. A budget of 0 also closes at once a block the
        model (or a fork's prefix) opened itself, where the template does not know the block."""
        budget = self.plan.budget
        if (budget >= 0 and self.tracker.inside and not self.pending and not self.closed_by_budget
                and self.tracker.n_thinking >= budget):
            self.pending = list(self.plan.close)
            self.closed_by_budget = True
            self.forced_span = (self.n_steps, self.n_steps + len(self.pending))

    def record(self) -> dict[str, Any] | None:
        return self.plan.record(self.tracker, self.closed_by_budget, self.forced_span)
