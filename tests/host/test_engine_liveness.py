"""An engine that stops making progress (SIGSTOP, a frozen machine) is detected, ended and reported; a slow
but alive one is not. The caller asks for a sign of life whenever the engine has been quiet for a moment;
the engine's reader thread answers at once, whatever its main thread (llama.cpp) is doing."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from logitscope.base.errors import EngineCrashedError, EngineUnresponsiveError
from logitscope.host.client import TIMEOUT_ENV, EngineClient
from logitscope.protocol.api import DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS

LIMIT_S = 2.5   # short, for the tests; the default is generous (client.DEFAULT_TIMEOUT_S)
MARGIN_S = 3.0  # process ending, reaping and a busy shared test machine
LONG = GenerateRequest(prompt="1, 2, 3, 4, 5,", settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=3000))
LONG_PROMPT = GenerateRequest(prompt="word " * 1000, settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=4))
QUIET_PROMPT = GenerateRequest(prompt="word " * 400, settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=1))


class Stopwatch:
    """When the engine was stopped (set from a callback or a timer)."""

    def __init__(self) -> None:
        self.at: float | None = None

    def stop(self, pid: int) -> None:
        os.kill(pid, signal.SIGSTOP)
        self.at = time.monotonic()


def _within(seconds: float, after: Stopwatch, fn: Callable[[], Any], pid: Callable[[], int | None]) -> tuple[Any, float]:
    """fn() on a helper thread; it must finish within `seconds` of the engine being stopped (without the fix it
    waits forever: then the engine is killed to free the test, and the test fails). Returns (value or error,
    seconds from the stop to the end)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:
            box["error"] = exc
        box["end"] = time.monotonic()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.1)
        if after.at is not None and time.monotonic() - after.at > seconds + 5:
            victim = pid()
            if victim is not None:
                os.kill(victim, signal.SIGKILL)
            worker.join(10)
            pytest.fail(f"still waiting {seconds + 5} s after the engine was stopped")
    assert after.at is not None, "the engine was never stopped"
    return box.get("error", box.get("value")), box["end"] - after.at


def _gone(pid: int, wait_s: float = 2.0) -> bool:
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if not os.path.exists(f"/proc/{pid}"):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def lean_client(demo_model):
    """An engine on one thread: llama.cpp's spinning worker threads crawl on a busy shared test machine."""
    with EngineClient(env=dict(os.environ, LOGITSCOPE_ENGINE_CRASH_HOOKS="1")) as c:
        c.load(str(demo_model), LoadSettings(n_ctx=2048, n_threads=1))
        yield c


@pytest.mark.model
def test_engine_stopped_mid_generation_is_ended_with_a_clear_error(lean_client):
    client = lean_client
    client.timeout_s = LIMIT_S
    pid = client.pid
    stopped, steps = Stopwatch(), []

    def stop_after_some_tokens(step) -> None:
        steps.append(step)
        if len(steps) == 5:
            stopped.stop(pid)

    error, took = _within(LIMIT_S + MARGIN_S, stopped, lambda: client.generate(LONG, on_step=stop_after_some_tokens),
                          lambda: pid)
    assert isinstance(error, EngineUnresponsiveError), error
    assert str(error).startswith("the engine stopped responding (no sign of life for 2.5 s), so it was ended")
    assert error.silent_s == LIMIT_S
    assert LIMIT_S - 0.2 <= took < LIMIT_S + MARGIN_S  # counted from the last message, just before the stop
    assert len(steps) >= 5
    assert _gone(pid) and not client.alive
    client.reload()  # a fresh engine, as after a crash
    assert client.generate(GenerateRequest(prompt="Hi", options=DecodeOptions(max_tokens=2))).tokens


@pytest.mark.model
def test_engine_stopped_during_load(lean_client, demo_model):
    client = lean_client
    client.timeout_s = LIMIT_S
    stopped, pids = Stopwatch(), []

    def stop_on_first_tick(_fraction: float) -> None:
        if not pids:
            pids.append(client.pid)
            stopped.stop(client.pid)

    error, took = _within(LIMIT_S + MARGIN_S, stopped, lambda: client.load(
        str(demo_model), LoadSettings(n_ctx=512, n_threads=1), on_progress=stop_on_first_tick),
        lambda: pids[0] if pids else None)
    assert isinstance(error, EngineUnresponsiveError), error
    assert "stopped responding" in str(error)
    assert took < LIMIT_S + MARGIN_S
    assert _gone(pids[0]) and not client.alive


