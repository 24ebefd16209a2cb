"""The engine interface both engines satisfy, and the trace's nullable fields: unknown values become
null in JSON Lines and survive storage, while local steps come out exactly as before."""

from __future__ import annotations

import math

import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError, RemoteEngineError, UnsupportedByServerError
from logitscope.host.remote import RemoteEngine, iter_sse, normalize_base_url, server_message
from logitscope.host.remote_wire import Chunk, TokenReport, chunk_steps
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.engine_like import CAPABILITY_KEYS, LOCAL_CAPABILITIES, EngineLike
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import StageRecord, StepRecord, pack_step, step_to_json, unpack_step

NAN = float("nan")


def local_step() -> StepRecord:
    stage = StageRecord("top_k", 10, 2, 0.9, np.array([2, 1], np.int32), np.array([0.6, 0.4], np.float32))
    return StepRecord(0, 2, b"b", "b", np.array([2, 1], np.int32), np.array([1.0, 0.5], np.float32), 1.2,
                      0.5, 0, 1.1, [stage], np.array([2, 1], np.int32), np.array([0.6, 0.4], np.float32), 2,
                      0.6, 0, 0.67, 0.01, 5)


def test_local_steps_are_written_and_packed_as_before():
    step = local_step()
    line = step_to_json(step, [b"a", b"x", b"b"])
    assert line["token"] == 2 and line["kv_used"] == 5 and line["entropy"] == 1.1 and line["rank"] == 0
    assert line["top_raw"][0] == {"token": 2, "text": "b", "p": round(float(np.exp(1.0 - 1.2)), 6)}
    assert line["stages"] == [{"name": "top_k", "n_in": 10, "n_out": 2, "mass_kept": 0.9, "info": {}, "removed": []}]
    packed = pack_step(step)
    assert packed.endswith(np.array([0.6, 0.4], "<f4").tobytes())  # the old format: no pieces or stages tail
    again = unpack_step(packed)
    assert again.raw_pieces is None and again.final_pieces is None and again.token == 2


def test_remote_steps_round_trip_with_their_pieces_and_unknowns():
    chunk = Chunk(" 你", [TokenReport(-1, b" \xe4\xbd", -0.5, top=[]), TokenReport(-1, b"\xa0", -0.1, top=[])])
    first, second = chunk_steps(chunk, 0, 0.02)
    assert (first.text, second.text) == (" ", "你") and second.latency_s == 0.0  # as the local decoder splits
    again = unpack_step(pack_step(second))
    assert again.raw_pieces == [] and math.isnan(again.entropy) and again.kv_used == -1 and again.token == -1
    line = step_to_json(again, [])
    assert line["token"] is None and line["top_raw"] is None and line["p_raw"] == round(math.exp(-0.1), 6)
    assert line["stages"] is None and line["entropy_final"] is None


def test_text_without_probabilities_is_a_step_with_only_its_text():
    (step,) = chunk_steps(Chunk("Hi"), 4, 0.1)
    assert (step.i, step.text, step.piece) == (4, "Hi", b"Hi") and math.isnan(step.p_raw)
    assert step_to_json(step, [])["p_raw"] is None


def test_both_engines_satisfy_the_interface(client, demo_model):
    remote = RemoteEngine("127.0.0.1:9")
    assert isinstance(client, EngineLike) and isinstance(remote, EngineLike)
    assert remote.info is None  # nothing sent yet
    remote.close()
    caps = client.capabilities()
    assert set(CAPABILITY_KEYS) <= set(caps) and caps["backend"] and caps["stages"] is True
    assert {k: caps[k] for k in LOCAL_CAPABILITIES} == LOCAL_CAPABILITIES
    result = client.generate(GenerateRequest(prompt="Hello", settings=SamplerSettings(temperature=0),
                                             options=DecodeOptions(max_tokens=2)))
    assert result.settings["engine"] == {"local": demo_model.name}


