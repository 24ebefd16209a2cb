"""The chat history: conversations holding a tree of messages, each answer with its trace.

Threads: a HistoryStore owns one SQLite connection and must be used from the thread that created it
(sqlite3's check_same_thread, left on: another thread gets sqlite3.ProgrammingError). In the app that
is the GUI process's one database thread; other processes (the `history` command) open their own
store, and WAL lets them read while the owner writes.

Processes: the store that streams an answer owns it (store/owners.py); another process's open marks it
`interrupted` only once that owner is gone. Commands that only read open with `read_only=True`.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from logitscope.base.errors import StoreError
from logitscope.base.paths import data_dir, data_dir_to_read
from logitscope.protocol.trace import StepRecord
from logitscope.store.database import open_database, transaction
from logitscope.store.owners import OwnerLock
from logitscope.store.records import (
    CONVERSATION_COLUMNS,
    MESSAGE_COLUMNS,
    MESSAGE_FROM,
    ROLES,
    Conversation,
    ModelIdentity,
    SearchHit,
    StoredMessage,
    conversation_from_row,
    message_from_row,
    to_json,
)
from logitscope.store.schema import has_search_index, set_up_search_index, trigram_fts_available
from logitscope.store.streaming import COMMIT_INTERVAL_S, StreamingWriter, touch_conversation
from logitscope.store.traces import load_trace, model_row_id

log = logging.getLogger(__name__)

HISTORY_FILE = "history.sqlite3"
DEFAULT_TITLE = "New conversation"
MIN_INDEXED_QUERY = 3  # the trigram index finds substrings of 3 characters or more; shorter ones scan
SNIPPET_CONTEXT = 40


def history_path(read_only: bool = False) -> Path:
    """`read_only`: for a reader, which does not need a folder it can write (base/paths.py)."""
    return (data_dir_to_read() if read_only else data_dir()) / HISTORY_FILE


def stored_id(n: int) -> int:
    """An id to look up: one beyond SQLite's integers (a typo of 30 digits) is one no row has (0), not an
    OverflowError."""
    return n if -2**63 <= n < 2**63 else 0


class HistoryStore:
    """Open with `HistoryStore()` (the data folder's history.sqlite3) or `HistoryStore(path)`.

    `notices`: one-line messages for the user about the opening (a broken file replaced).
    `full_text`: None uses SQLite's FTS5 trigram index when this build has it (else LIKE scans);
    False forces the LIKE scans (and drops the index).
    `read_only`: never writes and never waits for a writer; reads one snapshot, taken at the opening
    (database.open_read_only). For one-shot readers such as `history list`. `empty_if_unusable=False`:
    such a reader refuses (StoreError) a file it cannot read rather than showing it as an empty history."""

    def __init__(self, path: str | Path | None = None, *, full_text: bool | None = None,
                 read_only: bool = False, empty_if_unusable: bool = True) -> None:
        self.path = Path(path) if path is not None else history_path(read_only)
        self.read_only = read_only
        self.connection, notice = open_database(self.path, read_only=read_only,
                                                empty_if_unusable=empty_if_unusable)
        self.notices: list[str] = [notice] if notice else []
        self._owner: OwnerLock | None = None
        try:
            if read_only:  # the search index as it is: creating or dropping it would be a write
                self.full_text = (full_text is not False and has_search_index(self.connection)
                                  and trigram_fts_available())
            else:
                self.full_text = trigram_fts_available() if full_text is None else full_text
                set_up_search_index(self.connection, self.full_text)
        except BaseException:
            self.connection.close()
            raise

    def close(self) -> None:
        """Close the connection and give up ownership: answers left streaming count as interrupted."""
        self.connection.close()
        if self._owner is not None:
            self._owner.release()

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- conversations -----------------------------------------------------------------------------
    def create_conversation(self, title: str = DEFAULT_TITLE) -> int:
        now = time.time()
        with transaction(self.connection):
            return insert_conversation(self.connection, _clean_title(title), now, now)

    def conversation(self, conversation_id: int) -> Conversation:
        row = self.connection.execute(f"SELECT {CONVERSATION_COLUMNS} FROM conversations c WHERE c.id = ?",
                                      (stored_id(conversation_id),)).fetchone()
        if row is None:
            raise StoreError("there is no conversation with id {conversation_id}", conversation_id=conversation_id)
        return conversation_from_row(row)

    def data_version(self) -> int:
        """SQLite's data_version: a number that moves when another connection (another process) commits — another
        window or `history import` changed the history; this connection's own commits leave it."""
        version: int = self.connection.execute("PRAGMA data_version").fetchone()[0]
        return version

    def list_conversations(self, *, deleted: bool = False) -> list[Conversation]:
        """Most recently updated first; `deleted=True` lists the trash instead."""
        where = "c.deleted_at IS NOT NULL" if deleted else "c.deleted_at IS NULL"
        rows = self.connection.execute(f"SELECT {CONVERSATION_COLUMNS} FROM conversations c WHERE {where} "
                                       "ORDER BY c.updated_at DESC, c.id DESC")
        return [conversation_from_row(row) for row in rows]

    def set_settings(self, conversation_id: int, settings: Mapping[str, Any] | None) -> None:
        """The conversation's own settings (its system prompt preset, its sampler settings: plain JSON); None: the
        defaults again."""
        self._update_conversation(conversation_id, "settings_json = ?",
                                  to_json(dict(settings)) if settings is not None else None)

    def rename(self, conversation_id: int, title: str) -> None:
        self._update_conversation(conversation_id, "title = ?", _clean_title(title))

    def delete(self, conversation_id: int) -> None:
        """Move to the trash (undo with `restore`, remove for good with `purge`)."""
        self._update_conversation(conversation_id, "deleted_at = ?", time.time())

    def restore(self, conversation_id: int) -> None:
        self._update_conversation(conversation_id, "deleted_at = ?", None)

    def purge(self, conversation_id: int) -> None:
        """Delete for good: the conversation, its messages and their traces."""
        with transaction(self.connection):
            if not self.connection.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,)).rowcount:
                raise StoreError("there is no conversation with id {conversation_id}", conversation_id=conversation_id)

    def purge_deleted(self) -> int:
        """Empty the trash; returns how many conversations were deleted for good."""
        with transaction(self.connection):
            return self.connection.execute("DELETE FROM conversations WHERE deleted_at IS NOT NULL").rowcount

    def _update_conversation(self, conversation_id: int, assignment: str, value: Any) -> None:
        with transaction(self.connection):
            cursor = self.connection.execute(f"UPDATE conversations SET {assignment} WHERE id = ?",
                                             (value, conversation_id))
            if not cursor.rowcount:
                raise StoreError("there is no conversation with id {conversation_id}", conversation_id=conversation_id)

    # -- search ------------------------------------------------------------------------------------
    def search(self, text: str, limit: int = 50) -> list[SearchHit]:
        """Conversations (not in the trash) whose title or any message contains `text` (case-insensitive
        for ASCII), most recently updated first, each with its first matching message."""
        needle = text.strip()
        if not needle:
            return []
        like = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        if self.full_text and len(needle) >= MIN_INDEXED_QUERY:
            phrase = '"' + needle.replace('"', '""') + '"'
            rows = self.connection.execute(  # the index, plus a scan of the answers still streaming (not in it)
                "SELECT conversation_id, min(id) FROM ("
                "SELECT m.conversation_id, m.id FROM message_search s JOIN messages m ON m.id = s.rowid "
                "WHERE message_search MATCH ? UNION ALL "
                "SELECT conversation_id, id FROM messages WHERE status = 'streaming' AND content LIKE ? ESCAPE '\\'"
                ") GROUP BY conversation_id", (phrase, like))
        else:
            rows = self.connection.execute(
                "SELECT conversation_id, min(id) FROM messages WHERE content LIKE ? ESCAPE '\\' "
                "GROUP BY conversation_id", (like,))
        first_match = dict(rows.fetchall())
        title_ids = {row[0] for row in self.connection.execute(
            "SELECT id FROM conversations WHERE title LIKE ? ESCAPE '\\'", (like,))}
        hits = []
        for conv in self.list_conversations():
            if conv.id in first_match:
                content = self.message(first_match[conv.id]).content
                hits.append(SearchHit(conv, first_match[conv.id], _snippet(content, needle)))
            elif conv.id in title_ids:
                hits.append(SearchHit(conv, None, conv.title))
            if len(hits) == limit:
                break
        return hits

    # -- messages ----------------------------------------------------------------------------------
    def add_message(self, conversation_id: int, role: str, content: str, parent_id: int | None = None, *,
                    attachments: Sequence[Mapping[str, Any]] = ()) -> int:
        """A complete message (a user turn, a system prompt) under `parent_id`; it becomes the active branch.
        `attachments`: the text files sent with it, each {"name": ..., "text": ...}."""
        with transaction(self.connection):
            message_id = insert_message(self.connection, conversation_id, parent_id, role, content,
                                        attachments=attachments)
            self._touch(conversation_id)
        return message_id

    def edit(self, message_id: int, content: str) -> int:
        """An edited copy of a message, as its sibling (the original is kept, its attachments go with the copy);
        returns the new id."""
        original = self.message(message_id)
        return self.add_message(original.conversation_id, original.role, content, original.parent_id,
                                attachments=original.attachments)

    def start_answer(self, conversation_id: int, parent_id: int | None, model: ModelIdentity,
                     vocab: Sequence[bytes], sampler: Mapping[str, Any],
                     commit_interval_s: float = COMMIT_INTERVAL_S, *, forked_at: int | None = None,
                     prefix_steps: int = 0) -> StreamingWriter:
        """A new assistant message, status `streaming`, and the writer that fills it. A regeneration or a
        token-level fork is simply another answer under the same parent. `vocab`: every token's bytes by id
        (the engine's `vocab()`), for the alternatives the steps mention; `sampler`: SamplerSettings.to_dict().
        A fork says where it left its source (`forked_at`) and how many steps it copied (`prefix_steps`).
        The writer commits at least every `commit_interval_s` while steps arrive (see streaming.py)."""
        owner = self._owner_id()
        with transaction(self.connection):
            model_id = model_row_id(self.connection, model)
            message_id = insert_message(self.connection, conversation_id, parent_id, "assistant", "",
                                        status="streaming", model_id=model_id, sampler=dict(sampler),
                                        seed=sampler.get("seed"), owner=owner, forked_at=forked_at,
                                        prefix_steps=prefix_steps)
            self._touch(conversation_id)
        return StreamingWriter(self.connection, message_id, model_id, vocab, commit_interval_s)

    def message(self, message_id: int) -> StoredMessage:
        row = self.connection.execute(f"SELECT {MESSAGE_COLUMNS} FROM {MESSAGE_FROM} WHERE m.id = ?",
                                      (stored_id(message_id),)).fetchone()
        if row is None:
            raise StoreError("there is no message with id {message_id}", message_id=message_id)
        return message_from_row(row)

    def messages(self, conversation_id: int) -> list[StoredMessage]:
        """The whole tree, every branch, in creation order (a parent always before its children)."""
        rows = self.connection.execute(f"SELECT {MESSAGE_COLUMNS} FROM {MESSAGE_FROM} "
                                       "WHERE m.conversation_id = ? ORDER BY m.id", (conversation_id,))
        return [message_from_row(row) for row in rows]

    def children(self, conversation_id: int, parent_id: int | None) -> list[StoredMessage]:
        """The messages directly under `parent_id` (None: the conversation's first messages), oldest first."""
        rows = self.connection.execute(f"SELECT {MESSAGE_COLUMNS} FROM {MESSAGE_FROM} WHERE m.conversation_id = ? "
                                       "AND m.parent_id IS ? ORDER BY m.id", (conversation_id, parent_id))
        return [message_from_row(row) for row in rows]

    def active_path(self, conversation_id: int) -> list[StoredMessage]:
        """From the first message to a leaf, taking at every fork the most recently selected child."""
        self.conversation(conversation_id)  # unknown id: a clear error rather than an empty path
        return active_path_of(self.messages(conversation_id))

    def switch_branch(self, message_id: int) -> list[StoredMessage]:
        """Make the active path run through `message_id` (and on below it as last selected); returns it."""
        target = self.message(message_id)
        with transaction(self.connection):
            self.connection.execute(
                "WITH RECURSIVE up(id) AS (SELECT ? UNION ALL SELECT m.parent_id FROM messages m JOIN up "
                "ON m.id = up.id WHERE m.parent_id IS NOT NULL) "
                "UPDATE messages SET selected_seq = (SELECT max(selected_seq) + 1 FROM messages "
                "WHERE conversation_id = ?) WHERE id IN (SELECT id FROM up)",
                (message_id, target.conversation_id))
        return self.active_path(target.conversation_id)

    def load_trace(self, message_id: int) -> tuple[list[StepRecord], dict[int, bytes]]:
        """The answer's steps, and the bytes of every token they mention (token id -> bytes)."""
        return load_trace(self.connection, message_id)

    def _owner_id(self) -> str | None:
        """This store's owner id, taken with the first answer it streams. Without one (the lock folder
        cannot be made) the answer is still saved, but any other process's open may mark it interrupted."""
        if self.read_only:
            raise StoreError("this history was opened read-only")
        if self._owner is None:
            try:
                self._owner = OwnerLock(self.path)
            except OSError as exc:
                log.warning("cannot take an owner lock next to %s: %s", self.path, exc)
                return None
        return self._owner.id

    def _touch(self, conversation_id: int) -> None:
        touch_conversation(self.connection, conversation_id)


