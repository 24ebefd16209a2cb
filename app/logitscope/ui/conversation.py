"""The window's conversation model: turns, and for each answer its versions (regenerations and forks).

Plain Python (no Qt): the chat view and the inspector read it, the store persists it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from logitscope.engine.api import ChatMessage
from logitscope.engine.trace import GenerationResult, StepRecord

_ids = itertools.count(1)


@dataclass
class Answer:
    """One version of an assistant turn."""

    steps: list[StepRecord] = field(default_factory=list)
    result: GenerationResult | None = None
    status: str = "streaming"          # streaming | done | stopped | error | interrupted
    error: str = ""
    forked_at: int | None = None       # step index where this version left its parent
    prefix_steps: int = 0              # steps copied from the version it was forked from
    settings: dict[str, Any] = field(default_factory=dict)
    model_name: str = ""
    store_id: int | None = None        # the message id in the history store, once saved

    @property
    def text(self) -> str:
        if self.result is not None and self.status == "done":
            return self.result.text
        return "".join(s.text for s in self.steps)

    @property
    def tokens(self) -> list[int]:
        return [s.token for s in self.steps]


@dataclass
class Turn:
    user: str
    answers: list[Answer] = field(default_factory=list)
    active: int = 0
    store_id: int | None = None
    earlier: list[Turn] = field(default_factory=list)   # versions of this question before it was edited

    @property
    def answer(self) -> Answer | None:
        return self.answers[self.active] if self.answers else None


@dataclass
class Conversation:
    title: str = "New chat"
    system: str | None = None
    turns: list[Turn] = field(default_factory=list)
    id: int = field(default_factory=lambda: next(_ids))
    store_id: int | None = None
    loaded: bool = True          # False: saved, its messages not read from the store yet

    def messages_for(self, upto_turn: int) -> list[ChatMessage]:
        """The chat as the model sees it: every earlier turn's active answer, then this turn's question."""
        messages: list[ChatMessage] = []
        for turn in self.turns[:upto_turn]:
            messages.append(ChatMessage("user", turn.user))
            if turn.answer is not None and turn.answer.text:
                messages.append(ChatMessage("assistant", turn.answer.text))
        messages.append(ChatMessage("user", self.turns[upto_turn].user))
        return messages
