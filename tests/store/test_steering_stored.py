"""The steering an answer was made with (its trace's done line `steering`) survives the history: saved with the
answer, read back after a restart, in the trace export and in the JSON export and import; answers stored before
(schema 4 and older, exports without the key) read as unsteered. No model: the scripted engine's recorded
answers stand in for generated ones."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from logitscope.protocol.steering import steering_record
from logitscope.session.conversation import Conversation
from logitscope.session.history import ChatHistory
from logitscope.store.exchange import export_json, export_trace_jsonl, import_json
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity
from tests.helpers.scripted_engine import load_recording
from tests.store.test_migrations import make_database

STEERED = steering_record(
    [{"file": "happy.gguf", "path": "/data/happy.gguf", "sha256": "ab" * 32, "scale": 8.0}], (10, 20),
    [{"file": "tune.gguf", "path": "/data/tune.gguf", "sha256": "cd" * 32, "scale": -0.5}])


@pytest.fixture(scope="module")
def recording():
    return load_recording(Path("SmolLM2-135M-Instruct.Q4_1.gguf"))


def _save(store: HistoryStore, recording, steering) -> tuple[int, int]:
    steps, result = recording.answers[0]
    cid = store.create_conversation("steered")
    question = store.add_message(cid, "user", "Say hi.")
    writer = store.start_answer(cid, question, ModelIdentity("demo.gguf", 1, "0" * 64), recording.vocab,
                                result.settings)
    for step in steps:
        writer.append(step)
    assert writer.finish(replace(result, steering=steering))
    return cid, writer.message_id


def test_an_answers_steering_is_read_back_after_a_restart(tmp_path, recording):
    path = tmp_path / "history.sqlite3"
    with HistoryStore(path) as store:
        cid, steered = _save(store, recording, STEERED)
        _, plain = _save(store, recording, None)
    with HistoryStore(path) as store:
        assert store.message(steered).steering == STEERED
        assert store.message(plain).steering is None
        done = json.loads(export_trace_jsonl(store, steered).splitlines()[-1])
        assert done["type"] == "done" and done["steering"] == STEERED
        assert json.loads(export_trace_jsonl(store, plain).splitlines()[-1])["steering"] is None
        conversation = Conversation(store_id=cid, loaded=False)
        ChatHistory(store).fill(conversation)
        (turn,) = conversation.turns
        assert turn.answer is not None and turn.answer.result is not None
        assert turn.answer.result.steering == STEERED


def test_the_json_export_carries_it_and_an_older_export_without_it_is_unsteered(tmp_path, recording):
    with HistoryStore(tmp_path / "a.sqlite3") as store:
        _save(store, recording, STEERED)
        document = export_json(store)
    (answer,) = [m for m in document["conversations"][0]["messages"] if m["role"] == "assistant"]
    assert answer["steering"] == STEERED
    older = json.loads(json.dumps(document))
    for message in older["conversations"][0]["messages"]:
        message.pop("steering")
    older["conversations"][0]["title"] += " (older)"   # the same conversation again would not be imported twice
    with HistoryStore(tmp_path / "b.sqlite3") as store:
        (cid,) = import_json(store, document)
        (again,) = import_json(store, older)
        assert [m.steering for m in store.messages(cid) if m.role == "assistant"] == [STEERED]
        assert [m.steering for m in store.messages(again) if m.role == "assistant"] == [None]


def test_a_steering_that_is_no_plain_json_object_is_refused_on_import(tmp_path, recording):
    from logitscope.base.errors import StoreError

    with HistoryStore(tmp_path / "a.sqlite3") as store:
        _save(store, recording, STEERED)
        document = export_json(store)
    for message in document["conversations"][0]["messages"]:
        if message["role"] == "assistant":
            message["steering"] = "layers 10-20"
    with HistoryStore(tmp_path / "b.sqlite3") as store, pytest.raises(StoreError, match='"steering" must be'):
        import_json(store, document)


def test_answers_of_a_schema_4_history_are_unsteered(tmp_path):
    path = tmp_path / "history.sqlite3"
    make_database(path, 4)
    with HistoryStore(path) as store:
        assert [m.steering for m in store.messages(1)] == [None] * 4
