"""Faults a remote server can have, from a small local HTTP server written for them (tests/remote/
fake_server.py): HTTP errors, malformed and broken streams, silence, TLS. Every one ends in a clear
RemoteEngineError or a notice: never a traceback, never a hang."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from logitscope.base.errors import RemoteEngineError
from logitscope.host.remote import RemoteEngine
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import SamplerSettings
from tests.helpers.fake_server import FakeServer, chat_chunk, chat_logprob, chat_routes, data

CHAT = GenerateRequest(messages=[ChatMessage("user", "Hi")], settings=SamplerSettings(top_k=0, min_p=0.0, seed=1),
                       options=DecodeOptions(max_tokens=8))
GOOD = [data(chat_chunk("Hello", [chat_logprob("Hello", -0.1, {"Hello": -0.1, "Hi": -2.5})])),
        data(chat_chunk(" there", [chat_logprob(" there", -0.7, {"!": -0.9, " there": -0.7})])),
        data(chat_chunk("!", [chat_logprob("!", -0.2, {"!": -0.2})]))]
END = [data(chat_chunk(None, None, "stop")), "data: [DONE]\n\n"]


def models_only(x) -> None:
    x.json({"data": [{"id": "m", "owned_by": "x"}]})


def test_malformed_chunks_are_skipped_with_a_notice():
    chunks = [GOOD[0], "data: {not json\n\n", GOOD[1], data({"choices": "nope"}), ": a keep-alive comment\n\n",
              data({"choices": [{"delta": {"content": 5}}]}), GOOD[2], *END]
    with FakeServer(chat_routes(chunks)) as server, RemoteEngine(server.url) as engine:
        steps = []
        result = engine.generate(CHAT, on_step=steps.append)
    assert result.text == "Hello there!" and result.finish_reason == "stop" and len(steps) == 3
    assert result.notices == ["3 malformed chunk(s) from the server were skipped"]
    assert steps[1].p_raw == pytest.approx(0.4966, abs=1e-4) and steps[1].rank_raw == 0  # sorted by the server's numbers
    assert steps[1].raw_pieces == [b" there", b"!"]


def test_http_500_shows_the_servers_own_message():
    routes = {("GET", "/v1/models"): models_only,
              ("POST", "/v1/chat/completions"): lambda x: x.json(
                  {"error": {"message": "CUDA error: out of memory", "type": "server_error"}}, 500)}
    with FakeServer(routes) as server, RemoteEngine(server.url) as engine:
        with pytest.raises(RemoteEngineError) as caught:
            engine.generate(CHAT)
    assert str(caught.value) == (f"{server.url} answered /v1/chat/completions with 500 Internal Server Error: "
                                 "CUDA error: out of memory")
    partial = caught.value.partial  # the answer failed once asked for: its result says why, without a token
    assert partial.finish_reason == "error" and partial.tokens == [] and partial.notices[-1] == str(caught.value)


def test_401_explains_the_api_key():
    routes = {("GET", "/v1/models"): lambda x: x.json({"detail": "Invalid API key"}, 401)}
    with FakeServer(routes) as server:
        with pytest.raises(RemoteEngineError, match=r"refused the request \(401 Unauthorized: Invalid API key\); "
                                                    r"it wants an API key: give it with --api-key"):
            RemoteEngine(server.url).connect()
        with pytest.raises(RemoteEngineError, match="check the API key given with --api-key"):
            RemoteEngine(server.url, api_key="k").connect()
        assert server.bodies("/v1/models") == [None, None]


def test_not_a_stream_of_events():
    routes = {("GET", "/v1/models"): models_only,
              ("POST", "/v1/chat/completions"): lambda x: x.raw(200, "text/html", b"<html><body>Bad gateway</body>")}
    with FakeServer(routes) as server, RemoteEngine(server.url) as engine:
        with pytest.raises(RemoteEngineError, match="answered with text/html, not a stream of events: <html>"):
            engine.generate(CHAT)


def test_an_error_event_mid_stream_keeps_the_partial_answer():
    chunks = [GOOD[0], data({"error": {"message": "the slot was reset", "code": 500}})]
    with FakeServer(chat_routes(chunks)) as server, RemoteEngine(server.url) as engine:
        with pytest.raises(RemoteEngineError, match="the server reported an error: the slot was reset") as caught:
            engine.generate(CHAT)
    partial = caught.value.partial
    assert partial.finish_reason == "error" and partial.text == "Hello"
    assert partial.notices[-1] == "the server reported an error: the slot was reset"


def test_a_stream_that_stops_early_is_an_error_with_the_partial_answer():
    with FakeServer(chat_routes(GOOD[:2])) as server, RemoteEngine(server.url) as engine:  # ends, no [DONE]
        with pytest.raises(RemoteEngineError, match="ended before the answer was complete \\(after 2 tokens\\)") as c:
            engine.generate(CHAT)
    assert c.value.partial.text == "Hello there"


def test_a_dropped_connection_is_an_error_with_the_partial_answer():
    routes = {("GET", "/v1/models"): models_only,
              ("POST", "/v1/chat/completions"): lambda x: x.stream(GOOD[:2], end=False)}
    with FakeServer(routes) as server, RemoteEngine(server.url) as engine:
        with pytest.raises(RemoteEngineError, match="connection to .* broke after 2 tokens") as caught:
            engine.generate(CHAT)
    assert caught.value.partial.tokens == [-1, -1]


def test_a_server_that_never_answers_times_out():
    routes = {("GET", "/v1/models"): models_only, ("POST", "/v1/chat/completions"): lambda x: x.stall(),
              ("GET", "/props"): lambda x: x.stall()}
    with FakeServer(routes) as server:
        t0 = time.monotonic()
        with pytest.raises(RemoteEngineError, match="sent nothing for 0.5 s"):
            RemoteEngine(server.url, timeout=0.5).connect()       # silent on the /props probe
        assert time.monotonic() - t0 < 5  # bounded (a busy machine adds seconds)
        engine = RemoteEngine(server.url, timeout=0.5, server="openai")
        t0 = time.monotonic()
        with pytest.raises(RemoteEngineError, match="sent nothing for 0.5 s"):
            engine.generate(CHAT)
        assert time.monotonic() - t0 < 5  # bounded (a busy machine adds seconds)
        engine.close()


def test_silence_mid_stream_times_out_and_keeps_the_partial_answer():
    def stalls(x) -> None:
        x.start_stream()
        x.send(GOOD[0])
        x.stall()

    routes = {("GET", "/v1/models"): models_only, ("POST", "/v1/chat/completions"): stalls}
    with FakeServer(routes) as server, RemoteEngine(server.url, timeout=0.5) as engine:
        with pytest.raises(RemoteEngineError, match="sent nothing for 0.5 s after 1 tokens") as caught:
            engine.generate(CHAT)
    assert caught.value.partial.text == "Hello"


def test_cancel_wakes_a_read_that_waits_on_a_silent_server():
    routes = {("GET", "/v1/models"): models_only, ("POST", "/v1/chat/completions"): lambda x: x.stall()}
    with FakeServer(routes) as server, RemoteEngine(server.url, timeout=30) as engine:
        engine.connect()
        threading.Timer(0.3, engine.cancel).start()
        t0 = time.monotonic()
        result = engine.generate(CHAT)
        assert result.finish_reason == "cancelled" and result.tokens == []
        assert time.monotonic() - t0 < 5  # not the 30 s read timeout


def test_connection_refused():
    with FakeServer({}) as server:
        url = server.url
    with pytest.raises(RemoteEngineError, match=r"cannot connect to http://127\.0\.0\.1:\d+ .*is the server running"):
        RemoteEngine(url).connect()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=60)
    return cert, key


def test_tls_is_verified_unless_insecure(certificate):
    with FakeServer(chat_routes([*GOOD, *END]), tls=certificate) as server:
        assert server.url.startswith("https://")
        with pytest.raises(RemoteEngineError, match="TLS certificate of https://.* could not be verified.*--insecure"):
            RemoteEngine(server.url).connect()
        with RemoteEngine(server.url, verify_tls=False) as engine:
            assert engine.generate(CHAT).text == "Hello there!"


def test_cli_keeps_the_partial_trace_and_prints_one_error_line():
    routes = {("GET", "/v1/models"): models_only,
              ("POST", "/v1/chat/completions"): lambda x: x.stream(GOOD[:2], end=False)}
    with FakeServer(routes) as server:
        proc = subprocess.run([sys.executable, "-m", "logitscope", "generate", "--engine", server.url, "--chat", "Hi",
                               "--json"], capture_output=True, text=True, timeout=60)
        with_model = subprocess.run([sys.executable, "-m", "logitscope", "generate", "--engine", server.url,
                                   "--model", "x.gguf", "--chat", "Hi"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert [line for line in proc.stderr.splitlines() if line.strip()] == [
        f"error: the connection to {server.url} broke after 2 tokens (peer closed connection without sending "
        "complete message body (incomplete chunked read)): did the server stop?"]
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [x["type"] for x in lines] == ["step", "step", "done"]
    assert lines[-1]["finish_reason"] == "error" and lines[-1]["text"] == "Hello there"
    assert lines[-1]["notices"][-1] == proc.stderr.strip()[len("error: "):]
    assert lines[-1]["settings"]["engine"]["not_applied"] == ["min_p", "top_k"]  # the CLI's defaults; OpenAI has neither
    assert with_model.returncode == 2 and "--model names a local file" in with_model.stderr


def test_a_server_without_logprobs_still_streams_text():
    chunks = [data(chat_chunk("Hel")), data(chat_chunk("lo")), *END]
    with FakeServer(chat_routes(chunks)) as server, RemoteEngine(server.url) as engine:
        steps = []
        result = engine.generate(CHAT, on_step=steps.append)
    assert [s.text for s in steps] == ["Hel", "lo"] and result.text == "Hello"
    assert result.notices == ["the server sent no probabilities for 2 of 2 tokens"]
