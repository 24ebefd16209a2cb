"""Export and import: lossless JSON round trips, readable Markdown, one trace as JSON Lines."""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path

import pytest

from logitscope import TRACE_SCHEMA_VERSION
from logitscope.base.errors import StoreError
from logitscope.protocol.trace import pack_step, result_to_json, step_to_json, unpack_step
from logitscope.store.exchange import export_json, export_markdown, export_trace_jsonl, import_json
from logitscope.store.history import HistoryStore
from tests.helpers.store import save_answer, save_fork


def without_ids(document: dict) -> dict:
    document = copy.deepcopy(document)
    document.pop("exported_at")
    for conv in document["conversations"]:
        conv.pop("id")
    return document


@pytest.fixture
def rich_store(store, generated):
    """Two conversations with branches, traces, an interrupted answer and one in the trash."""
    a0, a1, a2 = generated.answers
    cid, first = save_answer(store, generated, a0)
    question = store.message(first).parent_id
    writer = store.start_answer(cid, question, generated.model, generated.vocab, a1.result.settings)
    for step in a1.steps[:5]:                              # a regeneration, cut off
        writer.append(step)
    writer.flush()
    store.edit(question, "Why is the sea blue?")            # an edited question: a third branch
    store.switch_branch(first)
    save_answer(store, generated, a2, conversation_id=cid, parent_id=first)
    other, _ = save_answer(store, generated, a1)
    store.rename(other, "中文 conversation")
    trash = store.create_conversation("In the trash")
    store.delete(trash)
    store.connection.execute("UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'")
    return store, cid, other, trash


def test_json_export_import_export_is_lossless(rich_store, tmp_path: Path, generated):
    store, cid, other, _trash = rich_store
    document = export_json(store)
    assert [c["id"] for c in document["conversations"]] == [cid, other]          # not the trash
    text = json.dumps(document, ensure_ascii=False)

    with HistoryStore(tmp_path / "second.sqlite3") as second:
        new_ids = import_json(second, json.loads(text))
        assert len(new_ids) == 2
        again = export_json(second)
        assert without_ids(again) == without_ids(document)
        # the active branch and the traces made it, usable without the model
        assert [m.content for m in second.active_path(new_ids[0])] == \
               [m.content for m in store.active_path(cid)]
        for old, new in zip(store.messages(cid), second.messages(new_ids[0]), strict=True):
            old_steps, old_pieces = store.load_trace(old.id)
            new_steps, new_pieces = second.load_trace(new.id)
            assert [pack_step(s) for s in new_steps] == [pack_step(s) for s in old_steps]
            assert new_pieces == old_pieces
            assert (new.status, new.sampler, new.timings, new.model) == (old.status, old.sampler, old.timings, old.model)
        statuses = sorted(m.status for m in second.messages(new_ids[0]))
        assert statuses.count("interrupted") == 1 and statuses.count("done") == 5


def test_a_fork_keeps_where_it_was_forked_through_export_and_import(store, tmp_path: Path, generated):
    save_fork(store, generated, forked_at=4)
    document = export_json(store)
    question, fork = document["conversations"][0]["messages"]
    assert (fork["forked_at"], fork["prefix_steps"]) == (4, 4)
    assert (question["forked_at"], question["prefix_steps"]) == (None, 0)
    with HistoryStore(tmp_path / "second.sqlite3") as second:
        (cid,) = import_json(second, json.loads(json.dumps(document)))
        assert [(m.forked_at, m.prefix_steps) for m in second.messages(cid)] == [(None, 0), (4, 4)]
        assert without_ids(export_json(second)) == without_ids(document)


def test_an_export_from_before_forks_were_exported_imports_without_them(store, tmp_path: Path, generated):
    save_fork(store, generated, forked_at=4)
    document = export_json(store)
    for message in document["conversations"][0]["messages"]:
        del message["forked_at"], message["prefix_steps"]
    with HistoryStore(tmp_path / "second.sqlite3") as second:
        (cid,) = import_json(second, document)
        assert [(m.forked_at, m.prefix_steps) for m in second.messages(cid)] == [(None, 0), (None, 0)]


def test_export_one_conversation_even_from_the_trash(rich_store):
    store, _cid, _other, trash = rich_store
    (conv,) = export_json(store, [trash])["conversations"]
    assert conv["title"] == "In the trash" and conv["deleted_at"] is not None
    with pytest.raises(StoreError, match="no conversation with id 999"):
        export_json(store, [999])


def test_the_export_is_self_describing(rich_store, generated):
    store, cid, _other, _trash = rich_store
    conv = export_json(store, [cid])["conversations"][0]
    answer = next(m for m in conv["messages"] if m["trace"])
    assert answer["model"] == {"file_name": generated.model.file_name, "size": 98_362_432,
                               "head_sha256": generated.model.head_sha256}
    step = unpack_step(base64.b64decode(answer["trace"]["steps"][0]))
    assert base64.b64decode(answer["trace"]["pieces"][str(step.token)]) == step.piece
    assert conv["messages"][0]["parent"] is None
    assert all(m["parent"] is None or m["parent"] < n for n, m in enumerate(conv["messages"]))


