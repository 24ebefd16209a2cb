"""What "slow" compares with: the speed of this model's answers generated on this machine (streamed into the
history here, by the local engine), never imported answers (measured on another machine, another day) nor a
remote server's."""

from __future__ import annotations

import gzip
import json
import statistics

import pytest

from logitscope.diagnosis.stored import diagnose_message, reference_tps
from logitscope.diagnosis.thresholds import SLOW_MIN_TOKENS
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.store.exchange import import_json
from logitscope.store.history import HistoryStore
from logitscope.store.import_check import check_export
from logitscope.store.records import ModelIdentity
from tests.helpers.data import DIAGNOSIS_TRACES

QUESTION = "What is the capital of France?"


def _answer(store: HistoryStore, client, model: ModelIdentity, cid: int, question_id: int,
            remote_tps: float | None = None) -> float:
    """A real answer of the engine, streamed into the history as the window and `chat` do; its tokens/s.
    `remote_tps`: saved as a remote server's answer at that speed (its settings name the server, as
    host/remote.py's do), a speed this machine did not reach."""
    request = GenerateRequest(messages=[ChatMessage("user", QUESTION)], settings=SamplerSettings(temperature=0.0),
                              options=DecodeOptions(max_tokens=SLOW_MIN_TOKENS))
    writer = store.start_answer(cid, question_id, model, client.vocab(), SamplerSettings(temperature=0.0).to_dict())
    result = client.generate(request, on_step=writer.append)
    if remote_tps is not None:
        result.settings["engine"] = {"url": "http://127.0.0.1:8080", "model": "smollm2", "server": "llama.cpp"}
        result.timings.gen_s = result.timings.n_gen / remote_tps
    writer.finish(result)
    return result.timings.gen_tps


def _faster_machine(document: dict, tps: float) -> dict:
    """The recorded export as another machine made it: every answer at `tps` tokens/s."""
    for conv in document["conversations"]:
        for m in conv["messages"]:
            if m.get("timings"):
                m["timings"]["gen_s"] = m["timings"]["n_gen"] / tps
    return document


@pytest.fixture
def history(tmp_path):
    with HistoryStore(tmp_path / "history.sqlite3") as store:
        yield store


def test_the_reference_counts_only_answers_generated_here(client, demo_model, history):
    model = ModelIdentity.of_file(demo_model)
    cid = history.create_conversation("speed")
    question = history.add_message(cid, "user", QUESTION)
    here = [_answer(history, client, model, cid, question) for _ in range(3)]
    mine = statistics.median(here)

    # another machine's answers of the same model file, ten times faster, imported: counted, they would make
    # every answer of this machine look slow
    document = _faster_machine(json.loads(gzip.decompress(DIAGNOSIS_TRACES.read_bytes())), 10 * mine)
    imported = [m for c in document["conversations"] for m in c["messages"] if m.get("timings")]
    assert {m["model"]["file_name"] for m in imported} == {demo_model.name} and len(imported) > 3
    import_json(history, check_export(document))
    conv = next(c for c in history.list_conversations() if c.title.startswith("clean: haiku"))
    judged = history.active_path(conv.id)[-1].id   # an answer of the same model file
    assert reference_tps(history, judged) == pytest.approx(mine)

    # a remote server's answers: its speed, not this machine's
    for _ in range(3):
        _answer(history, client, model, cid, question, remote_tps=10 * mine)
    assert reference_tps(history, judged) == pytest.approx(mine)


def test_imported_answers_alone_are_no_reference(history):
    import_json(history, check_export(json.loads(gzip.decompress(DIAGNOSIS_TRACES.read_bytes()))))
    conv = next(c for c in history.list_conversations() if c.title.startswith("clean: haiku"))
    answer = history.active_path(conv.id)[-1]
    assert reference_tps(history, answer.id) is None
    skipped = [str(s) for s in diagnose_message(history, answer.id).skipped]
    assert any("generated on this machine" in s for s in skipped), skipped
