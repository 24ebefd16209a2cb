"""Speculative decoding in the window, on the real engine: the setting, accepted drafts marked in the chat
(dotted underline) and on the timeline (a dot per accepted draft), the figures in the status line, and the
setting refused with a reason on a remote engine."""

from __future__ import annotations

from PySide6.QtGui import QTextCharFormat, QTextCursor

from logitscope.engine.api import DRAFT_LOOKUP
from tests.ui.conftest import ask

EDIT = ("Rewrite this text, replacing 'fox' with 'cat' and keeping everything else the same:\n\nThe quick brown "
        "fox jumps over the lazy dog. It was a sunny day in the small village of Millbrook.")


def test_prompt_lookup_in_the_window_marks_accepted_drafts(qtbot, window):
    w = window
    drafting = w.sampler.drafting
    assert drafting.isEnabled() and drafting.options() == {}   # the local engine offers it; off by default
    drafting.mode.setCurrentIndex(drafting.mode.findData(DRAFT_LOOKUP))
    drafting.draft_max.setValue(6)
    assert drafting.options() == {"draft": DRAFT_LOOKUP, "draft_max": 6}
    answer = ask(qtbot, w, EDIT, max_tokens=40)
    drafted = [i for i, s in enumerate(answer.steps) if s.drafted]
    assert len(drafted) >= 5, [s.text for s in answer.steps]
    assert "tokens per evaluation" in w.status.speed.text() and "drafts accepted" in w.status.speed.text()
    # the timeline: one dot per accepted draft, at its step
    qtbot.waitUntil(lambda: w.timeline.n_steps == len(answer.steps), timeout=5_000)
    dots = w.timeline.drafted_dots.getData()[0]
    assert sorted(int(x) for x in dots) == drafted
    # the chat's token view: accepted drafts are underlined, the others are not
    w.heatmap_action.setChecked(True)
    w.toggle_heatmap()
    view = w.chat.answers[-1].view
    qtbot.waitUntil(lambda: view.isVisible() and len(view._owners) > 0, timeout=5_000)
    styles = {}
    for start, owner in zip(view._starts, view._owners, strict=True):
        if answer.steps[owner].text:
            cursor = QTextCursor(view.document())
            cursor.setPosition(start + 1)
            styles[owner] = cursor.charFormat().underlineStyle()
    dotted = QTextCharFormat.UnderlineStyle.DotLine
    assert {i for i, style in styles.items() if style == dotted} == {i for i in styles if answer.steps[i].drafted}
    assert any(style != dotted for style in styles.values())
    assert "accepted speculative draft" in view.tooltip_html(answer.steps[drafted[0]])


def test_a_remote_engine_disables_the_setting_with_its_reason(qtbot, window):
    drafting = window.sampler.drafting
    drafting.mode.setCurrentIndex(drafting.mode.findData(DRAFT_LOOKUP))
    window.sampler.set_capabilities({"remote": True, "speculative": False, "samplers": []})
    assert not drafting.isEnabled() and drafting.options() == {}
    assert "local engine" in drafting.mode.toolTip()
