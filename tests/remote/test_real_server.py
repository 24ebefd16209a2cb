"""RemoteEngine against a REAL server: llama-cpp-python's OpenAI-compatible server with the demo model,
compared with what the local engine computes for the same greedy prompt."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from logitscope.base.errors import RemoteEngineError, UnsupportedByServerError
from logitscope.host.remote import RemoteEngine
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.engine_like import EngineLike
from logitscope.protocol.sampler_settings import LEGACY_ORDERS, SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord, pack_step, step_to_json, unpack_step
from tests.helpers.real_server import API_KEY, GREEDY, RealServer, llama_cpp_server

PROMPT = "The capital of France is"


def remote(server: RealServer, **kwargs) -> RemoteEngine:
    return RemoteEngine(server.url, api_key=server.api_key, **kwargs)


def run(engine: RemoteEngine, request: GenerateRequest) -> tuple[list[StepRecord], GenerationResult]:
    steps: list[StepRecord] = []
    result = engine.generate(request, on_step=steps.append)
    return steps, result


def local_steps(engine, request: GenerateRequest) -> list[StepRecord]:
    return [e for e in engine.generate(request) if isinstance(e, StepRecord)]


def test_lists_models_and_tells_what_it_can_report(real_server, demo_model):
    with remote(real_server) as engine:
        assert isinstance(engine, EngineLike)
        info = engine.connect()
        assert info.server == "llama-cpp-python" and info.models == [str(demo_model)]
        assert info.model == str(demo_model) and engine.list_models() == [str(demo_model)]
        caps = engine.capabilities()
        assert caps["remote"] and caps["raw_probs"] and caps["tokenize"]
        assert not (caps["stages"] or caps["kv"] or caps["vocab"] or caps["token_ids"] or caps["final_probs"])
        assert {"repeat_last_n", "samplers", "typical_p", "dry_multiplier", "xtc_probability"} <= set(caps["unsupported_settings"])
        assert not {"grammar", "logit_bias", "mirostat", "json_schema"} & set(caps["unsupported_settings"])
        assert caps["grammar"] and "typ_p" not in caps["samplers"]
        with pytest.raises(UnsupportedByServerError):
            engine.vocab()
    with pytest.raises(RemoteEngineError, match="has no model 'nope'; it serves: "):
        remote(real_server, model="nope").connect()


def test_completion_top_logprobs_agree_with_the_local_engine(real_server, engine):
    request = GenerateRequest(prompt=PROMPT, settings=GREEDY, options=DecodeOptions(max_tokens=6))
    with remote(real_server) as client:
        steps, result = run(client, request)
    mine = local_steps(engine, request)
    assert [s.text for s in steps] == [s.text for s in mine]          # the same greedy answer
    assert result.text == "".join(s.text for s in mine) and result.finish_reason == "length"
    for r, loc in zip(steps[:3], mine[:3], strict=True):
        assert r.token == -1 and r.raw_pieces is not None and math.isnan(r.p) and r.stages == []
        local_top = [engine.runtime.piece(int(t)) for t in loc.raw_ids[:5]]
        # llama-cpp-python's server writes special tokens (<|im_end|>) as "": the probabilities still match
        assert all(mine_ == theirs or (theirs == b"" and mine_.startswith(b"<|"))
                   for mine_, theirs in zip(local_top, r.raw_pieces[:5], strict=True)), (local_top, r.raw_pieces)
        assert r.rank_raw == loc.rank_raw == 0
        assert r.p_raw == pytest.approx(loc.p_raw, abs=2e-3)
        assert r.raw_probs[:5] == pytest.approx(loc.raw_probs[:5], abs=2e-3)
    assert unpack_step(pack_step(steps[0])).raw_pieces == steps[0].raw_pieces  # storable as is


def test_chat_stream_agrees_with_the_local_engine(real_server, engine):
    request = GenerateRequest(messages=[ChatMessage("user", "What is the capital of France?")], settings=GREEDY,
                              options=DecodeOptions(max_tokens=6))
    with remote(real_server) as client:
        steps, result = run(client, request)
    mine = local_steps(engine, request)
    assert [s.text for s in steps] == [s.text for s in mine]
    assert steps[0].raw_pieces[:3] == [engine.runtime.piece(int(t)) for t in mine[0].raw_ids[:3]]
    assert steps[0].p_raw == pytest.approx(mine[0].p_raw, abs=2e-3)
    assert result.settings["engine"] == {"url": real_server.url, "model": client.info.model,
                                         "server": "llama-cpp-python", "not_applied": []}
    assert 0 < result.timings.ttft_s < 30 and result.timings.n_gen == 6


def test_sampler_settings_reach_the_server(real_server):
    """top_k = 1 makes any temperature greedy: only if the server got it. A seed repeats a draw."""
    options = DecodeOptions(max_tokens=4)
    hot = SamplerSettings(temperature=1.5, top_k=1, top_p=1.0, min_p=0.0)
    wild = SamplerSettings(temperature=1.2, top_k=0, top_p=1.0, min_p=0.0, seed=1234)
    with remote(real_server) as client:
        greedy = client.generate(GenerateRequest(prompt=PROMPT, settings=GREEDY, options=options))
        assert isinstance(greedy.settings["seed"], int)  # none given: drawn here and recorded
        assert client.generate(GenerateRequest(prompt=PROMPT, settings=hot, options=options)).text == greedy.text
        first = client.generate(GenerateRequest(prompt=PROMPT, settings=wild, options=options))
        again = client.generate(GenerateRequest(prompt=PROMPT, settings=wild, options=options))
        assert first.text == again.text and first.settings["seed"] == 1234


def test_settings_the_server_cannot_apply_are_reported(real_server):
    settings = SamplerSettings(temperature=0.7, repeat_penalty=1.3, repeat_last_n=16, samplers=LEGACY_ORDERS["temperature_first"],
                               seed=5)
    request = GenerateRequest(prompt=PROMPT, settings=settings, options=DecodeOptions(max_tokens=2))
    with remote(real_server) as client:
        result = client.generate(request)
    assert result.settings["engine"]["not_applied"] == ["repeat_last_n", "samplers"]
    assert any(n.startswith("repeat_last_n = 16 was not applied: llama-cpp-python") for n in result.notices)
    assert any(n.startswith("samplers = ") and "was not applied" in n for n in result.notices)


def test_grammar_logit_bias_and_mirostat_reach_the_server(real_server):
    """Each changes the answer only if the server got it under the right name."""
    options = DecodeOptions(max_tokens=6)
    with remote(real_server) as client:
        free = client.generate(GenerateRequest(prompt=PROMPT, settings=GREEDY, options=options))
        constrained = client.generate(GenerateRequest(
            prompt=PROMPT, settings=replace(GREEDY, grammar='root ::= " yes" | " no"'), options=options))
        assert free.text.strip() not in ("yes", "no") and constrained.text in (" yes", " no")
        first = client.tokenize(free.text)[0]
        banned = client.generate(GenerateRequest(
            prompt=PROMPT, settings=replace(GREEDY, logit_bias=((first, -math.inf),)), options=options))
        assert client.tokenize(banned.text)[0] != first and banned.notices == []
        texts = client.generate(GenerateRequest(  # its "tokens" mode: a text's tokens, all of them
            prompt=PROMPT, settings=replace(GREEDY, logit_bias=((free.text, -math.inf),)), options=options))
        assert not texts.text.startswith(free.text[:3]) and texts.notices == []
        mirostat = replace(GREEDY, temperature=1.0, mirostat=2, mirostat_tau=0.1, seed=9)
        assert client.generate(GenerateRequest(prompt=PROMPT, settings=mirostat, options=options)).text == free.text
        wild = client.generate(GenerateRequest(prompt=PROMPT, settings=replace(mirostat, mirostat=0), options=options))
        assert wild.text != free.text  # the same draw without Mirostat: not the greedy answer
        both = client.generate(GenerateRequest(  # ids and texts in one request: the texts are reported
            prompt=PROMPT, settings=replace(GREEDY, logit_bias=((first, -math.inf), ("x", 1.0))), options=options))
        assert both.settings["engine"]["not_applied"] == ["logit_bias"] and "'x' not sent" in both.notices[0]


def test_tokenize_matches_the_local_engine(real_server, engine):
    text = "Hello world, 你好 <|im_start|>"
    with remote(real_server) as client:
        assert client.tokenize(text, add_special=True) == engine.tokenize(text, True, True)


def test_cli_prints_the_same_json_lines_with_nulls_for_the_unknown(real_server):
    proc = subprocess.run([sys.executable, "-m", "logitscope", "generate", "--engine", real_server.url,
                           "--api-key", API_KEY, "--prompt", PROMPT, "--temperature", "0", "--top-k", "0",
                           "--max-tokens", "4", "--json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    steps, done = lines[:-1], lines[-1]
    assert len(steps) == 4 and done["type"] == "done"
    for s in steps:
        assert s["token"] is None and s["p"] is None and s["rank"] is None and s["entropy"] is None
        assert s["top_final"] is None and s["stages"] is None and s["kv_used"] is None
        assert 0 < s["p_raw"] <= 1 and s["rank_raw"] == 0 and s["top_raw"][0]["token"] is None
        assert s["top_raw"][0]["text"] == s["piece"] and len(s["top_raw"]) == 10
    assert steps[0]["text"] == " Paris"
    assert done["text"] == "".join(s["text"] for s in steps) and done["tokens"] == [None] * 4
    assert done["n_prompt_eval"] is None and done["prompt_tps"] is None and done["load_s"] is None
    assert set(done["kv"].values()) == {None}
    assert done["settings"]["engine"]["url"] == real_server.url


def test_cli_without_the_api_key_gets_a_hint(real_server):
    proc = subprocess.run([sys.executable, "-m", "logitscope", "generate", "--engine", real_server.url,
                           "--prompt", PROMPT], capture_output=True, text=True, timeout=60,
                          env={k: v for k, v in os.environ.items() if k != "LOGITSCOPE_API_KEY"})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"error: {real_server.url} refused the request (401 Unauthorized: Invalid API key); it wants an API key: "
        "give it with --api-key (or LOGITSCOPE_API_KEY)"]
    with pytest.raises(RemoteEngineError, match="check the API key given with --api-key"):
        RemoteEngine(real_server.url, api_key="wrong").connect()


def test_cancel_closes_the_stream_at_once(real_server):
    request = GenerateRequest(prompt=PROMPT, settings=GREEDY, options=DecodeOptions(max_tokens=200))
    with remote(real_server) as client:
        arrived = threading.Event()
        steps: list[StepRecord] = []

        def on_step(step: StepRecord) -> None:
            steps.append(step)
            if len(steps) == 2:
                arrived.set()

        box: list[GenerationResult] = []
        worker = threading.Thread(target=lambda: box.append(client.generate(request, on_step=on_step)))
        worker.start()
        assert arrived.wait(30)
        t0 = time.monotonic()
        client.cancel()
        worker.join(10)
        assert not worker.is_alive() and time.monotonic() - t0 < 5.0
        assert box[0].finish_reason == "cancelled" and 2 <= len(box[0].tokens) < 200
        assert client.generate(GenerateRequest(prompt=PROMPT, settings=GREEDY,  # the server goes on serving
                                               options=DecodeOptions(max_tokens=2))).finish_reason == "length"


@pytest.mark.model
def test_a_server_killed_mid_stream_keeps_the_partial_answer(demo_model, tmp_path: Path):
    with llama_cpp_server(demo_model, tmp_path / "server.log", api_key=None) as server:
        client = RemoteEngine(server.url, timeout=20)
        steps: list[StepRecord] = []
        killed_at: list[float] = []

        def on_step(step: StepRecord) -> None:
            steps.append(step)
            if len(steps) == 3:
                server.proc.kill()
                killed_at.append(time.monotonic())

        with pytest.raises(RemoteEngineError, match="broke after [34] tokens.*did the server stop") as caught:
            client.generate(GenerateRequest(prompt=PROMPT, settings=GREEDY, options=DecodeOptions(max_tokens=300)),
                            on_step=on_step)
        assert time.monotonic() - killed_at[0] < 5  # noticed at once, not after the read timeout
        partial = caught.value.partial
        assert isinstance(partial, GenerationResult) and partial.finish_reason == "error"
        assert partial.text == "".join(s.text for s in steps) and len(partial.tokens) == len(steps) >= 3
        assert str(caught.value) in partial.notices
        assert step_to_json(steps[0], [])["text"] == " Paris"
        server.proc.wait(5)
        with pytest.raises(RemoteEngineError, match="cannot connect to .* is the server running"):
            client.generate(GenerateRequest(prompt=PROMPT, settings=GREEDY, options=DecodeOptions(max_tokens=2)))
        client.close()
