"""The Steering dock's Build… dialog over the scripted engine (its build_cvector makes seeded directions, pair
by pair, with progress and cancel): a vector built from three pairs is written and added to the dock, Cancel
leaves no file, bad lists are one clear message, and the window stays usable meanwhile. The real engine's
build: test_steering_in_window.py."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from logitscope.gguf.control_vector import read_control_vector
from logitscope.ui.steering.build_dialog import fresh_output
from logitscope.ui.steering.model import absolute

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("does not support raise")]  # offscreen: the dialog

POSITIVE = "I am so happy today!\nWhat a wonderful gift.\\nThank you!\nLife is beautiful."
NEGATIVE = "I am so sad today.\nWhat a terrible gift.\\nGo away.\nLife is miserable."


def _dialog(window, output):
    dialog = window.steering.open_build()
    dialog.positive.text.setPlainText(POSITIVE)
    dialog.negative.text.setPlainText(NEGATIVE)
    dialog.output.setText(str(output))
    return dialog


def test_a_vector_built_from_three_pairs_is_written_and_added_to_the_dock(qtbot, scripted_window, tmp_path):
    window = scripted_window
    engine = window.bridge.local
    dialog = _dialog(window, tmp_path / "out" / "happy.gguf")
    assert dialog.positive.count.text() == "3 prompt(s)" and dialog.negative.count.text() == "3 prompt(s)"
    seen: list[float] = []
    dialog.progressed.connect(seen.append)
    with qtbot.waitSignal(dialog.built, timeout=10_000) as built:
        dialog.build_button.click()
    assert built.args == [str(tmp_path / "out" / "happy.gguf")]
    (request,) = engine.cvector_requests
    assert request.positive[1] == b"What a wonderful gift.\nThank you!"   # llama.cpp's escapes
    assert request.method == "mean" and request.layer_range is None
    assert seen[-1] == pytest.approx(1.0) and len(seen) == 3
    vector = read_control_vector(tmp_path / "out" / "happy.gguf")
    assert sorted(vector.directions) == list(range(1, 30)) and vector.n_embd == 576 and vector.model_hint == "llama"
    assert "Built from 3 pair(s)" in dialog.status.text() and not dialog.progress.isVisible()
    assert absolute(tmp_path / "out" / "happy.gguf") in window.steering.panel.rows
    assert dialog.output.text() == str(tmp_path / "out" / "happy-2.gguf")   # the next build writes a new file


def test_pca_and_a_layer_range_reach_the_engine(qtbot, scripted_window, tmp_path):
    window = scripted_window
    dialog = _dialog(window, tmp_path / "pca.gguf")
    dialog.method.setCurrentIndex(dialog.method.findData("pca"))
    assert dialog.pca_iterations.isEnabled()
    dialog.pca_iterations.setValue(300)
    dialog.all_layers.setChecked(False)
    dialog.first_layer.setValue(10)
    dialog.last_layer.setValue(20)
    with qtbot.waitSignal(dialog.built, timeout=10_000):
        dialog.build_button.click()
    (request,) = window.bridge.local.cvector_requests
    assert (request.method, request.pca_iterations, request.layer_range) == ("pca", 300, (10, 20))
    assert sorted(read_control_vector(tmp_path / "pca.gguf").directions) == list(range(10, 21))


def test_cancel_leaves_no_file_and_the_window_stays_usable(qtbot, scripted_window, tmp_path):
    window = scripted_window
    engine = window.bridge.local
    engine.cvector_gate = threading.Event()
    output = tmp_path / "cancelled.gguf"
    dialog = _dialog(window, output)
    dialog.build_button.click()
    qtbot.waitUntil(lambda: len(engine.cvector_requests) == 1, timeout=5_000)
    assert dialog.progress.isVisible() and dialog.cancel_button.isEnabled() and not dialog.build_button.isEnabled()
    window.sampler.max_tokens.setValue(33)                  # the window answers meanwhile
    window.steering.panel.set_on(True)
    dialog.cancel_button.click()
    engine.cvector_gate.set()
    qtbot.waitUntil(lambda: not dialog.running, timeout=5_000)
    assert dialog.status.text() == "Stopped: no file was written."
    assert not output.exists() and not list(tmp_path.glob("*.partial"))
    assert not window.steering.panel.state.vectors and dialog.build_button.isEnabled()


@pytest.mark.parametrize(("positive", "negative", "says"), [
    ("a\nb\nc", "x\ny", "the positive and negative prompts pair up line by line, but there are 3 positive and 2 negative "
                         "ones"),
    ("", "", "a control vector needs at least one pair of prompts"),
    ("a", "", "a control vector needs at least one pair of prompts"),
])
def test_bad_lists_are_one_clear_message_and_nothing_is_built(qtbot, scripted_window, tmp_path, positive, negative,
                                                              says):
    window = scripted_window
    dialog = _dialog(window, tmp_path / "bad.gguf")
    dialog.positive.text.setPlainText(positive)
    dialog.negative.text.setPlainText(negative)
    dialog.build_button.click()
    assert dialog.status.text() == says[0].upper() + says[1:]  # shown on its own: a sentence
    assert not dialog.running and not window.bridge.local.cvector_requests and not (tmp_path / "bad.gguf").exists()


def test_prompts_load_from_files_and_the_output_is_a_fresh_name(qtbot, scripted_window, tmp_path):
    window = scripted_window
    dialog = window.steering.open_build()
    (tmp_path / "pos.txt").write_text("one\n\ntwo\n", encoding="utf-8")
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe not text")
    assert dialog.open_prompts(dialog.positive, str(tmp_path / "pos.txt"))
    assert dialog.positive.count.text() == "2 prompt(s)"    # the empty line is skipped, as the tool does
    assert not dialog.open_prompts(dialog.negative, str(tmp_path / "bin.txt"))
    assert "is not UTF-8 text" in dialog.status.text()
    assert not dialog.open_prompts(dialog.negative, str(tmp_path))
    assert "is a folder" in dialog.status.text()
    (tmp_path / "control-vector.gguf").touch()
    (tmp_path / "control-vector-2.gguf").touch()
    assert fresh_output(tmp_path) == tmp_path / "control-vector-3.gguf"
    assert fresh_output(tmp_path, "control-vector-2") == tmp_path / "control-vector-3.gguf"
    assert dialog.output.text().endswith(".gguf")           # a fresh file in the data folder


def test_without_a_local_model_nothing_is_built(qtbot, scripted_window, tmp_path, monkeypatch):
    window = scripted_window
    dialog = _dialog(window, tmp_path / "x.gguf")
    dialog.set_model(None)
    assert not dialog.build_button.isEnabled() and "Load a model" in dialog.status.text()


def test_the_vector_never_replaces_the_model_it_is_built_from(qtbot, scripted_window, tmp_path):
    """The save dialog asks before replacing a file; the model itself is refused (it would be destroyed)."""
    window = scripted_window
    model = tmp_path / "model.gguf"   # the loaded model's path, a file of this test's own (nothing real at risk)
    model.write_bytes(b"GGUF model bytes")
    info = window.bridge.info
    window.bridge.info = dataclasses.replace(info, card=dataclasses.replace(info.card, path=str(model)))
    link = tmp_path / "the-model.gguf"
    link.symlink_to(model)
    dialog = _dialog(window, link)
    dialog.run()
    assert "which this command reads" in dialog.status.text() and not dialog.running
    assert model.read_bytes() == b"GGUF model bytes" and link.is_symlink()
