"""A reasoning model's thinking is stored apart from its answer (schema 6): `content` is the answer alone, `thinking`
the block's text and `reasoning` the trace's record — while it streams, after a restart, in the trace export, the
JSON export and import (an older export, with the thinking inside `content`, still imports) and the Markdown export.
No model: a real reasoning trace recorded from the thinking copy of the demo model (tests/data/thinking_trace.json.gz)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logitscope.session.conversation import Conversation
from logitscope.session.history import ChatHistory
from logitscope.store.exchange import export_json, export_markdown, export_trace_jsonl, import_json
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity
from tests.helpers.scripted_engine import load_thinking

THOUGHT, ANSWER = "The answer is 6 times 7, which equals", "6 times 7 equals 42."


@pytest.fixture(scope="module")
def recording():
    return load_thinking(Path("SmolLM2-135M-Instruct.Q4_1.gguf"))


def _save(store: HistoryStore, recording, upto: int | None = None) -> tuple[int, int]:
    steps, result = recording.answers[0]
    cid = store.create_conversation("thinking")
    question = store.add_message(cid, "user", "What is 6 times 7?")
    writer = store.start_answer(cid, question, ModelIdentity("thinking.gguf", 1, "0" * 64), recording.vocab,
                                result.settings)
    for step in steps[:upto]:
        writer.append(step)
    if upto is None:
        assert writer.finish(result)
    else:
        assert writer.flush()
    return cid, writer.message_id


def test_the_recorded_trace_is_a_block_the_budget_closed(recording):
    steps, result = recording.answers[0]
    assert result.reasoning == {"format": "deepseek", "budget": 12, "opened_by_prompt": True, "n_thinking": 16,
                                "ended": "budget", "forced": [12, 17]}
    assert [s.thinking for s in steps] == [True] * 16 + [False] * (len(steps) - 16)


def test_thinking_and_answer_are_stored_apart_and_read_back_after_a_restart(tmp_path, recording):
    path = tmp_path / "history.sqlite3"
    with HistoryStore(path) as store:
        cid, mid = _save(store, recording)
    with HistoryStore(path) as store:
        message = store.message(mid)
        assert (message.content, message.thinking) == (ANSWER, THOUGHT)
        assert message.reasoning == recording.answers[0][1].reasoning
        done = json.loads(export_trace_jsonl(store, mid).splitlines()[-1])
        assert done["reasoning"]["ended"] == "budget"
        conversation = Conversation(store_id=cid, loaded=False)
        ChatHistory(store).fill(conversation)
        (turn,) = conversation.turns
        assert turn.answer is not None and turn.answer.result is not None
        assert turn.answer.result.reasoning == message.reasoning
        # the whole text again, thinking first, the way the window and the prompt builder read an answer
        assert turn.answer.text == f"{THOUGHT}\n</think>\n\n{ANSWER}"
        assert [s.thinking for s in turn.answer.steps][:16] == [True] * 16


def test_while_it_streams_the_thinking_so_far_is_apart_too(tmp_path, recording):
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        _, inside = _save(store, recording, upto=8)
        message = store.message(inside)
        assert message.status == "streaming" and message.content == ""
        assert message.thinking == "".join(s.text for s in recording.answers[0][0][:8]).strip()
        assert message.thinking == "The answer is 6 times"


def test_a_search_finds_the_answer_not_the_thinking(tmp_path, recording):
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid, _ = _save(store, recording)
        if not store.full_text:
            pytest.skip("this SQLite has no FTS5 trigram index; the scan searches the same column")
        assert [hit.conversation.id for hit in store.search("equals 42")] == [cid]
        assert store.search("which equals") == []


def test_the_exports_carry_both_and_an_older_export_still_imports(tmp_path, recording):
    with HistoryStore(tmp_path / "a.sqlite3") as store:
        _save(store, recording)
        document = export_json(store)
        markdown = export_markdown(store)
    assert f"<details><summary>Thinking</summary>\n\n{THOUGHT}\n\n</details>\n\n{ANSWER}" in markdown
    (answer,) = [m for m in document["conversations"][0]["messages"] if m["role"] == "assistant"]
    assert (answer["content"], answer["thinking"], answer["reasoning"]["n_thinking"]) == (ANSWER, THOUGHT, 16)
    older = json.loads(json.dumps(document))   # as written before schema 6: the whole text in "content"
    (old_answer,) = [m for m in older["conversations"][0]["messages"] if m["role"] == "assistant"]
    old_answer["content"] = "".join(s.text for s in recording.answers[0][0])
    del old_answer["thinking"], old_answer["reasoning"]
    older["conversations"][0]["title"] += " (older)"   # the same conversation again would not be imported twice
    with HistoryStore(tmp_path / "b.sqlite3") as store:
        (cid,) = import_json(store, document)
        (again,) = import_json(store, older)
        (new,) = [m for m in store.messages(cid) if m.role == "assistant"]
        (old,) = [m for m in store.messages(again) if m.role == "assistant"]
        assert (new.content, new.thinking, new.reasoning) == (ANSWER, THOUGHT, answer["reasoning"])
        assert (old.thinking, old.n_steps) == (None, 27) and old.content.endswith(ANSWER)
        assert not [n for n in new.notices + old.notices if "imported with only" in n]


def test_attachments_and_conversation_settings_round_trip(tmp_path):
    files = [{"name": "notes.md", "text": "# Notes\nsix sevens"}]
    with HistoryStore(tmp_path / "a.sqlite3") as store:
        cid = store.create_conversation("files")
        question = store.add_message(cid, "user", "Summarise.", attachments=files)
        store.set_settings(cid, {"sampler": {"temperature": 0.3}})
        assert store.message(store.edit(question, "Summarise briefly.")).attachments == files
        document = export_json(store)
    with HistoryStore(tmp_path / "b.sqlite3") as store:
        (again,) = import_json(store, document)
        assert store.conversation(again).settings == {"sampler": {"temperature": 0.3}}
        assert [m.attachments for m in store.messages(again)] == [files, files]
        store.set_settings(again, None)
        assert store.conversation(again).settings is None


@pytest.mark.parametrize("bad", [{"attachments": [{"name": "a"}]}, {"attachments": ["a.txt"]},
                                 {"attachments": [{"name": "a", "text": 3}]}, {"thinking": 5},
                                 {"reasoning": "budget"}])
def test_a_hostile_export_of_these_fields_is_refused_whole(tmp_path, bad):
    from logitscope.base.errors import StoreError

    with HistoryStore(tmp_path / "a.sqlite3") as store:
        cid = store.create_conversation("x")
        store.add_message(cid, "user", "hi")
        document = export_json(store)
    document["conversations"][0]["messages"][0].update(bad)
    with HistoryStore(tmp_path / "b.sqlite3") as store:
        with pytest.raises(StoreError, match="message 1"):
            import_json(store, document)
        assert store.list_conversations() == []


def test_the_threads_record_is_stored_and_exported(tmp_path, recording):
    from dataclasses import replace

    threads = {"auto": True, "start": 2, "runs": [[0, 2], [9, 1]], "changes": [[13, 2, 1, 4.1, "slowdown"]]}
    steps, result = recording.answers[0]
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = store.create_conversation("threads")
        question = store.add_message(cid, "user", "What is 6 times 7?")
        writer = store.start_answer(cid, question, ModelIdentity("t.gguf", 1, "0" * 64), recording.vocab,
                                    result.settings)
        for step in steps:
            writer.append(step)
        assert writer.finish(replace(result, threads=threads))
        assert store.message(writer.message_id).threads == threads
        assert json.loads(export_trace_jsonl(store, writer.message_id).splitlines()[-1])["threads"] == threads
        document = export_json(store)
    with HistoryStore(tmp_path / "b.sqlite3") as store:
        (again,) = import_json(store, document)
        assert [m.threads for m in store.messages(again) if m.role == "assistant"] == [threads]
