"""The thread count on the real engine: tuned when the load chose none (the trace's done line says which count
each step ran with), fixed when it did; with another process keeping a core busy the tuner moves to fewer threads
during the answer, and the answer is the same token for token (a forward pass gives the same logits with any
thread count). No timing assertion: the speed figures are `bench --contention`'s."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import GenerationResult, result_to_json

pytestmark = pytest.mark.model
QUESTION = "Tell me a long story about a lighthouse keeper."


def _answer(engine, max_tokens: int) -> GenerationResult:
    events = list(engine.generate(GenerateRequest(messages=[ChatMessage("user", QUESTION)], settings=PRESETS["Greedy"],
                                                  options=DecodeOptions(max_tokens=max_tokens))))
    result = events[-1]
    assert isinstance(result, GenerationResult)
    return result


def test_a_load_without_a_count_is_tuned_and_the_trace_says_so(engine) -> None:
    from logitscope.engine.handles import default_threads

    result = _answer(engine, 16)
    threads = result_to_json(result)["threads"]
    assert threads["auto"] is True and threads["runs"][0] == [0, threads["start"]]
    assert 1 <= threads["start"] <= default_threads()


def test_a_count_chosen_when_loading_stays(demo_model: Path) -> None:
    from logitscope.engine.core import Engine

    engine = Engine()
    engine.load(demo_model, LoadSettings(n_ctx=512, n_threads=1))
    try:
        threads = _answer(engine, 12).threads
    finally:
        engine.unload()
    assert threads == {"auto": False, "start": 1, "runs": [[0, 1]], "changes": []}


def test_a_busy_core_moves_it_to_fewer_threads_and_the_answer_is_the_same(demo_model: Path) -> None:
    from logitscope.engine.core import Engine
    from logitscope.system.threads import available_cpus

    if available_cpus() < 2:
        pytest.skip("one CPU: there is no other thread count to move to")
    engine = Engine()
    engine.load(demo_model, LoadSettings(n_ctx=1024))
    try:
        quiet = _answer(engine, 160)
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        try:
            loaded = _answer(engine, 160)
        finally:
            busy.kill()
            busy.wait()
    finally:
        engine.unload()
    assert loaded.tokens == quiet.tokens
    # while the core was taken, most steps ran with fewer threads than cores (the tuner may have moved already:
    # a machine running other tests is busy too)
    runs, n = loaded.threads["runs"], len(loaded.tokens)
    ends = [start for start, _count in runs[1:]] + [n]
    fewer = sum(end - start for (start, count), end in zip(runs, ends, strict=True) if count < available_cpus())
    assert fewer >= 0.6 * n, loaded.threads
