"""A reasoning model in the window, on the real engine: the thinking copy of the demo model
(tests/helpers/thinking_model.py) loaded, the sampler controls' Thinking budget closes its block after N tokens,
the chat folds the thinking away above the answer, and the history keeps the steps' marks."""

from __future__ import annotations

import pytest

from logitscope.protocol.api import LoadSettings
from logitscope.protocol.reasoning import BY_BUDGET, UNLIMITED
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.store.history import HistoryStore
from tests.helpers.thinking_model import make_thinking_model
from tests.helpers.window import ask

pytestmark = [pytest.mark.gui, pytest.mark.model]


def test_the_budget_from_the_sampler_controls_closes_the_thinking(qtbot, real_window, tmp_path, demo_model) -> None:
    w = real_window
    thinking = make_thinking_model(demo_model, tmp_path / "thinking.gguf")
    with qtbot.waitSignal(w.bridge.loaded, timeout=30_000):
        w.open_model(str(thinking), LoadSettings(n_ctx=2048), ask=False)
    qtbot.waitUntil(lambda: not w.bridge.busy, timeout=10_000)
    assert w.sampler.reasoning_budget.value() == UNLIMITED and w.sampler.reasoning_budget.text() == "unlimited"
    w.sampler.reasoning_budget.setValue(16)
    assert w.sampler.decode_options().reasoning_budget == 16
    answer = ask(qtbot, w, "Explain step by step why the sky is blue.", max_tokens=40)
    assert answer.result is not None and answer.result.reasoning is not None
    assert answer.result.reasoning["ended"] == BY_BUDGET and answer.result.reasoning["budget"] == 16
    bubble = w.chat.answers[-1]
    n_thinking = sum(s.thinking for s in answer.steps)
    assert bubble.fold.n_steps == n_thinking > 16 and "closed by the budget (16)" in bubble.fold.toggle.text()
    assert len(bubble.view.steps) == len(answer.steps) - n_thinking
    # the history keeps each step's mark: the stored trace of the answer folds the same way after a restart
    qtbot.waitUntil(lambda: answer.store_id is not None, timeout=5_000)
    with HistoryStore() as store:
        qtbot.waitUntil(lambda: len(store.load_trace(answer.store_id)[0]) == len(answer.steps), timeout=5_000)
        stored, _pieces = store.load_trace(answer.store_id)
    assert [s.thinking for s in stored] == [s.thinking for s in answer.steps]


def test_answer_without_thinking_puts_both_answers_side_by_side(qtbot, real_window, tmp_path, demo_model) -> None:
    """The same question, seed and settings with the block closed at once: a new version of the answer, stored, and
    the two answers compared from the first token where they part."""
    from logitscope.protocol.thinking_effect import answer_steps

    w = real_window
    thinking = make_thinking_model(demo_model, tmp_path / "thinking.gguf")
    with qtbot.waitSignal(w.bridge.loaded, timeout=30_000):
        w.open_model(str(thinking), LoadSettings(n_ctx=2048), ask=False)
    qtbot.waitUntil(lambda: not w.bridge.busy, timeout=10_000)
    w.sampler.set_settings(PRESETS["Precise"])   # sampled: the same seed must come back for a fair comparison
    w.sampler.reasoning_budget.setValue(12)
    source = ask(qtbot, w, "What is 6 times 7?", max_tokens=32)
    assert source.result is not None and source.result.reasoning is not None
    bubble = w.chat.answers[-1]
    assert bubble.regenerate_button.menu() is bubble.regenerate_menu   # the arrow offers it
    with qtbot.waitSignal(w.session.withoutThinkingEnded, timeout=60_000) as ended:
        bubble.without_thinking.trigger()
    first, second = ended.args
    assert first is source and second is w.session.current.turns[-1].answer
    assert second.result.settings["seed"] == source.result.settings["seed"]
    assert second.result.reasoning["budget"] == 0 and second.result.reasoning["n_thinking"] == 4  # CLOSE_TEXT only
    dialog = w.chat_commands.effect_dialog
    assert dialog is not None and dialog.isVisible()
    effect = dialog.effect
    assert [s.token for s in effect.with_thinking] == [s.token for s in answer_steps(source.steps)]
    assert [s.token for s in effect.without_thinking] == [s.token for s in answer_steps(second.steps)]
    if effect.parting is not None:   # the summary names the parting token of each side
        summary = dialog.summary.text()
        assert (f"answer token {effect.parting + 1}" in summary) if effect.parting else "first token" in summary
        assert "likeliest tokens" in dialog.candidates[0].text() + dialog.candidates[1].text()
    else:
        assert "did not change it" in dialog.summary.text()
    assert len(w.session.current.turns[-1].answers) == 2   # a version: the answer with thinking is kept
    qtbot.waitUntil(lambda: second.store_id is not None, timeout=5_000)
    with HistoryStore() as store:
        stored = store.message(second.store_id)
    assert stored.reasoning is not None and stored.reasoning["budget"] == 0
