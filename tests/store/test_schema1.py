"""Traces written before schema 2 (tests/data: real output of commit 670d404) still load: a `generate --json`
trace through the documented migration, a history export through `history import`, a stored answer
through the store and the window's history (session.history)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from logitscope import TRACE_SCHEMA_VERSION
from logitscope.protocol.sampler_settings import LEGACY_ORDERS, SamplerSettings
from logitscope.protocol.trace import StageRecord, pack_step, step_to_json, unpack_step
from logitscope.protocol.trace_schema import migrate_settings, migrate_trace, migrate_trace_line
from logitscope.session.conversation import Conversation
from logitscope.session.history import ChatHistory
from logitscope.store.exchange import export_json, import_json
from logitscope.store.history import HistoryStore
from logitscope.store.import_check import load_export
from logitscope.store.traces import PieceVocab
from tests.helpers.store import child_env

DATA = Path(__file__).resolve().parents[1] / "data"
OLD_TRACE = DATA / "schema1_generate.jsonl"
OLD_EXPORT = DATA / "schema1_history_export.json"
ONLY_NEW = {k: v for k, v in SamplerSettings().to_dict().items()  # the settings schema 1 did not have
            if k not in ("temperature", "top_k", "top_p", "min_p", "repeat_penalty", "repeat_last_n",
                         "frequency_penalty", "presence_penalty", "seed", "samplers")}


def test_a_schema1_trace_migrates_to_schema2():
    lines = [json.loads(line) for line in OLD_TRACE.read_text(encoding="utf-8").splitlines()]
    assert lines[-1]["schema"] == 1 and lines[-1]["settings"]["order"] == "temperature_first"
    migrated = migrate_trace(lines)
    done = migrated[-1]
    assert done["schema"] == TRACE_SCHEMA_VERSION == 3 and "order" not in done["settings"]
    assert SamplerSettings.from_dict(done["settings"]) == SamplerSettings(
        repeat_penalty=1.1, seed=7, samplers=LEGACY_ORDERS["temperature_first"])
    assert {k: done["settings"][k] for k in ONLY_NEW} == ONLY_NEW  # new settings: off, as the old engine was
    assert done["settings"]["max_tokens"] == 6 and done["settings"]["engine"] == lines[-1]["settings"]["engine"]
    for old, new in zip(lines[:-1], migrated[:-1], strict=True):
        assert [s["name"] for s in new["stages"]] == [s["name"] for s in old["stages"]]
        assert all(s["info"] == {} and s["removed"] is None for s in new["stages"])  # null: not recorded
        assert new["drafted"] is False  # schema 3: every older step was decoded one at a time
        assert new["thinking"] is False  # and none was in a thinking block
        assert {k: v for k, v in new.items() if k not in ("stages", "drafted", "thinking")} == {
            k: v for k, v in old.items() if k != "stages"}
    assert migrate_trace(migrated) == migrated  # idempotent: a schema-2 trace comes back unchanged


def test_settings_without_an_order_or_with_an_unknown_one_are_left_as_they_are():
    assert migrate_settings({"temperature": 0.5}) == {"temperature": 0.5}
    unknown = {"temperature": 0.5, "order": "backwards"}
    assert migrate_settings(unknown) == unknown  # for the reader to report
    assert migrate_trace_line({"type": "step", "stages": None}) == {"type": "step", "stages": None,  # a remote step
                                                                    "drafted": False, "thinking": False}


def test_stage_info_and_removed_tokens_survive_packing_and_json():
    grammar = StageRecord("grammar", 49152, 3, 0.2, np.array([5, 6, 7], np.int32), np.array([0.5, 0.3, 0.2], np.float32),
                          {"allowed": 3.0}, np.arange(100, 228, dtype=np.int32))
    mirostat = StageRecord("mirostat_v2", 3, 1, 0.5, np.array([5], np.int32), np.array([1.0], np.float32),
                           {"mu": 9.75, "mu_next": 9.5})
    old_blob = base64_steps()[0]
    step = unpack_step(old_blob)
    assert step.stages and all(s.info == {} and len(s.removed_ids) == 0 for s in step.stages)
    step.stages = [grammar, mirostat]
    again = unpack_step(pack_step(step))
    assert [s.info for s in again.stages] == [{"allowed": 3.0}, {"mu": 9.75, "mu_next": 9.5}]
    assert again.stages[0].removed_ids.tolist() == list(range(100, 228)) and len(again.stages[1].removed_ids) == 0
    step.raw_pieces, step.final_pieces = [b"a"] * len(step.raw_ids), [b"b"] * len(step.final_ids)  # both tails
    both = unpack_step(pack_step(step))
    assert both.raw_pieces == step.raw_pieces and both.stages[0].removed_ids.tolist() == list(range(100, 228))
    vocab = [f"t{i}".encode() for i in range(49152)]
    line = step_to_json(again, vocab, top=4)
    assert line["stages"][0]["info"] == {"allowed": 3.0}
    assert line["stages"][0]["removed"] == [{"token": t, "text": f"t{t}"} for t in range(100, 104)]
    assert line["stages"][1] == {"name": "mirostat_v2", "n_in": 3, "n_out": 1, "mass_kept": 0.5,
                                 "info": {"mu": 9.75, "mu_next": 9.5}, "removed": []}


def base64_steps() -> list[bytes]:
    import base64

    document = json.loads(OLD_EXPORT.read_text(encoding="utf-8"))
    answer = document["conversations"][0]["messages"][1]
    return [base64.b64decode(text) for text in answer["trace"]["steps"]]


def test_history_import_of_a_schema1_export(tmp_path: Path):
    """`logitscope history import`, run as a user runs it, then the store, an export and the window's history."""
    home = tmp_path / "home"
    proc = subprocess.run([sys.executable, "-m", "logitscope", "history", "import", str(OLD_EXPORT)],
                          capture_output=True, text=True, timeout=120, env=child_env(LOGITSCOPE_HOME=str(home)))
    assert proc.returncode == 0, proc.stderr
    with HistoryStore(home / "history.sqlite3") as store:
        (conv,) = store.list_conversations()
        user, answer = store.messages(conv.id)
        assert answer.sampler is not None and "order" not in answer.sampler
        assert SamplerSettings.from_dict(answer.sampler) == SamplerSettings(temperature=0.5, seed=answer.seed)
        steps, pieces = store.load_trace(answer.id)
        assert [s.token for s in steps] == [unpack_step(b).token for b in base64_steps()]
        assert step_to_json(steps[0], PieceVocab(pieces))["stages"][0]["removed"] == []
        exported = export_json(store)["conversations"][0]["messages"][1]["sampler"]
        assert exported["samplers"] == list(LEGACY_ORDERS["temperature_last"]) and "order" not in exported
        conversation = Conversation(title=conv.title, store_id=conv.id, loaded=False)
        ChatHistory(store).fill(conversation)  # what the window shows
        shown = conversation.turns[0].answer
        assert shown is not None and len(shown.steps) == len(steps)
        assert SamplerSettings.from_dict(shown.settings).samplers == LEGACY_ORDERS["temperature_last"]


