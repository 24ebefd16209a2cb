"""A server that is broken or hostile cannot take the client's memory, time or output down with it:
every read is bounded before it is buffered, max_tokens holds whatever the server does, absurd
probabilities become unknown (never NaN or Infinity in the JSON trace), a stream without tokens
times out, and the address is checked up front with its credentials never shown."""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import math
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator

import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError, RemoteEngineError
from logitscope.host.remote import MAX_JSON_BYTES, RemoteEngine
from logitscope.host.remote_stream import MAX_LINE_BYTES, iter_lines
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import dumps, result_to_json, step_to_json
from tests.helpers.fake_server import FakeServer, chat_chunk, chat_logprob, chat_routes, data

END = [data(chat_chunk(None, None, "stop")), "data: [DONE]\n\n"]


def chat(max_tokens: int = 8) -> GenerateRequest:
    return GenerateRequest(messages=[ChatMessage("user", "Hi")], settings=SamplerSettings(top_k=0, min_p=0.0, seed=1),
                           options=DecodeOptions(max_tokens=max_tokens))


def models_only(x) -> None:
    x.json({"data": [{"id": "m", "owned_by": "x"}]})


def strict_json(line: str) -> object:
    """Parse as strict JSON: NaN, Infinity and -Infinity are not JSON."""
    def refuse(name: str) -> None:
        raise ValueError(f"{name} is not JSON")
    return json.loads(line, parse_constant=refuse)


# -- bounded reads -------------------------------------------------------------------------------

@contextlib.contextmanager
def peak_memory() -> Iterator[list[int]]:
    """The peak of Python's allocations inside the block, in bytes."""
    tracemalloc.start()
    peak: list[int] = []
    try:
        yield peak
    finally:
        peak.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()


def test_an_endless_model_list_is_given_up_at_its_bound():
    routes = {("GET", "/v1/models"): lambda x: x.flood("application/json", '{"data": [', '{"id": "m"},' * 4096,
                                                       3 * MAX_JSON_BYTES)}
    with FakeServer(routes) as server, peak_memory() as peak:
        t0 = time.monotonic()
        with pytest.raises(RemoteEngineError, match=rf"/v1/models sent more than {MAX_JSON_BYTES >> 20} MiB"):
            RemoteEngine(server.url, server="openai").connect()
        assert time.monotonic() - t0 < 10
    assert peak[0] < 1.5 * MAX_JSON_BYTES  # not the 96 MiB that were on offer


def test_an_endless_event_line_is_given_up_at_its_bound():
    routes = {("GET", "/v1/models"): models_only,
              ("POST", "/v1/chat/completions"): lambda x: x.flood(
                  "text/event-stream", data(chat_chunk("Hi", [chat_logprob("Hi", -0.1, {"Hi": -0.1})])) + "data: ",
                  "x" * 65536, 3 * MAX_LINE_BYTES)}
    with FakeServer(routes) as server, RemoteEngine(server.url) as engine, peak_memory() as peak:
        with pytest.raises(RemoteEngineError, match=rf"a line longer than {MAX_LINE_BYTES >> 20} MiB") as caught:
            engine.generate(chat())
    assert peak[0] < 1.5 * MAX_LINE_BYTES
    assert caught.value.partial.text == "Hi"  # what came before is kept


def test_lines_end_at_cr_lf_or_crlf_wherever_the_chunks_are_cut():
    data = "a\r\nbé\rc\n\nd".encode()
    for i in range(len(data) + 1):
        for j in range(i, len(data) + 1):
            assert list(iter_lines([data[:i], data[i:j], data[j:]])) == ["a", "bé", "c", "", "d"], (i, j)
    with pytest.raises(RemoteEngineError, match="a line longer than 0 MiB"):
        list(iter_lines([b"12345", b"6\n"], max_bytes=5))


# -- max_tokens ----------------------------------------------------------------------------------

