"""A reasoning model in the window, on the real engine: the thinking copy of the demo model
(tests/helpers/thinking_model.py) loaded, the sampler controls' Thinking budget closes its block after N tokens,
the chat folds the thinking away above the answer, and the history keeps the steps' marks."""

from __future__ import annotations

import pytest

from logitscope.protocol.api import LoadSettings
from logitscope.protocol.reasoning import BY_BUDGET, UNLIMITED
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
