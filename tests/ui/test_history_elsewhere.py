"""Two windows (two processes) on one history: what the other one writes shows up in this one's list within
WATCH_MS; the conversation shown here stays even when the other deletes it (writing in it brings it back)."""

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
