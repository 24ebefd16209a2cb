"""Conversations as trees of messages: branches, the active path, trash, search, the thread rule."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from logitscope.base.errors import StoreError
from logitscope.store.history import HistoryStore
from tests.helpers.store import save_fork


def contents(messages) -> list[str]:
    return [m.content for m in messages]


def test_edits_and_regenerations_are_siblings_and_the_active_path_follows_the_latest(store):
    cid = store.create_conversation("Fruit")
    system = store.add_message(cid, "system", "Be brief.")
    q1 = store.add_message(cid, "user", "Name a fruit.", system)
    a1 = store.add_message(cid, "assistant", "Apple.", q1)
    a2 = store.add_message(cid, "assistant", "Banana.", q1)          # a regeneration
    q2 = store.add_message(cid, "user", "Another?", a2)
    assert contents(store.active_path(cid)) == ["Be brief.", "Name a fruit.", "Banana.", "Another?"]
    assert [m.id for m in store.children(cid, q1)] == [a1, a2]
    assert [m.id for m in store.children(cid, None)] == [system]

    q1_edit = store.edit(q1, "Name a red fruit.")                    # an edit: a sibling, not an overwrite
    assert store.message(q1).content == "Name a fruit."
    assert store.message(q1_edit).parent_id == system
    assert contents(store.active_path(cid)) == ["Be brief.", "Name a red fruit."]

    # back to the first branch: it continues down the answer last chosen there (Banana, then q2)
    path = store.switch_branch(q1)
    assert [m.id for m in path] == [system, q1, a2, q2]
    path = store.switch_branch(a1)
    assert [m.id for m in path] == [system, q1, a1]
    assert [m.id for m in store.switch_branch(q1_edit)] == [system, q1_edit]
    assert [m.id for m in store.switch_branch(q1)] == [system, q1, a1]   # a1 was the last chosen under q1
    assert store.conversation(cid).n_messages == 6
    assert len(store.messages(cid)) == 6


def test_the_active_path_survives_reopening(tmp_path: Path):
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = store.create_conversation("t")
        q = store.add_message(cid, "user", "q")
        a1 = store.add_message(cid, "assistant", "one", q)
        store.add_message(cid, "assistant", "two", q)
        store.switch_branch(a1)
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        assert contents(store.active_path(cid)) == ["q", "one"]


def test_messages_must_stay_in_their_conversation(store):
    c1, c2 = store.create_conversation("one"), store.create_conversation("two")
    m1 = store.add_message(c1, "user", "hello")
    with pytest.raises(StoreError, match="not in conversation"):
        store.add_message(c2, "assistant", "hi", m1)
    with pytest.raises(StoreError, match="role"):
        store.add_message(c1, "robot", "beep", m1)
    with pytest.raises(StoreError, match="no conversation with id 999"):
        store.add_message(999, "user", "x")
    with pytest.raises(StoreError, match="no message with id 999"):
        store.message(999)
    assert store.conversation(c2).n_messages == 0


def test_rename_delete_restore_purge(store):
    keep, trash = store.create_conversation("Keep me"), store.create_conversation("Throw me away")
    store.add_message(trash, "user", "bye")
    store.rename(keep, "  Kept\n conversation ")
    assert store.conversation(keep).title == "Kept conversation"
    with pytest.raises(StoreError, match="cannot be empty"):
        store.rename(keep, "   ")

    store.delete(trash)
    assert [c.id for c in store.list_conversations()] == [keep]
    assert [c.id for c in store.list_conversations(deleted=True)] == [trash]
    store.restore(trash)                                       # undo
    assert {c.id for c in store.list_conversations()} == {keep, trash}
    assert store.conversation(trash).deleted_at is None

    store.delete(trash)
    assert store.purge_deleted() == 1
    with pytest.raises(StoreError):
        store.conversation(trash)
    assert store.connection.execute("SELECT count(*) FROM messages").fetchone()[0] == 0
    store.purge(keep)
    assert store.list_conversations() == []
    with pytest.raises(StoreError):
        store.purge(keep)


def test_conversations_are_listed_most_recently_updated_first(store):
    old, new = store.create_conversation("old"), store.create_conversation("new")
    assert [c.id for c in store.list_conversations()] == [new, old]
    store.add_message(old, "user", "bump")
    assert [c.id for c in store.list_conversations()] == [old, new]


@pytest.mark.parametrize("full_text", [True, False], ids=["fts5-trigram", "like"])
def test_search_titles_and_contents(tmp_path: Path, full_text: bool):
    with HistoryStore(tmp_path / "h.sqlite3", full_text=full_text) as store:
        sky = store.create_conversation("Sky colour")
        q = store.add_message(sky, "user", "Why is the sky blue?")
        store.add_message(sky, "assistant", "Rayleigh scattering: short wavelengths scatter more. " * 3, q)
        zh = store.create_conversation("中文")
        store.add_message(zh, "user", "天空为什么是蓝色的？")
        odd = store.create_conversation("Percent")
        store.add_message(odd, "user", "100% of snake_case names")
        gone = store.create_conversation("Deleted sky")
        store.add_message(gone, "user", "the sky is falling")
        store.delete(gone)

        hits = store.search("RAYLEIGH")                      # case-insensitive
        assert [h.conversation.id for h in hits] == [sky]
        assert hits[0].message_id == q + 1 and "Rayleigh scattering" in hits[0].snippet
        assert hits[0].snippet.endswith("…") and "\n" not in hits[0].snippet
        assert [h.conversation.id for h in store.search("sky")] == [sky]        # not the deleted one
        assert [h.conversation.id for h in store.search("蓝色")] == [zh]          # two characters: a scan
        assert [h.conversation.id for h in store.search("为什么是")] == [zh]       # four: the index
        assert [h.conversation.id for h in store.search("0%")] == [odd]         # LIKE wildcards are literal
        assert [h.conversation.id for h in store.search("e_c")] == [odd]
        assert [h.conversation.id for h in store.search('"')] == []
        assert store.search("  ") == []
        title_only = store.search("colour")
        assert [(h.conversation.id, h.message_id) for h in title_only] == [(sky, None)]
        store.restore(gone)
        assert {h.conversation.id for h in store.search("sky")} == {sky, gone}
        store.purge(gone)
        assert [h.conversation.id for h in store.search("falling")] == []


def test_the_search_index_is_rebuilt_when_it_comes_back(tmp_path: Path):
    path = tmp_path / "h.sqlite3"
    with HistoryStore(path, full_text=False) as store:   # as on a SQLite without FTS5
        cid = store.create_conversation("t")
        store.add_message(cid, "user", "written while there was no index")
    with HistoryStore(path) as store:
        assert store.full_text
        assert [h.conversation.id for h in store.search("no index")] == [cid]
        store.connection.execute("INSERT INTO message_search (message_search) VALUES ('integrity-check')")


def test_one_owner_thread(store):
    """The documented rule: the store is used from the thread that opened it; others get an error."""
    errors: list[BaseException] = []

    def other_thread() -> None:
        try:
            store.list_conversations()
        except Exception as exc:  # collected for the assertion below
            errors.append(exc)

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert len(errors) == 1 and isinstance(errors[0], sqlite3.ProgrammingError)


def test_the_database_file_is_wal_with_foreign_keys(store):
    assert store.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_default_location_is_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("LOGITSCOPE_HOME", str(tmp_path / "home"))
    with HistoryStore() as store:
        assert store.path == tmp_path / "home" / "history.sqlite3"
        assert store.path.is_file()


def indexed_ids(store: HistoryStore, word: str) -> list[int]:
    """What the full-text index itself holds (not the search, which also scans streaming answers)."""
    return [row[0] for row in store.connection.execute(
        "SELECT rowid FROM message_search WHERE message_search MATCH ?", (f'"{word}"',))]


def test_a_streaming_answer_stays_out_of_the_index_until_it_ends(store, generated):
    """Re-indexing an answer that grows at every commit made each commit cost more as the answer grew
    (2 ms at 25 KB, four times a second); the index takes it once, when it ends. Search still finds it."""
    answer = generated.answers[0]
    word = answer.result.text.split()[0]
    cid = store.create_conversation("streaming")
    user_id = store.add_message(cid, "user", "q")
    writer = store.start_answer(cid, user_id, generated.model, generated.vocab, answer.result.settings)
    for step in answer.steps:
        writer.append(step)
    assert writer.flush() and store.message(writer.message_id).status == "streaming"
    assert writer.message_id not in indexed_ids(store, word)
    assert writer.message_id in [h.message_id for h in store.search(word)]      # found by a scan meanwhile
    writer.finish(answer.result)
    assert indexed_ids(store, word) == [writer.message_id]
    store.connection.execute("INSERT INTO message_search (message_search) VALUES ('integrity-check')")
    store.delete(cid)
    store.purge(cid)
    assert indexed_ids(store, word) == []


def test_an_index_from_an_older_version_is_rebuilt_to_leave_streaming_answers_out(tmp_path: Path):
    path = tmp_path / "h.sqlite3"
    with HistoryStore(path) as store:
        cid = store.create_conversation("t")
        store.add_message(cid, "user", "an older index kept this")
        for trigger in ("message_search_insert", "message_search_delete", "message_search_update"):
            store.connection.execute(f"DROP TRIGGER {trigger}")
        store.connection.execute("CREATE TRIGGER message_search_update AFTER UPDATE OF content ON messages BEGIN "
                                 "INSERT INTO message_search (message_search, rowid, content) "
                                 "VALUES ('delete', old.id, old.content); "
                                 "INSERT INTO message_search (rowid, content) VALUES (new.id, new.content); END")
    with HistoryStore(path) as store:
        sql = store.connection.execute("SELECT sql FROM sqlite_master WHERE name = 'message_search_update'").fetchone()
        assert "streaming" in sql[0]
        assert [h.conversation.id for h in store.search("older index")] == [cid]
        store.connection.execute("INSERT INTO message_search (message_search) VALUES ('integrity-check')")


def test_a_forked_answer_keeps_where_it_was_forked_after_reopening(tmp_path: Path, generated):
    path = tmp_path / "h.sqlite3"
    with HistoryStore(path) as store:
        cid, fork_id = save_fork(store, generated, forked_at=3)
        question = store.message(fork_id).parent_id
        plain = store.add_message(cid, "assistant", "not a fork", question)
    with HistoryStore(path) as store:
        fork = store.message(fork_id)
        assert (fork.forked_at, fork.prefix_steps) == (3, 3)
        assert (store.message(plain).forked_at, store.message(plain).prefix_steps) == (None, 0)
        assert [(m.forked_at, m.prefix_steps) for m in store.messages(cid)] == [(None, 0), (3, 3), (None, 0)]
