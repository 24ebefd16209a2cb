"""Copy an answer as its Markdown (a click) or as plain text (the button's menu), its thinking left out; or one of
its code blocks (the block's own Copy link, clicked or reached with Tab)."""

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
    bubble = AnswerBubble(Turn("q", [Answer(steps, None, "stopped")]), lambda _answer: [], False, "probability", False)
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


CODE_ANSWER = "Try:\n\n```python\ndef f():\n\treturn 1\n```\n\nor in a shell:\n\n```sh\necho hi\n```\n"


def _done_bubble(qtbot, text: str) -> AnswerBubble:
    steps = list(chunk_steps(Chunk(text), 0, 0.01))
    bubble = AnswerBubble(Turn("q", [Answer(steps, None, "done")]), lambda _answer: [], False, "probability", False)
    qtbot.addWidget(bubble)
    bubble.resize(600, 400)
    bubble.show()
    qtbot.waitExposed(bubble)
    return bubble


def _link_point(view, n: int):
    """A point inside the text of the n-th Copy link of the formatted answer."""
    from PySide6.QtGui import QTextCursor

    document = view.document()
    block, found = document.begin(), -1
    while block.isValid():
        if block.charFormat().isAnchor() or any(f.format.isAnchor() for f in block.textFormats()):
            found += 1
            if found == n:
                cursor = QTextCursor(block)
                cursor.setPosition(block.position() + 1)
                return view.cursorRect(cursor).center()
        block = block.next()
    raise AssertionError(f"no link {n}")


def test_each_code_block_copies_its_own_code(qtbot) -> None:
    from PySide6.QtCore import Qt

    bubble = _done_bubble(qtbot, CODE_ANSWER)
    view = bubble.view
    assert view.markdown_text == CODE_ANSWER and view.toPlainText().count("Copy") == 2
    QGuiApplication.clipboard().setText("")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=_link_point(view, 1))
    assert QGuiApplication.clipboard().text() == "echo hi"
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=_link_point(view, 0))
    assert QGuiApplication.clipboard().text() == "def f():\n\treturn 1"    # the tab kept, no fences
    bubble.copy_button.click()
    assert QGuiApplication.clipboard().text() == CODE_ANSWER   # the whole answer still, as its Markdown
    assert "Copy" not in bubble.plain_text()    # the links are the view's, not the answer's


def test_a_code_block_is_copied_from_the_keyboard(qtbot) -> None:
    from PySide6.QtCore import Qt

    bubble = _done_bubble(qtbot, CODE_ANSWER)
    view = bubble.view
    view.setFocus()
    QGuiApplication.clipboard().setText("")
    qtbot.keyClick(view, Qt.Key.Key_Tab)        # to the first link, then the second
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert QGuiApplication.clipboard().text() == "echo hi"