def test_max_tokens_holds_when_the_server_ignores_it():
    sent = []

    def endless(x) -> None:
        def tokens():
            for k in itertools.count():
                if k >= 10_000 or x.server.stopping.is_set():
                    return
                sent.append(k)
                yield data(chat_chunk(f" t{k}", [chat_logprob(f" t{k}", -0.5, {f" t{k}": -0.5, " z": -1.5})]))
        x.stream(tokens(), delay_s=0.001)

    routes = {("GET", "/v1/models"): models_only, ("POST", "/v1/chat/completions"): endless}
    with FakeServer(routes) as server, RemoteEngine(server.url) as engine:
        steps = []
        result = engine.generate(chat(max_tokens=4), on_step=steps.append)
        time.sleep(0.3)
    assert len(steps) == 4 and len(result.tokens) == 4 and result.finish_reason == "length"
    assert result.text == " t0 t1 t2 t3" == "".join(s.text for s in steps)
    assert "the server sent more than max_tokens = 4 tokens: the answer was cut there" in result.notices
    assert len(sent) < 1000  # the stream was closed, and the server saw it


def test_several_tokens_in_one_chunk_are_cut_at_max_tokens():
    chunk = chat_chunk("abcdef", [chat_logprob(c, -0.1, {c: -0.1}) for c in "abcdef"])
    with FakeServer(chat_routes([data(chunk), *END])) as server, RemoteEngine(server.url) as engine:
        result = engine.generate(chat(max_tokens=4))
    assert result.text == "abcd" and len(result.tokens) == 4 and result.finish_reason == "length"


