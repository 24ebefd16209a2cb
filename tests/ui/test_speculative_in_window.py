"""Speculative decoding in the window, on the real engine: the setting, accepted drafts marked in the chat
(dotted underline) and on the timeline (a dot per accepted draft), the figures in the status line, the
setting refused with a reason on a remote engine, the reload with flash attention the row offers (then greedy
is identical to plain greedy), and a draft model chosen in the row (remembered; refused clearly when it
cannot draft for the model)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QFileDialog

from logitscope.protocol.api import DRAFT_LOOKUP
from logitscope.store.settings import SettingsStore
from logitscope.ui.inspector.draft_controls import CHOOSE
from tests.helpers.window import ask

EDIT = ("Rewrite this text, replacing 'fox' with 'cat' and keeping everything else the same:\n\nThe quick brown "
        "fox jumps over the lazy dog. It was a sunny day in the small village of Millbrook.")


@pytest.fixture(params=["there", "gone"])
def saved_draft(request, isolated_home, demo_model):
    """A draft model chosen in an earlier session, in the settings file: the demo model, or a file since gone."""
    path = demo_model if request.param == "there" else isolated_home / "models" / "deleted.gguf"
    SettingsStore().update_app(draft_model_path=str(path))
    return path


def test_prompt_lookup_in_the_window_marks_accepted_drafts(qtbot, real_window):
    w = real_window
    drafting = w.sampler.drafting
    assert drafting.isEnabled() and drafting.options() == {}   # the local engine offers it; off by default
    drafting.mode.setCurrentIndex(drafting.mode.findData(DRAFT_LOOKUP))
    drafting.draft_max.setValue(6)
    assert drafting.options() == {"draft": DRAFT_LOOKUP, "draft_max": 6}
    assert drafting.draft_max.text() == "6 drafts"   # the number says what it counts
    answer = ask(qtbot, w, EDIT, max_tokens=40)
    drafted = [i for i, s in enumerate(answer.steps) if s.drafted]
    assert len(drafted) >= 5, [s.text for s in answer.steps]
    assert "tokens per evaluation" in w.status.speed.text() and "drafts accepted" in w.status.speed.text()
    # the timeline: one dot per accepted draft, at its step
    qtbot.waitUntil(lambda: w.timeline.n_steps == len(answer.steps), timeout=5_000)
    dots = w.timeline.drafted_dots.getData()[0]
    assert sorted(int(x) for x in dots) == drafted and w.timeline.drafted_dots.isVisible()
    # the chat's token view: accepted drafts are underlined, the others are not
    w.window_actions.heatmap.setChecked(True)
    w.toggle_heatmap()
    view = w.chat.answers[-1].view
    qtbot.waitUntil(lambda: view.isVisible() and len(view._owners) > 0, timeout=5_000)
    styles = {}
    for start, owner in zip(view._starts, view._owners, strict=True):
        if answer.steps[owner].text:
            cursor = QTextCursor(view.document())
            cursor.setPosition(start + 1)
            styles[owner] = cursor.charFormat().underlineStyle()
    dotted = QTextCharFormat.UnderlineStyle.DotLine
    assert {i for i, style in styles.items() if style == dotted} == {i for i in styles if answer.steps[i].drafted}
    assert any(style != dotted for style in styles.values())
    assert "accepted speculative draft" in view.tooltip_html(answer.steps[drafted[0]])


def test_a_remote_engine_disables_the_setting_with_its_reason(qtbot, real_window):
    drafting = real_window.sampler.drafting
    drafting.mode.setCurrentIndex(drafting.mode.findData(DRAFT_LOOKUP))
    real_window.sampler.set_capabilities({"remote": True, "speculative": False, "samplers": []})
    assert not drafting.isEnabled() and drafting.options() == {}
    assert "local engine" in drafting.mode.toolTip()


def _answer_and_result(qtbot, window, text: str, max_tokens: int):
    """Send a message; the finished answer and the engine's GenerationResult."""
    window.sampler.max_tokens.setValue(max_tokens)
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=90_000) as blocker:
        window.send(text)
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)
    return window.current.turns[-1].answer, blocker.args[0]


