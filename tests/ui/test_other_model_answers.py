"""An answer another model wrote, on screen while the demo model is loaded: its alternatives keep its own model's
tokens (the bytes the history kept with it), never the loaded vocabulary's words for the same ids; the
forward-pass docks and Causal tracing say which model to load instead of failing on ids the loaded model lacks."""

from __future__ import annotations

import pytest

from logitscope.protocol.api import LoadSettings
from logitscope.ui.common.tokens import candidate_piece, token_label
from tests.helpers.window import ask

pytestmark = [pytest.mark.gui, pytest.mark.model, pytest.mark.qt_log_ignore("does not support raise")]


def load(qtbot, window, path, n_ctx: int) -> None:
    with qtbot.waitSignal(window.bridge.loaded, timeout=60_000):
        window.open_model(str(path), LoadSettings(n_ctx=n_ctx), ask=False)
    qtbot.waitUntil(lambda: not window.bridge.busy, timeout=10_000)


def test_another_models_answer_keeps_its_own_tokens_and_the_docks_name_its_model(qtbot, real_window, gemma3,
                                                                                 demo_model):
    window = real_window
    load(qtbot, window, gemma3, 1024)
    answer = ask(qtbot, window, "Name a colour.", max_tokens=4)
    gemma_vocab = list(window.bridge.vocab)
    step = answer.steps[1]
    expected = [token_label(gemma_vocab[t]) for t in step.raw_ids[:8].tolist()]
    load(qtbot, window, demo_model, 2048)
    assert answer.model_name == gemma3.name and window.models.recorded_name() == demo_model.name
    assert any(t >= len(window.bridge.vocab) for t in step.raw_ids.tolist()) or expected != [
        token_label(window.bridge.vocab[t]) for t in step.raw_ids[:8].tolist()]   # the ids mean other words here
    bubble = window.chat.answers[0]
    assert [token_label(candidate_piece(step, "raw", i, bubble.view.vocab)) for i in range(8)] == expected
    window.select_step(0, 1)
    assert [row.label for row in window.distribution.model.rows[:8]] == expected
    window.docks["layers"].raise_()
    qtbot.waitUntil(lambda: "layers" in window.forward.visible_views(), timeout=5_000)
    window.forward.update()
    page = window.docks["layers"].widget()
    assert page.showing_empty() and f"written by {gemma3.name}" in page.empty_text()
    window.causal.open_on()
    assert f"Load {gemma3.name}" in window.causal.target.text()
    window.causal.close()
    # the demo model's own answer: its vocabulary and its forward pass as ever
    own = ask(qtbot, window, "Name a colour.", max_tokens=4)
    assert own.model_name == demo_model.name
    window.select_step(1, 1)
    qtbot.waitUntil(lambda: window.forward.last is not None and window.forward.last.step.turn_index == 1,
                    timeout=60_000)
    assert window.distribution.vocab is window.bridge.vocab