def test_an_answer_stored_by_schema1_reads_in_schema2(store, generated):
    """A database row written before schema 2 (its sampler JSON with `order`) reads migrated."""
    cid = store.create_conversation("old")
    question = store.add_message(cid, "user", "hi")
    old = {"temperature": 0.7, "top_k": 40, "top_p": 0.95, "min_p": 0.05, "repeat_penalty": 1.0, "repeat_last_n": 64,
           "frequency_penalty": 0.0, "presence_penalty": 0.0, "seed": 3, "order": "temperature_first", "max_tokens": 9}
    writer = store.start_answer(cid, question, generated.model, generated.vocab, old)
    writer.append(generated.answers[0].steps[0])
    writer.flush()
    message = store.message(writer.message_id)
    assert message.sampler is not None and message.sampler["max_tokens"] == 9
    assert SamplerSettings.from_dict(message.sampler) == SamplerSettings(
        temperature=0.7, seed=3, samplers=LEGACY_ORDERS["temperature_first"])


def test_the_imported_document_is_checked_and_migrated_in_process(tmp_path: Path):
    checked = load_export(OLD_EXPORT)
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        (cid,) = import_json(store, checked)
        answer = store.messages(cid)[1]
        assert answer.sampler is not None and answer.sampler["dry_sequence_breakers"] == ["\n", ":", "\"", "*"]


@pytest.mark.parametrize("damage, phrase", [
    (lambda s: setattr(s.stages[0], "removed_ids", np.array([-4], np.int32)), "a token id -4 removed by"),
    (lambda s: s.stages[0].info.update(mu=float("inf")), "an infinite value in what"),
])
def test_an_import_refuses_absurd_stage_records(tmp_path: Path, damage, phrase):
    import base64

    from logitscope.base.errors import StoreError

    document = json.loads(OLD_EXPORT.read_text(encoding="utf-8"))
    answer = document["conversations"][0]["messages"][1]
    step = unpack_step(base64.b64decode(answer["trace"]["steps"][0]))
    damage(step)
    answer["trace"]["steps"][0] = base64.b64encode(pack_step(step)).decode()
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(StoreError, match=phrase):
        load_export(path)
