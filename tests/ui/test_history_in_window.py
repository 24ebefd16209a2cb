"""Conversations survive: a restart, a kill -9 in the middle of an answer; settings, export, import."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from PySide6.QtCore import Qt

from tests.helpers.window import ask, make_window

pytestmark = pytest.mark.gui


def test_conversations_and_traces_survive_a_restart(qtbot, real_window, tmp_path, demo_model):
    answer = ask(qtbot, real_window, "Name a planet.", max_tokens=10)
    text, tokens = answer.text, answer.tokens
    real_window.close()
    again = make_window(qtbot, tmp_path, demo_model, load=False)
    try:
        titles = [c.title for c in again.conversations]
        assert "Name a planet." in titles
        assert again.current.title == "Name a planet."
        turn = again.current.turns[0]
        assert turn.user == "Name a planet." and turn.answer.text == text and turn.answer.tokens == tokens
        assert turn.answer.status == "done"
        # the inspector works on the old answer without a model
        again.select_step(0, 1)
        view = again.current_step_view()
        assert view is not None and view.step.token == tokens[1]
        assert "Step 1" in again.distribution.caption.text()
    finally:
        again.close()


def test_versions_and_edits_are_saved_as_a_tree(qtbot, real_window, tmp_path, demo_model):
    ask(qtbot, real_window, "Say hi.", max_tokens=4)
    with qtbot.waitSignal(real_window.bridge.generationFinished, timeout=60_000):
        real_window.regenerate(0)
    qtbot.waitUntil(lambda: real_window.streaming is None)
    with qtbot.waitSignal(real_window.bridge.generationFinished, timeout=60_000):
        real_window.resend_edited(0, "Say hello.")
    qtbot.waitUntil(lambda: real_window.streaming is None)
    store = real_window.history.store
    messages = store.messages(real_window.current.store_id)
    users = [m.content for m in messages if m.role == "user"]
    assert users == ["Say hi.", "Say hello."]
    assert sum(m.role == "assistant" for m in messages) == 3
    real_window.close()
    again = make_window(qtbot, tmp_path, demo_model, load=False)
    try:
        turn = again.current.turns[0]
        assert turn.user == "Say hello." and again.current.question_versions(0) == (1, 2)
        assert len(again.current.switch_question(0, 0).answers) == 2   # the old question, both its answers
    finally:
        again.close()


@pytest.mark.model  # the window reopened after the restart starts a real engine process
def test_a_fork_still_says_where_it_was_forked_after_a_restart(qtbot, scripted_window, tmp_path, demo_model):
    window = scripted_window
    answer = ask(qtbot, window, "Say hi.", max_tokens=6)
    forced = next(t for t in answer.steps[2].raw_ids.tolist() if t != answer.steps[2].token)
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=10_000):
        window.fork(0, 2, forced)
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)
    assert "forked at token 2" in window.chat.answers[0].status.text()
    window.close()
    again = make_window(qtbot, tmp_path, demo_model, load=False)
    try:
        fork = again.current.turns[0].answer
        assert (fork.forked_at, fork.prefix_steps) == (2, 2)
        assert "forked at token 2" in again.chat.answers[0].status.text()
    finally:
        again.close()


@pytest.mark.model
def test_kill_9_in_the_middle_of_an_answer_loses_nothing(qtbot, tmp_path, demo_model, isolated_home):
    """The real app in a real process, killed with SIGKILL while it streams an answer."""
    from logitscope.store.history import HistoryStore, history_path

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LOGITSCOPE_AUTOSEND="Write a long story about a dragon.")
    app = subprocess.Popen([sys.executable, "-m", "logitscope", "window", "--model", str(demo_model)], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = history_path()
    committed = 0
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline and committed < 20:
            time.sleep(0.2)
            if db.exists():
                try:
                    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
                        committed = conn.execute("SELECT count(*) FROM trace_steps").fetchone()[0]
                except sqlite3.Error:
                    pass
        assert committed >= 20, "the app never streamed an answer into the history"
        app.send_signal(signal.SIGKILL)
        app.wait(10)
    finally:
        if app.poll() is None:
            app.kill()
    with HistoryStore() as store:
        assert store.connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conversation = store.list_conversations()[0]
        path = store.active_path(conversation.id)
        assert [m.role for m in path] == ["user", "assistant"]
        answer = path[1]
        assert answer.status == "interrupted" and answer.content and answer.n_steps >= 20
    window = make_window(qtbot, tmp_path, demo_model, load=False)
    try:
        turn = window.current.turns[0]
        assert turn.answer.status == "interrupted" and turn.answer.text == answer.content
        assert "interrupted" in window.chat.answers[0].status.text()
    finally:
        window.close()


def test_delete_with_undo_search_and_rename(qtbot, real_window):
    ask(qtbot, real_window, "Tell me about apples", max_tokens=3)
    real_window.new_chat()
    ask(qtbot, real_window, "Tell me about pears", max_tokens=3)
    real_window.search_box.setText("apples")
    listed = real_window.conversation_list
    assert [listed.item(i).text() for i in range(listed.count())] == ["Tell me about apples"]  # only matches
    assert listed.currentRow() == -1 and real_window.current.title == "Tell me about pears"  # still open, not listed
    real_window.search_box.setText("no such words")
    assert [listed.item(i).text() for i in range(listed.count())] == ["No conversations match"]
    assert listed.item(0).flags() == Qt.ItemFlag.NoItemFlags  # a notice, not a conversation to open
    listed.setCurrentRow(0)
    assert real_window.current.title == "Tell me about pears"
    real_window.search_box.setText("")
    assert listed.count() == 2 and listed.currentItem().text() == "Tell me about pears"
    real_window.rename_conversation("Pears!")
    assert real_window.history.store.conversation(real_window.current.store_id).title == "Pears!"
    deleted_id = real_window.current.store_id
    real_window.delete_conversation(confirm=False)
    assert deleted_id not in [c.id for c in real_window.history.store.list_conversations()]
    real_window.undo_delete()
    assert deleted_id in [c.id for c in real_window.history.store.list_conversations()]
    assert real_window.current.store_id == deleted_id


def test_export_and_import_a_conversation(qtbot, real_window, tmp_path):
    ask(qtbot, real_window, "What is 2+2?", max_tokens=6)
    md, js = tmp_path / "chat.md", tmp_path / "chat.json"
    assert real_window.export_conversation(str(md)) and real_window.export_conversation(str(js))
    assert "What is 2+2?" in md.read_text()
    before = len(real_window.conversations)
    assert real_window.import_conversations(str(js)) == 0   # it is in the history: not imported a second time
    assert len(real_window.conversations) == before
    real_window.delete_conversation(confirm=False)
    assert real_window.import_conversations(str(js)) == 1   # out of the history (in the trash): imported again
    titles = [c.title for c in real_window.history.store.list_conversations()]
    assert titles.count("What is 2+2?") == 1
    assert json.loads(js.read_text())["conversations"][0]["title"] == "What is 2+2?"


def test_settings_dialog_and_presets_are_saved(qtbot, real_window):
    from logitscope.store.settings import SettingsStore

    real_window.sampler.save_preset_as("Mine")
    from logitscope.ui.dialogs.settings import SettingsDialog

    dialog = SettingsDialog(real_window.app_settings, real_window)
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog.preset.setCurrentText("Mine")
    dialog.apply()
    reread = SettingsStore()
    assert reread.app.theme == "dark" and reread.app.language == "zh_CN" and reread.app.sampler_preset == "Mine"
    assert "Mine" in reread.user_presets()
    assert reread.load_settings_for(real_window.bridge.client.last_load[0]) is None  # loaded without the dialog


@pytest.mark.model
def test_a_corrupt_history_database_is_set_aside_and_the_app_starts(qtbot, tmp_path, isolated_home, demo_model):
    (isolated_home / "history.sqlite3").write_bytes(b"this is not a database" * 100)
    window = make_window(qtbot, tmp_path, demo_model)
    try:
        qtbot.waitUntil(lambda: hasattr(window, "last_error"), timeout=5_000)
        assert window.last_error[0] == "Notice" and "history" in window.last_error[1].lower()
        assert list(isolated_home.glob("history.sqlite3.broken-*"))  # kept aside, never deleted
        assert ask(qtbot, window, "Hello again", max_tokens=3).steps
        assert window.history.store.list_conversations()
    finally:
        window.close()


def test_an_answer_streamed_while_another_process_holds_the_history_is_saved_whole_later(
        qtbot, real_window, monkeypatch: pytest.MonkeyPatch):
    """Another process holds the database's write lock (a long import) from the middle of an answer to
    after its end: the window keeps every step, says so, never marks the answer done with holes, and
    saves all of it once the lock is free."""
    from logitscope.session import history as persistence
    from tests.helpers.store import WriteLockHolder

    monkeypatch.setattr(persistence, "REPORT_AFTER_S", 1.0)
    store = real_window.history.store
    real_window.sampler.max_tokens.setValue(48)
    real_window.send("Count from one to one hundred.")
    answer = real_window.current.turns[-1].answer
    qtbot.waitUntil(lambda: len(answer.steps) >= 3, timeout=60_000)
    holder = WriteLockHolder(store.path)
    try:
        assert real_window.streaming is not None, "the answer ended before the other process took the lock"
        qtbot.waitUntil(lambda: real_window.streaming is None, timeout=90_000)
        assert answer.status == "done" and len(answer.steps) > 3
        qtbot.waitUntil(lambda: getattr(real_window, "last_error", ("",))[0] == "The answer is not saved yet",
                        timeout=5_000)
        assert "locked" in real_window.last_error[1]
        with sqlite3.connect(f"file:{store.path}?mode=ro", uri=True) as reader:
            status, n = reader.execute("SELECT status, (SELECT count(*) FROM trace_steps WHERE message_id = m.id) "
                                       "FROM messages m WHERE id = ?", (answer.store_id,)).fetchone()
        assert status == "streaming" and n < len(answer.steps)      # not `done` with holes
    finally:
        holder.release()
    qtbot.waitUntil(lambda: not real_window.history.unsaved, timeout=5_000)   # the window's timer retried
    message = store.message(answer.store_id)
    assert (message.status, message.n_steps, message.content) == ("done", len(answer.steps), answer.text)
    steps, _pieces = store.load_trace(answer.store_id)
    assert [s.i for s in steps] == list(range(len(answer.steps)))
