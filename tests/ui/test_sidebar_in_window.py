"""The conversation list: two windows (two processes) on one history — what the other one writes shows up in this
one's list within WATCH_MS, the conversation shown here stays even when the other deletes it (writing in it brings
it back); and its keys (Ctrl+F, F2, Delete)."""

from __future__ import annotations

import pytest

from logitscope.store.history import HistoryStore
from logitscope.ui.window.sidebar import WATCH_MS

pytestmark = pytest.mark.gui


def titles(window) -> list[str]:  # noqa: ANN001
    return [window.sidebar.conversation_list.item(row).text() for row in range(window.sidebar.conversation_list.count())]


def test_the_list_follows_another_windows_changes(qtbot, scripted_window):
    window = scripted_window
    session, sidebar = window.session, window.sidebar
    with qtbot.waitSignal(session.answerEnded, timeout=10_000):
        assert session.send("Hello from this window")
    shown = session.current
    assert not sidebar.pick_up_changes()   # nothing from elsewhere yet: this window's own saves do not count
    other = HistoryStore(session.history.store.path)
    try:
        cid = other.create_conversation("From the other window")
        other.add_message(cid, "user", "Hi")
        qtbot.waitUntil(lambda: "From the other window" in titles(window), timeout=WATCH_MS * 3)
        assert session.current is shown and sidebar.conversation_list.currentItem().text() == shown.title
        other.rename(shown.store_id, "Renamed over there")
        qtbot.waitUntil(lambda: "Renamed over there" in titles(window), timeout=WATCH_MS * 3)
        other.delete(shown.store_id)
        qtbot.wait(WATCH_MS + 500)   # the list has looked again
        assert session.current is shown and "Renamed over there" in titles(window)   # deleted elsewhere, still open
        with qtbot.waitSignal(session.answerEnded, timeout=10_000):
            assert session.send("Are you still there?")
        assert shown.store_id in [c.id for c in other.list_conversations()]   # out of the trash again
    finally:
        other.close()


def test_a_closed_history_is_not_watched(qtbot, scripted_window):
    """The list's watch may fire once more while the window closes: a closed store is no change, not an error."""
    window = scripted_window
    window.history.store.close()
    assert not window.sidebar.pick_up_changes()


def test_ctrl_f_searches_f2_renames_and_delete_deletes(qtbot, scripted_window, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    from logitscope.ui.window import sidebar as sidebar_module

    window = scripted_window
    window.activateWindow()
    sidebar = window.sidebar
    with qtbot.waitSignal(window.session.answerEnded, timeout=10_000):
        assert window.session.send("Hello")
    window.chat.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(sidebar.search_box.hasFocus, timeout=2_000)
    assert "Ctrl+F" in sidebar.search_box.toolTip()
    sidebar.conversation_list.setFocus()
    monkeypatch.setattr(sidebar_module, "ask_text", lambda *_a, **_k: ("Renamed with F2", True))
    qtbot.keyClick(sidebar.conversation_list, Qt.Key.Key_F2)
    assert window.session.current.title == "Renamed with F2"
    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Yes)
    qtbot.keyClick(sidebar.conversation_list, Qt.Key.Key_Delete)
    assert "Renamed with F2" not in titles(window)


def test_f2_renames_after_a_click_on_the_list_moved_the_focus_to_the_message_box(qtbot, scripted_window, monkeypatch):
    """A click on a conversation puts the cursor in the message box (to write at once); F2 then did nothing, and
    the title the user went on to type was sent to the model as a question."""
    from PySide6.QtCore import Qt

    from logitscope.ui.window import sidebar as sidebar_module

    window = scripted_window
    window.activateWindow()
    with qtbot.waitSignal(window.session.answerEnded, timeout=10_000):
        assert window.session.send("Hello")
    sidebar = window.sidebar
    item = sidebar.conversation_list.item(0)
    qtbot.mouseClick(sidebar.conversation_list.viewport(), Qt.MouseButton.LeftButton,
                     pos=sidebar.conversation_list.visualItemRect(item).center())
    window.prompt.setFocus()
    qtbot.waitUntil(window.prompt.hasFocus, timeout=2_000)
    asked: list[str] = []
    monkeypatch.setattr(sidebar_module, "ask_text", lambda *_a, **_k: asked.append("F2") or ("Renamed", True))
    qtbot.keyClick(window.prompt, Qt.Key.Key_F2)
    assert asked == ["F2"] and window.session.current.title == "Renamed"
    assert "F2" in sidebar.rename_button.toolTip()
