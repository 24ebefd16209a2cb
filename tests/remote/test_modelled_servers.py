"""Servers we cannot run here, MODELLED (tests/helpers/fake_server.py, after their documentation):
llama-server's native /completion stream with n_probs and post_sampling_probs, its chat with token ids,
its /props and /tokenize; vLLM's model list, parameter names and /tokenize."""

from __future__ import annotations

import math

import pytest

from logitscope.base.errors import InvalidSettingsError, RemoteEngineError, UnsupportedByServerError
from logitscope.host.remote import RemoteEngine
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import LEGACY_ORDERS, SamplerSettings
from logitscope.protocol.trace import pack_step, result_to_json, step_to_json, unpack_step
from tests.helpers.fake_server import (
    MODELLED_TOKENS,
    FakeServer,
    chat_chunk,
    chat_logprob,
    data,
    llama_server_routes,
    vllm_routes,
)

SETTINGS = SamplerSettings(temperature=0.7, top_k=40, top_p=0.9, min_p=0.05, repeat_penalty=1.1, repeat_last_n=32,
                           frequency_penalty=0.1, presence_penalty=0.2, seed=77, samplers=LEGACY_ORDERS["temperature_first"])
PROMPT = GenerateRequest(prompt="Let's go to the", settings=SETTINGS, options=DecodeOptions(max_tokens=4, stop=("\n",)))


@pytest.fixture
def llama_server():
    with FakeServer(llama_server_routes(MODELLED_TOKENS)) as server:
        yield server


def test_llama_server_is_recognised_by_its_props(llama_server):
    with RemoteEngine(llama_server.url + "/v1/") as engine:
        info = engine.connect()
        assert (info.server, info.model, info.n_ctx) == ("llama-server", "/models/modelled.gguf", 4096)
        caps = engine.capabilities()
        assert caps["token_ids"] and caps["raw_probs"] and not caps["final_probs"]
        assert caps["unsupported_settings"] == {}
        assert engine.tokenize("hé", add_special=True) == [ord("h"), ord("é")]
    assert llama_server.bodies("/tokenize") == [{"model": "/models/modelled.gguf", "content": "hé",
                                                 "add_special": True, "parse_special": True}]


def test_native_completion_with_n_probs(llama_server):
    with RemoteEngine(llama_server.url, top_n=5) as engine:
        steps = []
        result = engine.generate(PROMPT, on_step=steps.append)
    body = llama_server.bodies("/completion")[0]
    assert body == {"prompt": "Let's go to the", "n_predict": 4, "n_probs": 5, "cache_prompt": True,
                    "temperature": 0.7, "top_p": 0.9, "frequency_penalty": 0.1, "presence_penalty": 0.2, "seed": 77,
                    "top_k": 40, "min_p": 0.05, "repeat_penalty": 1.1, "repeat_last_n": 32,
                    "samplers": ["penalties", "temperature", "top_k", "top_p", "min_p"], "min_keep": 0, "mirostat": 0,
                    "post_sampling_probs": False, "stream": True, "stop": ["\n"]}
    assert [s.token for s in steps] == [1101, 195, 169, 0] == result.tokens
    assert [s.piece for s in steps] == [b" caf", b"\xc3", b"\xa9", b"!"]
    assert [s.text for s in steps] == [" caf", "", "é", "!"]  # the split character shows once complete
    assert result.text == " café!" and result.finish_reason == "length" and result.notices == []
    last = steps[3]
    assert last.p_raw == pytest.approx(math.exp(-1.5)) and last.rank_raw == 1 and last.raw_ids.tolist() == [13, 0, 30]
    assert math.isnan(last.p) and len(last.final_ids) == 0
    t = result.timings
    assert (t.n_prompt, t.n_prompt_eval, t.prompt_s, t.gen_s) == (7, 7, 0.035, 0.2)
    assert result.kv.n_ctx == 4096 and result.settings["engine"]["server"] == "llama-server"
    line = step_to_json(last, [])
    assert line["token"] == 0 and line["top_raw"][1] == {"token": 0, "text": "!", "p": round(math.exp(-1.5), 6)}
    assert line["p"] is None and line["top_final"] is None and line["rank_raw"] == 1
    done = result_to_json(result)
    assert done["tokens"] == [1101, 195, 169, 0] and done["prompt_tps"] == 200.0 and done["gen_tps"] == 20.0
    assert done["kv"] == {"n_ctx": 4096, "used_cells": None, "bytes_per_token": None, "allocated_bytes": None}


def test_post_sampling_probabilities(llama_server):
    with RemoteEngine(llama_server.url, post_sampling_probs=True) as engine:
        assert engine.capabilities()["final_probs"] and not engine.capabilities()["raw_probs"]
        steps = []
        engine.generate(PROMPT, on_step=steps.append)
    assert llama_server.bodies("/completion")[0]["post_sampling_probs"] is True
    last = steps[3]
    assert last.p == 0.25 and last.rank == 1 and last.final_ids.tolist() == [13, 0]
    assert math.isnan(last.p_raw) and len(last.raw_ids) == 0
    line = step_to_json(last, [])
    assert line["p"] == 0.25 and line["p_raw"] is None and line["top_raw"] is None
    assert line["top_final"] == [{"token": 13, "text": ".", "p": 0.75}, {"token": 0, "text": "!", "p": 0.25}]
    again = unpack_step(pack_step(last))
    assert again.final_pieces == [b".", b"!"] and again.raw_pieces == [] and math.isnan(again.p_raw)


