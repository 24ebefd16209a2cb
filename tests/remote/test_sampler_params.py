"""Every llama.cpp sampler setting sent to each kind of server under its own names (MODELLED servers, see
test_modelled_servers.py), and what a server cannot apply listed with its reason and a readable value."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import replace

import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.host.remote import RemoteEngine
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import CHAIN_STAGES, SamplerSettings
from tests.helpers.fake_server import (
    MODELLED_TOKENS,
    FakeServer,
    chat_chunk,
    chat_logprob,
    chat_routes,
    data,
    llama_server_routes,
    vllm_routes,
)

CLI = [sys.executable, "-m", "logitscope"]
SCHEMA = '{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}'
# Every new stage on, in a chain of llama-server's names.
EVERYTHING = SamplerSettings(
    temperature=0.9, top_k=0, top_p=1.0, min_p=0.05, seed=5, samplers=("dry", "typ_p", "top_n_sigma", "min_p", "xtc", "temperature"),
    min_keep=2, dry_multiplier=0.8, dry_base=2.0, dry_allowed_length=3, dry_penalty_last_n=128,
    dry_sequence_breakers=("\n", "###"), xtc_probability=0.5, xtc_threshold=0.2, typical_p=0.9, top_n_sigma=1.5,
    dynatemp_range=0.3, dynatemp_exponent=1.5, logit_bias=((15043, -math.inf), ("hello", 2.5), (7, 250.0)),
    grammar='root ::= "yes" | "no"')
DONE = [data(chat_chunk("yes", [chat_logprob("yes", -0.1, {"yes": -0.1})], "stop")), "data: [DONE]\n\n"]
COMPLETION = [data({"choices": [{"index": 0, "text": "yes", "finish_reason": "stop",
                                 "logprobs": {"tokens": ["yes"], "token_logprobs": [-0.1], "top_logprobs": [{"yes": -0.1}]}}]}),
              "data: [DONE]\n\n"]


def chat(settings: SamplerSettings) -> GenerateRequest:
    return GenerateRequest(messages=[ChatMessage("user", "Yes or no?")], settings=settings,
                           options=DecodeOptions(max_tokens=4))


def prompt(settings: SamplerSettings) -> GenerateRequest:
    return GenerateRequest(prompt="Yes or no?", settings=settings, options=DecodeOptions(max_tokens=4))


def test_llama_server_takes_every_setting_under_its_own_name():
    with FakeServer(llama_server_routes(MODELLED_TOKENS)) as server, RemoteEngine(server.url) as engine:
        result = engine.generate(prompt(EVERYTHING))
        caps = engine.capabilities()
    body = server.bodies("/completion")[0]
    assert {k: body[k] for k in ("min_keep", "dry_multiplier", "dry_base", "dry_allowed_length", "dry_penalty_last_n",
                                 "dry_sequence_breakers", "xtc_probability", "xtc_threshold", "typical_p",
                                 "top_n_sigma", "dynatemp_range", "dynatemp_exponent", "mirostat")} == {
        "min_keep": 2, "dry_multiplier": 0.8, "dry_base": 2.0, "dry_allowed_length": 3, "dry_penalty_last_n": 128,
        "dry_sequence_breakers": ["\n", "###"], "xtc_probability": 0.5, "xtc_threshold": 0.2, "typical_p": 0.9,
        "top_n_sigma": 1.5, "dynatemp_range": 0.3, "dynatemp_exponent": 1.5, "mirostat": 0}
    assert body["samplers"] == ["dry", "typ_p", "top_n_sigma", "min_p", "xtc", "temperature"]
    assert body["logit_bias"] == [[15043, False], ["hello", 2.5], [7, 250.0]]  # false: llama-server's ban
    assert body["grammar"] == 'root ::= "yes" | "no"' and "json_schema" not in body
    assert "mirostat_tau" not in body  # Mirostat is off: its settings stay home
    assert result.notices == [] and result.settings["engine"]["not_applied"] == []
    assert result.settings["logit_bias"] == [[15043, "-inf"], ["hello", 2.5], [7, 250.0]]
    assert caps["samplers"] == list(CHAIN_STAGES) and caps["grammar"] and caps["unsupported_settings"] == {}


def test_llama_server_json_schema_and_mirostat():
    settings = SamplerSettings(json_schema=SCHEMA, mirostat=2, mirostat_tau=4.0, mirostat_eta=0.2, seed=1)
    with FakeServer(llama_server_routes(MODELLED_TOKENS)) as server, RemoteEngine(server.url) as engine:
        engine.generate(chat(settings))
        with pytest.raises(InvalidSettingsError, match="the JSON schema is not valid JSON"):
            engine.generate(chat(SamplerSettings(json_schema="{'type': 'object'}")))
        with pytest.raises(InvalidSettingsError, match="must be a JSON object"):
            engine.generate(chat(SamplerSettings(json_schema="[1, 2]")))
        with pytest.raises(InvalidSettingsError, match="must be a JSON object"):
            engine.check_settings(SamplerSettings(json_schema="true"))
        engine.check_settings(settings)
    (body,) = server.bodies("/v1/chat/completions")  # the refused ones were never sent
    assert body["json_schema"] == json.loads(SCHEMA) and "grammar" not in body
    assert (body["mirostat"], body["mirostat_tau"], body["mirostat_eta"]) == (2, 4.0, 0.2)


def test_llama_server_refuses_an_empty_list_of_breakers_so_it_is_reported():
    settings = SamplerSettings(dry_multiplier=0.8, dry_sequence_breakers=(), seed=1)
    with FakeServer(llama_server_routes(MODELLED_TOKENS)) as server, RemoteEngine(server.url) as engine:
        result = engine.generate(prompt(settings))
    assert "dry_sequence_breakers" not in server.bodies("/completion")[0]
    assert result.notices == ["dry_sequence_breakers = none was not applied: llama-server refuses an empty list "
                              "(it keeps its default breakers)"]


def test_vllm_gets_ids_structured_output_and_the_list_of_what_it_lacks():
    settings = replace(EVERYTHING, grammar="", json_schema=SCHEMA)
    with FakeServer(vllm_routes(COMPLETION)) as server, RemoteEngine(server.url) as engine:
        result = engine.generate(prompt(settings))
        caps = engine.capabilities()
    body = server.bodies("/v1/completions")[0]
    assert body["logit_bias"] == {"15043": -100.0, "7": 100.0}  # OpenAI's range; -100 bans
    assert body["response_format"] == {"type": "json_schema", "json_schema": {"name": "schema", "schema": json.loads(SCHEMA)}}
    assert not {"dry_multiplier", "xtc_probability", "typical_p", "top_n_sigma", "dynatemp_range", "min_keep",
                "grammar", "json_schema", "samplers", "guided_json"} & set(body)
    assert result.settings["engine"]["not_applied"] == [
        "dry_allowed_length", "dry_base", "dry_multiplier", "dry_penalty_last_n", "dry_sequence_breakers",
        "dynatemp_exponent", "dynatemp_range", "logit_bias", "min_keep", "samplers", "top_n_sigma", "typical_p",
        "xtc_probability", "xtc_threshold"]
    notices = "\n".join(result.notices)
    assert "logit_bias = 15043 banned, 'hello' +2.5, 7 +250 was not applied: vLLM takes token ids, not texts: " \
           "'hello' not sent" in notices
    assert "dry_sequence_breakers = \"\\n\", \"###\" was not applied: vLLM has no such setting" in notices
    assert "samplers = dry;typ_p;top_n_sigma;min_p;xtc;temperature was not applied" in notices
    assert "(" not in notices.replace("(it", "")  # no Python tuple in a notice
    assert not caps["grammar"] and caps["samplers"] == ["penalties", "top_k", "top_p", "min_p", "temperature"]


def test_vllm_does_not_take_a_gbnf_grammar():
    with FakeServer(vllm_routes(COMPLETION)) as server, RemoteEngine(server.url) as engine:
        result = engine.generate(prompt(SamplerSettings(grammar='root ::= "yes"', seed=2)))
    assert not {"grammar", "guided_grammar", "structured_outputs"} & set(server.bodies("/v1/completions")[0])
    assert "grammar = 'root ::= \"yes\"' was not applied: vLLM's grammars are EBNF or Lark, not llama.cpp's GBNF" \
        in result.notices


def test_openai_takes_a_schema_on_chat_only_and_token_ids_only():
    settings = SamplerSettings(top_k=0, min_p=0.0, json_schema=SCHEMA, logit_bias=((42, -math.inf),), seed=3)
    with FakeServer(chat_routes(DONE)) as server, RemoteEngine(server.url) as engine:
        chatted = engine.generate(chat(settings))
    body = server.bodies("/v1/chat/completions")[0]
    assert body["response_format"]["json_schema"]["schema"] == json.loads(SCHEMA) and body["logit_bias"] == {"42": -100.0}
    assert chatted.notices == []
    routes = chat_routes(DONE) | {("POST", "/v1/completions"): lambda x: x.stream(COMPLETION)}
    with FakeServer(routes) as server, RemoteEngine(server.url) as engine:
        completed = engine.generate(prompt(settings))
    assert "response_format" not in server.bodies("/v1/completions")[0]
    assert completed.settings["engine"]["not_applied"] == ["json_schema"]
    assert completed.notices[0].startswith("json_schema = '{\"type\": \"object\", \"properties\": {\"name\": {\"type\": ")


def test_a_stage_left_out_of_the_chain_is_not_reported_missing():
    """Typical-p and DRY set but not in the chain: not applied locally either, so vLLM lacking them changes
    nothing (and greedy, the order of the rest does not matter)."""
    settings = SamplerSettings(typical_p=0.5, dry_multiplier=0.8, samplers=("penalties", "top_k", "top_p", "min_p", "temperature"),
                               temperature=0.0, seed=4)
    with FakeServer(vllm_routes(COMPLETION)) as server, RemoteEngine(server.url) as engine:
        result = engine.generate(prompt(settings))
    assert not server.bodies("/v1/completions")[0].get("typical_p")
    assert result.settings["engine"]["not_applied"] == [] and result.notices == []


def test_the_cli_sends_its_sampler_options_and_prints_what_was_not_applied():
    with FakeServer(vllm_routes(COMPLETION)) as server:
        proc = subprocess.run([*CLI, "generate", "--engine", server.url, "--prompt", "Yes or no?", "--max-tokens", "4",
                               "--logit-bias", "42-inf", "--logit-bias", "hello=2", "--json-schema", SCHEMA,
                               "--xtc-probability", "0.5", "--samplers", "penalties;top_k;top_p;min_p;xtc;temperature"],
                              capture_output=True, text=True, timeout=60)
        refused = subprocess.run([*CLI, "generate", "--engine", server.url, "--prompt", "x", "--json-schema", "[1]"],
                                 capture_output=True, text=True, timeout=60)
        assert len(server.bodies("/v1/completions")) == 1  # the refused schema was never sent
    assert proc.returncode == 0, proc.stderr
    body = server.bodies("/v1/completions")[0]
    assert body["logit_bias"] == {"42": -100.0} and body["response_format"]["json_schema"]["schema"] == json.loads(SCHEMA)
    notes = [line for line in proc.stderr.splitlines() if line.startswith("note:")]
    assert "note: logit_bias = 42 banned, 'hello' +2 was not applied: vLLM takes token ids, not texts: 'hello' not sent" \
        in notes
    assert "note: xtc_probability = 0.5 was not applied: vLLM has no such setting" in notes
    assert refused.returncode == 2 and refused.stderr.strip() == "error: the JSON schema must be a JSON object"


def test_a_schema_nested_too_deeply_is_one_clear_error():
    from logitscope.host.remote_params import json_schema_object

    with pytest.raises(InvalidSettingsError, match="nested too deeply"):
        json_schema_object("[" * 100_000 + "]" * 100_000)
