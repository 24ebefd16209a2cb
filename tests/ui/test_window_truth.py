"""The window tells the truth about what is on screen: the Memory dock and the status bar show the context of
the conversation and version shown, never another's; Score a text does not ask for a model that is loaded.
Scripted engine (fast); the KV map, which needs the real engine, is in test_kv_map_in_window.py."""

from __future__ import annotations

import pytest

from tests.helpers.window import ask

pytestmark = pytest.mark.gui


def test_score_a_text_does_not_ask_for_the_model_that_is_loaded(qtbot, scripted_window):
    dialog = scripted_window.score_dialog
    assert scripted_window.score_action.isEnabled()
    dialog.show()
    assert dialog.status.text() == dialog.ready_text() and dialog.score_button.isEnabled()
    dialog.close()


def shows_context(qtbot, window, used: int) -> None:
    """The status bar says `used` cells of the context at once, the Memory dock's gauge a moment later."""
    assert window.status.context.text() == f"context {used} / {window.bridge.info.n_ctx}"
    qtbot.waitUntil(lambda: window.memory.gauge.value() == used, timeout=5_000)


def test_switching_chats_and_versions_shows_that_ones_context(qtbot, scripted_window):
    w = scripted_window
    w.docks["memory"].raise_()   # the gauge on screen
    first = ask(qtbot, w, "Say hi.", max_tokens=5)
    a = first.result.kv.used_cells
    shows_context(qtbot, w, a)
    w.new_chat()   # nothing asked yet: no context of its own, not the last chat's
    shows_context(qtbot, w, 0)
    second = ask(qtbot, w, "Name a colour.", max_tokens=5)
    b = second.result.kv.used_cells
    assert a != b
    shows_context(qtbot, w, b)
    w.conversation_list.setCurrentRow(1)   # the first chat again
    assert w.current.turns[0].answer is first
    shows_context(qtbot, w, a)
    w.regenerate(0)
    qtbot.waitUntil(lambda: w.streaming is None and w.current.turns[0].answer.result is not None, timeout=10_000)
    c = w.current.turns[0].answer.result.kv.used_cells
    assert c != a
    shows_context(qtbot, w, c)
    w.switch_branch(0, 0)   # the first version: its context, not the one just made
    shows_context(qtbot, w, a)
    w.conversation_list.setCurrentRow(0)
    shows_context(qtbot, w, b)


def test_the_timeline_gives_p_and_entropy_axes_of_their_own(qtbot, recording):
    """p (0 to 1) on the left axis, the entropy in nats on a right-hand axis of its own: an entropy of 3.5
    nats is not drawn on p's scale, nor p squeezed into the bottom quarter of an entropy scale."""
    from dataclasses import replace

    from logitscope.ui.inspector.timeline import TimelinePanel

    panel = TimelinePanel()
    qtbot.addWidget(panel)
    steps = [replace(s) for s in recording.answers[0][0]]
    steps[2] = replace(steps[2], entropy_raw=3.5)
    panel.set_steps(steps)
    p_lo, p_hi = panel.top.vb.viewRange()[1]
    assert p_lo <= 0 and 1 <= p_hi < 1.1
    assert panel.h_curve.getViewBox() is panel.entropy_view is not panel.top.vb
    h_lo, h_hi = panel.entropy_view.viewRange()[1]
    most = max(s.entropy_raw for s in steps)
    assert most >= 3.5 and h_lo <= 0 and most <= h_hi < most + 1.2   # in whole nats above the highest
    right = panel.top.getAxis("right")
    assert right.isVisible() and right.linkedView() is panel.entropy_view and "entropy" in right.labelText
    assert "p" in panel.top.getAxis("left").labelText


def test_the_timeline_axes_values_never_overlap_in_a_short_dock(qtbot, recording):
    """At 1280x720 the Timeline dock gives each plot ~100 px: the axes' values are written where there is room for
    them ("0.8 0.6 0.4 0.2" were drawn over one another)."""
    from PySide6.QtGui import QImage, QPainter

    from logitscope.ui.inspector.timeline import TimelinePanel

    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.resize(460, 220)
    panel.show()
    panel.set_steps(recording.answers[0][0])
    qtbot.waitUntil(lambda: panel.top.vb.height() > 0)
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        for plot in (panel.top, panel.bottom):
            for side in ("left", "right"):
                _axis, _ticks, texts = plot.getAxis(side).generateDrawSpecs(painter)
                rects = [rect for rect, _flags, text in texts if text]
                for i, a in enumerate(rects):
                    assert not any(a.intersects(b) for b in rects[i + 1:]), [t for _r, _f, t in texts]
    finally:
        painter.end()


def test_the_preview_waterfall_says_its_first_bar_is_the_stored_head(qtbot, recording):
    """A preview re-samples the stored head (128 candidates), not the vocabulary: the first bar and the
    caption say so, with the vocabulary's real count beside it."""
    from logitscope.protocol.sampler_settings import PRESETS
    from logitscope.ui.inspector.state import StepView
    from logitscope.ui.inspector.waterfall import WaterfallPanel

    panel = WaterfallPanel()
    qtbot.addWidget(panel)
    steps, result = recording.answers[0]
    step = steps[1]
    n_vocab, n_head = step.stages[0].n_in, len(step.raw_ids)
    assert n_head < n_vocab
    panel.show_step(StepView(step, result.settings))   # as recorded: the vocabulary, all of it
    assert panel._names[0] == "vocabulary" and panel.count_labels[0].toPlainText() == f"{n_vocab:,}"
    panel.show_step(StepView(step, result.settings, preview=PRESETS["Creative"]))
    assert panel._names[0] == "stored head" and panel.count_labels[0].toPlainText() == f"{n_head:,}"
    assert f"{n_head:,} of {n_vocab:,} candidates" in panel.info.text() and panel.info.isVisibleTo(panel)


def test_the_waterfalls_counts_are_shortened_only_where_they_would_touch(qtbot, recording):
    """Gemma's "262,144" ran into its neighbour ("262,144262,144") in the default layout at 1280x720: a count
    too wide for its bar's room reads "262k" (49k here), and again in full when the dock widens."""
    from logitscope.ui.inspector.state import StepView
    from logitscope.ui.inspector.waterfall import WaterfallPanel

    panel = WaterfallPanel()
    qtbot.addWidget(panel)
    steps, result = recording.answers[0]
    step = steps[1]
    n_vocab = step.stages[0].n_in
    panel.resize(260, 320)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_step(StepView(step, result.settings))
    assert panel._compact and panel.count_labels[0].toPlainText() == f"{n_vocab // 1000}k"
    panel.resize(1200, 320)
    qtbot.waitUntil(lambda: panel.count_labels[0].toPlainText() == f"{n_vocab:,}", timeout=2_000)
    assert not panel._compact
    ticks = [label for _value, label in panel.mass.getAxis("left")._tickLevels[0]]
    assert ticks == ["0", "0.5", "1"]   # three: five overlapped in the low plot at 720 px


def test_copy_last_answer_is_offered_only_when_there_is_one(qtbot, scripted_window):
    w = scripted_window
    copy = w.window_actions.copy
    w.new_chat()
    assert not copy.isEnabled()   # nothing asked yet
    ask(qtbot, w, "Say hi.", max_tokens=5)
    assert copy.isEnabled()
    w.new_chat()
    assert not copy.isEnabled()