def test_llama_server_chat_carries_token_ids(llama_server):
    request = GenerateRequest(messages=[ChatMessage("user", "Where?")], system="Be brief.", settings=SETTINGS)
    with RemoteEngine(llama_server.url) as engine:
        steps = []
        result = engine.generate(request, on_step=steps.append)
    body = llama_server.bodies("/v1/chat/completions")[0]
    assert body["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Where?"}]
    assert body["logprobs"] is True and body["top_logprobs"] == 20 and body["stream_options"] == {"include_usage": True}
    assert [s.token for s in steps] == [1101, 195, 169, 0] and result.text == " café!"
    assert result.timings.n_prompt == 7 and result.timings.n_prompt_eval == 7


def test_llama_server_error_field(llama_server):
    def broken(x) -> None:
        x.stream([data({"content": " caf", "stop": False, "completion_probabilities": []}),
                  'error: {"code": 500, "message": "failed to decode the batch", "type": "server_error"}\n\n'])

    llama_server.routes[("POST", "/completion")] = broken
    with RemoteEngine(llama_server.url) as engine:
        with pytest.raises(RemoteEngineError, match="the server reported an error: failed to decode the batch") as c:
            engine.generate(PROMPT)
    assert c.value.partial.text == " caf"


def test_forking_and_post_sampling_need_what_the_server_has(llama_server):
    with RemoteEngine(llama_server.url) as engine:
        with pytest.raises(UnsupportedByServerError, match="fork with a local model"):
            engine.generate(GenerateRequest(prompt="x", assistant_prefix=(1, 2)))
    vllm = FakeServer(vllm_routes([]))
    with vllm, pytest.raises(InvalidSettingsError, match="post-sampling probabilities need llama-server"):
        RemoteEngine(vllm.url, post_sampling_probs=True).connect()


def test_vllm_gets_its_own_parameter_names():
    chunks = [data({"choices": [{"index": 0, "text": " Paris", "finish_reason": None,
                                 "logprobs": {"tokens": [" Paris"], "token_logprobs": [-0.3],
                                              "top_logprobs": [{" Paris": -0.3, " the": -1.8}]}}]}),
              data({"choices": [{"index": 0, "text": "", "finish_reason": "length", "logprobs": None}]}),
              data({"choices": [], "usage": {"prompt_tokens": 6, "completion_tokens": 1, "total_tokens": 7}}),
              "data: [DONE]\n\n"]
    settings = SamplerSettings(temperature=0.7, top_k=0, top_p=0.9, min_p=0.1, repeat_penalty=1.2, seed=3)
    with FakeServer(vllm_routes(chunks)) as server, RemoteEngine(server.url, api_key="k") as engine:
        info = engine.connect()
        assert (info.server, info.n_ctx) == ("vllm", 32768)
        result = engine.generate(GenerateRequest(prompt="The capital of France is", settings=settings,
                                                 options=DecodeOptions(max_tokens=1)))
        assert engine.tokenize("hi") == [1, 2, 3]
    body = server.bodies("/v1/completions")[0]
    assert body["top_k"] == -1 and body["repetition_penalty"] == 1.2 and "repeat_penalty" not in body
    assert body["logprobs"] == 20 and body["model"] == "Qwen/Qwen2.5-0.5B-Instruct" and "samplers" not in body
    assert server.bodies("/tokenize")[0] == {"model": "Qwen/Qwen2.5-0.5B-Instruct", "prompt": "hi",
                                             "add_special_tokens": False}
    assert result.text == " Paris" and result.timings.n_prompt == 6
    assert result.settings["engine"]["not_applied"] == ["repeat_last_n", "samplers"]
    assert "repeat_last_n = 64 was not applied: vLLM's repetition penalty covers the whole prompt and answer" \
        in result.notices


def test_a_plain_openai_server_cannot_tokenize():
    routes = {("GET", "/v1/models"): lambda x: x.json({"data": [{"id": "gpt-x", "owned_by": "openai"}]}),
              ("POST", "/v1/chat/completions"): lambda x: x.stream(
                  [data(chat_chunk("Hi", [chat_logprob("Hi", -0.1, {"Hi": -0.1})], "stop")), "data: [DONE]\n\n"])}
    with FakeServer(routes) as server, RemoteEngine(server.url) as engine:
        assert engine.capabilities()["unsupported_settings"]["top_k"] == "not part of the OpenAI API"
        with pytest.raises(UnsupportedByServerError, match="cannot tokenize"):
            engine.tokenize("hi")
        result = engine.generate(GenerateRequest(messages=[ChatMessage("user", "x")],
                                                 settings=SamplerSettings(top_k=0, min_p=0.0)))
    assert result.text == "Hi" and result.notices == [] and result.finish_reason == "stop"
    body = server.bodies("/v1/chat/completions")[0]
    assert not {"top_k", "min_p", "repeat_penalty", "repeat_last_n", "samplers"} & set(body)
