"""After New chat, switching conversation or deleting the current one, no inspector
panel keeps showing a step of another conversation; with nothing selected each says so."""

from __future__ import annotations

import pytest

from tests.helpers.window import ask

pytestmark = pytest.mark.gui



EMPTY = "No step selected"


def assert_inspector_empty(window):
    assert window.distribution.view is None
    assert window.timeline.n_steps == 0
    for key in ("distribution", "waterfall", "timeline"):
        page = window.docks[key].widget()
        assert EMPTY in page.empty_text(), key
        assert page.showing_empty(), key


def select_a_step(qtbot, window, question: str):
    ask(qtbot, window, question, max_tokens=4)
    window.select_step(0, 1)
    assert window.distribution.view is not None and window.distribution.view.step.i == 1


def test_new_chat_empties_the_inspector(qtbot, scripted_window):
    select_a_step(qtbot, scripted_window, "Hi!")
    scripted_window.new_chat()
    assert_inspector_empty(scripted_window)


def test_switching_conversation_empties_the_inspector(qtbot, scripted_window):
    select_a_step(qtbot, scripted_window, "Hi!")
    scripted_window.new_chat()
    select_a_step(qtbot, scripted_window, "Hello!")
    scripted_window.conversation_list.setCurrentRow(1)   # the first chat
    assert scripted_window.current.turns[0].user == "Hi!"
    assert_inspector_empty(scripted_window)


def test_deleting_the_current_conversation_empties_the_inspector(qtbot, scripted_window):
    select_a_step(qtbot, scripted_window, "Hi!")
    scripted_window.delete_conversation(confirm=False)
    assert_inspector_empty(scripted_window)


def test_the_timelines_x_axis_changes_a_few_times_in_a_long_answer():
    """The axis (labels, grid: the dear part of a repaint) is redrawn when its range changes: a handful of
    times over 5,000 steps, and the curve always fills at least two thirds of it."""
    from logitscope.ui.inspector.timeline import X_CHUNK, x_ceiling

    tops = [x_ceiling(n) for n in range(5_001)]
    assert len(set(tops)) <= 18  # 16, 24, 32, 48, 64, 96, 128, 192 ... 6144
    assert all(n <= top and (n <= X_CHUNK or n > top * 2 / 3) for n, top in enumerate(tops))
    assert x_ceiling(12) == 16   # a short answer fills its plot (12 steps on a 0-64 axis sat in its first fifth)
