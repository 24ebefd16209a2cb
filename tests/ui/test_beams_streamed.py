"""The Beams view streams the search and cancels it: the real window over the real engine
process (demo model). The tree grows while the engine searches, one update per burst of steps; Cancel and Esc
stop the run (during the greedy answer, or midway through the beams) with the tree so far and no result shown as
final, and the same engine then answers a chat message."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from logitscope.ui.beams.view import WINNER_BACKGROUND
from tests.helpers.beams_view import SEARCH_TIMEOUT_MS, tree_items
from tests.helpers.window import ask

pytestmark = pytest.mark.gui

OPEN_QUESTION = "Write a long story about a dragon and a knight."
MAX_TOKENS = 60  # 8 beams on a story: the search would run to the end (no 8 endings before), unless cancelled


def _start(dialog, beams: int, max_tokens: int) -> list[tuple[bool, int, int]]:
    """Start a search; returns what each live update showed: (still running, rows in the tree, its last step)."""
    seen: list[tuple[bool, int, int]] = []
    # queued: the signal is emitted on the bridge's worker thread, and the tree may only be read on the GUI's
    dialog.progressed.connect(lambda: seen.append((dialog.running, len(list(tree_items(dialog.tree))),
                                                   dialog.steps_seen[-1] if dialog.steps_seen else -1)),
                              Qt.ConnectionType.QueuedConnection)
    dialog.question.setText(OPEN_QUESTION)
    dialog.beams.setValue(beams)
    dialog.max_tokens.setValue(max_tokens)
    dialog.run_button.click()
    assert dialog.running and dialog.cancel_button.isEnabled()
    return seen


def test_the_tree_grows_while_the_engine_searches(qtbot, real_window) -> None:
    real_window.beams_action.trigger()
    dialog = real_window.beams_dialog
    seen = _start(dialog, beams=4, max_tokens=24)
    qtbot.waitUntil(lambda: not dialog.running, timeout=SEARCH_TIMEOUT_MS)
    result = dialog.beam_result
    assert result is not None, dialog.status.text()
    live = [entry for entry in seen if entry[0]]
    assert len(live) > 1, seen  # several updates while it searched, each before the end
    assert live[0][2] < len(result.steps) - 1
    assert [rows for _, rows, _ in live] == sorted(rows for _, rows, _ in live) and live[0][1] < live[-1][1]
    assert [step for _, _, step in live] == sorted(step for _, _, step in live)
    # the final tree is the streamed one, the winner's path highlighted
    assert len(list(tree_items(dialog.tree))) == len(result.nodes) - _unreachable(result)
    assert "winner" in dialog.winner.text() and not dialog.cancel_button.isEnabled()


def _unreachable(result) -> int:
    """Candidates whose parent was not kept have no row (only kept nodes have children): none, by construction."""
    return sum(1 for node in result.nodes if node.parent >= 0 and result.nodes[node.parent].status != "kept")


def test_cancel_stops_the_run_and_the_engine_answers_after(qtbot, real_window) -> None:
    real_window.beams_action.trigger()
    dialog = real_window.beams_dialog

    # Cancel during the greedy answer: the beams never start
    _start(dialog, beams=8, max_tokens=MAX_TOKENS)
    dialog.cancel_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=SEARCH_TIMEOUT_MS)
    assert dialog.status.text() == "Cancelled before the first step." and dialog.tree.topLevelItemCount() == 0
    assert dialog.beam_result is None and dialog.winner.text() == ""

    # Esc midway through the beams: the tree so far stays, no winner, no hypotheses; the dialog stays open
    seen = _start(dialog, beams=8, max_tokens=MAX_TOKENS)
    qtbot.waitUntil(lambda: bool(dialog.steps_seen) and dialog.steps_seen[-1] >= 2, timeout=SEARCH_TIMEOUT_MS)
    at_cancel = dialog.steps_seen[-1]
    asked = time.monotonic()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.isVisible() and dialog.status.text() == "Cancelling…"
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    stopped_s = time.monotonic() - asked
    last = dialog.nodes[-1].step
    assert at_cancel <= last < MAX_TOKENS - 1, (at_cancel, last)  # stopped before max tokens
    assert dialog.status.text().startswith(f"Cancelled after {last + 1} steps"), dialog.status.text()
    assert dialog.beam_result is None and dialog.isVisible()
    assert dialog.winner.text() == dialog.hypotheses.text() == dialog.memory.text() == ""
    rows = list(tree_items(dialog.tree))
    assert rows and not any(item.background(0).color() == QColor(WINNER_BACKGROUND) for item in rows)
    assert sum(item.text(3) == "stopped (cancelled)" for item in rows) == len(dialog.cut) > 0  # not "finished"
    assert seen and all(running for running, _, _ in seen[:-1])
    assert stopped_s < 30, stopped_s  # within a step or so (seconds at most on a machine shared with other work)

    # the same engine, right after: a normal chat answer
    answer = ask(qtbot, real_window, "Say hi.", max_tokens=6)
    assert answer.text and answer.result.finish_reason != "cancelled"
