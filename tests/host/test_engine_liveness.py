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

from logitscope.engine.api import DecodeOptions, GenerateRequest, LoadSettings
from logitscope.engine.sampler import PRESETS
from logitscope.errors import EngineCrashedError, EngineUnresponsiveError
from logitscope.host.client import TIMEOUT_ENV, EngineClient

LIMIT_S = 2.5   # short, for the tests; the default is generous (client.DEFAULT_TIMEOUT_S)
MARGIN_S = 3.0  # process ending, reaping and a busy shared test machine
LONG = GenerateRequest(prompt="1, 2, 3, 4, 5,", settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=3000))
LONG_PROMPT = GenerateRequest(prompt="word " * 1800, settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=4))


def _within(seconds: float, fn: Callable[[], Any], on_overrun: Callable[[], None]) -> Any:
    """fn() on a helper thread; if it has not finished after `seconds`, on_overrun() frees it and the test
    fails (without the fix the call waits forever)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        on_overrun()
        worker.join(10)
        pytest.fail(f"still waiting after {seconds} s")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def _gone(pid: int, wait_s: float = 2.0) -> bool:
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if not os.path.exists(f"/proc/{pid}"):
            return True
        time.sleep(0.05)
    return False


def _force_end(pid: int) -> Callable[[], None]:
    def end() -> None:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return end


def test_engine_stopped_mid_generation_is_ended_with_a_clear_error(client):
    client.timeout_s = LIMIT_S
    pid = client.pid
    steps = []

    def stop_after_some_tokens(step) -> None:
        steps.append(step)
        if len(steps) == 5:
            os.kill(pid, signal.SIGSTOP)

    start = time.monotonic()
    with pytest.raises(EngineUnresponsiveError, match=r"stopped responding \(no sign of life for 2\.5 s\)"):
        _within(LIMIT_S + MARGIN_S + 5, lambda: client.generate(LONG, on_step=stop_after_some_tokens),
                _force_end(pid))
    assert time.monotonic() - start < LIMIT_S + MARGIN_S
    assert len(steps) >= 5
    assert _gone(pid) and not client.alive
    client.reload()  # a fresh engine, as after a crash
    assert client.generate(GenerateRequest(prompt="Hi", options=DecodeOptions(max_tokens=2))).tokens


def test_engine_stopped_during_load(client, demo_model):
    client.timeout_s = LIMIT_S
    stopped: list[int] = []

    def stop_on_first_tick(_fraction: float) -> None:
        if not stopped:
            stopped.append(client.pid)
            os.kill(client.pid, signal.SIGSTOP)

    start = time.monotonic()
    with pytest.raises(EngineUnresponsiveError, match="stopped responding"):
        _within(LIMIT_S + MARGIN_S + 5,
                lambda: client.load(str(demo_model), LoadSettings(n_ctx=512), on_progress=stop_on_first_tick),
                lambda: stopped and _force_end(stopped[0])())
    assert time.monotonic() - start < LIMIT_S + MARGIN_S + 2  # + the engine's start
    assert stopped and _gone(stopped[0])


def test_engine_stopped_during_prompt_evaluation(client):
    client.timeout_s = LIMIT_S
    pid = client.pid
    threading.Timer(0.2, os.kill, (pid, signal.SIGSTOP)).start()
    start = time.monotonic()
    with pytest.raises(EngineUnresponsiveError, match="stopped responding"):
        _within(LIMIT_S + MARGIN_S + 5, lambda: client.generate(LONG_PROMPT), _force_end(pid))
    assert time.monotonic() - start < LIMIT_S + MARGIN_S + 0.2
    assert _gone(pid)


def test_a_long_alive_generation_is_not_ended(client):
    """200 tokens with a limit far below the whole generation's time: steps and answers to the caller's
    questions keep it alive."""
    client.timeout_s = 1.0
    result = client.generate(GenerateRequest(prompt="1, 2, 3, 4, 5,", settings=PRESETS["Greedy"],
                                             options=DecodeOptions(max_tokens=200)))
    assert result.finish_reason == "length" and result.timings.n_gen == 200


def test_a_silent_but_alive_engine_is_not_ended(client):
    """A long prompt evaluation sends nothing until the first token, for longer than the limit here; the
    engine still answers while llama.cpp works, so it is left alone."""
    client.timeout_s = 0.4
    start = time.monotonic()
    result = client.generate(LONG_PROMPT)
    assert time.monotonic() - start > 0.4  # it really was quiet for longer than the limit
    assert result.timings.n_gen >= 1 and client.alive


def test_a_busy_main_thread_still_answers(client):
    """The engine's main thread busy for 3 s without a word (a test hook): alive, so not ended."""
    client.timeout_s = 0.5
    start = time.monotonic()
    assert client.call("stall", seconds=3.0) == "done"
    assert time.monotonic() - start >= 3.0 and client.alive


def test_stopped_engine_and_cancel_ends_it_quickly(client):
    """Asked to stop, a live engine answers within a token; one that does not answer within
    CANCEL_TIMEOUT_S is ended (so Ctrl+C and Stop never wait the whole timeout)."""
    from logitscope.host.client import CANCEL_TIMEOUT_S

    client.timeout_s = 60.0
    pid = client.pid
    steps = []

    def stop_then_cancel(step) -> None:
        steps.append(step)
        if len(steps) == 5:
            os.kill(pid, signal.SIGSTOP)
            threading.Timer(0.3, client.cancel).start()

    start = time.monotonic()
    with pytest.raises(EngineUnresponsiveError, match="did not answer the request to stop"):
        _within(CANCEL_TIMEOUT_S + MARGIN_S + 5, lambda: client.generate(LONG, on_step=stop_then_cancel),
                _force_end(pid))
    assert time.monotonic() - start < 0.3 + CANCEL_TIMEOUT_S + MARGIN_S
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


def test_an_interrupted_call_ends_the_engine(client):
    """A call broken off on the caller's side (Ctrl+C, a failing callback) leaves the engine mid-call; its
    late answers would be taken for the next call's, so the engine is ended at once."""
    pid = client.pid

    def fail(step) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        client.generate(LONG, on_step=fail)
    assert _gone(pid, 1.0) and not client.alive
