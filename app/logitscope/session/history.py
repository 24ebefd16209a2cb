"""The window's conversations, kept in the history store as they happen.

Questions are saved when sent, answers while they stream (committed at least every 250 ms by the
store's StreamingWriter), so killing the app loses at most a quarter of a second of an answer (half a
second for the last steps before a pause in them: the timer saves them). The store's connection belongs to the GUI thread: every call here runs there.

When another process holds the database (a long `history import`), saves are refused: the writers keep
everything and `retry_saving()` (the window calls it from a timer) tries again, also after the answer
has ended; a refusal that lasts REPORT_AFTER_S is handed back once per answer for the window to show.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence

from logitscope.base.errors import StoreError
from logitscope.protocol.attachments import attachments_of
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.session.chat_settings import ChatSettings, read_chat_settings
from logitscope.session.conversation import Answer, Conversation, Turn
from logitscope.store.database import BUSY_TIMEOUT_S
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity, StoredMessage
from logitscope.store.results import stored_result
from logitscope.store.streaming import COMMIT_INTERVAL_S, StreamingWriter

log = logging.getLogger(__name__)

REPORT_AFTER_S = 5.0   # saves refused this long: the user is told (once per answer)
# how often the window calls retry_saving: an answer whose steps paused is saved within two intervals
RETRY_INTERVAL_MS = round(COMMIT_INTERVAL_S * 1000)


class ChatHistory:
    def __init__(self, store: HistoryStore) -> None:
        self.store = store
        self.writers: dict[int, StreamingWriter] = {}   # id(Answer) -> its writer while it streams
        self.unsaved: list[StreamingWriter] = []        # ended answers the database has not taken yet
        self._reported: set[int] = set()                # message ids whose refused saves were reported
        self._settings_notices: dict[int, list[str]] = {}  # store id -> what its settings lost on reading
        self._unsaved_settings: dict[int, Conversation] = {}  # id(conversation) -> one whose settings are due
        self._seen_version = store.data_version()

    @property
    def notices(self) -> list[str]:
        return self.store.notices

    # -- reading ---------------------------------------------------------------------------------------
    def conversations(self) -> list[Conversation]:
        """Every saved conversation, newest first, without their messages (see `fill`)."""
        listed = []
        for c in self.store.list_conversations():
            settings, notices = read_chat_settings(c.settings)
            if notices:
                self._settings_notices[c.id] = notices
            listed.append(Conversation(title=c.title, store_id=c.id, loaded=False, settings=settings))
        return listed

    def changed_elsewhere(self) -> bool:
        """Another process wrote to the history since the last time this was asked (or since it opened)."""
        try:
            version = self.store.data_version()
        except sqlite3.Error:   # closed (the window is closing) or unreadable now: nothing to pick up
            return False
        changed, self._seen_version = version != self._seen_version, version
        return changed

    def settings_notices(self, conversation: Conversation) -> list[str]:
        """What reading this conversation's own settings left out, once (the window says it when it opens it)."""
        return self._settings_notices.pop(conversation.store_id, []) if conversation.store_id is not None else []

    def search(self, text: str) -> list[int]:
        return [hit.conversation.id for hit in self.store.search(text)]

    def fill(self, conversation: Conversation) -> None:
        """Load a saved conversation's whole tree (every version of each question and answer, with
        traces), each fork showing the branch selected last, as the store's active path does."""
        if conversation.loaded or conversation.store_id is None:
            return
        messages = self.store.messages(conversation.store_id)
        children: dict[int | None, list[StoredMessage]] = {}
        for m in messages:
            children.setdefault(m.parent_id, []).append(m)

        def last_selected(group: list[StoredMessage]) -> int:
            return max(range(len(group)), key=lambda i: (group[i].selected_seq, group[i].id))

        def questions(parent_id: int | None) -> tuple[list[Turn], int]:
            group = [m for m in children.get(parent_id, []) if m.role == "user"]
            turns = []
            for m in group:
                turn = Turn(user=m.content, store_id=m.id, attachments=attachments_of(m.attachments))
                answers = [c for c in children.get(m.id, []) if c.role == "assistant"]
                for version in answers:
                    answer = self._answer(version)
                    answer.replies, answer.active_reply = questions(version.id)
                    turn.answers.append(answer)
                turn.active = last_selected(answers) if answers else 0
                turns.append(turn)
            return turns, last_selected(group) if group else 0

        roots = children.get(None, [])
        systems = [m for m in roots if m.role == "system"]
        top: int | None = None
        if systems:
            system = systems[last_selected(systems)]
            conversation.system, top = system.content, system.id
            conversation.system_store_id = top
        if conversation.settings is not None and conversation.settings.system_prompt is not None:
            conversation.system = conversation.settings.system_prompt or None   # the chat's own, set since
        conversation.first, conversation.active_first = questions(top)
        conversation.loaded = True

    def _answer(self, m: StoredMessage) -> Answer:
        steps, _pieces = self.store.load_trace(m.id)
        status = {"done": "done", "interrupted": "interrupted", "error": "error"}.get(m.status, "interrupted")
        if m.finish_reason == "cancelled":
            status = "stopped"
        return Answer(steps=steps, result=stored_result(m, steps), status=status, error=m.error or "", settings=dict(m.sampler or {}),
                      model_name=m.model.file_name if m.model else "", store_id=m.id, forked_at=m.forked_at,
                      prefix_steps=m.prefix_steps)

    # -- writing ---------------------------------------------------------------------------------------
    def save_question(self, conversation: Conversation, turn_index: int) -> None:
        """A new question, or an edited version beside an earlier one: under the previous turn's answer."""
        if conversation.store_id is None:
            conversation.store_id = self.store.create_conversation(conversation.title)
            if conversation.system:   # the record of what the model saw first (chat_settings.py says why)
                conversation.system_store_id = self.store.add_message(conversation.store_id, "system",
                                                                      conversation.system)
            if conversation.settings is not None and not self._write_settings(conversation):
                self._unsaved_settings[id(conversation)] = conversation
        turn = conversation.turns[turn_index]
        previous = conversation.turns[turn_index - 1].answer if turn_index > 0 else None
        parent = previous.store_id if previous is not None else conversation.system_store_id
        turn.store_id = self.store.add_message(conversation.store_id, "user", turn.user, parent,
                                               attachments=[a.to_dict() for a in turn.attachments])

    def save_settings(self, conversation: Conversation, settings: ChatSettings) -> None:
        """The conversation's own settings (and its system prompt for the next answers), at once in memory;
        the store gets them at `flush_settings` (the window calls it shortly after a change, a slider dragged
        writes once), when another conversation is shown and at `close`; a new chat's with its first question."""
        conversation.settings = settings
        if settings.system_prompt is not None:
            conversation.system = settings.system_prompt or None
        if conversation.store_id is not None:
            self._unsaved_settings[id(conversation)] = conversation

    def flush_settings(self) -> bool:
        """Write the settings changed since the last flush. False: the store refused some (the database is
        held elsewhere); they stay due and go with the next flush."""
        for key, conversation in list(self._unsaved_settings.items()):
            if self._write_settings(conversation):
                del self._unsaved_settings[key]
        return not self._unsaved_settings

    def _write_settings(self, conversation: Conversation) -> bool:
        assert conversation.store_id is not None and conversation.settings is not None
        try:
            self.store.set_settings(conversation.store_id, conversation.settings.to_dict())
        except (sqlite3.Error, StoreError) as exc:
            log.warning("conversation %d: its settings were not saved: %s", conversation.store_id, exc)
            return False
        return True

    def start_answer(self, conversation: Conversation, turn: Turn, answer: Answer, identity: ModelIdentity,
                     vocab: Sequence[bytes]) -> None:
        """`identity`: the model file (ModelIdentity.of_file) or, for a remote engine, server and model."""
        if conversation.store_id is None or turn.store_id is None:
            return
        writer = self.store.start_answer(conversation.store_id, turn.store_id, identity, vocab, answer.settings,
                                         forked_at=answer.forked_at, prefix_steps=answer.prefix_steps)
        answer.store_id = writer.message_id
        self.writers[id(answer)] = writer
        for step in answer.steps:  # a fork starts with the steps it shares with its source
            writer.append(step)

    def append(self, answer: Answer, steps: Sequence[StepRecord]) -> None:
        writer = self.writers.get(id(answer))
        if writer is not None:
            for step in steps:
                writer.append(step)

    def finish(self, answer: Answer, result: GenerationResult | None, error: str = "") -> None:
        writer = self.writers.pop(id(answer), None)
        if writer is None:
            return
        saved = writer.finish(result) if result is not None else writer.fail(error or "stopped")
        if not saved:
            self.unsaved.append(writer)

    def retry_saving(self) -> list[str]:
        """Save what streaming answers hold and what refused saves left behind (call it from a timer).
        Returns the problems to tell the user: an answer whose saves have been refused for REPORT_AFTER_S,
        once per answer."""
        for writer in self.writers.values():
            writer.flush_if_due()   # while its steps keep coming, append saves them
        self.unsaved = [writer for writer in self.unsaved if not writer.flush()]
        problems = []
        for writer in [*self.writers.values(), *self.unsaved]:
            if writer.unsaved_for_s >= REPORT_AFTER_S and writer.message_id not in self._reported:
                self._reported.add(writer.message_id)
                problems.append(writer.problem or "")
        return problems

    def switch_branch(self, message: Answer | Turn) -> None:
        """Make the store's active path run through this answer or question version (as the chat shows)."""
        if message.store_id is not None:
            self.store.switch_branch(message.store_id)

    def rename(self, conversation: Conversation) -> None:
        if conversation.store_id is not None:
            self.store.rename(conversation.store_id, conversation.title)

    def delete(self, conversation: Conversation) -> None:
        if conversation.store_id is not None:
            self.store.delete(conversation.store_id)

    def restore(self, conversation: Conversation) -> None:
        if conversation.store_id is not None:
            self.store.restore(conversation.store_id)

    def close(self) -> None:
        """A last save of everything unsaved, waiting as long as any write may, then close the store."""
        self.flush_settings()
        for writer in [*self.writers.values(), *self.unsaved]:
            if not writer.flush(wait_s=BUSY_TIMEOUT_S):
                log.error("answer %d: %d steps are lost: %s", writer.message_id, writer.unsaved_steps,
                          writer.problem)
        self.store.close()
