"""The history database's schema: an ordered list of migrations, and the (derived) full-text index.

`PRAGMA user_version` is the number of migrations applied. A fresh database runs all of them in
order, so an upgraded database and a new one have the same schema by construction. Never edit a
migration that has shipped: append a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator

MIGRATIONS: tuple[str, ...] = (
    # v1: conversations holding a tree of messages. Edits, regenerations and forks are siblings
    # (same parent); at every fork the active path follows the child with the highest selected_seq.
    """
    CREATE TABLE conversations (
        id          INTEGER PRIMARY KEY,
        title       TEXT NOT NULL,
        created_at  REAL NOT NULL,
        updated_at  REAL NOT NULL,
        deleted_at  REAL                 -- soft delete: set by delete(), cleared by restore()
    );
    CREATE TABLE messages (
        id              INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        parent_id       INTEGER REFERENCES messages(id) ON DELETE CASCADE,
        role            TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
        content         TEXT NOT NULL,
        status          TEXT NOT NULL DEFAULT 'done'
                        CHECK (status IN ('streaming', 'done', 'interrupted', 'error')),
        created_at      REAL NOT NULL,
        selected_seq    INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX messages_by_parent ON messages (conversation_id, parent_id);
    CREATE INDEX messages_streaming ON messages (status) WHERE status = 'streaming';
    """,
    # v2: what produced each answer (model identity, sampler, seed, timings) and its trace.
    """
    CREATE TABLE models (
        id          INTEGER PRIMARY KEY,
        file_name   TEXT NOT NULL,
        size        INTEGER NOT NULL,
        head_sha256 TEXT NOT NULL,       -- SHA-256 of the file's first MiB (with the size: the identity)
        UNIQUE (file_name, size, head_sha256)
    );
    -- The bytes of every token a stored step mentions, per model: alternatives stay readable without it.
    CREATE TABLE token_pieces (
        model_id INTEGER NOT NULL REFERENCES models(id),
        token    INTEGER NOT NULL,
        piece    BLOB NOT NULL,
        PRIMARY KEY (model_id, token)
    ) WITHOUT ROWID;
    CREATE TABLE trace_steps (
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        i          INTEGER NOT NULL,
        data       BLOB NOT NULL,        -- logitscope.protocol.trace.pack_step
        PRIMARY KEY (message_id, i)
    );
    ALTER TABLE messages ADD COLUMN model_id INTEGER REFERENCES models(id);
    ALTER TABLE messages ADD COLUMN sampler_json TEXT;
    ALTER TABLE messages ADD COLUMN seed INTEGER;
    ALTER TABLE messages ADD COLUMN timings_json TEXT;
    ALTER TABLE messages ADD COLUMN kv_json TEXT;
    ALTER TABLE messages ADD COLUMN finish_reason TEXT;
    ALTER TABLE messages ADD COLUMN error TEXT;
    ALTER TABLE messages ADD COLUMN notices_json TEXT;
    """,
    # v3: which process is writing a streaming answer (store/owners.py), so that only a process that knows
    # the owner is gone marks it interrupted. NULL for answers written before: their owner counts as gone.
    """
    ALTER TABLE messages ADD COLUMN owner TEXT;
    """,
    # v4: where a token-level fork left the answer it came from (its steps up to there were copied or
    # forced, not drawn: the chat says so and the diagnosis does not blame the sampler for them).
    # NULL / 0 for every answer before: none of them is known to be a fork.
    """
    ALTER TABLE messages ADD COLUMN forked_at INTEGER;
    ALTER TABLE messages ADD COLUMN prefix_steps INTEGER NOT NULL DEFAULT 0;
    """,
    # v5: the steering an answer was made with (its trace's done line `steering`: control vectors, LoRA
    # adapters, their scales and the layer range; protocol.steering.steering_record). NULL: unsteered, which
    # every answer before was.
    """
    ALTER TABLE messages ADD COLUMN steering_json TEXT;
    """,
    # v6: a reasoning model's thinking kept apart from its answer (`content` is the answer alone; `thinking` the
    # block's text without its tags, NULL: no block) and the trace's `reasoning` record (format, budget, how the
    # block ended); the text files attached to a user message (`attachments_json`: a list of {name, text});
    # a conversation's own settings (`settings_json`: its system prompt preset and sampler settings).
    # NULL for everything before: answers kept their thinking, if any, in `content` (the window splits it).
    """
    ALTER TABLE messages ADD COLUMN thinking TEXT;
    ALTER TABLE messages ADD COLUMN reasoning_json TEXT;
    ALTER TABLE messages ADD COLUMN attachments_json TEXT;
    ALTER TABLE conversations ADD COLUMN settings_json TEXT;
    """,
    # v7: the threads an answer ran with (its trace's done line `threads`: tuned or fixed, the count per step and
    # each move; system/thread_tuner.py). NULL: not known, as for every answer before and a remote server's.
    """
    ALTER TABLE messages ADD COLUMN threads_json TEXT;
    """,
)

LATEST_VERSION = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection, from_version: int, to_version: int = LATEST_VERSION) -> None:
    """Apply migrations from_version+1 .. to_version, each in its own transaction with its version bump.
    Each is skipped when the version, read again under the write lock, says it is there: another process
    opening the same file at the same moment (two commands started together) may have applied it since
    `from_version` was read, and applied twice it fails ("duplicate column name")."""
    def applied(version: int) -> Callable[[], bool]:
        return lambda: int(conn.execute("PRAGMA user_version").fetchone()[0]) >= version

    for version in range(from_version + 1, to_version + 1):
        run_script(conn, f"{MIGRATIONS[version - 1]}\nPRAGMA user_version = {version};", unless=applied(version))


def run_script(conn: sqlite3.Connection, script: str, unless: Callable[[], bool] | None = None) -> None:
    """Several statements as one transaction: all of them or none; none when `unless()`, asked inside the
    transaction (under the write lock), is true."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if unless is None or not unless():
            for statement in _statements(script):
                conn.execute(statement)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _statements(script: str) -> Iterator[str]:
    """The script's statements one by one (a trigger's body, a `;` in a string stay whole)."""
    pending = ""
    for part in script.split(";"):
        pending += part + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n\t;"):
                yield pending.strip()
            pending = ""
    if pending.strip(" \n\t;"):
        yield pending.strip()


# -- full-text search ------------------------------------------------------------------------------
# A derived index, not part of the versioned schema: created (and filled) when this SQLite has FTS5
# with the trigram tokenizer, dropped otherwise, so a database moved to a build without FTS5 still
# accepts writes. Trigrams give substring matching, which also works for Chinese (no word spaces).
# An answer still streaming stays out of it: re-indexing a text that grows at every commit (four times
# a second) cost more the longer the answer got; it is indexed once, when its status leaves 'streaming',
# and the search scans the few streaming answers meanwhile. Invariant: indexed <=> status != 'streaming'.

_SEARCH_INDEX = """
CREATE VIRTUAL TABLE message_search USING fts5(
    content, content = 'messages', content_rowid = 'id', tokenize = 'trigram');
CREATE TRIGGER message_search_insert AFTER INSERT ON messages WHEN new.status != 'streaming' BEGIN
    INSERT INTO message_search (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER message_search_delete AFTER DELETE ON messages WHEN old.status != 'streaming' BEGIN
    INSERT INTO message_search (message_search, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER message_search_update AFTER UPDATE OF content, status ON messages
WHEN old.status != 'streaming' OR new.status != 'streaming' BEGIN
    INSERT INTO message_search (message_search, rowid, content)
        SELECT 'delete', old.id, old.content WHERE old.status != 'streaming';
    INSERT INTO message_search (rowid, content) SELECT new.id, new.content WHERE new.status != 'streaming';
END;
INSERT INTO message_search (rowid, content) SELECT id, content FROM messages WHERE status != 'streaming';
"""
_SEARCH_TRIGGERS = ("message_search_insert", "message_search_delete", "message_search_update")


def trigram_fts_available() -> bool:
    """Whether this Python's SQLite has FTS5 with the trigram tokenizer (SQLite >= 3.34)."""
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE VIRTUAL TABLE probe USING fts5(x, tokenize = 'trigram')")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        probe.close()


def has_search_index(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'message_search'").fetchone() is not None


def _search_index_is_current(conn: sqlite3.Connection) -> bool:
    """An index made by an older version re-indexed streaming answers at every commit."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'message_search_update'").fetchone()
    return row is not None and "streaming" in row[0]


def set_up_search_index(conn: sqlite3.Connection, enabled: bool) -> None:
    exists = has_search_index(conn)
    if enabled and exists and not _search_index_is_current(conn):
        _drop_search_index(conn)
        exists = False
    if enabled and not exists:  # (unless another process opening it at the same moment made it first)
        run_script(conn, _SEARCH_INDEX, unless=lambda: has_search_index(conn))
    elif not enabled and exists:
        _drop_search_index(conn)


def _drop_search_index(conn: sqlite3.Connection) -> None:
    for trigger in _SEARCH_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    try:
        conn.execute("DROP TABLE message_search")
    except sqlite3.OperationalError:  # "no such module: fts5": the table stays, unused and harmless
        pass
