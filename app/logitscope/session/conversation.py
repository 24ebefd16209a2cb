"""The window's conversation model: a tree of questions and answers, and the path the chat shows.

Plain Python (no Qt): the chat view and the inspector read it, session/history.py persists it.

A question (Turn) has versions of its answer (regenerations, forks); an answer has the versions of the
question asked after it (edits). Editing or regenerating any turn adds a sibling version and makes it
active, so the turns that followed the old version stay in its branch and come back with it. `turns`
is the active path: one Turn per exchange, as the chat shows it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.api import ChatMessage
from logitscope.protocol.attachments import Attachment, render_message
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.session.chat_settings import ChatSettings

_ids = itertools.count(1)
NEW_CHAT_TITLE = "New chat"


@dataclass(eq=False)
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
    replies: list[Turn] = field(default_factory=list)   # versions of the question asked after this answer
    active_reply: int = 0

    @property
    def text(self) -> str:
        if self.result is not None and self.status == "done":
            return self.result.text
        return "".join(s.text for s in self.steps)

    @property
    def tokens(self) -> list[int]:
        return [s.token for s in self.steps]

    @property
    def context_cells(self) -> int:
        """The KV cells its request ended with (the prompt and this answer); -1 when unknown."""
        if self.result is not None and self.result.kv.used_cells >= 0:
            return self.result.kv.used_cells
        if self.steps and self.steps[-1].kv_used >= 0:
            return self.steps[-1].kv_used + 1
        return -1


@dataclass(eq=False)
class Turn:
    """One version of a question, with the versions of its answer."""

    user: str                          # the text typed
    answers: list[Answer] = field(default_factory=list)
    active: int = 0
    store_id: int | None = None
    attachments: tuple[Attachment, ...] = ()   # text files sent with it (the model reads them after the text)

    @property
    def content(self) -> str:
        """The question as the model reads it: the typed text with its files (protocol/attachments.py)."""
        return render_message(self.user, self.attachments)

    @property
    def answer(self) -> Answer | None:
        return self.answers[self.active] if self.answers else None


@dataclass(eq=False)
class Conversation:
    title: str = NEW_CHAT_TITLE
    system: str | None = None    # the system prompt of the next answers (ChatHistory.save_settings sets it)
    first: list[Turn] = field(default_factory=list)   # versions of the first question
    active_first: int = 0
    id: int = field(default_factory=lambda: next(_ids))
    store_id: int | None = None
    loaded: bool = True          # False: saved, its messages not read from the store yet
    settings: ChatSettings | None = None   # its own settings; None: a new chat that has none yet
    system_store_id: int | None = None     # its 'system' message, the parent of the first question's versions

    @classmethod
    def of(cls, turns: Iterable[Turn], **fields: Any) -> Conversation:
        """A conversation of one branch: each turn asked after the previous turn's active answer."""
        conversation = cls(**fields)
        for turn in turns:
            conversation._place_after_path(turn)
        return conversation

    @property
    def turns(self) -> list[Turn]:
        """The active path: the active version of each question, down to the first unanswered one."""
        path: list[Turn] = []
        versions, active = self.first, self.active_first
        while versions:
            turn = versions[min(active, len(versions) - 1)]
            path.append(turn)
            answer = turn.answer
            if answer is None:
                break
            versions, active = answer.replies, answer.active_reply
        return path

    def context_cells(self) -> int:
        """The context the path on screen holds once its last answer ended: 0 for an empty chat, -1 unknown."""
        turns = self.turns
        if not turns:
            return 0
        answer = turns[-1].answer
        return answer.context_cells if answer is not None else -1

    def answered_with(self) -> tuple[SamplerSettings | None, int | None]:
        """The sampler settings (without the seed drawn) and max tokens the path's last readable answer was made
        with: for a chat that recorded no settings of its own; (None, None) when no answer says."""
        for turn in reversed(self.turns):
            recorded = turn.answer.settings if turn.answer is not None else {}
            try:
                sampler = replace(SamplerSettings.from_dict(recorded), seed=None) if recorded else None
            except InvalidSettingsError:
                sampler = None
            if sampler is not None:
                max_tokens = recorded.get("max_tokens")
                return sampler, max_tokens if isinstance(max_tokens, int) and max_tokens > 0 else None
        return None, None

    # -- versions of a question ------------------------------------------------------------------------
    def _versions(self, turn_index: int) -> tuple[list[Turn], Any, str]:
        """The versions list of the question at `turn_index`, and where its active index is kept."""
        if turn_index == 0:
            return self.first, self, "active_first"
        answer = self.turns[turn_index - 1].answer
        assert answer is not None  # a turn on the path after another follows that one's answer
        return answer.replies, answer, "active_reply"

    def question_versions(self, turn_index: int) -> tuple[int, int]:
        """(active version, number of versions) of the question at `turn_index`, 0-based active."""
        versions, owner, attribute = self._versions(turn_index)
        return min(getattr(owner, attribute), len(versions) - 1), len(versions)

    def switch_question(self, turn_index: int, version: int) -> Turn:
        versions, owner, attribute = self._versions(turn_index)
        if not 0 <= version < len(versions):
            raise IndexError(f"question {turn_index} has no version {version}")
        setattr(owner, attribute, version)
        return versions[version]

    def add_question_version(self, turn_index: int, text: str) -> Turn:
        """An edited question beside the one at `turn_index` (which keeps its answers and later turns); the
        edited text keeps the files attached to the question."""
        versions, owner, attribute = self._versions(turn_index)
        turn = Turn(user=text, attachments=self.turns[turn_index].attachments)
        versions.append(turn)
        setattr(owner, attribute, len(versions) - 1)
        return turn

    def switch_answer(self, turn_index: int, version: int) -> Answer:
        turn = self.turns[turn_index]
        if not 0 <= version < len(turn.answers):
            raise IndexError(f"turn {turn_index} has no answer version {version}")
        turn.active = version
        return turn.answers[version]

    # -- growing --------------------------------------------------------------------------------------
    def append_turn(self, text: str, attachments: Iterable[Attachment] = ()) -> Turn:
        """A new question at the end of the active path."""
        return self._place_after_path(Turn(user=text, attachments=tuple(attachments)))

    def _place_after_path(self, turn: Turn) -> Turn:
        path = self.turns
        last = path[-1].answer if path else None
        if not path:
            self.first.append(turn)
            self.active_first = len(self.first) - 1
        elif last is None:  # a question never answered has no place to follow: the new one replaces it
            versions, owner, attribute = self._versions(len(path) - 1)
            versions.append(turn)
            setattr(owner, attribute, len(versions) - 1)
        else:
            last.replies.append(turn)
            last.active_reply = len(last.replies) - 1
        return turn

    def messages_for(self, upto_turn: int) -> list[ChatMessage]:
        """The chat as the model sees it: every earlier turn's active answer, then this turn's question."""
        turns = self.turns
        messages: list[ChatMessage] = []
        for turn in turns[:upto_turn]:
            messages.append(ChatMessage("user", turn.content))
            if turn.answer is not None and turn.answer.text:
                messages.append(ChatMessage("assistant", turn.answer.text))
        messages.append(ChatMessage("user", turns[upto_turn].content))
        return messages
