"""Answers saved while they stream, their traces, and what a killed process leaves behind."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

from logitscope.protocol.trace import StepRecord
from logitscope.store.history import HistoryStore
from logitscope.store.streaming import COMMIT_INTERVAL_S
from logitscope.store.traces import referenced_tokens
from tests.helpers.store import child_env, save_answer


def assert_same_step(stored: StepRecord, original: StepRecord) -> None:
    """Equal as stored: ids exactly, numbers at the float32 precision of the compact form."""
    for name in ("i", "token", "piece", "text", "rank_raw", "n_final", "rank", "kv_used"):
        assert getattr(stored, name) == getattr(original, name), name
    for name in ("raw_lse", "p_raw", "entropy_raw", "p", "entropy", "latency_s"):
        assert stored.__getattribute__(name) == np.float32(getattr(original, name)), name
    for name in ("raw_ids", "raw_logits", "final_ids", "final_probs"):
        assert np.array_equal(getattr(stored, name), getattr(original, name)), name
    assert len(stored.stages) == len(original.stages)
    for a, b in zip(stored.stages, original.stages, strict=True):
        assert (a.name, a.n_in, a.n_out) == (b.name, b.n_in, b.n_out)
        assert a.mass_kept == np.float32(b.mass_kept)
        assert np.array_equal(a.top_ids, b.top_ids) and np.array_equal(a.top_probs, b.top_probs)


def committed(path: Path, message_id: int) -> tuple[str, str, int]:
    """What another connection sees: (status, content, steps) as committed."""
    with sqlite3.connect(path) as reader:
        status, content = reader.execute("SELECT status, content FROM messages WHERE id = ?", (message_id,)).fetchone()
        n = reader.execute("SELECT count(*) FROM trace_steps WHERE message_id = ?", (message_id,)).fetchone()[0]
    return status, content, n


def test_a_finished_answer_keeps_its_trace_model_sampler_and_timings(store, generated):
    answer = generated.answers[1]  # the Chinese one: pieces that are parts of characters
    cid, mid = save_answer(store, generated, answer)
    message = store.message(mid)
    result = answer.result
    assert (message.status, message.role, message.content) == ("done", "assistant", result.text)
    assert message.model == generated.model and message.model.size == 98_362_432
    assert message.sampler == result.settings and message.seed == result.settings["seed"] == 101
    assert message.timings == asdict(result.timings) and message.kv == asdict(result.kv)
    assert message.finish_reason == result.finish_reason and message.n_steps == len(answer.steps)

    steps, pieces = store.load_trace(mid)
    assert len(steps) == len(answer.steps)
    for stored, original in zip(steps, answer.steps, strict=True):
        assert_same_step(stored, original)
    wanted = referenced_tokens(answer.steps)
    assert pieces == {token: generated.vocab[token] for token in wanted}   # every alternative readable
    assert len(wanted) > 16 * 10


def test_pieces_are_shared_per_model(store, generated):
    save_answer(store, generated, generated.answers[0])
    before = store.connection.execute("SELECT count(*) FROM token_pieces").fetchone()[0]
    save_answer(store, generated, generated.answers[0])
    assert store.connection.execute("SELECT count(*) FROM token_pieces").fetchone()[0] == before
    assert store.connection.execute("SELECT count(*) FROM models").fetchone()[0] == 1


def test_steps_are_committed_by_time_and_on_flush(store, generated):
    answer = generated.answers[0]
    cid = store.create_conversation("t")
    q = store.add_message(cid, "user", answer.prompt)
    started = time.monotonic()
    writer = store.start_answer(cid, q, generated.model, generated.vocab, answer.result.settings)
    writer.append(answer.steps[0])
    writer.append(answer.steps[1])
    if time.monotonic() - started < COMMIT_INTERVAL_S:  # (a machine stalled for 250 ms proves nothing here)
        assert committed(store.path, writer.message_id) == ("streaming", "", 0)   # buffered
    time.sleep(COMMIT_INTERVAL_S + 0.05)
    writer.append(answer.steps[2])                           # > 250 ms since the writer started: a commit
    text = "".join(s.text for s in answer.steps[:3])
    assert committed(store.path, writer.message_id) == ("streaming", text, 3)
    writer.append(answer.steps[3])
    if time.monotonic() - started < 2 * COMMIT_INTERVAL_S:
        assert committed(store.path, writer.message_id)[2] == 3
    writer.flush()
    assert committed(store.path, writer.message_id)[2] == 4
    assert writer.text == "".join(s.text for s in answer.steps[:4])


def test_every_append_commits_with_a_zero_interval_and_none_without_flush_with_a_long_one(store, generated):
    answer = generated.answers[2]
    cid = store.create_conversation("t")
    eager = store.start_answer(cid, None, generated.model, generated.vocab, {}, commit_interval_s=0)
    lazy = store.start_answer(cid, None, generated.model, generated.vocab, {}, commit_interval_s=3600)
    for n, step in enumerate(answer.steps[:5], 1):
        eager.append(step)
        lazy.append(step)
        assert committed(store.path, eager.message_id)[2] == n
        assert committed(store.path, lazy.message_id)[2] == 0
    lazy.flush()
    assert committed(store.path, lazy.message_id)[2] == 5


def test_a_timer_saves_a_streaming_answer_only_once_its_steps_have_paused(store, generated):
    """The window's save timer calls flush_if_due: while steps keep coming, append commits them (in the
    bridge's drain, in step with the repaint); the timer commits only what waited an interval."""
    answer = generated.answers[2]
    cid = store.create_conversation("t")
    writer = store.start_answer(cid, None, generated.model, generated.vocab, {}, commit_interval_s=0.3)
    started = time.monotonic()
    writer.append(answer.steps[0])
    assert writer.flush_if_due() is False or time.monotonic() - started >= 0.3   # a fresh writer: not due yet
    if time.monotonic() - started < 0.3:
        assert committed(store.path, writer.message_id)[2] == 0
    time.sleep(0.35)
    assert writer.flush_if_due() is True                     # paused for an interval: saved
    assert committed(store.path, writer.message_id)[2] == 1
    assert writer.flush_if_due() is True                     # nothing pending: saved, nothing to do


