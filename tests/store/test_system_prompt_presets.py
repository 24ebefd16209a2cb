"""System prompt presets in settings.json: built-ins, the user's own (save, rename, delete), read tolerantly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.store.settings import SYSTEM_PROMPTS, SettingsStore


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "settings.json"


def test_built_ins_come_first_and_the_users_presets_survive_a_restart(path: Path):
    store = SettingsStore(path)
    assert list(store.system_prompts())[:len(SYSTEM_PROMPTS)] == list(SYSTEM_PROMPTS)
    store.save_system_prompt("  Pirate ", "Talk like a pirate.")
    store.save_system_prompt("Tutor", "Explain step by step.")
    again = SettingsStore(path)
    assert again.user_system_prompts() == {"Pirate": "Talk like a pirate.", "Tutor": "Explain step by step."}
    assert again.system_prompts()["Helpful assistant"] == SYSTEM_PROMPTS["Helpful assistant"]
    assert again.notices == []


def test_rename_keeps_the_place_and_delete_removes(path: Path):
    store = SettingsStore(path)
    store.save_system_prompt("A", "first")
    store.save_system_prompt("B", "second")
    store.rename_system_prompt("A", "Z")
    assert list(SettingsStore(path).user_system_prompts().items()) == [("Z", "first"), ("B", "second")]
    store.delete_system_prompt("Z")
    assert SettingsStore(path).user_system_prompts() == {"B": "second"}


@pytest.mark.parametrize(("call", "phrase"), [
    (lambda s: s.save_system_prompt(" ", "text"), "needs a name"),
    (lambda s: s.save_system_prompt("Concise", "text"), "built-in"),
    (lambda s: s.rename_system_prompt("Concise", "Mine"), "built-in"),
    (lambda s: s.rename_system_prompt("Mine", "Concise"), "built-in"),
    (lambda s: s.rename_system_prompt("Mine", "Other"), "already"),
    (lambda s: s.rename_system_prompt("Nope", "Other"), "no saved"),
    (lambda s: s.delete_system_prompt("Helpful assistant"), "built-in"),
    (lambda s: s.delete_system_prompt("Nope"), "no saved"),
])
def test_refused_changes_change_nothing(path: Path, call, phrase: str):
    store = SettingsStore(path)
    store.save_system_prompt("Mine", "mine")
    store.save_system_prompt("Other", "other")
    before = path.read_text(encoding="utf-8")
    with pytest.raises(InvalidSettingsError, match=phrase):
        call(store)
    assert path.read_text(encoding="utf-8") == before
    assert store.user_system_prompts() == {"Mine": "mine", "Other": "other"}


def test_a_hand_edited_section_keeps_what_is_valid_and_loses_nothing_else(path: Path):
    path.write_text(json.dumps({
        "schema": 1,
        "app": {"theme": "dark"},
        "sampler_presets": {"Mine": {"temperature": 0.5}},
        "system_prompts": {"Good": "Be kind.", "Number": 42, "Concise": "hides a built-in", "": "no name"},
    }), encoding="utf-8")
    store = SettingsStore(path)
    assert store.user_system_prompts() == {"Good": "Be kind."}
    assert store.app.theme == "dark" and store.user_presets()["Mine"].temperature == 0.5
    text = "\n".join(store.notices)
    assert "'Number'" in text and "'Concise'" in text and "''" in text
    store.repair()   # rewritten without the bad parts, after a backup of the file as it was
    assert any(p.name.startswith("settings.json.bak-") for p in path.parent.iterdir())
    assert json.loads(path.read_text(encoding="utf-8"))["system_prompts"] == {"Good": "Be kind."}


def test_a_section_that_is_not_an_object_is_a_notice(path: Path):
    path.write_text(json.dumps({"schema": 1, "system_prompts": ["a", "b"], "app": {"theme": "light"}}), encoding="utf-8")
    store = SettingsStore(path)
    assert store.user_system_prompts() == {} and store.app.theme == "light"
    assert any("system_prompts" in n for n in store.notices)


def test_a_corrupt_file_is_set_aside_with_a_clear_message(path: Path):
    path.write_text('{"schema": 1, "system_prompts": {"A": "unfinished', encoding="utf-8")
    store = SettingsStore(path)
    assert store.user_system_prompts() == {} and len(store.notices) == 1
    assert "cannot be read" in store.notices[0] and "kept as settings.json.broken-" in store.notices[0]
    assert any(p.name.startswith("settings.json.broken-") for p in path.parent.iterdir())
