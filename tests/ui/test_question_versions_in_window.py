"""An edited question keeps its earlier version (‹ 1 / 2 ›) with its answers and the
turns after it; an earlier turn (not only the last) can be edited and regenerated; all of it survives
a restart."""

from __future__ import annotations

import pytest

from logitscope.session.history import ChatHistory
from logitscope.store.history import HistoryStore
from tests.helpers.window import GEN_TIMEOUT_MS, ask

pytestmark = pytest.mark.gui




def finish(qtbot, window, action):
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        action()
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)


def test_editing_an_earlier_question_keeps_the_old_branch(qtbot, scripted_window):
    ask(qtbot, scripted_window, "Say hi.", max_tokens=3)
    ask(qtbot, scripted_window, "Say bye.", max_tokens=3)
    first_answer = scripted_window.current.turns[0].answer
    finish(qtbot, scripted_window, lambda: scripted_window.resend_edited(0, "Say hello."))
    assert [t.user for t in scripted_window.current.turns] == ["Say hello."]
    bubble = scripted_window.chat.questions[0]
    assert bubble.branch_label.text() == "2 / 2" and bubble.prev_button.isEnabled()
    bubble.prev_button.click()                     # back to the old question: its answer and later turn
    assert [t.user for t in scripted_window.current.turns] == ["Say hi.", "Say bye."]
    assert scripted_window.current.turns[0].answer is first_answer
    assert scripted_window.chat.questions[0].branch_label.text() == "1 / 2"
    assert len(scripted_window.chat.answers) == 2

    store_id = scripted_window.current.store_id
    scripted_window.close()
    with HistoryStore() as store:                  # the same tree after a restart, on the chosen branch
        history = ChatHistory(store)
        (again,) = [c for c in history.conversations() if c.store_id == store_id]
        history.fill(again)
        assert [t.user for t in again.turns] == ["Say hi.", "Say bye."]
        again.switch_question(0, 1)
        assert [t.user for t in again.turns] == ["Say hello."]


def test_regenerating_an_earlier_answer_keeps_later_turns_in_their_branch(qtbot, scripted_window):
    ask(qtbot, scripted_window, "Say hi.", max_tokens=3)
    ask(qtbot, scripted_window, "Say bye.", max_tokens=3)
    finish(qtbot, scripted_window, lambda: scripted_window.regenerate(0))
    turn = scripted_window.current.turns[0]
    assert len(turn.answers) == 2 and [t.user for t in scripted_window.current.turns] == ["Say hi."]
    scripted_window.switch_branch(0, 0)
    assert [t.user for t in scripted_window.current.turns] == ["Say hi.", "Say bye."]
    assert len(scripted_window.chat.answers) == 2
