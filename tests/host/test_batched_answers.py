"""Answers decoded together, through the engine process: every step reaches the caller with its answer, a cancel
ends them all, the KV map shows the batch's cells, and a chat's requests are refused with a clear error where the
batch cannot run them."""

from __future__ import annotations

import threading

import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.host.client import CancelledError
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.batched import AnswerStep, BatchedRequest, ThroughputPoint, ThroughputRequest
from logitscope.protocol.causal import Ablation
from logitscope.protocol.sampler_settings import SamplerSettings

pytestmark = pytest.mark.model


def chat_request(max_tokens: int = 24, **kwargs) -> GenerateRequest:
    return GenerateRequest(messages=[ChatMessage("user", "Name a colour.")],
                           settings=SamplerSettings(temperature=0.9, seed=11),
                           options=DecodeOptions(max_tokens=max_tokens), **kwargs)


def test_three_answers_stream_with_their_index_and_the_kv_map_shows_them(client):
    arrived: list[AnswerStep] = []
    result = client.generate_batched(BatchedRequest(chat_request(), 3), on_step=arrived.append)
    assert len(result.answers) == 3
    for k, answer in enumerate(result.answers):
        mine = [a.step for a in arrived if a.answer == k]
        assert [s.token for s in mine] == answer.tokens and "".join(s.text for s in mine) == answer.text
        assert answer.settings["seed"] == 11 + k and answer.settings["batch"]["answers"] == 3
        assert answer.settings["engine"]["local"].endswith(".gguf")
    # the demo model was loaded without flash attention: the answers say what that means for them
    assert any("flash attention" in n for n in result.answers[0].notices)
    kv = client.kv_map()
    prompt_run = kv.beam_cells[0]
    assert prompt_run.start == 0 and prompt_run.seqs == (0, 1, 2) and kv.beam_n_ctx == result.n_ctx
    assert sorted(run.seqs for run in kv.beam_cells[1:]) == [(k,) for k in range(3) if result.answers[k].kv.used_cells
                                                            > prompt_run.count]
    # an ordinary answer afterwards: the generation context was not touched, and the map is its own again
    client.generate(chat_request(4))
    assert client.kv_map().beam_cells == []


def test_a_cancel_ends_every_answer_with_what_it_has(client):
    arrived: list[AnswerStep] = []

    def on_step(event: AnswerStep) -> None:
        arrived.append(event)
        if len(arrived) == 6:
            threading.Thread(target=client.cancel).start()

    result = client.generate_batched(BatchedRequest(chat_request(200), 2), on_step=on_step)
    assert [a.finish_reason for a in result.answers] == ["cancelled", "cancelled"]
    assert all(0 < len(a.tokens) < 200 for a in result.answers)


def test_what_a_batch_cannot_do_is_refused_before_anything_runs(client):
    with pytest.raises(InvalidSettingsError, match="answers at once"):
        client.generate_batched(BatchedRequest(chat_request(), 9))
    with pytest.raises(InvalidSettingsError, match="knocked-out heads"):
        client.generate_batched(BatchedRequest(chat_request(knockouts=(Ablation(layer=3, head=1),)), 2))
    assert client.generate(chat_request(3)).finish_reason in ("length", "stop")  # the engine is fine


def test_throughput_is_measured_for_each_batch_size_with_its_memory(client):
    progress: list[float] = []
    live: list[ThroughputPoint] = []
    result = client.throughput(ThroughputRequest(sizes=(1, 2, 4), n_prompt=16, n_tokens=6), on_progress=progress.append,
                               on_point=live.append)
    assert [p.batch for p in result.points] == [1, 2, 4] and live == result.points   # each as soon as measured
    # by the answers' steps: 1 + 2 + 4 answers of 7 steps, a report at every 1 % at most
    assert len(progress) == 49 and progress == sorted(progress) and progress[-1] == pytest.approx(1.0)
    for point in result.points:
        assert point.tok_per_s > 0 and point.per_answer == pytest.approx(point.tok_per_s / point.batch)
        assert point.kv_cells == 16 + point.batch * 6 and point.kv_bytes > 0 and point.seconds > 0
    assert result.threads >= 1


def test_throughput_can_be_cancelled_and_the_engine_goes_on(client):
    def on_progress(_fraction: float) -> None:
        threading.Thread(target=client.cancel).start()

    with pytest.raises(CancelledError):
        client.throughput(ThroughputRequest(sizes=(1, 8, 8, 8), n_prompt=16, n_tokens=200), on_progress=on_progress)
    assert client.generate(chat_request(3)).finish_reason in ("length", "stop")
