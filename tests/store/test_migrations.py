"""Databases written by every earlier schema version open, keep their data and reach the latest schema."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from logitscope.store.history import HistoryStore
from logitscope.store.schema import LATEST_VERSION, MIGRATIONS, migrate
from tests.helpers.store import child_env, save_answer

FORKS_STORED = 4   # the version that added messages.forked_at and prefix_steps

# Rows as each version wrote them (version 0 is an empty file).
SAMPLE_ROWS = {
    1: """
    INSERT INTO conversations (id, title, created_at, updated_at) VALUES (1, 'From v1', 1000.0, 1003.0);
    INSERT INTO messages (id, conversation_id, parent_id, role, content, created_at, selected_seq)
        VALUES (1, 1, NULL, 'user', 'Name a fruit.', 1001.0, 1),
               (2, 1, 1, 'assistant', 'Apple.', 1002.0, 3),
               (3, 1, 1, 'assistant', 'Banana.', 1003.0, 2);
    INSERT INTO messages (id, conversation_id, parent_id, role, content, status, created_at, selected_seq)
        VALUES (4, 1, 2, 'user', 'And anoth', 'streaming', 1004.0, 4);
    """,
}


def schema_of(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        shape = [(t, tuple(conn.execute(f"PRAGMA table_xinfo('{t}')").fetchall())) for t in tables]
        shape += conn.execute("SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('index', 'trigger') "
                              "ORDER BY name").fetchall()
        return shape


def make_database(path: Path, version: int) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, 0, version)
    for v in range(1, version + 1):
        if v in SAMPLE_ROWS:
            conn.executescript(SAMPLE_ROWS[v])
    conn.close()


def test_there_are_several_versions():
    assert LATEST_VERSION == len(MIGRATIONS) >= 2


@pytest.mark.parametrize("version", range(LATEST_VERSION))
def test_an_old_database_is_migrated_to_the_latest(tmp_path: Path, version: int, generated):
    old, fresh = tmp_path / "old.sqlite3", tmp_path / "fresh.sqlite3"
    make_database(old, version)
    HistoryStore(fresh).close()
    with HistoryStore(old) as store:
        assert store.notices == []
        assert store.connection.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
        if version >= 1:  # the v1 rows, as they were (the cut-off message marked as such)
            (conv,) = store.list_conversations()
            assert (conv.id, conv.title, conv.n_messages) == (1, "From v1", 4)
            assert [m.content for m in store.active_path(1)] == ["Name a fruit.", "Apple.", "And anoth"]
            assert store.message(4).status == "interrupted"
            assert store.message(2).model is None and store.message(2).n_steps == 0
            assert [h.conversation.id for h in store.search("anoth")] == [1]   # indexed after the fact
            # what the new version adds works on the old data: a traced answer in the old tree
            _, answer_id = save_answer(store, generated, generated.answers[0], conversation_id=1, parent_id=4)
            assert store.message(answer_id).n_steps == len(generated.answers[0].steps)
    assert schema_of(old) == schema_of(fresh)


def test_answers_from_before_forks_were_stored_are_no_forks_and_forks_can_be_added(tmp_path: Path, generated):
    path = tmp_path / "history.sqlite3"
    make_database(path, FORKS_STORED - 1)
    with HistoryStore(path) as store:
        assert [(m.forked_at, m.prefix_steps) for m in store.messages(1)] == [(None, 0)] * 4
        answer = generated.answers[0]
        writer = store.start_answer(1, 1, generated.model, generated.vocab, answer.result.settings,
                                    forked_at=2, prefix_steps=2)
        for step in answer.steps:
            writer.append(step)
        writer.finish(answer.result)
    with HistoryStore(path) as store:
        fork = store.message(writer.message_id)
        assert (fork.forked_at, fork.prefix_steps, fork.parent_id) == (2, 2, 1)


def test_a_failed_migration_changes_nothing_and_the_file_is_kept(tmp_path: Path):
    """A v1 database that (somehow) has the column v2 adds last: the upgrade fails, and fails as a whole."""
    path = tmp_path / "history.sqlite3"
    make_database(path, 1)
    with sqlite3.connect(path) as conn:
        conn.execute("ALTER TABLE messages ADD COLUMN notices_json TEXT")
    with HistoryStore(path) as store:
        assert len(store.notices) == 1 and f"upgrading it from schema 1 to {LATEST_VERSION} failed" in store.notices[0]
        assert store.list_conversations() == []
    (aside,) = tmp_path.glob("history.sqlite3.broken-*")
    with sqlite3.connect(aside) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        columns = [row[1] for row in conn.execute("PRAGMA table_info(messages)")]
        assert "model_id" not in columns  # what v2 did before the failing statement was rolled back
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'models'").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM messages").fetchone()[0] == 4


def test_a_read_only_open_of_an_old_database_upgrades_it_first(tmp_path: Path):
    path = tmp_path / "history.sqlite3"
    make_database(path, 1)
    with HistoryStore(path, read_only=True) as store:
        assert [c.title for c in store.list_conversations()] == ["From v1"]
        assert store.message(4).status == "interrupted"     # written by a version without owners: gone
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION


def test_a_migration_another_process_applied_meanwhile_is_not_applied_twice(tmp_path: Path, generated):
    """Two processes opening an old (or a new, empty) file at the same moment both read its version, then
    take turns upgrading: the second failed ("duplicate column name", "table conversations already
    exists"), took the file for damaged and set the whole history aside."""
    path = tmp_path / "history.sqlite3"
    make_database(path, 1)
    late = sqlite3.connect(path, isolation_level=None)
    read_before = late.execute("PRAGMA user_version").fetchone()[0]
    with HistoryStore(path) as first:  # the other process, quicker
        save_answer(first, generated, generated.answers[0])
    migrate(late, read_before)         # our upgrade, from the version we read before it
    assert late.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
    late.close()
    with HistoryStore(path) as store:
        assert store.notices == [] and len(store.list_conversations()) == 2  # v1's, and the one saved
    assert not list(tmp_path.glob("history.sqlite3.broken-*"))


_OPEN_AT = r"""
import sys, time
from logitscope.store.history import HistoryStore
at = float(sys.argv[2])
while time.time() < at:
    pass
with HistoryStore(sys.argv[1]) as store:
    print(repr(store.notices))
"""


def test_processes_opening_a_new_history_at_once_all_get_it(tmp_path: Path):
    for n in range(4):
        path = tmp_path / f"round{n}" / "history.sqlite3"
        path.parent.mkdir()
        at = time.time() + 1.0  # all three past their imports, then opening together
        procs = [subprocess.Popen([sys.executable, "-c", _OPEN_AT, str(path), str(at)], env=child_env(),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0 and out.strip() == "[]", (out, err)
        set_aside = [p.name for p in path.parent.iterdir() if p.name.startswith("history.sqlite3.")]
        assert set_aside == []


class _MigratedMidCheck:
    """A read-only connection that lets another process finish creating the history right after the check
    has read the file's schema version: the interleaving that, under load, made one of several processes
    starting together set a history being created aside as "not a Logitscope history"."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn, self._path = conn, path

    def execute(self, sql: str, *args):
        cursor = self._conn.execute(sql, *args)
        if sql == "PRAGMA user_version":
            rows = cursor.fetchall()
            other = sqlite3.connect(self._path, isolation_level=None)
            migrate(other, 0)
            other.close()
            return _Rows(rows)
        return cursor

    def __getattr__(self, name: str):
        return getattr(self._conn, name)


class _Rows:
    def __init__(self, rows: list) -> None:
        self._rows = rows

    def fetchone(self):
        return self._rows[0]


def test_a_history_created_by_another_process_during_the_check_is_not_set_aside(tmp_path: Path, monkeypatch):
    from logitscope.store import database
    path = tmp_path / "history.sqlite3"
    new = sqlite3.connect(path, isolation_level=None)
    new.execute("PRAGMA journal_mode = WAL")   # where the other process is: file made, no tables yet
    new.close()
    connect = database._connect_read_only
    monkeypatch.setattr(database, "_connect_read_only", lambda p: _MigratedMidCheck(connect(p), p))
    with HistoryStore(path) as store:
        assert store.notices == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("history.sqlite3.")] == []
