"""The window's side of hostile values: the load dialog's bounds, stored load settings that are out of
range, what the engine changed shown in the model card, and a stored answer cut inside a character."""

from __future__ import annotations

import json

from logitscope.gguf.card import read_model_card
from logitscope.protocol.api import LoadSettings
from logitscope.store.settings import SettingsStore
from logitscope.system.threads import max_threads
from tests.helpers.window import ask


def test_load_dialog_bounds_threads_and_says_how_the_context_is_rounded(qtbot, demo_model):
    from logitscope.ui.dialogs.load_model import LoadModelDialog

    dialog = LoadModelDialog(read_model_card(demo_model), gpu_offload=False, backend="CPU",
                             settings=LoadSettings(n_ctx=2048, n_threads=4))
    qtbot.addWidget(dialog)
    assert dialog.threads.maximum() == max_threads()
    dialog.threads.setValue(999)
    assert dialog.threads.value() == max_threads()
    dialog.settings().validate()
    assert "rounds the context" not in dialog.estimate.text()
    dialog.n_ctx.setValue(300)
    assert "llama.cpp rounds the context up to 512 tokens" in dialog.estimate.text()


def test_stored_load_settings_with_absurd_threads_fall_back_to_the_default_with_a_notice(tmp_path, demo_model):
    path = tmp_path / "settings.json"
    store = SettingsStore(path)
    for model in (demo_model, "/models/other.gguf"):
        store.remember_load_settings(model, LoadSettings(n_ctx=1024))
    raw = json.loads(path.read_text())
    raw["load_settings"][str(demo_model.resolve())]["n_threads"] = 999  # edited by hand, or from a bigger machine
    path.write_text(json.dumps(raw))
    store = SettingsStore(path)
    assert store.load_settings_for(demo_model) == LoadSettings(n_ctx=1024, n_threads=0)  # only that field dropped
    assert store.load_settings_for("/models/other.gguf") == LoadSettings(n_ctx=1024)
    assert any("n_threads must be between 0" in n for n in store.notices), store.notices


def test_model_card_shows_that_the_context_was_rounded_up(qtbot, real_window, demo_model):
    with qtbot.waitSignal(real_window.bridge.loaded, timeout=30_000):
        real_window.open_model(str(demo_model), LoadSettings(n_ctx=300), ask=False)
    text = real_window.model_card.text.toPlainText()
    assert "The context holds 512 tokens, not the 300 asked for" in text


def test_a_stored_answer_cut_inside_an_emoji_adds_up(qtbot, real_window):
    answer = ask(qtbot, real_window, "Reply with only an emoji of a happy face.", max_tokens=2)
    assert b"".join(s.piece for s in answer.steps).decode("utf-8", "replace") == "\ufffd", \
        "the model's answer changed: pick another prompt that cuts inside a character"
    assert answer.text == "".join(s.text for s in answer.steps) == ""
    stored = real_window.history.store.message(answer.store_id)
    steps, _ = real_window.history.store.load_trace(answer.store_id)
    assert stored.status == "done" and stored.content == "".join(s.text for s in steps) == ""
    assert "\ufffd" not in real_window.chat.answers[-1].view.toPlainText()


def test_the_load_dialog_says_the_need_once(qtbot, demo_model):
    from logitscope.gguf.card import read_model_card
    from logitscope.ui.dialogs.load_model import LoadModelDialog

    dialog = LoadModelDialog(read_model_card(demo_model), gpu_offload=False, backend="CPU")
    qtbot.addWidget(dialog)
    text = dialog.estimate.text()
    assert text.count("weights ") == 1 and text.count("MiB (") == 1, text   # "Needs about …" then "Fits: needs …"
