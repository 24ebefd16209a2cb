"""Two processes on one history: a writer held up by another process's long write loses nothing, and a
process that only reads (or opens) never rewrites, nor waits for, another live process's answers."""

from __future__ import annotations

import base64
import copy
import json
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from logitscope.base.errors import StoreError
from logitscope.protocol.trace import pack_step
from logitscope.store import database, exchange
from logitscope.store.exchange import export_json, import_json
from logitscope.store.history import HistoryStore
from logitscope.store.owners import owners_folder
from logitscope.store.streaming import SAVE_WAIT_S
from logitscope.store.traces import referenced_tokens
from tests.helpers.store import WriteLockHolder, child_env, save_answer


def committed(path: Path, message_id: int) -> tuple[str, str, list[int]]:
    """What another process sees: (status, content, step indices) as committed."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as reader:
        status, content = reader.execute("SELECT status, content FROM messages WHERE id = ?", (message_id,)).fetchone()
        steps = [i for (i,) in reader.execute("SELECT i FROM trace_steps WHERE message_id = ? ORDER BY i",
                                              (message_id,))]
    return status, content, steps


# -- item 1: a save refused because another process holds the database --------------------------------

def test_saves_refused_by_another_process_keep_every_step_and_are_retried(store, generated):
    answer = generated.answers[0]
    cid = store.create_conversation("t")
    writer = store.start_answer(cid, None, generated.model, generated.vocab, answer.result.settings,
                                commit_interval_s=0)  # every step tries to commit
    half = len(answer.steps) // 2
    with WriteLockHolder(store.path):
        for step in answer.steps[:half]:
            started = time.monotonic()
            writer.append(step)                   # refused, kept, and the caller is not held up
            assert time.monotonic() - started < SAVE_WAIT_S + 0.5
        assert committed(store.path, writer.message_id) == ("streaming", "", [])
        assert writer.unsaved_steps == half and not writer.saved
        assert "locked" in (writer.problem or "") and writer.unsaved_for_s > 0
    for step in answer.steps[half:]:            # the lock is gone: the next save takes everything
        writer.append(step)
    assert committed(store.path, writer.message_id) == ("streaming", answer.result.text,
                                                        list(range(len(answer.steps))))
    assert writer.problem is None and writer.unsaved_for_s == 0
    assert writer.finish(answer.result) and writer.saved
    assert store.message(writer.message_id).status == "done"


def test_an_answer_ended_while_the_database_is_held_is_not_done_until_all_of_it_is_saved(store, generated):
    answer = generated.answers[1]
    cid = store.create_conversation("t")
    writer = store.start_answer(cid, None, generated.model, generated.vocab, answer.result.settings)
    for step in answer.steps[:3]:
        writer.append(step)
    assert writer.flush()
    with WriteLockHolder(store.path):
        for step in answer.steps[3:]:
            writer.append(step)
        assert not writer.finish(answer.result)            # refused: not `done` with 3 of 16 steps
        assert committed(store.path, writer.message_id)[::2] == ("streaming", [0, 1, 2])
        assert not writer.flush()
        with pytest.raises(RuntimeError, match="already finished"):
            writer.append(answer.steps[0])
    assert writer.flush()                                  # the retry commits the steps and the ending together
    assert committed(store.path, writer.message_id) == ("done", answer.result.text, list(range(len(answer.steps))))
    steps, pieces = store.load_trace(writer.message_id)
    assert referenced_tokens(steps) == set(pieces)
    assert writer.flush() and writer.saved                 # nothing left: a timer may keep calling it


def test_a_failed_answer_is_saved_on_retry_too(store, generated):
    answer = generated.answers[2]
    cid = store.create_conversation("t")
    writer = store.start_answer(cid, None, generated.model, generated.vocab, answer.result.settings)
    with WriteLockHolder(store.path):
        for step in answer.steps[:5]:
            writer.append(step)
        assert not writer.fail("the engine process crashed")
    assert writer.flush()
    message = store.message(writer.message_id)
    assert (message.status, message.n_steps, message.error) == ("error", 5, "the engine process crashed")


# A real `history import` of a big export, in another process, while this one streams an answer.
def test_an_answer_streams_completely_while_another_process_imports_a_big_file(tmp_path: Path, generated):
    home = tmp_path / "home"
    source = tmp_path / "source.sqlite3"
    with HistoryStore(source) as store:
        for answer in generated.answers:
            save_answer(store, generated, answer)
        document = export_json(store)
    # 300 conversations, 5 MB (each copy a moment younger: the same conversation twice is imported once)
    document["conversations"] = [dict(c, created_at=c["created_at"] + copy) for copy in range(100)
                                 for c in document["conversations"]]
    big = tmp_path / "big.json"
    big.write_text(json.dumps(document))
    db = home / "history.sqlite3"
    home.mkdir()
    answer = generated.answers[0]
    with HistoryStore(db) as store:
        cid = store.create_conversation("streamed during an import")
        writer = store.start_answer(cid, None, generated.model, generated.vocab, answer.result.settings)
        importer = subprocess.Popen([sys.executable, "-m", "logitscope", "history", "import", str(big)],
                                    env=child_env(LOGITSCOPE_HOME=str(home)), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        while not db.exists() or store.connection.execute("SELECT count(*) FROM conversations").fetchone()[0] < 2:
            assert importer.poll() is None, importer.communicate()
            time.sleep(0.01)                               # the import has committed its first conversations
        longest_call = longest_refused = 0.0
        n = saved_during_import = 0
        while importer.poll() is None:                     # steps as the engine sends them, ~20 a second
            started = time.monotonic()
            writer.append(replace(answer.steps[n % len(answer.steps)], i=n))
            longest_call = max(longest_call, time.monotonic() - started)
            longest_refused = max(longest_refused, writer.unsaved_for_s)
            n += 1
            if writer.saved:
                saved_during_import += 1
            time.sleep(0.01)
        out, err = importer.communicate()
        assert importer.returncode == 0 and out.startswith("imported 300 conversations"), err
        print(f"{n} steps during the import, {saved_during_import} saves went through; longest append "
              f"{longest_call * 1000:.0f} ms, saves refused for at most {longest_refused:.2f} s")
        # the import took a while, and did not starve the writer: a save went through while it ran (one when
        # it is quick: 64 steps on CI), and no refusal lasted long (below)
        assert n > 20 and saved_during_import >= 1
        assert longest_call < SAVE_WAIT_S + 0.25           # the window's thread was never held up for long
        assert longest_refused < 3.0                       # (0.6 s measured on 2 busy cores)
        assert writer.finish(answer.result)
        message = store.message(writer.message_id)
        assert (message.status, message.n_steps) == ("done", n)
        assert [i for (i,) in store.connection.execute("SELECT i FROM trace_steps WHERE message_id = ? ORDER BY i",
                                                       (writer.message_id,))] == list(range(n))
        assert store.connection.execute("SELECT count(*) FROM conversations").fetchone()[0] == 301


def test_a_long_import_commits_in_chunks_and_a_failure_removes_the_committed_ones(
        store, generated, monkeypatch: pytest.MonkeyPatch):
    save_answer(store, generated, generated.answers[0])
    document = export_json(store)
    original = document["conversations"][0]

    def copies(start: int) -> list[dict]:  # each a moment younger: the same conversation twice is imported once
        return [dict(copy.deepcopy(original), created_at=original["created_at"] + start + k) for k in range(4)]

    document["conversations"] = copies(1)
    monkeypatch.setattr(database, "CHUNK_HOLD_S", 0.0)   # commit after every conversation
    monkeypatch.setattr(database, "CHUNK_PAUSE_S", 0.0)
    commits: list[int] = []
    real_checkpoint = database.ChunkedTransaction.checkpoint

    def checkpoint(self: database.ChunkedTransaction) -> None:
        real_checkpoint(self)
        with sqlite3.connect(f"file:{store.path}?mode=ro", uri=True) as reader:  # what others see meanwhile
            commits.append(reader.execute("SELECT count(*) FROM conversations").fetchone()[0])

    monkeypatch.setattr(database.ChunkedTransaction, "checkpoint", checkpoint)
    assert len(import_json(store, document)) == 4
    assert commits == [2, 3, 4, 5]                       # whole conversations, one commit each

    commits.clear()
    real_import = exchange._import_conversation

    def fourth_fails(conn: sqlite3.Connection, conv: object, n: int) -> int:  # a write that fails late
        if n == 4:
            raise StoreError("the disk said no")
        return real_import(conn, conv, n)

    monkeypatch.setattr(exchange, "_import_conversation", fourth_fails)
    document["conversations"] = copies(10)
    with pytest.raises(StoreError, match="the disk said no"):
        import_json(store, document)
    assert commits == [6, 7, 8]                          # three were committed before the bad one...
    assert store.connection.execute("SELECT count(*) FROM conversations").fetchone()[0] == 5   # ...and removed


# -- item 2: owners, read-only opens ------------------------------------------------------------------

# Another process streaming an answer through the store, and keeping it open (unfinished) until told.
STREAMER = r"""
import base64, json, sys
from logitscope.protocol.trace import unpack_step
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity

