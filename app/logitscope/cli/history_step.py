"""A past answer from the history, for `inspect --history CONV[:TURN]`: the chat it answered (its questions,
earlier answers and system prompt, as the window sends them to the template), its recorded tokens, how it was
steered or knocked out, and the model file that wrote it.

The prompt's tokens are not stored with an answer: they are the chat template applied again to the stored
messages (client.prompt_tokens), as the window's Layers dock does for an answer from the history. So the
answer must be inspected on the model that wrote it (the same file: name, size and first MiB)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logitscope.base.errors import InvalidSettingsError, LogitscopeError
from logitscope.protocol.api import ChatMessage
from logitscope.store.records import ModelIdentity


@dataclass(frozen=True)
class PastAnswer:
    conversation: int
    turn: int                      # from 1, on the conversation's shown path
    messages: list[ChatMessage]    # what the template got: earlier turns, then this turn's question
    system: str | None
    tokens: list[int]              # the answer's recorded tokens, one per step
    steering: dict[str, Any] | None   # the trace's steering record (control vectors, adapters, knockouts)
    model: ModelIdentity | None


def parse_history_spec(spec: str) -> tuple[int, int | None]:
    """"12" (the last answered question) or "12:3" (its third question, from 1)."""
    head, _, tail = spec.partition(":")
    try:
        conversation = int(head)
        turn = int(tail) if tail else None
    except ValueError:
        raise InvalidSettingsError("--history takes a conversation id (as `logitscope history list` shows it), "
                                   "optionally with a question's number: 12 or 12:3, not {spec!r}", spec=spec) from None
    if conversation < 1 or (turn is not None and turn < 1):
        raise InvalidSettingsError("--history takes numbers from 1: 12 or 12:3, not {spec!r}", spec=spec)
    return conversation, turn


def load_past_answer(spec: str) -> PastAnswer:
    """The answer `spec` names, read from the history (read-only: a running window is not disturbed)."""
    from logitscope.session.conversation import Conversation
    from logitscope.session.history import ChatHistory
    from logitscope.store.history import HistoryStore

    conversation_id, turn = parse_history_spec(spec)
    with HistoryStore(read_only=True, empty_if_unusable=False) as store:
        if conversation_id not in {c.id for c in store.list_conversations()}:
            raise LogitscopeError("the history has no conversation {id} (`logitscope history list` shows them)",
                                  id=conversation_id)
        conversation = Conversation(store_id=conversation_id, loaded=False)
        ChatHistory(store).fill(conversation)
        turns = conversation.turns
        answered = [i for i, t in enumerate(turns) if t.answer is not None and t.answer.steps]
        if not answered:
            raise LogitscopeError("conversation {id} has no answer with a recorded trace", id=conversation_id)
        index = answered[-1] if turn is None else turn - 1
        if index >= len(turns) or index not in answered:
            raise LogitscopeError("conversation {id} has no answered question {turn} (its questions: 1 to {n})",
                                  id=conversation_id, turn=index + 1, n=len(turns))
        answer = turns[index].answer
        assert answer is not None
        stored = store.message(answer.store_id) if answer.store_id is not None else None
        return PastAnswer(conversation=conversation_id, turn=index + 1, messages=conversation.messages_for(index),
                          system=conversation.system, tokens=[s.token for s in answer.steps],
                          steering=answer.result.steering if answer.result is not None else None,
                          model=stored.model if stored is not None else None)


def model_of(answer: PastAnswer, given: str | None) -> Path:
    """The model file to inspect the answer on: `--model` when given (it must be the file that wrote the
    answer), else that file found among the models the library knows."""
    from logitscope.cli.models import library_roots
    from logitscope.library.catalog import collect

    wrote = answer.model
    if wrote is None or not wrote.head_sha256:
        raise LogitscopeError("this answer does not say which model file wrote it (a remote engine's?): it cannot "
                              "be inspected here")
    if given:
        path = Path(given).expanduser()
        if ModelIdentity.of_file(path) != wrote:
            raise LogitscopeError("{path} did not write this answer ({wrote} did): its steps are that model's "
                                  "tokens", path=path.name, wrote=wrote.file_name)
        return path
    for found, _also in collect(library_roots()):
        if found.path.name == wrote.file_name and found.problem is None:
            try:
                if ModelIdentity.of_file(found.path) == wrote:
                    return found.path
            except LogitscopeError:
                continue
    raise LogitscopeError("{wrote} wrote this answer and is not in the model library: give its file with "
                          "--model", wrote=wrote.file_name)