@pytest.mark.model
def test_engine_stopped_during_prompt_evaluation(lean_client):
    client = lean_client
    client.timeout_s = LIMIT_S
    pid = client.pid
    stopped = Stopwatch()
    threading.Timer(0.1, stopped.stop, (pid,)).start()
    error, took = _within(LIMIT_S + MARGIN_S, stopped, lambda: client.generate(LONG_PROMPT), lambda: pid)
    assert isinstance(error, EngineUnresponsiveError), error
    assert took < LIMIT_S + MARGIN_S
    assert _gone(pid)


@pytest.mark.model
def test_a_long_alive_generation_is_not_ended(lean_client):
    """200 tokens with a limit far below the whole generation's time: steps and answers to the caller's
    questions keep it alive."""
    client = lean_client
    client.timeout_s = 1.0
    result = client.generate(GenerateRequest(prompt="1, 2, 3, 4, 5,", settings=PRESETS["Greedy"],
                                             options=DecodeOptions(max_tokens=200)))
    assert result.finish_reason == "length" and result.timings.n_gen == 200


@pytest.mark.model
def test_a_silent_but_alive_engine_is_not_ended(lean_client):
    """A long prompt evaluation sends nothing until the first token, for longer than the limit here; the
    engine still answers while llama.cpp works, so it is left alone."""
    client = lean_client
    client.timeout_s = 0.3
    start = time.monotonic()
    result = client.generate(QUIET_PROMPT)
    assert time.monotonic() - start > 0.3  # it really was quiet for longer than the limit
    assert result.timings.n_gen >= 1 and client.alive


@pytest.mark.model
def test_a_busy_main_thread_still_answers(lean_client):
    """The engine's main thread busy for 3 s without a word (a test hook): alive, so not ended."""
    lean_client.timeout_s = 0.5
    start = time.monotonic()
    assert lean_client.call("stall", seconds=3.0) == "done"
    assert time.monotonic() - start >= 3.0 and lean_client.alive


@pytest.mark.model
def test_stopped_engine_and_cancel_ends_it_quickly(lean_client):
    """Asked to stop, a live engine answers within a token; one that does not answer within
    CANCEL_TIMEOUT_S is ended (so Ctrl+C and Stop never wait the whole timeout)."""
    from logitscope.host.client import CANCEL_TIMEOUT_S

    client = lean_client
    client.timeout_s = 60.0
    pid = client.pid
    stopped, steps = Stopwatch(), []

    def stop_then_cancel(step) -> None:
        steps.append(step)
        if len(steps) == 5:
            stopped.stop(pid)
            client.cancel()

    error, took = _within(CANCEL_TIMEOUT_S + MARGIN_S, stopped,
                          lambda: client.generate(LONG, on_step=stop_then_cancel), lambda: pid)
    assert isinstance(error, EngineUnresponsiveError), error
    assert "did not answer the request to stop" in str(error)
    assert CANCEL_TIMEOUT_S <= took < CANCEL_TIMEOUT_S + MARGIN_S
    assert _gone(pid)


def test_unresponsive_is_a_kind_of_crash():
    """Callers that handle a crash (offer to reload) handle this too."""
    assert issubclass(EngineUnresponsiveError, EngineCrashedError)


def test_the_timeout_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv(TIMEOUT_ENV, "120")
    assert EngineClient().timeout_s == 120.0
    monkeypatch.setenv(TIMEOUT_ENV, "0")  # 0: never (e.g. with a debugger attached to the engine)
    assert EngineClient().timeout_s is None
    monkeypatch.setenv(TIMEOUT_ENV, "soon")  # unusable: the default, and a warning in the log
    from logitscope.host.client import DEFAULT_TIMEOUT_S

    assert EngineClient().timeout_s == DEFAULT_TIMEOUT_S
    monkeypatch.delenv(TIMEOUT_ENV)
    assert EngineClient().timeout_s == DEFAULT_TIMEOUT_S


@pytest.mark.model
def test_an_interrupted_call_ends_the_engine(lean_client):
    client = lean_client
    """A call broken off on the caller's side (Ctrl+C, a failing callback) leaves the engine mid-call; its
    late answers would be taken for the next call's, so the engine is ended at once."""
    pid = client.pid

    def fail(step) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        client.generate(LONG, on_step=fail)
    assert _gone(pid, 1.0) and not client.alive
