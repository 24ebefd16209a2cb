"""Each chat keeps its system prompt and sampler settings: saved when they change, put back when the chat is
shown again, after a restart, through export and import; presets saved, renamed and deleted from the bar."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace

import pytest
from PySide6.QtCore import QSettings

from logitscope.protocol.api import LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.store.settings import SYSTEM_PROMPTS
from logitscope.ui.chat.system_prompt_bar import CUSTOM, NONE
from logitscope.ui.dialogs.system_presets import SystemPresetsDialog
from tests.helpers.window import ask

pytestmark = pytest.mark.gui

GREEDY, CREATIVE = PRESETS["Greedy"], PRESETS["Creative"]


def pick(window, preset: str) -> None:
    bar = window.chat_settings.bar
    bar.presets.setCurrentIndex(bar.presets.findData(preset))


def reopen(qtbot, tmp_path, recording):
    """Another window over the same home (history, settings.json), over the scripted engine."""
    from logitscope.ui.bridge import EngineBridge
    from logitscope.ui.main_window import MainWindow
    from tests.helpers.scripted_engine import ScriptedEngine

    w = MainWindow(bridge=EngineBridge(client=ScriptedEngine(recording)),
                   settings=QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.said = []   # the status bar's messages, from the start
    w.statusMessage.connect(w.said.append)
    w.show()
    with qtbot.waitSignal(w.bridge.loaded, timeout=10_000):
        w.bridge.load(recording.info.card.path, LoadSettings(n_ctx=2048))
    return w


def shows(window, sampler, preset: str, max_tokens: int) -> bool:
    bar = window.chat_settings.bar
    return (window.sampler.settings() == sampler and bar.presets.currentData() == preset
            and bar.prompt() == SYSTEM_PROMPTS.get(preset, "") and window.sampler.max_tokens.value() == max_tokens)


def two_chats(qtbot, w) -> None:
    """Chat 1: Concise + greedy, max 5 tokens; chat 2 (started from chat 1's settings): no system prompt,
    Creative with a fixed seed, max 6."""
    pick(w, "Concise")
    ask(qtbot, w, "Say hi.", max_tokens=5)
    assert w.bridge.client.requests[-1].system == SYSTEM_PROMPTS["Concise"]   # what the model was given
    w.new_chat()
    assert shows(w, GREEDY, "Concise", 5)   # a new chat starts from the last used settings
    pick(w, NONE)
    w.sampler.set_settings(replace(CREATIVE, seed=11))
    w.sampler.reasoning_budget.setValue(64)
    ask(qtbot, w, "Name a colour.", max_tokens=6)
    assert w.bridge.client.requests[-1].system is None


def test_each_chat_gets_its_own_settings_back_when_shown(qtbot, scripted_window):
    w = scripted_window
    two_chats(qtbot, w)
    w.conversation_list.setCurrentRow(1)   # the first chat
    assert w.current.turns[0].user == "Say hi." and shows(w, GREEDY, "Concise", 5)
    assert w.sampler.reasoning_budget.value() == -1   # the thinking budget is the chat's too
    w.conversation_list.setCurrentRow(0)
    assert shows(w, replace(CREATIVE, seed=11), NONE, 6) and w.sampler.reasoning_budget.value() == 64
    # a change is saved a moment later (once), and at once when another chat is shown
    w.sampler.rows["temperature"].set_value(0.3)
    w.conversation_list.setCurrentRow(1)
    stored = w.history.store.conversation(w.conversations[0].store_id).settings
    assert stored["sampler"]["temperature"] == 0.3 and stored["system_prompt"] == "" and stored["max_tokens"] == 6


def test_settings_survive_a_restart_and_a_system_prompt_typed_is_sent(qtbot, scripted_window, tmp_path, recording):
    w = scripted_window
    two_chats(qtbot, w)
    bar = w.chat_settings.bar
    bar.edit_button.setChecked(True)
    bar.editor.setPlainText("Answer in French.")   # typed: no preset matches
    assert bar.presets.currentData() == CUSTOM
    ask(qtbot, w, "Count to three.", max_tokens=4)
    assert w.bridge.client.requests[-1].system == "Answer in French."
    w.close()
    again = reopen(qtbot, tmp_path, recording)
    try:
        assert again.current.title == "Name a colour."
        assert again.chat_settings.bar.prompt() == "Answer in French." and again.current.system == "Answer in French."
        assert again.sampler.settings() == replace(CREATIVE, seed=11) and again.sampler.max_tokens.value() == 4
        again.conversation_list.setCurrentRow(1)
        assert shows(again, GREEDY, "Concise", 5)
    finally:
        again.close()


@pytest.mark.parametrize("stored", ["[1, 2]", json.dumps({"sampler": {"temperature": "hot", "top_k": 3},
                                                             "system_prompt": 5, "max_tokens": "x", "stop": 1})])
def test_hostile_settings_open_the_chat_with_the_defaults(qtbot, scripted_window, tmp_path, recording, stored):
    w = scripted_window
    ask(qtbot, w, "Say hi.", max_tokens=5)
    store_id = w.current.store_id
    w.close()
    with sqlite3.connect(tmp_path / "home" / "history.sqlite3") as db:
        db.execute("UPDATE conversations SET settings_json = ? WHERE id = ?", (stored, store_id))
    again = reopen(qtbot, tmp_path, recording)
    try:   # what was left out is said in the status bar when the chat is shown
        qtbot.waitUntil(lambda: any("This chat's saved settings" in line for line in again.said), timeout=5_000)
        assert again.current.turns[0].user == "Say hi." and again.current.turns[0].answer.text
        # no sampler settings left: those its answer was made with (greedy); some: on the default preset
        expected = GREEDY if stored.startswith("[") else replace(PRESETS["Balanced"], top_k=3)
        assert again.sampler.settings() == expected
        assert again.chat_settings.bar.prompt() == "" and again.sampler.max_tokens.value() == 512
    finally:
        again.close()


def test_export_and_import_keep_a_chats_settings(qtbot, scripted_window, tmp_path):
    w = scripted_window
    pick(w, "Helpful assistant")
    ask(qtbot, w, "Say hi.", max_tokens=5)
    w.sampler.rows["temperature"].set_value(0.4)   # changed just before the export: it goes with it
    path = tmp_path / "chat.json"
    assert w.export_conversation(str(path))
    said: list[str] = []
    w.files.notice.connect(said.append)
    assert w.import_conversations(str(path)) == 0   # the same conversation is not imported twice, and that is said
    assert said == ["0 conversation(s) imported; 1 already in the history, not imported again"]
    original = w.current.store_id
    w.delete_conversation(confirm=False)   # in the trash: the export brings it back, as a conversation of its own
    w.new_chat()
    pick(w, NONE)
    assert w.import_conversations(str(path)) == 1
    w.conversation_list.setCurrentRow(0)   # the imported copy, listed first
    assert w.current.store_id != original
    assert shows(w, replace(GREEDY, temperature=0.4), "Helpful assistant", 5)


def test_presets_are_saved_renamed_and_deleted_from_the_bar(qtbot, scripted_window, tmp_path):
    w = scripted_window
    bar, store = w.chat_settings.bar, w.app_settings
    bar.editor.setPlainText("Talk like a pirate.")
    assert bar.ask_save(ask=lambda *_args, **_kwargs: ("Pirate", True)) == "Pirate"
    assert store.user_system_prompts() == {"Pirate": "Talk like a pirate."} and bar.presets.currentData() == "Pirate"
    assert w.current.settings.system_preset == "Pirate"
    pick(w, NONE)
    pick(w, "Pirate")   # picked in another chat state: its text comes back
    assert bar.prompt() == "Talk like a pirate."
    dialog = SystemPresetsDialog(store, w.show_error, bar)
    assert [dialog.names.item(i).text() for i in range(dialog.names.count())] == ["Pirate"]   # built-ins not listed
    dialog.rename("Captain")
    bar.manage(dialog)
    assert bar.presets.currentData() == "Captain" and bar.presets.findData("Pirate") < 0
    dialog.delete()
    bar.manage(dialog)
    assert store.user_system_prompts() == {} and bar.presets.currentData() == CUSTOM   # the chat keeps the text
    assert dialog.names.count() == 0 and "Save as preset" in dialog.text.placeholderText()   # how to make one
    assert bar.prompt() == "Talk like a pirate."
    assert bar.ask_save(ask=lambda *_args, **_kwargs: ("Concise", True)) is None   # a built-in name: refused
    assert "built-in" in w.last_error[1]


def test_a_chat_saved_without_settings_opens_with_those_of_its_last_answer(qtbot, scripted_window, tmp_path,
                                                                          recording):
    """An older chat (saved before chats kept settings) opens with the settings its last answer was made with,
    not the default preset: clicking one of its tokens shows the recorded step, not a preview."""
    w = scripted_window
    w.sampler.set_settings(CREATIVE)
    ask(qtbot, w, "Say hi.", max_tokens=5)
    store_id = w.current.store_id
    w.close()
    with sqlite3.connect(tmp_path / "home" / "history.sqlite3") as db:
        db.execute("UPDATE conversations SET settings_json = NULL WHERE id = ?", (store_id,))
    again = reopen(qtbot, tmp_path, recording)
    try:
        assert again.current.turns[0].user == "Say hi."
        assert again.sampler.settings() == CREATIVE   # (the real engine records max tokens too; scripted: not)
        again.select_step(0, 1)
        assert not again.current_step_view().is_preview
    finally:
        again.close()


def test_none_says_when_the_models_template_writes_a_system_prompt_of_its_own(qtbot, scripted_window):
    """A chat with "None" still sent SmolLM2's 'You are a helpful AI assistant named SmolLM…' (its template writes
    it), and nothing on screen said so."""
    bar = scripted_window.chat_settings.bar
    qtbot.wait(100)   # (the scripted engine renders no template: its answer, None, comes first)
    pick(scripted_window, NONE)
    bar.set_template_default("You are a helpful AI assistant named SmolLM, trained by Hugging Face")
    none = bar.presets.findData(NONE)
    assert bar.presets.itemText(none) == "None (the template's own)" and bar.presets.currentIndex() == none
    assert "this model's chat template then writes its own" in bar.presets.toolTip()
    assert "named SmolLM, trained by Hugging Face" in bar.presets.toolTip()
    pick(scripted_window, SYSTEM_PROMPTS[0] if isinstance(SYSTEM_PROMPTS, list) else next(iter(SYSTEM_PROMPTS)))
    assert "named SmolLM" not in bar.presets.toolTip()                     # a prompt of the chat's own: it is sent
    bar.set_template_default(None)
    assert bar.presets.itemText(none) == "None"


@pytest.mark.model
def test_the_real_window_learns_the_demo_templates_own_system_prompt(qtbot, real_window):
    bar = real_window.chat_settings.bar
    qtbot.waitUntil(lambda: bar.template_default is not None, timeout=30_000)
    assert bar.template_default == "You are a helpful AI assistant named SmolLM, trained by Hugging Face"


def test_a_late_answer_about_an_earlier_model_is_not_shown_for_the_next(qtbot):
    """The template's system prompt is asked off the GUI thread: an answer about a model replaced meanwhile (or
    unloaded) must not label the next model's "None"."""
    from PySide6.QtCore import QObject, Signal

    from logitscope.protocol.api import ModelInfo
    from logitscope.ui.controllers import template_system

    class Models(QObject):
        changed = Signal()
        info = None

    class Bridge:
        def __init__(self) -> None:
            self.asked: list = []

        def call(self, job, done, failed):  # noqa: ANN001, ANN202
            self.asked.append(done)

    class Bar:
        template_default = "unset"

        def set_template_default(self, text):  # noqa: ANN001, ANN202
            self.template_default = text

    def model(path: str) -> ModelInfo:
        info = object.__new__(ModelInfo)
        object.__setattr__(info, "card", type("Card", (), {"path": path})())
        return info

    models, bridge, bar = Models(), Bridge(), Bar()
    template_system.install(bridge, models, bar)
    models.info = model("/m/a.gguf")
    models.changed.emit()
    models.info = None                       # unloaded before the answer about a.gguf came
    models.changed.emit()
    bridge.asked[0]("A's own prompt")
    assert bar.template_default is None
    models.info = model("/m/b.gguf")
    models.changed.emit()
    bridge.asked[1]("B's own prompt")
    assert bar.template_default == "B's own prompt"