def test_drafting_without_flash_attention_offers_a_reload_after_which_greedy_is_identical(qtbot, real_window, demo_model):
    """The window loads without flash attention (the forward-pass inspector copies the generation's state);
    choosing drafts there shows the notice and its button, which reloads the model with flash attention and
    remembers that; then the greedy answer with prompt lookup is the plain greedy answer, token for token."""
    w = real_window
    drafting = w.sampler.drafting
    assert not w.models.info.load.flash_attn and not drafting.notice_shown   # nothing to say while off
    drafting.mode.setCurrentIndex(drafting.mode.findData(DRAFT_LOOKUP))
    assert drafting.notice_shown and "flash attention" in drafting.notice.text()
    with qtbot.waitSignal(w.bridge.loaded, timeout=60_000):
        drafting.reload_button.click()
    qtbot.waitUntil(lambda: not w.bridge.busy, timeout=10_000)
    assert w.models.info.load.flash_attn and w.models.info.load.n_ctx == 2048   # the same settings otherwise
    assert w.app_settings.load_settings_for(demo_model).flash_attn
    assert not drafting.notice_shown and drafting.options()["draft"] == DRAFT_LOOKUP
    drafted, result = _answer_and_result(qtbot, w, EDIT, 48)
    assert result.speculative is not None and result.speculative.accepted >= 5
    assert not any("flash attention" in n for n in result.notices)
    w.new_chat()
    drafting.mode.setCurrentIndex(0)
    plain, result = _answer_and_result(qtbot, w, EDIT, 48)
    assert result.speculative is None and not any(s.drafted for s in plain.steps)
    assert [s.token for s in drafted.steps] == [s.token for s in plain.steps]


def test_the_model_as_its_own_draft_chosen_in_the_row(qtbot, real_window, demo_model, monkeypatch):
    """The "Draft model…" item opens the file dialog; the chosen model is shown by name, remembered in the settings,
    and drafts for the answer: the demo model drafting for itself under greedy, with flash attention, has
    every draft accepted."""
    w = real_window
    drafting = w.sampler.drafting
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: ("", ""))   # cancelled: nothing changes
    drafting.mode.setCurrentIndex(drafting.mode.findData(DRAFT_LOOKUP))
    drafting.mode.setCurrentIndex(drafting.mode.findData(CHOOSE))
    assert drafting.mode.currentData() == DRAFT_LOOKUP and drafting.draft_model() == ""
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(demo_model), ""))
    drafting.mode.setCurrentIndex(drafting.mode.findData(CHOOSE))
    assert drafting.options() == {"draft": str(demo_model), "draft_max": drafting.draft_max.value()}
    assert "SmolLM2-135M-Instruct" in drafting.mode.currentText()
    assert SettingsStore().app.draft_model_path == str(demo_model)   # written to the settings file
    assert drafting.notice_shown   # measured without flash attention: 30 of 39 self-drafts accepted (77 %)
    with qtbot.waitSignal(w.bridge.loaded, timeout=60_000):
        drafting.reload_button.click()
    qtbot.waitUntil(lambda: not w.bridge.busy, timeout=10_000)
    assert drafting.options()["draft"] == str(demo_model)   # the choice survives the reload
    answer, result = _answer_and_result(qtbot, w, "Write a short poem about the sea.", 40)
    spec = result.speculative
    assert spec is not None and spec.draft == demo_model.name and spec.drafted >= 20
    assert spec.accepted == spec.drafted   # the model agrees with itself, batch or not, with flash attention
    assert sum(s.drafted for s in answer.steps) == spec.accepted
    assert "drafts accepted" in w.status.speed.text()
    qtbot.waitUntil(lambda: w.timeline.n_steps == len(answer.steps), timeout=5_000)
    assert len(w.timeline.drafted_dots.getData()[0]) == spec.accepted


def test_a_draft_model_that_cannot_draft_is_refused_with_one_clear_message(qtbot, real_window, tmp_path, monkeypatch,
                                                                          gemma3):
    """A file that is not a GGUF, and a real model with another vocabulary (Gemma 3's 262,144 tokens): the
    answer is refused with one line that says why, and the window goes on answering."""
    w = real_window
    drafting = w.sampler.drafting
    bad = tmp_path / "notes.gguf"
    bad.write_text("not a model")
    candidates = [(bad, ""),
                  (gemma3, "does not share the model's vocabulary (262144 tokens, the model has 49152)")]
    for path, expected in candidates:
        monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, p=path, **k: (str(p), ""))
        drafting.mode.setCurrentIndex(drafting.mode.findData(CHOOSE))
        assert drafting.options()["draft"] == str(path)
        w.sampler.max_tokens.setValue(8)
        with qtbot.waitSignal(w.bridge.generationFailed, timeout=90_000):
            w.send("Say hi.")
        qtbot.waitUntil(lambda: w.streaming is None, timeout=5_000)
        title, message = w.last_error
        assert len(message.splitlines()) == 1 and "Traceback" not in message, message
        assert path.name in message and expected in message, message
    drafting.mode.setCurrentIndex(0)
    answer = ask(qtbot, w, "Say hi.", max_tokens=8)
    assert answer.steps


@pytest.mark.model
def test_the_remembered_draft_model_is_offered_at_start(qtbot, saved_draft, bare_window):
    drafting = bare_window.sampler.drafting
    assert drafting.draft_model() == (str(saved_draft) if saved_draft.is_file() else "")
    assert drafting.mode.currentData() == "" and drafting.options() == {}   # offered, not chosen
