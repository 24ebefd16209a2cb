"""A reasoning model's answer in the chat: its thinking folded away above the answer (*Thinking…* while it streams,
*Thought for … s · N tokens* with how it ended), unfolding to tokens that click, hover and fork as the answer's
do (indices of the whole answer), the answer alone formatted and copied. Real steps: the demo model with a chat
template that opens <think> (tests/helpers/thinking_model.py), its budget closing the block."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication

from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.reasoning import split_thinking
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.session.conversation import Answer, Turn
from logitscope.ui.chat.chat_view import AnswerBubble
from tests.helpers.thinking_model import make_thinking_model

pytestmark = [pytest.mark.gui, pytest.mark.model]
BUDGET = 12


@pytest.fixture(scope="module")
def answer(tmp_path_factory: pytest.TempPathFactory, demo_model: Path) -> tuple[list[StepRecord], GenerationResult, list[bytes]]:
    from logitscope.engine.core import Engine

    engine = Engine()
    engine.load(make_thinking_model(demo_model, tmp_path_factory.mktemp("fold") / "thinking.gguf"),
                LoadSettings(n_ctx=512, n_threads=2))
    try:
        events = list(engine.generate(GenerateRequest(
            messages=[ChatMessage("user", "Explain step by step why the sky is blue.")], settings=PRESETS["Greedy"],
            options=DecodeOptions(max_tokens=40, reasoning_budget=BUDGET))))
        vocab = engine.vocab()
    finally:
        engine.unload()
    result = events[-1]
    assert isinstance(result, GenerationResult)
    return [e for e in events[:-1] if isinstance(e, StepRecord)], result, vocab


def test_a_finished_answer_folds_its_thinking_away(qtbot, answer) -> None:
    steps, result, vocab = answer
    n_thinking = sum(s.thinking for s in steps)
    bubble = AnswerBubble(Turn("why?", [Answer(list(steps), result, "done")]), lambda _answer: vocab, False, "probability", False)
    qtbot.addWidget(bubble)
    bubble.show()
    assert not bubble.fold.isHidden() and bubble.fold.view.isHidden()   # folded
    assert bubble.fold.n_steps == n_thinking and len(bubble.view.steps) == len(steps) - n_thinking
    header = bubble.fold.toggle.text()
    assert header.startswith("Thought for ") and f"· {n_thinking} tokens" in header
    assert f"closed by the budget ({BUDGET})" in header
    split = split_thinking(result.text, inside=True)
    assert bubble.answer_text() == split.answer and split.thinking not in bubble.view.toPlainText()
    bubble.copy_button.click()
    assert QGuiApplication.clipboard().text() == split.answer
    # a step of the answer is the whole answer's index; one of the thinking unfolds the block
    with qtbot.waitSignal(bubble.stepClicked) as clicked:
        bubble.view.stepClicked.emit(0)
    assert clicked.args == [n_thinking]
    view, index = bubble.token_view(2)
    assert view is bubble.fold.view and index == 2 and not bubble.fold.view.isHidden()
    assert bubble.token_view(n_thinking + 1) == (bubble.view, 1)


def test_while_it_streams_the_header_says_it_is_thinking(qtbot, answer) -> None:
    steps, result, vocab = answer
    n_thinking = sum(s.thinking for s in steps)
    streaming = Answer()
    bubble = AnswerBubble(Turn("why?", [streaming]), lambda _answer: vocab, False, "probability", False)
    qtbot.addWidget(bubble)
    assert bubble.fold.isHidden()   # nothing yet
    for start in range(0, n_thinking, 5):
        chunk = steps[start:min(start + 5, n_thinking)]
        streaming.steps += chunk
        bubble.append(chunk)
        bubble.update_status()
    assert bubble.fold.toggle.text() == f"Thinking… · {n_thinking} tokens" and not bubble.view.steps
    rest = steps[n_thinking:]
    streaming.steps += rest
    bubble.append(rest)
    streaming.result, streaming.status = result, "done"
    bubble.refresh()
    assert bubble.fold.n_steps == n_thinking and [s.i for s in bubble.view.steps] == [s.i for s in rest]
    assert bubble.fold.toggle.text().startswith("Thought for ")


def test_an_answer_without_thinking_has_no_fold(qtbot, answer) -> None:
    steps, result, vocab = answer
    plain = [s for s in steps if not s.thinking]
    bubble = AnswerBubble(Turn("why?", [Answer(plain, None, "stopped")]), lambda _answer: vocab, False, "probability", False)
    qtbot.addWidget(bubble)
    assert bubble.fold.isHidden() and bubble.fold.n_steps == 0 and len(bubble.view.steps) == len(plain)
