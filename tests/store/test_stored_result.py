"""An answer's GenerationResult rebuilt from the history by one tolerant function (store.results), which the
trace export and the window's history both use: keys written by another version are ignored, missing ones
read as unknown (-1, NaN; null in JSON)."""

from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import asdict
from pathlib import Path

from logitscope.protocol.trace import KvInfo, Timings
from logitscope.session.conversation import Conversation
from logitscope.session.history import ChatHistory
from logitscope.store.exchange import export_trace_jsonl
from logitscope.store.history import HistoryStore
from logitscope.store.results import from_stored, stored_result
from tests.helpers.store import save_answer


def _rewrite(path: Path, message_id: int, timings: dict[str, object], kv: dict[str, object]) -> None:
    """As another version of Logitscope would have written the answer's timings and KV numbers."""
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE messages SET timings_json = ?, kv_json = ? WHERE id = ?",
                     (json.dumps(timings), json.dumps(kv), message_id))


def test_unknown_keys_are_ignored_and_missing_ones_are_unknown():
    timings = from_stored(Timings, {"n_gen": 5, "gen_s": 0.5, "tokens_per_joule": 3.0})
    assert timings.n_gen == 5 and timings.gen_tps == 10.0
    assert timings.n_prompt == -1 and math.isnan(timings.load_s)
    kv = from_stored(KvInfo, {"n_ctx": 2048, "spilled_to_disk": True})
    assert kv.n_ctx == 2048 and kv.used_cells == -1 and kv.allocated_bytes == -1
    assert math.isnan(kv.bytes_per_token)


def test_an_answer_stored_by_another_version_is_read_back_and_exported(tmp_path: Path, generated):
    path = tmp_path / "history.sqlite3"
    answer = generated.answers[0]
    timings = asdict(answer.result.timings) | {"energy_j": 1.5}   # a key this version does not know
    del timings["ttft_s"]                                           # and one it does not find
    kv = {k: v for k, v in asdict(answer.result.kv).items() if k != "allocated_bytes"} | {"n_seq": 1}
    with HistoryStore(path) as store:
        cid, mid = save_answer(store, generated, answer)
        _rewrite(path, mid, timings, kv)
    with HistoryStore(path) as store:
        message = store.message(mid)
        steps, _pieces = store.load_trace(mid)
        result = stored_result(message, steps)
        assert result is not None
        assert result.text == answer.result.text and result.tokens == answer.result.tokens
        assert result.finish_reason == answer.result.finish_reason
        assert result.timings.n_gen == answer.result.timings.n_gen and math.isnan(result.timings.ttft_s)
        assert result.kv.n_ctx == answer.result.kv.n_ctx and result.kv.allocated_bytes == -1

        done = json.loads(export_trace_jsonl(store, mid).splitlines()[-1])
        assert done["type"] == "done" and done["ttft_s"] is None and done["kv"]["allocated_bytes"] is None
        assert done["n_gen"] == answer.result.timings.n_gen

        conversation = Conversation(title="", store_id=cid, loaded=False)
        ChatHistory(store).fill(conversation)   # the window's history: raised TypeError on the unknown key
        shown = conversation.turns[0].answers[0].result
        assert shown is not None and shown.kv.n_ctx == answer.result.kv.n_ctx
        assert shown.timings.n_gen == answer.result.timings.n_gen


def test_an_answer_without_timings_has_no_result(tmp_path: Path, generated):
    with HistoryStore(tmp_path / "history.sqlite3") as store:
        cid = store.create_conversation("q")
        user = store.add_message(cid, "user", "q")
        writer = store.start_answer(cid, user, generated.model, generated.vocab, {})
        writer.append(generated.answers[0].steps[0])
        writer.flush()
        message = store.message(writer.message_id)
        assert message.timings is None and stored_result(message, []) is None
