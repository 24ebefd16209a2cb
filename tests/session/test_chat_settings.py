"""A conversation's own settings: one format, read tolerantly, saved with the chat and read back with it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from logitscope.protocol.sampler_settings import PRESETS, SamplerSettings
from logitscope.session.chat_settings import ChatSettings, read_chat_settings
from logitscope.session.conversation import Conversation
from logitscope.session.history import ChatHistory
from logitscope.store.exchange import export_json, import_json
from logitscope.store.history import HistoryStore

CREATIVE = PRESETS["Creative"]
FULL = ChatSettings(system_preset="Concise", system_prompt="Be brief.", sampler=replace(CREATIVE, seed=7),
                    max_tokens=99, stop=("###", "\n\n"), reasoning_budget=256)


def test_the_format_round_trips_through_plain_json():
    data = json.loads(json.dumps(FULL.to_dict()))
    assert read_chat_settings(data) == (FULL, [])
    assert read_chat_settings(None) == (ChatSettings(), [])
    assert read_chat_settings({}) == (ChatSettings(), [])   # nothing recorded: every default


@pytest.mark.parametrize("raw", [[1, 2], "text", 3, True])
def test_settings_that_are_not_an_object_give_the_defaults_and_a_notice(raw):
    settings, notices = read_chat_settings(raw)
    assert settings == ChatSettings() and len(notices) == 1


def test_wrong_values_fall_back_one_by_one_and_unknown_keys_are_ignored():
    raw = {"system_preset": 5, "system_prompt": ["no"], "max_tokens": "many", "stop": [1], "reasoning_budget": -5,
           "sampler": {"temperature": "hot", "top_k": 7, "not_a_setting": 1}, "from_the_future": {"x": 1}}
    settings, notices = read_chat_settings(raw)
    assert (settings.system_preset, settings.system_prompt, settings.max_tokens, settings.stop,
            settings.reasoning_budget) == (None,) * 5
    assert settings.sampler == replace(SamplerSettings(), top_k=7)   # the good value kept, the bad one defaulted
    text = "\n".join(notices)
    for word in ("system_preset", "system_prompt", "max_tokens", "stop", "temperature", "reasoning_budget"):
        assert word in text
    assert "from_the_future" not in text   # a newer version's key: no alarm


def test_an_unusable_sampler_is_left_out():
    settings, notices = read_chat_settings({"sampler": "greedy", "max_tokens": True})
    assert settings.sampler is None and settings.max_tokens is None and len(notices) == 2


@pytest.fixture
def history(tmp_path: Path):
    h = ChatHistory(HistoryStore(tmp_path / "history.sqlite3"))
    yield h
    h.close()


def reopened(history: ChatHistory, tmp_path: Path) -> tuple[ChatHistory, Conversation]:
    history.close()
    again = ChatHistory(HistoryStore(tmp_path / "history.sqlite3"))
    conversation = again.conversations()[0]
    again.fill(conversation)
    return again, conversation


def test_settings_chosen_before_the_first_question_are_saved_with_it(history, tmp_path):
    conversation = Conversation()
    history.save_settings(conversation, FULL)   # not in the store yet: kept in memory
    assert conversation.system == "Be brief." and conversation.store_id is None
    conversation.append_turn("Hi")
    history.save_question(conversation, 0)
    again, loaded = reopened(history, tmp_path)
    try:
        assert loaded.settings == FULL and loaded.system == "Be brief."
        # the history's record of what the model saw first: a 'system' message above the first question
        roots = [m for m in again.store.messages(loaded.store_id) if m.parent_id is None]
        assert [(m.role, m.content) for m in roots] == [("system", "Be brief.")]
        assert loaded.turns[0].user == "Hi"
    finally:
        again.close()


def test_a_change_later_is_saved_at_the_flush_and_the_first_record_stays(history, tmp_path):
    conversation = Conversation()
    history.save_settings(conversation, FULL)
    conversation.append_turn("Hi")
    history.save_question(conversation, 0)
    later = replace(FULL, system_preset=None, system_prompt="", sampler=PRESETS["Greedy"])
    history.save_settings(conversation, later)
    assert conversation.system is None   # "" = no system prompt for the next answers
    assert history.store.conversation(conversation.store_id).settings == FULL.to_dict()
    assert history.flush_settings()
    assert history.store.conversation(conversation.store_id).settings == later.to_dict()
    conversation.add_question_version(0, "Hello")   # an edited first question still sits under the record
    history.save_question(conversation, 0)
    again, loaded = reopened(history, tmp_path)
    try:
        assert loaded.settings == later and loaded.system is None
        assert loaded.question_versions(0) == (1, 2) and loaded.turns[0].user == "Hello"
    finally:
        again.close()


def test_a_chat_saved_without_settings_keeps_its_system_message(history, tmp_path):
    """A chat of the command line (or of an older version): its system prompt is its 'system' message."""
    store = history.store
    cid = store.create_conversation("old")
    system = store.add_message(cid, "system", "Old prompt.")
    store.add_message(cid, "user", "Hi", system)
    again, loaded = reopened(history, tmp_path)
    try:
        assert loaded.settings == ChatSettings() and loaded.system == "Old prompt."
        assert again.settings_notices(loaded) == []
    finally:
        again.close()


@pytest.mark.parametrize("stored", ["[1, 2]", '"text"', '{"sampler": {"temperature": -5}, "max_tokens": -1}',
                                    "{not json"])
def test_hostile_settings_open_the_chat_with_defaults(history, tmp_path, stored):
    store = history.store
    cid = store.create_conversation("hostile")
    store.add_message(cid, "user", "Hi")
    store.connection.execute("UPDATE conversations SET settings_json = ? WHERE id = ?", (stored, cid))
    store.connection.commit()
    again, loaded = reopened(history, tmp_path)
    try:
        assert loaded.turns[0].user == "Hi" and loaded.system is None
        assert loaded.settings.sampler in (None, SamplerSettings())
        assert loaded.settings.max_tokens is None
        # said once the chat is opened (text that is not JSON at all reads as no settings: nothing to say)
        assert bool(again.settings_notices(loaded)) is (stored != "{not json")
        assert again.settings_notices(loaded) == []
    finally:
        again.close()


def test_export_and_import_keep_the_settings(history, tmp_path):
    conversation = Conversation()
    history.save_settings(conversation, FULL)
    conversation.append_turn("Hi")
    history.save_question(conversation, 0)
    document = json.loads(json.dumps(export_json(history.store)))
    other = ChatHistory(HistoryStore(tmp_path / "other.sqlite3"))
    try:
        import_json(other.store, document)
        imported = other.conversations()[0]
        other.fill(imported)
        assert imported.settings == FULL and imported.system == "Be brief."
    finally:
        other.close()


def test_a_refused_save_stays_due_and_goes_with_the_next_flush(history, monkeypatch):
    import sqlite3

    conversation = Conversation()
    conversation.append_turn("Hi")
    history.save_question(conversation, 0)
    history.save_settings(conversation, FULL)
    real = history.store.set_settings

    def locked(*_args, **_kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(history.store, "set_settings", locked)
    assert not history.flush_settings()
    monkeypatch.setattr(history.store, "set_settings", real)
    assert history.flush_settings()
    assert history.store.conversation(conversation.store_id).settings == FULL.to_dict()
