"""The forward-pass views end to end: the Layers and Attention docks of the real window over the real engine process and
the demo model (the docks' logic over a scripted engine is in test_forward_docks.py; turn 2's KV map in
test_kv_map_in_window.py)."""

from __future__ import annotations

import numpy as np
import pytest

from logitscope.ui.common.tokens import id_label
from logitscope.ui.inspector.layers import FIRST_TOKEN
from tests.helpers.window import ask

pytestmark = pytest.mark.gui

INSPECT_TIMEOUT_MS = 30_000


def show_dock(qtbot, window, key: str) -> None:
    window.docks[key].raise_()
    qtbot.waitUntil(lambda: key in window.forward.visible_views(), timeout=5_000)


def wait_shown(qtbot, window, key: str, step: int):
    page = window.docks[key].widget()
    qtbot.waitUntil(lambda: not page.showing_empty() and page.panel.shown_key is not None
                    and page.panel.shown_key[1] == step, timeout=INSPECT_TIMEOUT_MS)
    return page.panel


def assert_lens_matches_the_step(panel, step) -> None:  # noqa: ANN001 - LayersPanel, the answer's step
    """The grid's last row is the engine's own raw distribution of that step."""
    lens, model = panel.lens, panel.model
    last = model.rowCount() - 1
    assert lens.chosen == step.token
    assert int(lens.chosen_rank[last]) == step.rank_raw
    assert abs(float(lens.chosen_prob[last]) - step.p_raw) < 0.01
    if step.rank_raw == 0:  # greedy's choice is the raw top-1: the first cell of the last row, outlined
        top = model.index(last, FIRST_TOKEN)
        assert model.data(top) == id_label(step.token, panel.vocab)
        assert model.is_chosen(top)
        assert abs(model.probability(top) - step.p_raw) < 0.01


def test_layers_dock_shows_the_real_lens_of_the_selected_step(qtbot, real_window):
    answer = ask(qtbot, real_window, "What is the capital of France?", max_tokens=8)
    assert len(answer.steps) >= 4
    show_dock(qtbot, real_window, "layers")
    real_window.select_step(0, 1)
    panel = wait_shown(qtbot, real_window, "layers", 1)
    assert panel.model.rowCount() == real_window.bridge.info.card.n_layer + 1
    assert_lens_matches_the_step(panel, answer.steps[1])
    first = panel.lens
    # another step: the grid follows it, with that step's numbers
    real_window.select_step(0, 3)
    panel = wait_shown(qtbot, real_window, "layers", 3)
    assert panel.lens is not first
    assert_lens_matches_the_step(panel, answer.steps[3])


def test_attention_dock_rows_sum_to_one_over_the_context(qtbot, real_window):
    answer = ask(qtbot, real_window, "Name a colour.", max_tokens=6)
    prompt = list(answer.result.prompt_tokens)
    show_dock(qtbot, real_window, "attention")
    card = real_window.bridge.info.card
    for step in (2, 4):
        real_window.select_step(0, step)
        panel = wait_shown(qtbot, real_window, "attention", step)
        context = len(prompt) + step                     # the prompt and the answer's tokens before the step
        weights = panel.row.weights
        assert weights.shape == (card.n_layer, card.n_head, context)
        assert np.allclose(weights.sum(axis=-1), 1.0, atol=1e-3)
        assert len(panel.strip.labels) == context
        shown = np.asarray(panel.strip.weights)          # the strip shows the mean of heads of the last layer
        assert shown.shape == (context,) and abs(float(shown.sum()) - 1.0) < 1e-3
        panel.head_box.setCurrentIndex(1 + card.n_head - 1)  # one head of layer 0
        panel.layer_box.setCurrentIndex(0)
        assert abs(float(np.sum(panel.strip.weights)) - 1.0) < 1e-3
        assert panel.strip.labels[-1] == id_label(answer.steps[step - 1].token, panel.vocab)
