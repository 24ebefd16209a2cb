"""The Causal tracing dialog over the real engine and the demo model, on the step the Layers dock shows: knock out
a head (and every head of a layer = its attention block), the head scan with progress and Cancel, patching
with a clean and a corrupted prompt, and heads kept knocked out for the next answers (the badge restores)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.window import GEN_TIMEOUT_MS, ask

pytestmark = [pytest.mark.gui, pytest.mark.model, pytest.mark.qt_log_ignore("does not support raise")]

QUESTION = "What is the capital of France?"


def shown_step(qtbot, window, step: int = 1):
    answer = ask(qtbot, window, QUESTION, max_tokens=4)
    window.docks["layers"].raise_()
    qtbot.waitUntil(lambda: "layers" in window.forward.visible_views(), timeout=5_000)
    window.select_step(0, step)
    qtbot.waitUntil(lambda: window.forward.last is not None and window.forward.last.step.step_index == step,
                    timeout=GEN_TIMEOUT_MS)
    return answer


def finished(qtbot, dialog) -> None:
    qtbot.waitUntil(lambda: not dialog.running, timeout=GEN_TIMEOUT_MS)


def test_knock_out_a_head_and_a_layer_from_the_dialog_and_the_docks(qtbot, real_window):
    window = real_window
    shown_step(qtbot, window)
    dialog = window.causal
    window.forward.layers_panel.knockoutRequested.emit("20.attn")      # the Layers dock's context menu entry
    finished(qtbot, dialog)
    block = dialog.effect
    assert block is not None and block.ablations == ["20.attn"] and block.kl > 0
    assert dialog.effect_tables.tables[1].rowCount() == 10 and "KL" in dialog.effect_line.text()
    dialog.targets.setText(", ".join(f"20.{h}" for h in range(9)))
    dialog.knock_out()
    finished(qtbot, dialog)
    assert dialog.effect.kl == block.kl                                 # every head = the attention block
    window.forward.attention_panel.knockoutRequested.emit("23.4")      # the Attention dock's Knock out
    finished(qtbot, dialog)
    assert dialog.effect.ablations == ["23.4"]
    dialog.targets.setText("3.x")
    dialog.knock_out()
    assert not dialog.running and "names no head or block" in dialog.status.text()
    assert dialog.effect is None and dialog.effect_line.text() == ""   # 23.4's figures are not left under 3.x
    assert dialog.effect_tables.tables[1].rowCount() == 0
    dialog.targets.setText("99.99")                                    # checked here, not 'failed' in the engine
    dialog.knock_out()
    last = window.bridge.info.card.n_layer - 1
    assert not dialog.running and dialog.status.text() == f"Layer must be between 0 and {last}, not 99"
    dialog.keep()
    assert dialog.kept == ()                                           # nothing impossible kept for the answers


def test_head_scan_fills_the_map_a_click_shows_the_head_and_cancel_frees_the_engine(qtbot, real_window):
    window = real_window
    shown_step(qtbot, window)
    dialog = window.causal
    dialog.open_on(tab=1)
    assert (dialog.scan_first.value(), dialog.scan_last.value()) == (0, 29)     # every layer of the model
    dialog.scan_first.setValue(20)                                      # the last ten layers: 90 evaluations
    dialog.scan_last.setValue(19)                                       # the range never turns inside out
    assert (dialog.scan_first.value(), dialog.scan_last.value()) == (19, 19)
    dialog.scan_first.setValue(20)
    dialog.scan_last.setValue(29)
    seen: list[float] = []
    dialog.progressed.connect(seen.append)
    dialog.run_scan()
    finished(qtbot, dialog)
    scan = dialog.scan
    assert scan is not None and scan.kl.shape == (30, 9) and dialog.scan_map.matrix.shape == (30, 9)
    assert scan.scanned == range(20, 30) and np.isnan(scan.delta_logprob[:20]).all()
    assert not np.isnan(scan.delta_logprob[20:]).any() and len(scan.ranked()) == 90
    assert seen and seen[-1] == 1.0 and dialog.top_heads.count() == 10
    assert "90 heads of layers 20–29" in dialog.scan_caption.text()
    layer, head = scan.ranked()[0][:2]
    assert layer >= 20
    dialog._scan_cell(layer, head)                                      # a click on the map
    finished(qtbot, dialog)
    assert dialog.effect.ablations == [f"{layer}.{head}"]
    assert dialog.effect.delta_logprob == pytest.approx(scan.delta_logprob[layer, head], abs=1e-12)
    panel = window.forward.attention_panel                              # that head, in the Attention dock
    qtbot.waitUntil(lambda: panel.layer() == layer and panel.head() == head and window.docks["attention"].isVisible(),
                    timeout=GEN_TIMEOUT_MS)
    dialog.run_scan()
    qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=GEN_TIMEOUT_MS)
    dialog.cancel()
    finished(qtbot, dialog)
    assert dialog.status.text() == "Cancelled."
    dialog.targets.setText("23.4")
    dialog.knock_out()                                                  # the engine answers at once
    finished(qtbot, dialog)
    assert dialog.effect.ablations == ["23.4"]


def test_patch_heatmap_a_cell_and_unequal_prompts(qtbot, real_window):
    window = real_window
    dialog = window.causal
    dialog.open_on(tab=2)
    dialog.corrupted.setText("The capital city of Italy is")
    dialog.run_patch()
    finished(qtbot, dialog)
    assert "same number of tokens" in dialog.status.text() and dialog.patch is None
    dialog.corrupted.setText("The capital of Italy is")
    dialog.run_patch()
    finished(qtbot, dialog)
    result = dialog.patch
    assert result is not None and result.scores["resid"].shape == (30, 5)
    assert dialog.patch_map.matrix.shape == (30, 5)
    dialog._patch_cell(10, 3)
    finished(qtbot, dialog)
    assert dialog.patch_tables.tables[2].rowCount() == 10
    assert "score" in dialog.status.text()
    assert abs(float(dialog.status.text().split("score ")[1].rstrip(".")) - result.scores["resid"][10, 3]) < 1e-3
    dialog.resize(780, 660)   # the size a 1280x720 screen gives it: each table's tokens still read whole
    qtbot.waitUntil(lambda: dialog.width() == 780)
    for table in dialog.patch_tables.tables:
        assert table.columnWidth(1) >= table.fontMetrics().horizontalAdvance("·Florence") + 8   # " Ro…" before
    dialog.tabs.setCurrentIndex(1)
    assert dialog.status.text() == ""   # the patch's result line is not the head scan's


def test_heads_kept_knocked_out_for_the_next_answers_and_restored(qtbot, real_window):
    window = real_window
    plain = ask(qtbot, window, QUESTION, max_tokens=6)
    dialog = window.causal
    dialog.targets.setText("23.4, 0.4")
    dialog.keep()
    assert dialog.badge.isVisible() and "23.4, 0.4" in dialog.badge.text()
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        window.regenerate(0)
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)
    knocked = window.current.turns[0].answer
    assert knocked.result.steering["knockouts"] == ["23.4", "0.4"]
    assert knocked.tokens != plain.tokens
    assert "knocked out 23.4, 0.4" in window.chat.answers[0].status.text()
    dialog.badge.click()                                                # restore
    assert not dialog.badge.isVisible()
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        window.regenerate(0)
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)
    again = window.current.turns[0].answer
    assert again.tokens == plain.tokens and again.result.steering is None
    assert np.isfinite([s.p_raw for s in again.steps]).all()


def test_an_answer_token_written_without_its_space_gets_a_hint(qtbot, real_window):
    """'Paris' is not ' Paris': the run took the bare word (0.15 of logit difference: meaningless) and said
    nothing; the caption now points at the token the clean run predicts."""
    dialog = real_window.causal
    dialog.open_on(tab=2)
    dialog.corrupted.setText("The capital of Italy is")
    dialog.answer.setText("Paris")
    dialog.run_patch()
    finished(qtbot, dialog)
    assert dialog.patch is not None
    caption = dialog.patch_caption.text()
    assert "Paris is not what the clean run predicts: ·Paris is" in caption, caption
    dialog.answer.setText(" Paris")
    dialog.run_patch()
    finished(qtbot, dialog)
    assert "is not what the clean run predicts" not in dialog.patch_caption.text()