def valid_document(store, generated) -> dict:
    save_answer(store, generated, generated.answers[0])
    return export_json(store)


@pytest.mark.parametrize("damage, phrase", [
    (lambda d: d.update(format="something-else"), "not a Logitscope history export"),
    (lambda d: d.update(version=99), "version 99"),
    (lambda d: d["conversations"][-1].update(title=7), '"title" must be str'),
    (lambda d: d["conversations"][-1]["messages"][0].update(parent=5), "earlier message"),
    (lambda d: d["conversations"][-1]["messages"][1].update(role="robot"), "unknown role"),
    (lambda d: d["conversations"][-1]["messages"][1]["trace"]["steps"].__setitem__(0, "!!notbase64"),
     "not valid base64"),
    (lambda d: d["conversations"][-1]["messages"][1]["trace"]["steps"].__setitem__(0, "AAAA"),
     "not a valid step record"),
    (lambda d: d["conversations"][-1]["messages"][1].update(model=None), "needs the model"),
    (lambda d: d["conversations"][-1]["messages"][1].update(selected_seq=True), '"selected_seq" must be int'),
], ids=["format", "version", "title", "parent", "role", "base64", "step", "model", "bool"])
def test_a_bad_import_adds_nothing(store, generated, damage, phrase):
    document = valid_document(store, generated)
    document["conversations"].insert(0, copy.deepcopy(document["conversations"][0]))  # a good one first
    damaged = copy.deepcopy(document)
    damage(damaged)
    before = store.connection.execute("SELECT (SELECT count(*) FROM conversations), "
                                      "(SELECT count(*) FROM messages), (SELECT count(*) FROM trace_steps)").fetchone()
    with pytest.raises(StoreError, match=phrase):
        import_json(store, damaged)
    after = store.connection.execute("SELECT (SELECT count(*) FROM conversations), "
                                     "(SELECT count(*) FROM messages), (SELECT count(*) FROM trace_steps)").fetchone()
    assert after == before


def test_markdown_shows_the_active_branch(rich_store):
    store, cid, other, _trash = rich_store
    text = export_markdown(store, [cid])
    path = store.active_path(cid)
    assert text.startswith(f"# {store.conversation(cid).title}\n")
    positions = [text.index(m.content) for m in path]
    assert positions == sorted(positions)                     # in order
    assert "Why is the sea blue?" not in text                 # the other branches are not shown
    assert "## Assistant (version 1 of 2)" in text and "## User (version 1 of 2)" in text
    assert "seed 100" in text and "SmolLM2-135M-Instruct.Q4_1.gguf" in text and "tok/s" in text
    both = export_markdown(store)
    assert both.count("\n---\n") == 1 and "# 中文 conversation" in both and "In the trash" not in both


def test_markdown_says_when_an_answer_was_interrupted(rich_store):
    store, cid, _other, _trash = rich_store
    interrupted = next(m for m in store.messages(cid) if m.status == "interrupted")
    store.switch_branch(interrupted.id)
    assert "interrupted: Logitscope closed before the answer was complete" in export_markdown(store, [cid])


def test_trace_jsonl_matches_the_cli_format(store, generated):
    answer = generated.answers[1]
    _, mid = save_answer(store, generated, answer)
    lines = [json.loads(line) for line in export_trace_jsonl(store, mid).splitlines()]
    assert len(lines) == len(answer.steps) + 1
    for line, step in zip(lines[:-1], answer.steps, strict=True):
        # the same line `generate --json` prints with the live vocabulary (numbers as stored: float32)
        assert line == json.loads(json.dumps(step_to_json(unpack_step(pack_step(step)), generated.vocab)))
    assert lines[-1] == json.loads(json.dumps(result_to_json(answer.result)))
    assert lines[-1]["schema"] == TRACE_SCHEMA_VERSION and lines[-1]["tokens"] == [s.token for s in answer.steps]


def test_trace_jsonl_of_an_unfinished_answer_has_no_done_line(store, generated):
    answer = generated.answers[0]
    writer = store.start_answer(store.create_conversation("t"), None, generated.model, generated.vocab, {})
    for step in answer.steps[:4]:
        writer.append(step)
    writer.fail("the engine crashed")
    lines = export_trace_jsonl(store, writer.message_id, top=3).splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["step"] * 4
    assert len(json.loads(lines[0])["top_raw"]) == 3
    with pytest.raises(StoreError, match="has no trace"):
        export_trace_jsonl(store, store.add_message(store.create_conversation("u"), "user", "hi"))