spec = json.loads(open(sys.argv[1]).read())
store = HistoryStore()                                   # in $LOGITSCOPE_HOME
cid = store.create_conversation("Streaming elsewhere")
question = store.add_message(cid, "user", "Why is the sky blue?")
vocab = {int(token): base64.b64decode(piece) for token, piece in spec["pieces"].items()}
writer = store.start_answer(cid, question, ModelIdentity(**spec["model"]), vocab, {})
for packed in spec["steps"]:
    writer.append(unpack_step(base64.b64decode(packed)))
assert writer.flush()
print(writer.message_id, flush=True)
sys.stdin.readline()
"""


def start_streamer(tmp_path: Path, home: Path, generated) -> tuple[subprocess.Popen[str], int]:
    steps = generated.answers[0].steps[:8]
    tokens = referenced_tokens(steps)
    spec = {"model": generated.model.to_dict(),
            "steps": [base64.b64encode(pack_step(s)).decode() for s in steps],
            "pieces": {t: base64.b64encode(generated.vocab[t]).decode() for t in tokens}}
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    child = subprocess.Popen([sys.executable, "-c", STREAMER, str(tmp_path / "spec.json")],
                             env=child_env(LOGITSCOPE_HOME=str(home)), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.strip().isdigit(), child.communicate()[1][-2000:]
    return child, int(line)


def cli(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "logitscope", *argv], env=child_env(LOGITSCOPE_HOME=str(home)),
                          capture_output=True, text=True, timeout=60)


def test_opening_leaves_a_live_processes_answer_streaming_until_that_process_is_killed(tmp_path: Path, generated):
    home = tmp_path / "home"
    db = home / "history.sqlite3"
    child, message_id = start_streamer(tmp_path, home, generated)
    try:
        text = "".join(s.text for s in generated.answers[0].steps[:8])
        assert committed(db, message_id) == ("streaming", text, list(range(8)))
        listed = cli(home, "history", "list")
        assert listed.returncode == 0 and "Streaming elsewhere" in listed.stdout, listed.stderr
        exported = cli(home, "history", "export", "--format", "md")
        assert exported.returncode == 0 and "still being written" in exported.stdout, exported.stderr
        with HistoryStore(db) as other:                    # a read-write open (the window, an import) too
            assert other.message(message_id).status == "streaming"
        assert committed(db, message_id)[0] == "streaming"
        child.send_signal(signal.SIGKILL)
        assert child.wait(10) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)
    listed = cli(home, "history", "list")                  # reading only: it still changes nothing
    assert listed.returncode == 0 and committed(db, message_id)[0] == "streaming"
    with HistoryStore(db) as store:                        # the owner is dead: the next open says so
        message = store.message(message_id)
        assert (message.status, message.content, message.n_steps) == ("interrupted", text, 8)
    assert list(owners_folder(db).iterdir()) == []         # and its lock file is gone


def test_in_one_process_a_second_store_leaves_the_first_ones_answer_alone(tmp_path: Path, generated):
    path = tmp_path / "h.sqlite3"
    answer = generated.answers[0]
    first = HistoryStore(path)
    writer = first.start_answer(first.create_conversation("t"), None, generated.model, generated.vocab, {})
    writer.append(answer.steps[0])
    assert writer.flush()
    with HistoryStore(path) as second:
        assert second.message(writer.message_id).status == "streaming"
    first.close()                                          # the owner gone without finishing the answer
    with HistoryStore(path) as third:
        assert third.message(writer.message_id).status == "interrupted"


def test_read_only_commands_never_wait_for_another_processes_long_write(tmp_path: Path, generated):
    home = tmp_path / "home"
    home.mkdir()
    db = home / "history.sqlite3"
    with HistoryStore(db) as store:
        save_answer(store, generated, generated.answers[0])
    before = sorted(p.name for p in home.iterdir())
    with WriteLockHolder(db):
        for argv in (("history", "list", "--json"), ("history", "export"), ("history", "export", "1", "--format", "md")):
            started = time.monotonic()
            proc = cli(home, *argv)
            took = time.monotonic() - started
            assert proc.returncode == 0 and proc.stderr == "", (argv, proc.stderr)
            assert took < database.BUSY_TIMEOUT_S, (argv, took)   # did not wait for the lock
            assert "not committed" not in proc.stdout             # the other process's write is not seen
        listed = json.loads(cli(home, "history", "list", "--json").stdout)
        assert [c["title"] for c in listed] == ["Why is the sky blue?"]
    assert sorted(p.name for p in home.iterdir()) == before       # no owner folder, nothing new


def test_opening_for_writing_does_not_wait_for_another_processes_write_either(tmp_path: Path):
    """The window starting during a long import: the open itself writes nothing when nothing is to mend."""
    path = tmp_path / "history.sqlite3"
    HistoryStore(path).close()
    with WriteLockHolder(path):
        started = time.monotonic()
        with HistoryStore(path) as store:
            assert store.list_conversations() == []
        assert time.monotonic() - started < 1.0


def test_a_read_only_open_creates_nothing_and_leaves_a_broken_file_alone(tmp_path: Path):
    missing = tmp_path / "missing.sqlite3"
    with HistoryStore(missing, read_only=True) as store:
        assert store.list_conversations() == [] and store.notices == []
    assert list(tmp_path.iterdir()) == []
    broken = tmp_path / "history.sqlite3"
    broken.write_bytes(b"garbage" * 1000)
    with HistoryStore(broken, read_only=True) as store:
        assert store.list_conversations() == []
        (notice,) = store.notices
        assert "could not be used" in notice and "left as it is" in notice
    assert [p.name for p in tmp_path.iterdir()] == ["history.sqlite3"]
    assert broken.read_bytes() == b"garbage" * 1000


def test_a_read_only_store_cannot_write(store, generated):
    save_answer(store, generated, generated.answers[0])
    with HistoryStore(store.path, read_only=True) as reader:
        assert [c.title for c in reader.list_conversations()] == ["Why is the sky blue?"]
        with pytest.raises(sqlite3.OperationalError, match="readonly|read-only"):
            reader.connection.execute("DELETE FROM conversations")
        owners = sorted(owners_folder(store.path).iterdir())
        with pytest.raises(StoreError, match="read-only"):
            reader.start_answer(1, None, generated.model, generated.vocab, {})
        assert sorted(owners_folder(store.path).iterdir()) == owners     # no lock file taken either


def test_dead_owners_lock_files_are_swept_and_live_ones_kept(tmp_path: Path, generated):
    path = tmp_path / "h.sqlite3"
    live = HistoryStore(path)
    live.start_answer(live.create_conversation("t"), None, generated.model, generated.vocab, {})
    folder = owners_folder(path)
    (mine,) = folder.iterdir()
    stale = folder / ("0" * 32 + ".lock")
    stale.write_bytes(b"")                                 # left by a process killed after its answers ended
    HistoryStore(path).close()
    assert list(folder.iterdir()) == [mine]
    live.close()
    assert list(folder.iterdir()) == []


def test_a_conversation_another_process_deleted_comes_back_when_this_one_writes_in_it(store, generated):
    """Window B deleted the conversation window A had open; A's next question and answer went into the trash, out
    of every list (found by a new user's trial). Writing a message takes it out of the trash."""
    answer = generated.answers[0]
    cid = store.create_conversation("open in two windows")
    question = store.add_message(cid, "user", "Hi")

    def deleted_elsewhere() -> None:   # as the other process's HistoryStore.delete does
        with sqlite3.connect(store.path) as other:
            other.execute("UPDATE conversations SET deleted_at = ? WHERE id = ?", (time.time(), cid))
        assert cid not in [c.id for c in store.list_conversations()]

    deleted_elsewhere()
    writer = store.start_answer(cid, question, generated.model, generated.vocab, answer.result.settings)
    assert cid in [c.id for c in store.list_conversations()]
    deleted_elsewhere()                        # while the answer streams
    for step in answer.steps:
        writer.append(step)
    assert writer.finish(answer.result)
    assert store.conversation(cid).deleted_at is None and cid in [c.id for c in store.list_conversations()]
    deleted_elsewhere()
    store.add_message(cid, "user", "Are you still there?", writer.message_id)
    assert store.conversation(cid).deleted_at is None
