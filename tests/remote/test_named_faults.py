"""Remote-server faults named for what they are (issue 31), each from a local server that misbehaves that
way (tests/helpers/fake_server.py, 127.0.0.1 only): an error event shows the server's words; events
that cannot be read are described (not JSON, another endpoint's format); a stream is not read for ever
(MAX_UNREAD_IN_A_ROW events, MAX_ANSWER_BYTES without a token, --engine-timeout of silence); Ctrl+C
ends any wait; and `generate --json` always ends its trace with the `done` line that says why."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from logitscope.base.errors import RemoteEngineError
from logitscope.host.remote import RemoteEngine
from logitscope.host.remote_stream import MAX_ANSWER_BYTES, MAX_UNREAD_IN_A_ROW, Answer, read_answer
from logitscope.host.remote_wire import CHAT, COMPLETIONS, NATIVE
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import SamplerSettings
from tests.helpers.fake_server import FakeServer, chat_chunk, data

CHAT_REQUEST = GenerateRequest(messages=[ChatMessage("user", "Hi")],
                               settings=SamplerSettings(top_k=0, min_p=0.0, seed=1), options=DecodeOptions(max_tokens=8))
NOT_JSON = "data: {nope\n\n"
DONE = "data: [DONE]\n\n"
LONG_WAIT_S = 120.0  # a hung server: longer than any test waits for the client


def models_only(x) -> None:
    x.json({"data": [{"id": "m", "owned_by": "x"}]})


def serving(handler) -> dict:
    return {("GET", "/v1/models"): models_only, ("POST", "/v1/chat/completions"): handler,
            ("POST", "/v1/completions"): handler}


def hangs(x) -> None:
    """Accept the request, then say nothing (a hung server), until the test ends."""
    x.server.stopping.wait(LONG_WAIT_S)


def cli(url: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "logitscope", "generate", "--engine", url, *args],
                          capture_output=True, text=True, timeout=timeout)


def trace(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    return lines[0][len("error: "):]


def test_an_error_event_before_any_token_shows_the_servers_message_and_ends_the_trace():
    event = 'event: error\ndata: {"message": "server out of memory", "code": 500}\n\n'
    with FakeServer(serving(lambda x: x.stream([event]))) as server:
        proc = cli(server.url, "--chat", "Hi", "--json")
    assert proc.returncode == 2 and error_line(proc.stderr) == "the server reported an error: server out of memory"
    lines = trace(proc.stdout)
    assert [x["type"] for x in lines] == ["done"] and lines[0]["finish_reason"] == "error"
    assert lines[0]["text"] == "" and lines[0]["notices"][-1] == "the server reported an error: server out of memory"


def test_an_error_written_as_a_bare_json_body_in_the_event_stream_shows_the_servers_message():
    body = '{"error": {"message": "server out of memory", "code": 500}}\n'  # not a `data:` field: no event
    with FakeServer(serving(lambda x: x.stream([body]))) as server:
        proc = cli(server.url, "--chat", "Hi", "--json")
    assert proc.returncode == 2 and error_line(proc.stderr) == "the server reported an error: server out of memory"
    assert trace(proc.stdout)[-1]["finish_reason"] == "error"


def test_lines_that_are_not_server_sent_events_are_named():
    page = ["<html>\n", "<body>Bad gateway</body>\n", "</html>\n"]
    with FakeServer(serving(lambda x: x.stream(page))) as server:
        proc = cli(server.url, "--chat", "Hi")
    assert proc.returncode == 2 and error_line(proc.stderr) == (
        f"{server.url} sent nothing that could be read: 3 line(s) that are not server-sent events (the first: "
        "'<html>')")


def test_events_that_are_not_json_are_named_not_skipped_into_an_empty_answer():
    with FakeServer(serving(lambda x: x.stream([NOT_JSON] * 50 + [DONE]))) as server:
        with RemoteEngine(server.url) as engine, pytest.raises(RemoteEngineError) as caught:
            engine.generate(CHAT_REQUEST)
        plain = cli(server.url, "--chat", "Hi")
    assert str(caught.value) == (f"{server.url} sent nothing that could be read: 50 event(s) that are not JSON "
                                 "(the first: '{nope')")
    assert caught.value.partial.finish_reason == "error" and caught.value.partial.tokens == []
    assert plain.returncode == 2 and error_line(plain.stderr) == str(caught.value) and "nan" not in plain.stderr


def test_chat_chunks_on_the_completions_endpoint_ask_whether_it_is_one():
    chunks = [data(chat_chunk("Hi")), data(chat_chunk(" there")), data(chat_chunk(None, None, "stop")), DONE]
    with FakeServer(serving(lambda x: x.stream(chunks))) as server:
        proc = cli(server.url, "--prompt", "Hi", "--json")
    message = error_line(proc.stderr)
    assert proc.returncode == 2 and message.startswith(f"{server.url} sent nothing that could be read: 3 event(s) "
                                                       "without a completion text (the first: '{\"id\": \"chatcmpl-1\"")
    assert message.endswith("): is this an OpenAI-compatible completions endpoint?")
    assert trace(proc.stdout)[-1]["notices"][-1] == message


@pytest.mark.parametrize(("fmt", "event", "lacking"), [
    (CHAT, {"choices": [{"text": "Hi", "finish_reason": None}]}, "without a chat delta"),
    (CHAT, {"content": "Hi", "stop": False}, "without a chat delta"),
    (NATIVE, chat_chunk("Hi"), "without llama-server's content"),
    (COMPLETIONS, {"content": "Hi"}, "without a completion text")])
def test_chunks_of_another_format_are_named_in_every_format(fmt, event, lacking):
    answer = Answer(0.0, 8)
    with pytest.raises(RemoteEngineError, match=f"sent nothing that could be read: 2 event\\(s\\) {lacking} "):
        read_answer(iter([data(event).encode()] * 2), fmt, answer, no_token_timeout_s=1e9, source="S")
    assert answer.steps == []


def test_a_few_unreadable_events_among_tokens_are_still_skipped_with_a_notice():
    good = data(chat_chunk("Hi"))
    answer = Answer(0.0, 8)
    read_answer(iter([e.encode() for e in [good, NOT_JSON, data({"choices": "nope"}), good, DONE]]), CHAT, answer, 1e9)
    assert len(answer.steps) == 2 and answer.unread.total == 2


def test_an_endless_stream_of_unreadable_events_is_given_up_after_a_bounded_number():
    with FakeServer(serving(lambda x: x.flood("text/event-stream", NOT_JSON, NOT_JSON * 1000, 1 << 30))) as server:
        proc = cli(server.url, "--chat", "Hi", "--json")
    assert proc.returncode == 2 and error_line(proc.stderr) == (
        f"{server.url} sent {MAX_UNREAD_IN_A_ROW} events in a row that could not be read, after 0 tokens: "
        f"{MAX_UNREAD_IN_A_ROW} event(s) that are not JSON (the first: '{{nope'); the answer was given up")
    assert trace(proc.stdout)[-1]["type"] == "done"


def test_bytes_without_a_token_are_bounded_like_any_answer():
    ping = ": " + "p" * 1000 + "\n\n"  # keep-alive comments are no events, hence no progress either
    with FakeServer(serving(lambda x: x.flood("text/event-stream", ping, ping * 64, 3 * MAX_ANSWER_BYTES))) as server:
        proc = cli(server.url, "--chat", "Hi", "--json")
    assert proc.returncode == 2 and error_line(proc.stderr) == (
        f"{server.url} sent {MAX_ANSWER_BYTES >> 20} MiB without a token after 0 tokens (keep-alives and empty "
        "chunks only): the answer was given up")
    done = trace(proc.stdout)[-1]
    assert done["type"] == "done" and done["finish_reason"] == "error"


def test_a_hung_server_is_given_up_after_engine_timeout_with_a_done_line():
    with FakeServer(serving(hangs)) as server:
        proc = cli(server.url, "--chat", "Hi", "--json", "--engine-timeout", "1")
    assert proc.returncode == 2 and error_line(proc.stderr) == (
        f"{server.url} sent nothing for 1 s after 0 tokens: the answer was given up")
    done = trace(proc.stdout)[-1]
    assert done["type"] == "done" and done["finish_reason"] == "error" and done["notices"][-1].endswith("given up")


@pytest.mark.parametrize("where", ["answer", "connect"])
def test_ctrl_c_ends_the_wait_on_a_hung_server(where):
    routes = serving(hangs) if where == "answer" else {("GET", "/v1/models"): hangs}
    with FakeServer(routes) as server:
        proc = subprocess.Popen([sys.executable, "-m", "logitscope", "generate", "--engine", server.url, "--chat", "Hi",
                                 "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=os.environ | {"PYTHONFAULTHANDLER": "1"})
        path = "/v1/chat/completions" if where == "answer" else "/v1/models"
        while path not in [p for _m, p, _b in server.requests]:  # until the CLI waits on the server
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)  # the default engine timeout (120 s) is not what ends it
        except subprocess.TimeoutExpired:  # where every thread of the CLI waits: faulthandler prints it on SIGABRT
            proc.send_signal(signal.SIGABRT)
            out, err = proc.communicate(timeout=30)
            pytest.fail(f"the CLI did not end within 60 s of Ctrl+C; its threads:\n{err[-6000:]}")
    assert proc.returncode == 130 and "Traceback" not in err
    if where == "answer":
        done = trace(out)[-1]
        assert done["type"] == "done" and done["finish_reason"] == "cancelled" and done["text"] == ""
    else:
        assert error_line(err) == "interrupted"
