"""The Model card's Adapters section: each LoRA adapter of the Steering dock with its header's metadata (alpha,
rank, targets, layers, sizes), whether the next answers get it and at what scale; an unreadable file's reason
in its place; the header read once per file version, not at every slider move. Scripted engine, no model."""

from __future__ import annotations

import pytest
from gguf import GGUFWriter

from logitscope.bench.steering_files import DEMO_N_EMBD, DEMO_N_LAYER, lora_adapter, random_vector
from logitscope.gguf.lora import read_lora_metadata
from logitscope.ui.inspector.model_card import ModelCardPanel
from logitscope.ui.steering import controller as steering_controller
from logitscope.ui.steering.model import absolute

pytestmark = pytest.mark.gui


def card_text(window) -> str:  # noqa: ANN001
    return window.model_card.text.toPlainText()


def adapters_part(text: str) -> str:
    """The card between its Adapters heading and the chat template."""
    return text.split("Adapters", 1)[1].split("Chat template", 1)[0]


def test_adding_an_adapter_lists_it_on_the_model_card_and_removing_it_takes_it_off(qtbot, scripted_window,
                                                                                  tmp_path):
    window = scripted_window
    assert "No LoRA adapters (add them in the Steering dock)." in adapters_part(card_text(window))
    tune = lora_adapter(tmp_path / "tune.gguf", seed=3, rank=8, alpha=16.0,
                        targets=(("attn_q", DEMO_N_EMBD, DEMO_N_EMBD), ("attn_v", DEMO_N_EMBD, 192)))
    assert window.steering.add_adapter(str(tune))
    part = adapters_part(card_text(window))
    assert "tune.gguf" in part and "No LoRA adapters" not in part
    assert "alpha 16, rank 8" in part
    assert f"adapts attn_q, attn_v in layers 0\u2013{DEMO_N_LAYER - 1}" in part
    n_params = DEMO_N_LAYER * 8 * (3 * DEMO_N_EMBD + 192)
    assert f"{2 * DEMO_N_LAYER} weights: {4 * DEMO_N_LAYER} tensors, {n_params:,} parameters" in part
    assert "not applied (scale 1)" in part                       # the dock is off
    window.steering.panel.set_on(True)
    part = adapters_part(card_text(window))
    assert "applied to the next answers at scale 1 " in part and "not applied" not in part
    assert "alpha / rank = 2: an effective scale of 2)" in part          # llama.cpp's scale x alpha / rank
    row = window.steering.panel.rows[absolute(tune)]
    row.scale.set_value(0.5)
    assert "at scale 0.5 " in adapters_part(card_text(window))
    row.check.setChecked(False)
    assert "not applied (scale 0.5)" in adapters_part(card_text(window))
    window.steering.panel.remove(absolute(tune))
    part = adapters_part(card_text(window))
    assert "tune.gguf" not in part and "No LoRA adapters" in part


def test_an_adapter_that_became_unreadable_shows_why_in_its_place(qtbot, scripted_window, tmp_path):
    window = scripted_window
    broken = lora_adapter(tmp_path / "broken.gguf", rank=2)
    fine = lora_adapter(tmp_path / "fine.gguf", rank=2, alpha=2.0)
    assert window.steering.add_adapter(str(broken)) and window.steering.add_adapter(str(fine))
    broken.write_bytes(b"GGUF\x03\x00\x00\x00" + b"\xff" * 8)     # cut inside the header, after it was added
    window.steering.panel.set_on(True)                            # (the card reads the changed file again)
    part = adapters_part(card_text(window))
    assert part.index("broken.gguf") < part.index("fine.gguf")   # the dock's order
    assert "The LoRA adapter" in part and "cannot be read" in part
    assert "alpha 2, rank 2" in part


def test_a_file_that_is_no_adapter_is_refused_when_it_is_added(qtbot, scripted_window, tmp_path):
    """A model, a control vector or a damaged file was added silently, and the answer after it failed (its
    error kept in the history); a control vector already in the dock was 'in the Steering dock already'."""
    window = scripted_window
    errors: list[tuple[str, str]] = []
    window.steering.error.connect(lambda title, text: errors.append((title, text)))
    vector = random_vector(tmp_path / "vector.gguf")
    assert window.steering.load_vector(str(vector))
    model = GGUFWriter(str(tmp_path / "model.gguf"), "llama")   # a model's header, as a quantized model has
    model.add_type("model")
    model.write_header_to_file()
    model.write_kv_data_to_file()
    model.close()
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF\x03\x00\x00\x00" + b"\xff" * 8)
    for path, why in ((tmp_path / "model.gguf", "is not a LoRA adapter: its general.type is 'model', not 'adapter'"),
                      (vector, "is not a LoRA adapter: it has no general.type"),
                      (broken, "cannot be read"),
                      (tmp_path / "gone.gguf", "does not exist")):
        assert not window.steering.add_adapter(str(path))
        assert errors[-1][0] == "Add a LoRA adapter" and why in errors[-1][1], errors[-1]
    assert window.steering.panel.state.adapters == []
    other = lora_adapter(tmp_path / "other.gguf", rank=2, arch="gemma3")
    assert not window.steering.add_adapter(str(other))
    assert "is for the gemma3 architecture, not this model's llama" in errors[-1][1]


def test_the_header_is_read_once_per_file_version_not_at_every_slider_move(qtbot, scripted_window, tmp_path,
                                                                         monkeypatch):
    window = scripted_window
    reads: list[str] = []

    def counting(path):  # noqa: ANN001, ANN202
        reads.append(str(path))
        return read_lora_metadata(path)

    monkeypatch.setattr(steering_controller, "read_lora_metadata", counting)
    tune = lora_adapter(tmp_path / "tune.gguf", rank=4)
    window.steering.add_adapter(str(tune))
    window.steering.panel.set_on(True)
    row = window.steering.panel.rows[absolute(tune)]
    for value in (0.25, 0.5, 0.75, 1.5):
        row.scale.set_value(value)
    assert reads == [absolute(tune)]
    lora_adapter(tune, rank=6)                                   # the file is rewritten: read again
    row.scale.set_value(1.0)
    assert len(reads) == 2 and "rank 6" in adapters_part(card_text(window))


def test_the_card_takes_plain_lines(qtbot, recording, tmp_path):
    panel = ModelCardPanel()
    qtbot.addWidget(panel)
    panel.set_adapters([("early.gguf", "the LoRA adapter early.gguf cannot be read: it is empty", 1.0, False)])
    assert "No model loaded." in panel.text.toPlainText()        # the section is the loaded model's
    panel.set_model(recording.info)
    text = panel.text.toPlainText()
    assert "early.gguf" in text and "it is empty" in text
    assert text.index("Adapters") < text.index("Chat template")
    panel.set_adapters([])
    assert "No LoRA adapters" in panel.text.toPlainText()