def test_a_failed_answer_keeps_its_partial_text_and_refuses_more_steps(store, generated):
    answer = generated.answers[0]
    cid = store.create_conversation("t")
    writer = store.start_answer(cid, None, generated.model, generated.vocab, answer.result.settings)
    for step in answer.steps[:5]:
        writer.append(step)
    writer.fail("the engine process crashed (SIGSEGV: segmentation fault)")
    message = store.message(writer.message_id)
    assert (message.status, message.n_steps) == ("error", 5)
    assert message.content == "".join(s.text for s in answer.steps[:5]) and message.content
    assert "SIGSEGV" in message.error
    with pytest.raises(RuntimeError, match="already finished"):
        writer.append(answer.steps[5])
    writer.flush()  # a periodic flush after the end does nothing
    assert store.message(writer.message_id).status == "error"


def test_opening_marks_an_answer_left_streaming_as_interrupted(tmp_path: Path, generated):
    path = tmp_path / "h.sqlite3"
    answer = generated.answers[0]
    store = HistoryStore(path)
    cid = store.create_conversation("t")
    writer = store.start_answer(cid, None, generated.model, generated.vocab, answer.result.settings)
    for step in answer.steps[:6]:
        writer.append(step)
    writer.flush()
    store.close()  # gone without finishing: its owner lock goes with it, as with a crashed process
    with HistoryStore(path) as reopened:
        message = reopened.message(writer.message_id)
        assert message.status == "interrupted" and message.n_steps == 6
        assert message.content == "".join(s.text for s in answer.steps[:6])


CHILD = r"""
import sys
from logitscope.protocol.api import GenerateRequest
from logitscope.engine.core import Engine
from logitscope.protocol.api import DecodeOptions
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import StepRecord
from logitscope.store.history import HistoryStore
from logitscope.store.streaming import COMMIT_INTERVAL_S
from logitscope.store.records import ModelIdentity

model = sys.argv[1]
engine = Engine()
engine.load(model, LoadSettings(n_ctx=2048))
store = HistoryStore()                      # in $LOGITSCOPE_HOME
cid = store.create_conversation("Killed mid-answer")
prompt = "Counting: 1, 2, 3, 4, 5, 6, 7, 8,"   # greedy counting: hundreds of tokens, no end of turn
question = store.add_message(cid, "user", prompt)
writer = store.start_answer(cid, question, ModelIdentity.of_file(model), engine.vocab(), PRESETS["Greedy"].to_dict())
for event in engine.generate(GenerateRequest(prompt=prompt, settings=PRESETS["Greedy"],
                                             options=DecodeOptions(max_tokens=1500))):
    if isinstance(event, StepRecord):
        writer.append(event)
    else:
        writer.finish(event)
"""


@pytest.mark.model
def test_kill_9_mid_answer_leaves_a_consistent_partial_answer(tmp_path: Path, demo_model: Path):
    home = tmp_path / "home"
    home.mkdir()
    env = child_env(LOGITSCOPE_HOME=str(home))
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(demo_model)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    db = home / "history.sqlite3"
    try:
        deadline = time.monotonic() + 60
        while True:  # wait (reading only) until the streaming answer has committed a few steps
            assert child.poll() is None, child.stderr.read().decode()[-2000:] if child.stderr else ""
            assert time.monotonic() < deadline, "the child never committed a streaming answer"
            if db.exists():
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as reader:
                    try:
                        row = reader.execute("SELECT count(*) FROM trace_steps WHERE message_id IN "
                                             "(SELECT id FROM messages WHERE status = 'streaming')").fetchone()
                    except sqlite3.OperationalError:  # schema not created yet
                        row = (0,)
                if row[0] >= 5:
                    break
            time.sleep(0.02)
        time.sleep(random.uniform(0, COMMIT_INTERVAL_S))  # anywhere in the commit cycle, a commit included
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait(10)
    assert child.returncode == -signal.SIGKILL

    with HistoryStore(db) as store:
        assert store.notices == []
        assert store.connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        (conversation,) = store.list_conversations()
        assert conversation.title == "Killed mid-answer"
        question, partial = store.active_path(conversation.id)
        assert question.content.startswith("Counting: 1, 2, 3")
        assert (partial.role, partial.status) == ("assistant", "interrupted")
        assert partial.content.strip() and partial.n_steps > 0
        steps, pieces = store.load_trace(partial.id)
        # the text and the steps were committed together
        assert partial.content == "".join(s.text for s in steps)
        assert [s.i for s in steps] == list(range(len(steps)))
        assert referenced_tokens(steps) == set(pieces)
