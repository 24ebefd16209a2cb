"""Text files attached to a message in the window (scripted engine): dropped on the prompt or chosen, shown as
chips with their tokens, counted against the context before sending, sent inside the message, stored with
it and shown again in the question's bubble after a restart; what cannot be attached or cannot fit is one
message, and the typed text stays."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from logitscope.protocol.attachments import Attachment, render_message

pytestmark = pytest.mark.gui
NOTES = "# Plan\n- ship the attachments\n"


def drop_files(prompt, paths) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    point = QPointF(prompt.viewport().rect().center())
    enter = QDragEnterEvent(point.toPoint(), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(prompt.viewport(), enter)
    assert enter.isAccepted()
    drop = QDropEvent(point, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(prompt.viewport(), drop)


def reopened(qtbot, tmp_path, recording):
    """Another window over the same home (the history), its engine scripted and no model loaded."""
    from PySide6.QtCore import QSettings

    from logitscope.ui.bridge import EngineBridge
    from logitscope.ui.main_window import MainWindow
    from tests.helpers.scripted_engine import ScriptedEngine

    window = MainWindow(bridge=EngineBridge(client=ScriptedEngine(recording)),
                        settings=QSettings(str(tmp_path / "again.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    return window


def test_a_dropped_file_is_sent_with_the_message_stored_and_shown_after_a_restart(
        qtbot, scripted_window, tmp_path, recording):
    window, engine = scripted_window, scripted_window.bridge.local
    path = tmp_path / "notes.md"
    path.write_text(NOTES)
    drop_files(window.prompt, [path])
    assert window.prompt.toPlainText() == ""   # attached, not its path typed
    (chip,) = window.attachments.strip.chips
    qtbot.waitUntil(lambda: "tokens" in chip.label.text(), timeout=5_000)   # counted by the engine
    block = f"notes.md\n```md\n{NOTES}```"
    assert chip.label.text() == f"📎 notes.md · {len(NOTES)} B · {len(block.encode())} tokens"
    window.prompt.setPlainText("Summarise this.")
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=10_000):
        window.send_button.click()
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)
    content = render_message("Summarise this.", [Attachment("notes.md", NOTES)])
    assert engine.requests[-1].messages[-1].content == content
    assert engine.prompt_requests[-1].messages[-1].content == content   # what was counted is what was sent
    assert window.prompt.toPlainText() == "" and not window.attachments.strip.isVisible()
    turn = window.current.turns[0]
    assert window.history.store.message(turn.store_id).attachments == [{"name": "notes.md", "text": NOTES}]
    bubble = window.chat.questions[0]
    assert [c.attachment.name for c in bubble.attachments.chips] == ["notes.md"]
    strays = [w for w in QApplication.topLevelWidgets() if w.isVisible() and w.isWindow() and w is not window]
    assert strays == [] and QApplication.activeWindow() is window   # no part of a bubble became a window of its own
    assert bubble.attachments.chips[0].remove_button is None    # a sent file is not removed from its question
    window.close()
    again = reopened(qtbot, tmp_path, recording)
    try:
        bubble = again.chat.questions[0]
        assert bubble.label.text() == "Summarise this." and bubble.attachments.isVisible()
        assert [c.attachment for c in bubble.attachments.chips] == [Attachment("notes.md", NOTES)]
        assert "ship the attachments" in bubble.attachments.chips[0].toolTip()
    finally:
        again.close()


def test_a_file_too_big_for_the_context_is_not_sent_and_nothing_is_lost(qtbot, scripted_window, tmp_path):
    window, engine = scripted_window, scripted_window.bridge.local
    window.sampler.max_tokens.setValue(256)
    path = tmp_path / "long.txt"
    path.write_text("word " * 600)   # 3000 bytes: one token each here, the context holds 2048
    window.attachments.choose([str(path)])
    window.prompt.setPlainText("Read this.")
    window.send("Read this.")
    qtbot.waitUntil(lambda: getattr(window, "last_error", None) is not None, timeout=5_000)
    title, message = window.last_error
    needed = len(f"<user>{render_message('Read this.', [Attachment('long.txt', 'word ' * 600)])}</user><assistant>")
    assert title == "Not sent" and message.startswith(
        f"The message with its attachments needs {needed} tokens, but 1792 of the context's 2048 are left for it")
    assert engine.requests == [] and window.current.turns == []
    assert window.prompt.toPlainText() == "Read this." and len(window.attachments.strip.chips) == 1
    window.attachments.strip.chips[0].remove_button.click()        # the × takes it off; the text alone goes
    assert window.attachments.pending == [] and not window.attachments.strip.isVisible()
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=10_000):
        window.send_button.click()
    assert engine.requests[-1].messages[-1].content == "Read this."


def test_binary_and_unreadable_files_are_refused_with_what_was_typed_kept(qtbot, scripted_window, tmp_path):
    window = scripted_window
    window.prompt.setPlainText("Look at these")
    (tmp_path / "model.gguf").write_bytes(b"GGUF\0\0\0\3")
    (tmp_path / "ok.txt").write_text("fine")
    drop_files(window.prompt, [tmp_path / "model.gguf", tmp_path / "ok.txt", tmp_path])
    title, message = window.last_error
    assert title == "Not attached"
    assert message.splitlines() == ["model.gguf is a binary file (it has NUL bytes): only text files can be attached",
                                    f"{tmp_path.name} is a folder: attach a text file"]
    assert [c.attachment.name for c in window.attachments.strip.chips] == ["ok.txt"]   # the others still attached
    assert window.prompt.toPlainText() == "Look at these"


def test_an_unsent_message_stays_with_its_conversation(qtbot, scripted_window, tmp_path):
    """What is typed (and attached) in one conversation is not carried into another: each gets its own back."""
    window = scripted_window
    session, sidebar, prompt = window.session, window.sidebar, window.prompt
    with qtbot.waitSignal(session.answerEnded, timeout=10_000):
        assert session.send("Hello")
    first = session.current
    path = tmp_path / "notes.md"
    path.write_text(NOTES)
    prompt.setPlainText("A question I have not finished")
    drop_files(prompt, [path])
    assert [a.name for a in window.attachments.pending] == ["notes.md"]
    window.new_chat()
    second = session.current
    assert second is not first
    assert prompt.toPlainText() == "" and window.attachments.pending == [] and not window.attachments.strip.chips
    prompt.setPlainText("Something else")
    sidebar.conversation_list.setCurrentRow(sidebar.conversations.index(first))
    assert session.current is first
    assert prompt.toPlainText() == "A question I have not finished"
    assert [a.name for a in window.attachments.pending] == ["notes.md"] and len(window.attachments.strip.chips) == 1
    assert prompt.textCursor().atEnd()   # typing goes on where it stopped
    sidebar.conversation_list.setCurrentRow(sidebar.conversations.index(second))
    assert prompt.toPlainText() == "Something else" and window.attachments.pending == []
    prompt.clear()   # an emptied box leaves nothing behind
    sidebar.conversation_list.setCurrentRow(sidebar.conversations.index(first))
    sidebar.conversation_list.setCurrentRow(sidebar.conversations.index(second))
    assert prompt.toPlainText() == ""


def test_switching_chats_while_a_message_is_counted_sends_it_nowhere_and_keeps_it(qtbot, scripted_window, tmp_path):
    """The engine counts a message with files before it is sent (~0.1 s): a chat switched to meanwhile does not
    receive it; it stays, typed and attached, as the unsent message of the chat it was written in."""
    window, engine = scripted_window, scripted_window.bridge.local
    session, sidebar, prompt = window.session, window.sidebar, window.prompt
    with qtbot.waitSignal(session.answerEnded, timeout=10_000):
        assert session.send("Hello")   # (a new chat is another one only after a first turn)
    first, asked = session.current, len(engine.requests)
    path = tmp_path / "notes.md"
    path.write_text(NOTES)
    window.attachments.choose([str(path)])
    prompt.setPlainText("Summarise these notes")
    window.send("Summarise these notes")
    assert window.attachments.checking   # the count is on its way (delivered through the event loop)
    window.new_chat()
    second = session.current
    assert second is not first
    qtbot.wait(500)   # the count comes back meanwhile
    assert len(engine.requests) == asked and second.turns == [] and len(first.turns) == 1
    assert prompt.toPlainText() == "" and window.attachments.pending == [] and not window.attachments.strip.chips
    sidebar.conversation_list.setCurrentRow(sidebar.conversations.index(first))
    assert prompt.toPlainText() == "Summarise these notes"
    assert [a.name for a in window.attachments.pending] == ["notes.md"]
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=10_000):
        window.send_button.click()   # sent where it was written, with its file
    assert session.current is first and len(first.turns) == 2 and "# Plan" in engine.requests[-1].messages[-1].content
