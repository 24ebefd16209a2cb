"""The chat inserts a batch of tokens with one insert per run of equal formats; each token's start must
still be exactly where a token-by-token insert puts it (clicks and hovers map positions to steps)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtGui import QTextCursor

from logitscope.ui.chat.message_view import TokenTextView

TEXTS = ["Hello", " wor", "ld\n", "😀", "é", "\r\n", "x", "", "\r", "y\u2028z", "\t", "a\U0001F600b", "end"]


@pytest.mark.parametrize("batch", [1, 3, 100])
@pytest.mark.parametrize("heatmap", [False, True])
def test_token_starts_match_inserting_one_token_at_a_time(qtbot, batch, heatmap):
    steps = [SimpleNamespace(i=i, text=t, p_raw=(i % 5) / 4, rank_raw=i % 4, token=i, piece=t.encode())
             for i, t in enumerate(TEXTS)]
    view = TokenTextView()
    qtbot.addWidget(view)
    view.heatmap = heatmap
    for k in range(0, len(steps), batch):
        view.append_steps(steps[k:k + batch])
    reference = TokenTextView()
    qtbot.addWidget(reference)
    cursor = QTextCursor(reference.document())
    starts = []
    for step in steps:
        if step.text:
            starts.append(cursor.position())
            cursor.insertText(step.text)
    assert view._starts == starts
    assert view.document().toPlainText() == reference.document().toPlainText()
