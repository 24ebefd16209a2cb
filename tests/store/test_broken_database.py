"""A database file that cannot be used is kept aside (never deleted) and a fresh history starts."""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import pytest

from logitscope.base.errors import StoreError
from logitscope.store import database
from logitscope.store.history import HistoryStore
from logitscope.store.schema import LATEST_VERSION
from tests.helpers.store import save_answer


def filled_database(path: Path, generated) -> None:
    with HistoryStore(path) as store:
        for answer in generated.answers:
            save_answer(store, generated, answer)
    assert not Path(f"{path}-wal").exists()  # closed cleanly: everything is in the main file


def assert_fresh_start(path: Path, tag: str, phrase: str) -> Path:
    """Opens `path`: a working empty history and one notice; returns where the old file went."""
    with HistoryStore(path) as store:
        assert len(store.notices) == 1, store.notices
        notice = store.notices[0]
        assert phrase in notice and "\n" not in notice and "new, empty history" in notice
        assert store.list_conversations() == []
        cid = store.create_conversation("after the accident")
        store.add_message(cid, "user", "still works")
        assert store.connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    (aside,) = path.parent.glob(f"{path.name}.{tag}-*[0-9]")
    assert re.fullmatch(rf"history\.sqlite3\.{tag}-\d{{8}}-\d{{6}}", aside.name)
    assert aside.name in notice
    with HistoryStore(path) as store:  # and the next start is quiet
        assert store.notices == [] and len(store.list_conversations()) == 1
    return aside


def test_a_truncated_file(tmp_path: Path, generated):
    path = tmp_path / "history.sqlite3"
    filled_database(path, generated)
    size = path.stat().st_size
    assert size > 100_000
    with path.open("r+b") as fh:
        fh.truncate(size // 2)
    aside = assert_fresh_start(path, "broken", "damaged")
    assert aside.stat().st_size == size // 2  # kept as it was


@pytest.mark.parametrize("content", [os.urandom(64 * 1024), b"hello", b"SQLite format 3\x00" + os.urandom(4000)],
                         ids=["random", "tiny", "fake-header"])
def test_garbage_with_its_wal_and_shm(tmp_path: Path, content: bytes):
    path = tmp_path / "history.sqlite3"
    path.write_bytes(content)
    Path(f"{path}-wal").write_bytes(b"wal bytes")
    Path(f"{path}-shm").write_bytes(b"shm bytes")
    aside = assert_fresh_start(path, "broken", "could not be used")
    assert aside.read_bytes() == content
    assert Path(f"{aside}-wal").read_bytes() == b"wal bytes"     # the companions moved with it
    assert Path(f"{aside}-shm").exists()  # (its content is an index SQLite rebuilds from the WAL)


def test_a_schema_from_the_future(tmp_path: Path, generated):
    path = tmp_path / "history.sqlite3"
    filled_database(path, generated)
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 5}")
    aside = assert_fresh_start(path, "newer", f"schema {LATEST_VERSION + 5}")
    with sqlite3.connect(aside) as conn:  # untouched, for the newer version to find again
        assert conn.execute("SELECT count(*) FROM conversations").fetchone()[0] == 3


def test_a_folder_in_place_of_the_file(tmp_path: Path):
    path = tmp_path / "history.sqlite3"
    path.mkdir()
    (path / "something.txt").write_text("keep me")
    aside = assert_fresh_start(path, "broken", "it is a folder")
    assert (aside / "something.txt").read_text() == "keep me"


def test_another_programs_sqlite_file(tmp_path: Path):
    path = tmp_path / "history.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE bookmarks (url TEXT)")
    aside = assert_fresh_start(path, "foreign", "not a Logitscope history")
    with sqlite3.connect(aside) as conn:
        assert conn.execute("SELECT count(*) FROM bookmarks").fetchone()[0] == 0


def test_a_locked_database_is_an_error_not_a_broken_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "history.sqlite3"
    HistoryStore(path).close()
    monkeypatch.setattr(database, "BUSY_TIMEOUT_S", 0.1)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="locked"):
            HistoryStore(path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert list(tmp_path.glob("history.sqlite3.*")) == []
    with HistoryStore(path) as store:
        assert store.notices == []


def test_two_broken_files_in_the_same_second_do_not_collide(tmp_path: Path):
    path = tmp_path / "history.sqlite3"
    for _ in range(2):
        path.write_bytes(b"not a database at all" * 100)
        with HistoryStore(path) as store:
            assert len(store.notices) == 1
        path.unlink()
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    assert len(list(tmp_path.glob("history.sqlite3.broken-*"))) == 2
