"""The Steering dock over the real engine and the demo model (greedy): a control vector at a strong scale changes
the answer, scale 0 and the switch off give the unsteered answer token for token (the engine hot-swaps the
steering between requests, no reload); an adapter for another base model is one message and the model answers
on; Build… makes a real vector from two pairs, and its Cancel leaves no file."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from logitscope.bench.steering_files import lora_adapter, random_vector
from logitscope.gguf.control_vector import read_control_vector
from logitscope.protocol.api import ModelInfo
from logitscope.ui.steering.model import absolute
from tests.helpers.window import GEN_TIMEOUT_MS, ask

pytestmark = [pytest.mark.gui, pytest.mark.model, pytest.mark.qt_log_ignore("does not support raise")]

QUESTION = "What is the capital of France?"
STRONG = 12.0   # a unit vector on every layer changes the demo model's greedy text from ~6 on (FACTS.md)


def regenerate(qtbot, window):
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        window.regenerate(0)
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)
    return window.current.turns[0].answer


def test_a_strong_vector_changes_the_answer_and_scale_0_or_off_gives_the_unsteered_one(qtbot, real_window, tmp_path):
    window = real_window
    plain = ask(qtbot, window, QUESTION, max_tokens=8)
    assert plain.result.steering is None
    vector = random_vector(tmp_path / "random.gguf", seed=0)
    assert window.steering.load_vector(str(vector))
    row = window.steering.panel.rows[absolute(vector)]
    # a short text evaluated once measures the residual stream: the slider reaches far beyond its default 10
    qtbot.waitUntil(lambda: row.scale.span > 10, timeout=GEN_TIMEOUT_MS)
    assert "short text" in row.caption.toolTip()
    row.scale.set_value(STRONG)
    window.steering.panel.set_on(True)
    steered = regenerate(qtbot, window)
    assert steered.tokens != plain.tokens, steered.text
    record = steered.result.steering
    assert record["control_vectors"][0]["scale"] == STRONG and record["layer_range"] == [1, 29]
    assert "steered: random.gguf ×12 on layers 1–29" in window.chat.answers[0].status.text()
    row.scale.set_value(0.0)                                  # the next request, no reload
    zero = regenerate(qtbot, window)
    assert zero.tokens == plain.tokens and zero.result.steering["control_vectors"][0]["scale"] == 0.0
    row.scale.set_value(STRONG)
    window.steering.badge.click()                            # off, in one click
    off = regenerate(qtbot, window)
    assert off.tokens == plain.tokens and off.result.steering is None
    assert window.bridge.info is not None and len(window.current.turns[0].answers) == 4


def test_an_adapter_for_another_base_model_is_one_message_and_the_model_answers_on(qtbot, real_window, tmp_path):
    window = real_window
    other = lora_adapter(tmp_path / "other.gguf", seed=6, n_embd=64)
    assert window.steering.add_adapter(str(other))
    window.steering.panel.set_on(True)
    with qtbot.waitSignal(window.bridge.generationFailed, timeout=GEN_TIMEOUT_MS):
        window.send(QUESTION)
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)
    boxes = [b for b in window.findChildren(QMessageBox, "errorBox") if b.isVisible()]
    assert len(boxes) == 1 and "cannot apply the LoRA adapter" in boxes[0].text(), [b.text() for b in boxes]
    row = window.steering.panel.rows[absolute(other)]
    assert row.item.problem and not row.check.isChecked()
    assert isinstance(window.bridge.info, ModelInfo)          # the model stayed loaded
    answer = ask(qtbot, window, QUESTION, max_tokens=6)       # not tried again: the answer comes
    assert answer.status == "done" and answer.steps and answer.result.steering is None
    assert len([b for b in window.findChildren(QMessageBox, "errorBox") if b.isVisible()]) == 1


def test_build_makes_a_real_vector_from_two_pairs_and_cancel_leaves_no_file(qtbot, real_window, tmp_path):
    window = real_window
    dialog = window.steering.open_build()
    dialog.positive.text.setPlainText("I am so happy today!\nWhat a wonderful day.")
    dialog.negative.text.setPlainText("I am so sad today.\nWhat a terrible day.")
    dialog.output.setText(str(tmp_path / "happy.gguf"))
    seen: list[float] = []
    dialog.progressed.connect(seen.append)
    with qtbot.waitSignal(dialog.built, timeout=60_000):
        dialog.build_button.click()
    vector = read_control_vector(tmp_path / "happy.gguf")
    assert sorted(vector.directions) == list(range(1, 30)) and vector.n_embd == 576 and vector.model_hint == "llama"
    assert seen and seen[-1] == pytest.approx(1.0)
    assert absolute(tmp_path / "happy.gguf") in window.steering.panel.rows

    many = "\n".join(f"Tell me, in a happy sentence, about day {n} of the holidays." for n in range(6))
    dialog.positive.text.setPlainText(many)
    dialog.negative.text.setPlainText(many.replace("happy", "gloomy"))
    dialog.output.setText(str(tmp_path / "cancelled.gguf"))
    dialog.progressed.connect(lambda _fraction: dialog.cancel())   # at the first pair evaluated
    dialog.build_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert dialog.status.text() == "Stopped: no file was written."
    assert not (tmp_path / "cancelled.gguf").exists() and not list(tmp_path.glob("*.partial"))
    assert ask(qtbot, window, QUESTION, max_tokens=4).status == "done"   # the engine serves on