def test_an_honest_server_that_stops_at_max_tokens_is_read_to_its_end():
    chunks = [data(chat_chunk(c, [chat_logprob(c, -0.1, {c: -0.1})])) for c in "abcd"]
    usage = data({"choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 4}})
    chunks += [data(chat_chunk(None, None, "length")), usage, "data: [DONE]\n\n"]
    with FakeServer(chat_routes(chunks)) as server, RemoteEngine(server.url) as engine:
        result = engine.generate(chat(max_tokens=4))
    assert result.text == "abcd" and result.finish_reason == "length" and result.timings.n_prompt == 9
    assert result.notices == []


# -- probabilities -------------------------------------------------------------------------------

def test_absurd_probabilities_are_unknown_and_the_trace_is_strict_json():
    def entry(token: str, logprob: str, alternatives: str) -> str:
        return (f'{{"token": "{token}", "bytes": {list(token.encode())}, "logprob": {logprob}, '
                f'"top_logprobs": [{alternatives}]}}')

    def chunk(token: str, logprob: str, alternatives: str = "") -> str:
        return ('data: {"choices": [{"index": 0, "delta": {"content": "' + token + '"}, "finish_reason": null, '
                '"logprobs": {"content": [' + entry(token, logprob, alternatives) + ']}}]}\n\n')

    good = '{"token": "ok", "bytes": [111, 107], "logprob": -0.25}'
    chunks = [chunk("A", "1000", good), chunk("B", "NaN", '{"token": "x", "logprob": Infinity}, ' + good),
              chunk("C", "Infinity"), chunk("D", "-Infinity", '{"token": "y", "logprob": NaN}'),
              chunk("E", "1e999"), chunk("F", "-0.5", '{"token": "F", "logprob": -0.5}, ' + good), *END]
    with FakeServer(chat_routes(chunks)) as server, RemoteEngine(server.url) as engine:
        steps = []
        result = engine.generate(chat(), on_step=steps.append)
    assert result.text == "ABCDEF" and len(steps) == 6
    assert all(math.isnan(s.p_raw) for s in steps[:5]) and steps[5].p_raw == pytest.approx(math.exp(-0.5))
    assert [s.raw_pieces for s in steps] == [[b"ok"], [b"ok"], [], [], [], [b"ok", b"F"]]  # best first
    assert steps[5].rank_raw == 1
    assert "7 out-of-range probabilities from the server were left out (shown as unknown)" in result.notices
    lines = [dumps(step_to_json(s, [])) for s in steps] + [dumps(result_to_json(result))]
    parsed = [strict_json(line) for line in lines]
    assert [p["p_raw"] for p in parsed[:5]] == [None] * 5 and parsed[0]["top_raw"] == [
        {"token": None, "text": "ok", "p": round(math.exp(-0.25), 6)}]


def test_post_sampling_probabilities_outside_0_1_are_unknown():
    chunk = {"choices": [{"index": 0, "delta": {"content": "a"}, "finish_reason": None, "logprobs": {"content": [
        {"id": 5, "token": "a", "bytes": [97], "prob": 7.5,
         "top_probs": [{"id": 5, "token": "a", "bytes": [97], "prob": -0.5},
                       {"id": 6, "token": "b", "bytes": [98], "prob": 0.25}]}]}}]}
    with FakeServer(chat_routes([data(chunk), *END])) as server, RemoteEngine(server.url) as engine:
        steps = []
        engine.generate(chat(), on_step=steps.append)
    (step,) = steps
    assert math.isnan(step.p) and step.final_pieces == [b"b"] and list(step.final_probs) == [0.25]
    assert step.rank == -1 and step.token == 5


def test_the_json_writer_never_writes_nan():
    from logitscope.host.remote_wire import Chunk, TokenReport, chunk_steps

    (step,) = chunk_steps(Chunk("x", [TokenReport(-1, b"x", -0.1)]), 0, 0.0)
    step.raw_logits, step.raw_ids = np.array([float("nan")], np.float32), np.array([3], np.int32)
    step.raw_pieces, step.raw_lse = [b"q"], 0.0
    line = dumps(step_to_json(step, []))
    assert strict_json(line)["top_raw"] == [{"token": 3, "text": "q", "p": None}]
    # whatever else slips through is written as unknown, never as a token no JSON reader accepts
    assert strict_json(dumps({"x": float("inf"), "y": [float("nan")], "z": np.float64("-inf")})) == {
        "x": None, "y": [None], "z": None}
    with pytest.raises(ValueError):
        dumps({"x": "\ud800"})  # text no UTF-8 line can carry: refused, as writing it would be
    assert strict_json(dumps({5: np.float32(0.5), "n": np.int64(3)})) == {"5": 0.5, "n": 3}  # numpy's numbers, a token id key


# -- time ----------------------------------------------------------------------------------------

def test_a_server_that_only_sends_keep_alives_times_out():
    def pings(x) -> None:
        x.start_stream()
        x.send(data(chat_chunk("Hi", [chat_logprob("Hi", -0.1, {"Hi": -0.1})])))
        while not x.server.stopping.wait(0.05):
            x.send(": ping\n\n")

    routes = {("GET", "/v1/models"): models_only, ("POST", "/v1/chat/completions"): pings}
    with FakeServer(routes) as server, RemoteEngine(server.url, timeout=0.6) as engine:
        t0 = time.monotonic()
        with pytest.raises(RemoteEngineError, match=r"sent no token for 0\.6 s after 1 tokens") as caught:
            engine.generate(chat())
        assert time.monotonic() - t0 < 5
    assert caught.value.partial.text == "Hi"


def test_empty_chunks_are_not_progress_either():
    def empties(x) -> None:
        x.start_stream()
        while not x.server.stopping.wait(0.01):
            x.send(data(chat_chunk(None)))

    routes = {("GET", "/v1/models"): models_only, ("POST", "/v1/chat/completions"): empties}
    with FakeServer(routes) as server, RemoteEngine(server.url, timeout=0.5) as engine:
        with pytest.raises(RemoteEngineError, match=r"sent no token for 0\.5 s"):
            engine.generate(chat())


def test_a_finished_answer_is_kept_when_the_server_never_closes_the_stream():
    def lingers(x) -> None:
        x.start_stream()
        x.send(data(chat_chunk("Hi", [chat_logprob("Hi", -0.1, {"Hi": -0.1})])))
        x.send(data(chat_chunk(None, None, "stop")))
        while not x.server.stopping.wait(0.05):
            x.send(": ping\n\n")

    routes = {("GET", "/v1/models"): models_only, ("POST", "/v1/chat/completions"): lingers}
    with FakeServer(routes) as server, RemoteEngine(server.url, timeout=0.5) as engine:
        result = engine.generate(chat())
    assert result.text == "Hi" and result.finish_reason == "stop"


# -- the address ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("url", "message"), [
    ("http://127.0.0.1:99999", "the port of http://127.0.0.1:99999 must be between 1 and 65535"),
    ("http://127.0.0.1:0", "must be between 1 and 65535"),
    ("http://127.0.0.1:http", "must be between 1 and 65535"),
    ("http://:8080", "has no host name"),
    ("http://", "has no host name"),
    ("ftp://host", "is not an http:// or https:// address"),
    ("   ", "the server address is empty"),
    ("http://user:secret@127.0.0.1:99999", r"http://user:\*\*\*\*@127\.0\.0\.1:99999 must be between"),
])
def test_bad_addresses_are_refused_up_front(url, message):
    with pytest.raises(InvalidSettingsError, match=message) as caught:
        RemoteEngine(url)
    assert "secret" not in str(caught.value)


