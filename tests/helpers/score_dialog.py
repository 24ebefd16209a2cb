"""The score dialog in tests: open it from the window, the text it scores, a token's colour."""

from __future__ import annotations

from PySide6.QtGui import QColor, QTextCursor

SCORE_TIMEOUT_MS = 120_000  # a paragraph scores in well under a second on an idle machine; this one is shared
SCORED_TEXT = ("The quick brown fox jumps over the lazy dog. Paris is the capital of France, and Berlin is the capital "
        "of Germany. Water boils at one hundred degrees Celsius at sea level.")


def open_score_dialog(qtbot, window):
    window.score_action.trigger()
    dialog = window.score_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    return dialog


def token_background(view, index: int) -> QColor:
    """The background a token is drawn with in the scored text."""
    cursor = QTextCursor(view.document())
    cursor.setPosition(view._starts[view._owners.index(index)] + 1)
    return cursor.charFormat().background().color()
