"""The desktop window driven offscreen, over the real engine process and the demo model."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
from PySide6.QtCore import Qt, QTimer

from logitscope.protocol.sampler_settings import LEGACY_ORDERS
from tests.helpers.window import GEN_TIMEOUT_MS, ask, heatmap_answer, token_point

pytestmark = pytest.mark.gui


def test_title_focus_and_status(real_window):
    assert "Logitscope" in real_window.windowTitle() and "SmolLM2-135M-Instruct" in real_window.windowTitle()
    assert real_window.focusWidget() is real_window.prompt  # the window opens ready to type
    assert "CPU" in real_window.status_backend.text() or "…" in real_window.status_backend.text()
    assert real_window.status_model.text().startswith("SmolLM2-135M-Instruct")


def test_send_streams_the_answer_into_the_chat(qtbot, real_window):
    batches = []
    real_window.bridge.steps.connect(lambda steps: batches.append(len(steps)))
    answer = ask(qtbot, real_window, "What is the capital of France?", max_tokens=30)
    assert answer.status == "done" and answer.steps
    assert sum(batches) == len(answer.steps)
    bubble = real_window.chat.answers[-1]
    shown = bubble.view.toPlainText().strip()
    assert shown and shown.split()[0] in answer.text
    assert "tok/s" in real_window.status_speed.text()
    assert "context" in real_window.status_context.text()
    assert real_window.distribution.view is not None and real_window.distribution.view.step.i == len(answer.steps) - 1


def test_gui_keeps_processing_events_while_generating(qtbot, real_window):
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(20)
    start = time.monotonic()
    ask(qtbot, real_window, "Count from one to fifty.", max_tokens=120)
    elapsed = time.monotonic() - start
    timer.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert len(ticks) > elapsed / 0.2, (len(ticks), elapsed)
    assert max(gaps) < 1.0, max(gaps)  # never frozen for a second


def test_select_a_step_and_preview_other_settings(qtbot, real_window):
    answer = ask(qtbot, real_window, "Name three colours.", max_tokens=12)
    real_window.select_step(len(real_window.current.turns) - 1, 2)
    view = real_window.current_step_view()
    assert view.step.i == 2 and not view.is_preview
    assert "Step 2" in real_window.distribution.caption.text()
    # move the temperature slider: the preview is recomputed from the record, no model call
    real_window.sampler.set_settings(real_window.sampler.settings().__class__(temperature=1.5, top_k=0, top_p=1.0, min_p=0.0))
    view = real_window.current_step_view()
    assert view.is_preview and "preview" in real_window.distribution.caption.text()
    ids, probs = view.final
    assert len(ids) > 10 and probs[0] < 1.0  # a hot temperature spreads the mass
    assert real_window.waterfall.count_bars.opts["height"] is not None
    real_window.sampler.rows["top_k"].set_value(3)
    view = real_window.current_step_view()
    assert len(view.final[0]) == 3
    assert answer.steps[2].n_final == 1  # the recorded (greedy) step is untouched


def test_waterfall_shows_the_order(qtbot, real_window):
    ask(qtbot, real_window, "Hello!", max_tokens=4)
    real_window.select_step(0, 0)
    real_window.sampler.set_settings(real_window.sampler.settings().__class__(temperature=1.3, top_k=0, top_p=0.9, min_p=0.0,
                                                                     samplers=LEGACY_ORDERS["temperature_first"]))
    assert "Chain: penalties → temperature → top-k → top-p → min-p" in real_window.waterfall.caption.text()
    first = [s.name for s in real_window.current_step_view().stages]
    assert first == ["penalties", "temperature", "top_k", "top_p", "min_p"]


def test_fork_at_a_token_keeps_both_versions(qtbot, real_window):
    answer = ask(qtbot, real_window, "Tell me a fact about cats.", max_tokens=12)
    old_tokens = list(answer.tokens)
    step = answer.steps[3]
    alternative = next(t for t in step.raw_ids.tolist() if t != step.token)
    with qtbot.waitSignal(real_window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        real_window.fork(0, 3, alternative)
    qtbot.waitUntil(lambda: real_window.streaming is None, timeout=5_000)
    turn = real_window.current.turns[0]
    assert len(turn.answers) == 2 and turn.active == 1
    forked = turn.answer
    assert forked.tokens[:3] == old_tokens[:3] and forked.tokens[3] == alternative
    assert [s.i for s in forked.steps] == list(range(len(forked.steps)))
    bubble = real_window.chat.answers[0]
    assert bubble.branch_label.text() == "2 / 2"
    real_window.switch_branch(0, 0)  # the chat is redrawn: the turns after an answer go with its version
    assert turn.answer is answer and real_window.chat.answers[0].branch_label.text() == "1 / 2"


def test_regenerate_and_edit_make_versions(qtbot, real_window):
    ask(qtbot, real_window, "Say hi.", max_tokens=6)
    real_window.sampler.set_settings(real_window.sampler.settings().__class__(temperature=1.0, seed=5))
    with qtbot.waitSignal(real_window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        real_window.regenerate(0)
    qtbot.waitUntil(lambda: real_window.streaming is None, timeout=5_000)
    assert len(real_window.current.turns[0].answers) == 2
    with qtbot.waitSignal(real_window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        real_window.resend_edited(0, "Say hello.")
    qtbot.waitUntil(lambda: real_window.streaming is None, timeout=5_000)
    turn = real_window.current.turns[0]
    assert turn.user == "Say hello." and real_window.current.question_versions(0) == (1, 2)
    assert real_window.chat.questions[0].branch_label.text() == "2 / 2"


def test_escape_stops_a_generation_and_keeps_the_partial_answer(qtbot, real_window):
    real_window.sampler.max_tokens.setValue(3000)
    real_window.send("1, 2, 3, 4, 5,")
    qtbot.waitUntil(lambda: len(real_window.current.turns[-1].answer.steps) >= 5, timeout=GEN_TIMEOUT_MS)
    with qtbot.waitSignal(real_window.bridge.generationFinished, timeout=10_000):
        qtbot.keyClick(real_window, Qt.Key.Key_Escape)
    answer = real_window.current.turns[-1].answer
    qtbot.waitUntil(lambda: real_window.streaming is None, timeout=5_000)
    assert answer.status == "stopped" and 5 <= len(answer.steps) < 3000
    assert real_window.chat.answers[-1].view.toPlainText()


def test_killed_engine_leaves_the_window_alive_and_reloadable(qtbot, real_window):
    real_window.sampler.max_tokens.setValue(3000)
    real_window.send("Write a very long story.")
    qtbot.waitUntil(lambda: len(real_window.current.turns[-1].answer.steps) >= 5, timeout=GEN_TIMEOUT_MS)
    with qtbot.waitSignal(real_window.bridge.engineCrashed, timeout=10_000):
        os.kill(real_window.bridge.client.pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: real_window.streaming is None, timeout=5_000)
    answer = real_window.current.turns[-1].answer
    assert answer.status == "error" and "SIGKILL" in answer.error and len(answer.steps) >= 5
    assert real_window.chat.answers[-1].view.toPlainText()  # what was generated stays
    assert "crashed" in real_window.last_error[0]
    assert real_window.windowTitle() == "Logitscope"
    with qtbot.waitSignal(real_window.bridge.loaded, timeout=30_000):
        real_window.reload_model()
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
    assert ask(qtbot, real_window, "Still there?", max_tokens=4).steps


def test_heatmap_tooltip_and_export(qtbot, real_window, tmp_path):
    answer = ask(qtbot, real_window, "Why is the sky blue?", max_tokens=10)
    real_window.window_actions.heatmap.setChecked(True)
    real_window.toggle_heatmap()
    view = real_window.chat.answers[-1].view
    assert view.heatmap and view.markdown_text is None
    html = view.tooltip_html(answer.steps[1])
    assert "step 1" in html and "%" in html
    out = tmp_path / "trace.jsonl"
    assert real_window.export_trace(str(out))
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[-1]["type"] == "done" and len(lines) == len(answer.steps) + 1


def test_bad_model_file_gives_a_message_and_the_window_keeps_working(qtbot, real_window, tmp_path):
    bad = tmp_path / "bad.gguf"
    bad.write_text("not a model")
    assert not real_window.open_model(str(bad), ask=False)
    assert "cannot be loaded" in real_window.last_error[0] and "not a GGUF file" in real_window.last_error[1]
    assert ask(qtbot, real_window, "Hi", max_tokens=3).steps


def test_enter_sends_and_shift_enter_adds_a_line(qtbot, real_window):
    real_window.sampler.max_tokens.setValue(3)
    qtbot.keyClicks(real_window.prompt, "first line")
    qtbot.keyClick(real_window.prompt, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(real_window.prompt, "second")
    assert real_window.prompt.toPlainText() == "first line\nsecond"
    with qtbot.waitSignal(real_window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        qtbot.keyClick(real_window.prompt, Qt.Key.Key_Return)
    assert real_window.current.turns[-1].user == "first line\nsecond" and real_window.prompt.toPlainText() == ""


def test_docks_can_be_hidden_and_restored(real_window):
    dock = real_window.docks["timeline"]
    dock.toggleViewAction().trigger()
    assert not dock.isVisible()
    real_window.reset_layout()
    assert dock.isVisible()
    real_window.save_layout()
    assert real_window.qsettings.value("window/state") is not None


def test_new_rename_delete_conversations(qtbot, real_window):
    ask(qtbot, real_window, "First chat", max_tokens=3)
    real_window.new_chat()
    assert len(real_window.conversations) == 2 and real_window.current.turns == []
    real_window.rename_conversation("Renamed")
    assert real_window.conversation_list.item(0).text() == "Renamed"
    real_window.delete_conversation(confirm=False)
    assert len(real_window.conversations) == 1 and real_window.current.title == "First chat"


def test_tokenizer_panel(qtbot, real_window):
    real_window.tokenizer.input.setPlainText("Hello world, 你好")
    qtbot.waitUntil(lambda: "tokens" in real_window.tokenizer.summary.text(), timeout=10_000)
    assert "Hello" in real_window.tokenizer.output.toPlainText()
    ask(qtbot, real_window, "Hi", max_tokens=2)
    real_window.tokenizer_feed.show_chat_prompt()
    qtbot.waitUntil(lambda: "prompt" in real_window.tokenizer.summary.text(), timeout=10_000)
    assert "<|im_start|>" in real_window.tokenizer.output.toPlainText()


def test_clicking_a_token_selects_its_step(qtbot, real_window):
    answer, view, target = heatmap_answer(qtbot, real_window)
    point = token_point(view, answer, target)
    assert view.step_at(point) == target
    with qtbot.waitSignal(real_window.chat.stepSelected, timeout=5_000) as blocker:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert blocker.args == [len(real_window.current.turns) - 1, target]
    assert real_window.current_step_view().step.i == target
    assert view.step_at(view.viewport().rect().bottomRight()) == -1


def test_load_dialog_estimates_memory_as_values_change(qtbot, real_window, demo_model):
    from logitscope.gguf.card import read_model_card
    from logitscope.ui.dialogs.load_model import LoadModelDialog

    dialog = LoadModelDialog(read_model_card(demo_model), gpu_offload=False, backend="CPU")
    qtbot.addWidget(dialog)
    assert not dialog.gpu_layers.isEnabled() and "no GPU backend" in dialog.gpu_note.text()
    dialog.n_ctx.setValue(2048)
    assert "45.00 MiB" in dialog.estimate.text() and dialog.verdict == "fits"
    dialog.n_ctx.setValue(8192)
    assert "180.00 MiB" in dialog.estimate.text()
    dialog.kv_type.setCurrentText("q8_0")
    assert dialog.settings().type_k == "q8_0" and dialog.settings().type_v == "f16"
    dialog.flash.setChecked(True)
    assert dialog.settings().type_v == "q8_0"


def test_a_model_that_llama_cpp_rejects_leaves_the_previous_one_loaded(qtbot, real_window, tmp_path, demo_model):
    from tests.helpers.gguf_corpus import tiny_gguf

    bad = tiny_gguf(tmp_path / "unknown-arch.gguf", "frobnicator")
    failures = []
    real_window.bridge.loadFailed.connect(failures.append)
    with qtbot.waitSignal(real_window.bridge.loaded, timeout=30_000) as blocker:
        real_window.open_model(str(bad), ask=False)
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
    assert failures and "unknown model architecture" in str(failures[0])
    assert blocker.args[0].card.path == str(demo_model)  # the previous model is back
    assert "could not be loaded" in real_window.last_error[0]
    assert ask(qtbot, real_window, "Still working?", max_tokens=3).steps


def test_a_reload_that_fails_goes_back_to_the_settings_that_worked(qtbot, real_window, demo_model):
    """The same file with settings the engine refuses (a context that does not fit in memory): the model
    is loaded again as it was, not left unloaded."""
    from dataclasses import replace

    before = real_window.bridge.info.load
    failures = []
    real_window.bridge.loadFailed.connect(failures.append)
    with qtbot.waitSignal(real_window.bridge.loaded, timeout=60_000) as blocker:
        real_window.open_model(str(demo_model), replace(before, n_ctx=2_000_000), ask=False)
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
    assert failures and "more than the" in str(failures[0])
    assert blocker.args[0].load == before  # loaded again with the settings that worked
    assert "could not be loaded" in real_window.last_error[0]
    assert ask(qtbot, real_window, "Still there?", max_tokens=3).steps


def test_a_cancelled_load_brings_the_previous_model_back(qtbot, real_window, demo_model, tmp_path):
    """Cancel while another model loads: that load stops, and the model loaded before is there again (the
    cancel must not also stop the load that restores it)."""
    import os

    from logitscope.base.errors import LoadCancelledError
    from logitscope.ui.bridge import JOB_LOAD

    other = tmp_path / "another-copy.gguf"
    os.symlink(demo_model, other)
    before = real_window.bridge.info.load
    failures = []
    real_window.bridge.loadFailed.connect(failures.append)
    real_window.bridge.loadProgress.connect(lambda _f: real_window.bridge.cancel(JOB_LOAD))  # while it loads
    with qtbot.waitSignal(real_window.bridge.loaded, timeout=60_000) as blocker:
        real_window.bridge.load(str(other), before)
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
    assert [type(f) for f in failures] == [LoadCancelledError]
    assert blocker.args[0].card.path == str(demo_model) and blocker.args[0].load == before
    assert ask(qtbot, real_window, "Still there?", max_tokens=3).steps


def test_markdown_answers_can_switch_to_tokens(qtbot, real_window):
    answer = ask(qtbot, real_window, "List the days of the week as a numbered list.", max_tokens=40)
    bubble = real_window.chat.answers[-1]
    from logitscope.ui.chat.chat_view import has_markdown

    assert has_markdown(answer.text), answer.text  # greedy: the demo model always answers with a numbered list
    assert bubble.view.markdown_text is not None and bubble.format_button.isVisible()
    bubble.format_button.setChecked(True)
    assert bubble.view.markdown_text is None and bubble.view.steps
    bubble.format_button.setChecked(False)
    assert bubble.view.markdown_text is not None
