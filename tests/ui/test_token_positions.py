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
    steps = [SimpleNamespace(i=i, text=t, p_raw=(i % 5) / 4, rank_raw=i % 4, token=i, piece=t.encode(), drafted=False)
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


def test_a_paragraph_that_never_ends_is_split_while_streaming_and_whole_afterwards(qtbot):
    """A repetition loop is one endless paragraph, which Qt would lay out whole at every insert."""
    from logitscope.ui.chat.message_view import STREAMING_BLOCK_CHARS

    words = [" word", " loop", " again"] * (STREAMING_BLOCK_CHARS // 5)
    steps = [SimpleNamespace(i=i, text=t, p_raw=0.5, rank_raw=0, token=i, piece=t.encode(), drafted=False) for i, t in enumerate(words)]
    view = TokenTextView()
    qtbot.addWidget(view)
    view.set_streaming(True)
    for k in range(0, len(steps), 3):
        view.append_steps(steps[k:k + 3])
    document = view.document()
    assert document.blockCount() > 1
    assert document.lastBlock().length() <= STREAMING_BLOCK_CHARS + 40
    for start, step in zip(view._starts, steps, strict=True):  # every token is still where it is recorded
        assert document.characterAt(start) == step.text[0]
    view.set_streaming(False)
    view.set_steps(list(view.steps))  # as the answer is shown again at its end
    assert document.blockCount() == 1 and document.toPlainText() == "".join(words)