def test_a_remote_engine_says_it_cannot_show_the_chat_prompts_tokens():
    """The window's "show the chat prompt" asks any engine for the prompt's tokens: a server applies its own
    template, so it says so (an error the window shows) instead of failing with an AttributeError."""
    remote = RemoteEngine("127.0.0.1:9")
    request = GenerateRequest(messages=[ChatMessage("user", "Hi")])
    with pytest.raises(UnsupportedByServerError, match="template"):
        remote.prompt_tokens(request)
    remote.close()


def test_addresses_and_options_are_checked():
    assert normalize_base_url("127.0.0.1:8080") == "http://127.0.0.1:8080"
    assert normalize_base_url(" https://h:8000/v1/ ") == "https://h:8000"
    for bad, kwargs in (("ftp://h", {}), ("", {}), ("h:1", {"top_n": 0}), ("h:1", {"server": "ollama"}),
                        ("h:1", {"timeout": 0})):
        with pytest.raises(InvalidSettingsError):
            RemoteEngine(bad, **kwargs)
    assert issubclass(RemoteEngineError, Exception) and RemoteEngineError("x").partial is None


def test_server_sent_events_and_error_messages():
    lines = [": ping", "data: {\"a\":", "data: 1}", "", "event: done", "data: [DONE]", "", "error: {\"message\": \"m\"}",
             "data: tail"]
    assert list(iter_sse(lines)) == [("message", '{"a":\n1}'), ("done", "[DONE]"), ("error", '{"message": "m"}'),
                                     ("message", "tail")]
    assert server_message(b'{"error": {"message": "bad  model"}}') == "bad model"
    assert server_message('{"object": "error", "message": "too long", "type": "BadRequestError"}') == "too long"
    assert server_message(b'{"detail": [{"msg": "field required"}, {"msg": "x"}]}') == "field required; x"
    assert server_message(b"<h1>502</h1>\n Bad gateway") == "<h1>502</h1> Bad gateway"
    # a terminal's escape codes (colours, a cleared screen, a title) never reach the terminal from a server
    assert server_message(r'{"error": "\u001b[31mRED\u001b[0m \u001b]0;title\u0007 \u009b2J"}') == "[31mRED[0m ]0;title 2J"
    assert server_message(b"\x1b[2Jcleared") == "[2Jcleared"


ODD = [None, 1, -1.5, "x", "", [], {}, [300], {"a": 1}, True, [{"token": "a"}], [{"id": 1}], [None], {"content": [{}]},
       {"content": [{"token": 5}]}, [{"token": "a", "logprob": "x"}], [{"token": "a", "bytes": [999]}],
       [{"token": "a", "bytes": "ab"}], [{"prob": 0.5}], {"tokens": ["a"], "token_logprobs": [None]},
       {"tokens": ["a"], "token_logprobs": [0.1], "top_logprobs": [{"b": "x"}]}, {"tokens": [1], "token_logprobs": [0.1]}]


def test_odd_chunks_are_malformed_never_a_crash():
    """Whatever shape a server sends, a parser gives a Chunk or raises MalformedChunk (then skipped)."""
    import random

    from logitscope.host.remote_wire import PARSERS, MalformedChunk

    keys = {"chat": ["choices", "usage", "timings"], "completions": ["choices", "usage"],
            "native": ["content", "completion_probabilities", "stop", "tokens", "timings", "tokens_evaluated"]}
    rng = random.Random(7)
    for _ in range(3000):
        fmt = rng.choice(list(PARSERS))
        payload = {k: rng.choice(ODD) for k in keys[fmt] if rng.random() < 0.7}
        if fmt != "native" and rng.random() < 0.6:
            payload["choices"] = [{k: rng.choice(ODD) for k in ("delta", "logprobs", "text", "finish_reason")}]
        if fmt == "native" and rng.random() < 0.5:
            payload["completion_probabilities"] = [{"id": rng.choice(ODD), "token": rng.choice(ODD),
                                                    "bytes": rng.choice(ODD), "logprob": rng.choice(ODD),
                                                    "top_logprobs": rng.choice(ODD)}]
        try:
            chunk_steps(PARSERS[fmt](payload), 0, 0.0)
        except MalformedChunk:
            pass