def test_credentials_in_the_address_are_sent_as_basic_auth_and_never_shown():
    seen = []

    def models(x) -> None:
        seen.append(x.headers.get("Authorization"))
        x.json({"data": [{"id": "m", "owned_by": "x"}]})

    def fails(x) -> None:
        x.json({"error": {"message": "no slots"}}, 503)

    routes = {("GET", "/v1/models"): models, ("POST", "/v1/chat/completions"): fails}
    with FakeServer(routes) as server:
        url = server.url.replace("http://", "http://al%40ice:s3cr%3At@")
        with RemoteEngine(url, server="openai") as engine:
            info = engine.connect()
            with pytest.raises(RemoteEngineError) as caught:
                engine.generate(chat())
        with pytest.raises(InvalidSettingsError, match="both"):
            RemoteEngine(url, api_key="k")
    assert seen == ["Basic " + base64.b64encode(b"al@ice:s3cr:t").decode()]
    shown = server.url.replace("http://", "http://al%40ice:****@")
    assert info.base_url == engine.base_url == shown
    assert str(caught.value).startswith(f"{shown} answered /v1/chat/completions with 503")
    with pytest.raises(RemoteEngineError) as refused:  # nothing listens there any more
        RemoteEngine(url).connect()
    assert "s3cr" not in str(refused.value) and "****" in str(refused.value)


def test_the_cli_refuses_an_empty_engine_and_a_bad_port():
    for url, said in (("", "error: the server address is empty"),
                      ("http://u:pw@127.0.0.1:99999", "error: the port of http://u:****@127.0.0.1:99999 must be")):
        proc = subprocess.run([sys.executable, "-m", "logitscope", "generate", "--engine", url, "--chat", "Hi"],
                              capture_output=True, text=True, timeout=60)
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        assert proc.returncode == 2 and len(lines) == 1 and lines[0].startswith(said), proc.stderr
        assert "pw@" not in proc.stderr and proc.stdout == ""


def test_the_cli_gives_up_on_a_server_that_sends_no_token_within_engine_timeout():
    def pings(x) -> None:
        x.start_stream()
        while not x.server.stopping.wait(0.05):
            x.send(": ping\n\n")

    routes = {("GET", "/v1/models"): models_only, ("POST", "/v1/chat/completions"): pings}
    with FakeServer(routes) as server:
        proc = subprocess.run([sys.executable, "-m", "logitscope", "generate", "--engine", server.url, "--chat", "Hi",
                               "--engine-timeout", "0.5"], capture_output=True, text=True, timeout=60)
    no_engine = subprocess.run([sys.executable, "-m", "logitscope", "generate", "--chat", "Hi", "--remote-timeout", "5"],
                               capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.splitlines() == [
        f"error: {server.url} sent no token for 0.5 s after 0 tokens (keep-alives and empty or malformed chunks are "
        "no progress): the answer was given up"]
    # --remote-timeout: the option's former name, still understood
    assert no_engine.returncode == 2 and "--engine-timeout" in no_engine.stderr and "need --engine" in no_engine.stderr
