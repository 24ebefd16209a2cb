"""The Compare view of steering over the real engine and the demo model: the selected answer regenerated without
steering (which gives that answer again, token for token) and with the dock's vector; the distributions along
the steered answer are those the two runs recorded; the logit lens of both runs at the parting token agrees
before the steered layers and ends on the steered distribution; Cancel stops it; nothing to compare is said."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QObject, Slot

from logitscope.bench.steering_files import random_vector
from logitscope.ui.steering.model import absolute
from tests.helpers.window import GEN_TIMEOUT_MS, ask

pytestmark = [pytest.mark.gui, pytest.mark.model, pytest.mark.qt_log_ignore("does not support raise")]

QUESTION = "What is the capital of France?"
STRONG = 12.0   # a unit vector on every layer changes the demo model's greedy text from ~6 on (FACTS.md)


def steer(window, tmp_path, first_layer: int = 1):
    vector = random_vector(tmp_path / "random.gguf", seed=0)
    assert window.steering.load_vector(str(vector))
    window.steering.panel.rows[absolute(vector)].scale.set_value(STRONG)
    window.steering.panel.first_layer.setValue(first_layer)
    window.steering.panel.set_on(True)


def compared(qtbot, window):
    dialog = window.steering_compare
    said = StatusRecorder(dialog)
    dialog.progressed.connect(said.record)   # queued after the dialog's own slot: the label then says it
    window.steering.panel.compare_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=GEN_TIMEOUT_MS)
    assert dialog.runs is not None, dialog.status.text()
    # the measurement along B, the longest part of a long answer, is said (it stayed at 'B: 512 of 512 tokens…')
    assert any("measuring the unsteered and the steered distributions" in text for text in said.texts), said.texts
    return dialog


class StatusRecorder(QObject):
    def __init__(self, dialog) -> None:  # noqa: ANN001
        super().__init__(dialog)
        self.dialog, self.texts = dialog, []

    @Slot(str, int)
    def record(self, _side: str, _n: int) -> None:
        self.texts.append(self.dialog.status.text())


def test_compare_regenerates_the_answer_both_ways_and_shows_where_and_how_they_part(qtbot, real_window, tmp_path):
    window = real_window
    plain = ask(qtbot, window, QUESTION, max_tokens=16)
    steer(window, tmp_path, first_layer=5)
    dialog = compared(qtbot, window)
    runs = dialog.runs
    assert runs.a.tokens == plain.tokens                      # unsteered, same seed and settings: the same answer
    assert runs.a.result.steering is None
    assert runs.b.result.steering["control_vectors"][0]["scale"] == STRONG
    assert runs.b.result.steering["layer_range"] == [5, 29]
    assert " on layers 5–29. Seed " in dialog.steering_line.text()   # the header names them too
    parted = runs.parted
    assert parted is not None and parted < len(runs.b.steps), (runs.a.result.text, runs.b.result.text)
    assert runs.a.tokens[:parted] == runs.b.tokens[:parted] and runs.a.tokens[parted] != runs.b.tokens[parted]
    compare = runs.along_b
    # the steered side is what B's steps recorded, the unsteered side what A's did up to the parting token: within
    # what a batch changes against one-token steps (llama.cpp's CPU kernels round differently, unsteered too: a mean
    # of ~0.01 and up to ~0.09 in p measured on three questions), far from each other's
    recorded_b = np.array([s.p_raw for s in runs.b.steps])
    recorded_a = np.array([s.p_raw for s in runs.a.steps[:parted + 1]])   # at `parted`, A's token is A's top-1
    unsteered_a = np.exp(np.append(compare.logprob_a[:parted], compare.top_logprobs_a[parted][0]))
    steered_gap = np.abs(np.exp(compare.logprob_b) - recorded_b).mean()
    assert steered_gap < 0.03
    assert np.abs(unsteered_a - recorded_a).mean() < 0.03
    assert np.abs(np.exp(compare.logprob_a) - recorded_b).mean() > 3 * steered_gap
    assert int(compare.top_ids_a[parted][0]) == runs.a.tokens[parted]    # greedy: each run took its top token
    assert int(compare.top_ids_b[parted][0]) == runs.b.tokens[parted]
    assert (compare.kl > 0).all() and len(compare.kl) == len(runs.b.steps)
    assert dialog.kl_plot.n_steps == len(runs.b.steps)
    # the view: the parting token marked in both texts, its step selected, both distributions shown
    assert dialog.step == parted
    assert f"token {parted + 1}" in dialog.summary.text() and "steered" in dialog.summary.text()
    assert dialog.distributions.a.rowCount() == 10 and dialog.distributions.b.rowCount() == 10
    assert "#bcd8ff" in dialog.text_b.browser.toHtml().lower() and "#bcd8ff" in dialog.text_a.browser.toHtml().lower()
    # the lens of both runs at the parting token: unchanged before layer 5, and its last row is the output
    qtbot.waitUntil(lambda: dialog.lens is not None and dialog.lens.step == parted, timeout=GEN_TIMEOUT_MS)
    lenses = dialog.lens.lenses
    token_b = runs.b.tokens[parted]
    plain_lens, steered_lens = lenses[("a", token_b)], lenses[("b", token_b)]
    names = plain_lens.layer_names
    before = [i for i, n in enumerate(names) if n == "embd" or (n.isdigit() and int(n) < 5)]
    assert np.array_equal(plain_lens.chosen_rank[before], steered_lens.chosen_rank[before])
    assert not np.array_equal(plain_lens.chosen_rank, steered_lens.chosen_rank)
    assert int(steered_lens.chosen_rank[-1]) == 0             # B's greedy token is the steered output's top-1
    assert ("a", runs.a.tokens[parted]) in lenses and int(lenses[("a", runs.a.tokens[parted])].chosen_rank[-1]) == 0
    assert dialog.lens_table.rowCount() == len(names) and dialog.lens_table.columnCount() == 4
    # another step, clicked in the KL plot's place: its distributions and its lens
    dialog.select_step(0)
    assert dialog.step == 0
    qtbot.waitUntil(lambda: dialog.lens is not None and dialog.lens.step == 0, timeout=GEN_TIMEOUT_MS)
    dialog.close()


def test_cancel_stops_a_comparison_and_the_engine_answers_on(qtbot, real_window, tmp_path):
    window = real_window
    ask(qtbot, window, QUESTION, max_tokens=8)
    steer(window, tmp_path)
    dialog = window.steering_compare
    dialog.max_tokens.setValue(400)
    dialog.run()
    assert dialog.running
    qtbot.waitUntil(lambda: "tokens" in dialog.status.text(), timeout=GEN_TIMEOUT_MS)
    dialog.cancel()
    qtbot.waitUntil(lambda: not dialog.running, timeout=GEN_TIMEOUT_MS)
    assert dialog.runs is None and "Cancelled" in dialog.status.text()
    answer = ask(qtbot, window, QUESTION, max_tokens=6)        # the engine is free at once
    assert answer.status == "done"


def test_nothing_to_compare_is_said_and_nothing_runs(qtbot, real_window):
    window = real_window
    dialog = window.steering_compare
    dialog.open_for_selected()
    assert not dialog.running and "Ask something first" in dialog.status.text()
    ask(qtbot, window, QUESTION, max_tokens=4)
    dialog.run()                                                # the dock is off and the answer unsteered
    assert not dialog.running and "turn steering on" in dialog.status.text()
    dialog.close()


def test_the_beams_view_searches_as_the_dock_steers_and_a_lora_is_compared_too(qtbot, real_window, tmp_path):
    from logitscope.bench.steering_files import lora_adapter

    window = real_window
    steer(window, tmp_path)
    beams = window.beams_dialog
    beams.max_tokens.setValue(6)
    beams.beams.setValue(2)
    beams.run()
    qtbot.waitUntil(lambda: not beams.running, timeout=GEN_TIMEOUT_MS)
    record = beams.beam_result.steering
    assert record is not None and record["control_vectors"][0]["scale"] == STRONG
    assert beams.greedy.steering == record                      # the greedy answer beside it is steered alike
    assert "steered: random.gguf ×12" in beams.status.text()
    beams.close()
    # an adapter alone: B carries it, and the lens has no steered layers to tint
    window.steering.panel.set_on(False)
    ask(qtbot, window, QUESTION, max_tokens=8)
    for row in list(window.steering.panel.rows.values()):
        row.check.setChecked(False)
    adapter = lora_adapter(tmp_path / "tune.gguf", seed=3)
    assert window.steering.add_adapter(str(adapter))
    window.steering.panel.set_on(True)
    dialog = compared(qtbot, window)
    assert dialog.runs.b.result.steering["loras"][0]["file"] == "tune.gguf"
    assert not dialog.runs.b.result.steering["control_vectors"]
    qtbot.waitUntil(lambda: dialog.lens is not None, timeout=GEN_TIMEOUT_MS)
    assert not dialog.lens_plot.region.isVisible()
    dialog.close()
