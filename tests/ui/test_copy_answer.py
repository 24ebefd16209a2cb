"""Copy an answer as its Markdown (a click) or as plain text (the button's menu), its thinking left out."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication

from logitscope.host.remote_wire import Chunk, chunk_steps
from logitscope.session.conversation import Answer, Turn
from logitscope.ui.chat.chat_view import AnswerBubble

pytestmark = pytest.mark.gui
MARKDOWN = "Use **bold** and `code`:\n\n- one\n- two"


def _bubble(qtbot, pieces: list[str]) -> AnswerBubble:
    steps = [s for i, text in enumerate(pieces) for s in chunk_steps(Chunk(text), i, 0.01)]
    bubble = AnswerBubble(Turn("q", [Answer(steps, None, "stopped")]), [], False, "probability", False)
    qtbot.addWidget(bubble)
    return bubble


def test_copy_gives_the_markdown_or_the_plain_text(qtbot) -> None:
    bubble = _bubble(qtbot, [MARKDOWN[:10], MARKDOWN[10:]])
    bubble.copy_button.click()
    assert QGuiApplication.clipboard().text() == MARKDOWN
    as_markdown, as_text = bubble.copy_button.menu().actions()
    as_text.trigger()
    plain = QGuiApplication.clipboard().text()
    assert "**" not in plain and "`" not in plain and "bold" in plain and "code" in plain and "two" in plain
    as_markdown.trigger()
    assert QGuiApplication.clipboard().text() == MARKDOWN
    plain_answer = _bubble(qtbot, ["Just ", "words."])
    assert plain_answer.plain_text() == "Just words."