# -- shared with exchange.py (imports write whole records) -----------------------------------------

def insert_conversation(conn: sqlite3.Connection, title: str, created_at: float, updated_at: float,
                        deleted_at: float | None = None, settings: dict[str, Any] | None = None) -> int:
    cursor = conn.execute("INSERT INTO conversations (title, created_at, updated_at, deleted_at, settings_json) "
                          "VALUES (?, ?, ?, ?, ?)", (title, created_at, updated_at, deleted_at, to_json(settings)))
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def insert_message(conn: sqlite3.Connection, conversation_id: int, parent_id: int | None, role: str, content: str,
                   *, status: str = "done", created_at: float | None = None, selected_seq: int | None = None,
                   model_id: int | None = None, sampler: dict[str, Any] | None = None, seed: int | None = None,
                   timings: dict[str, Any] | None = None, kv: dict[str, Any] | None = None,
                   finish_reason: str | None = None, error: str | None = None,
                   notices: Sequence[str] | None = None, owner: str | None = None,
                   forked_at: int | None = None, prefix_steps: int = 0,
                   steering: dict[str, Any] | None = None, thinking: str | None = None,
                   reasoning: dict[str, Any] | None = None,
                   attachments: Sequence[Mapping[str, Any]] | None = None,
                   threads: dict[str, Any] | None = None) -> int:
    """Insert one message row. Without `selected_seq` the new message becomes the active branch."""
    if role not in ROLES:
        raise StoreError("a message's role must be one of {ROLES}, not {role!r}", ROLES=', '.join(ROLES), role=role)
    if conn.execute("SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)).fetchone() is None:
        raise StoreError("there is no conversation with id {conversation_id}", conversation_id=conversation_id)
    if parent_id is not None:
        parent = conn.execute("SELECT conversation_id FROM messages WHERE id = ?", (parent_id,)).fetchone()
        if parent is None or parent[0] != conversation_id:
            raise StoreError("message {parent_id} is not in conversation {conversation_id}", parent_id=parent_id, conversation_id=conversation_id)
    if selected_seq is None:
        selected_seq = conn.execute("SELECT coalesce(max(selected_seq), 0) + 1 FROM messages "
                                    "WHERE conversation_id = ?", (conversation_id,)).fetchone()[0]
    cursor = conn.execute(
        "INSERT INTO messages (conversation_id, parent_id, role, content, status, created_at, selected_seq, "
        "model_id, sampler_json, seed, timings_json, kv_json, finish_reason, error, notices_json, owner, "
        "forked_at, prefix_steps, steering_json, thinking, reasoning_json, attachments_json, threads_json) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (conversation_id, parent_id, role, content, status, time.time() if created_at is None else created_at,
         selected_seq, model_id, to_json(sampler), seed, to_json(timings), to_json(kv), finish_reason, error,
         to_json(list(notices)) if notices is not None else None, owner, forked_at, prefix_steps, to_json(steering),
         thinking, to_json(reasoning), to_json([dict(a) for a in attachments]) if attachments else None,
         to_json(threads)))
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def active_path_of(messages: Sequence[StoredMessage]) -> list[StoredMessage]:
    """The active path through a conversation's messages (see HistoryStore.active_path)."""
    children: dict[int | None, list[StoredMessage]] = {}
    for message in messages:
        children.setdefault(message.parent_id, []).append(message)
    path: list[StoredMessage] = []
    parent: int | None = None
    while parent in children:
        chosen = max(children[parent], key=lambda m: (m.selected_seq, m.id))
        path.append(chosen)
        parent = chosen.id
    return path


def _clean_title(title: str) -> str:
    title = " ".join(title.split())
    if not title:
        raise StoreError("a conversation title cannot be empty")
    return title


def _snippet(content: str, needle: str) -> str:
    flat = " ".join(content.split())
    at = flat.lower().find(needle.lower())
    if at < 0:  # matched through Unicode case folding that str.lower() does not mirror
        at = 0
    start, end = max(0, at - SNIPPET_CONTEXT), min(len(flat), at + len(needle) + SNIPPET_CONTEXT)
    return ("…" if start else "") + flat[start:end] + ("…" if end < len(flat) else "")
