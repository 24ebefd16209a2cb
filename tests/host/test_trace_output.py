"""The engine process writes a local `generate --json`'s step lines itself, to the caller's output
(protocol/trace_lines.py): the same lines the caller would write, none sent to the caller, a full or closed
output one clear OSError that stops the answer and leaves the engine usable."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from logitscope.host.client import EngineClient
from logitscope.protocol.api import DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import step_to_json

pytestmark = pytest.mark.model

SHORT = GenerateRequest(prompt="The capital of France is", settings=PRESETS["Greedy"],
                        options=DecodeOptions(max_tokens=12))
LONG = GenerateRequest(prompt="1, 2, 3, 4, 5,", settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=3000))


def _read_lines(fd: int, n: int, into: list[bytes]) -> threading.Thread:
    def pump() -> None:
        with open(fd, "rb") as reader:
            into.extend(reader.readline() for _ in range(n))

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return thread


def _without_timing(line: dict) -> dict:
    return {k: v for k, v in line.items() if k != "latency_ms"}


def _same(a: object, b: object) -> bool:
    """Equal, numbers within the last printed digit (a float32 copy rounds the other way now and then)."""
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 1.5e-5 * max(1.0, abs(a))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def test_the_engine_writes_the_lines_the_caller_would(demo_model: Path):
    read_end, write_end = os.pipe()
    got: list[bytes] = []
    reader = _read_lines(read_end, 12, got)
    client = EngineClient(trace_output=write_end)
    os.close(write_end)  # the client keeps its own copy for every engine it starts
    try:
        client.load(str(demo_model), LoadSettings(n_ctx=2048))
        sent: list = []
        written = client.generate(SHORT, on_step=sent.append, trace_top=12)
        assert sent == []  # nothing crossed to the caller
        via_caller: list = []
        again = client.generate(SHORT, on_step=via_caller.append)
        vocab = client.vocab()
    finally:
        client.close()
    reader.join(10)
    lines = [json.loads(line) for line in got]
    assert [line["type"] for line in lines] == ["step"] * 12
    assert [line["token"] for line in lines] == written.tokens == again.tokens
    # the same lines, but for the caller's float32 copies (the steps cross packed as the history stores them):
    # the engine writes its own numbers, rounded as the schema says
    assert _same([_without_timing(line) for line in lines],
                 [_without_timing(step_to_json(step, vocab, top=12)) for step in via_caller])
    assert len(lines[0]["top_raw"]) == 12
    # greedy: one candidate left, its entropy 0 (written as -0.0 before)
    assert all(b'"entropy_final":0.0,' in raw for raw in got)


def test_a_closed_output_stops_the_answer_and_the_engine_goes_on(demo_model: Path):
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: the first flush fails with EPIPE
    client = EngineClient(trace_output=write_end)
    os.close(write_end)
    try:
        client.load(str(demo_model), LoadSettings(n_ctx=2048))
        with pytest.raises(BrokenPipeError):
            client.generate(LONG, trace_top=10)
        steps: list = []
        result = client.generate(SHORT, on_step=steps.append)  # the same engine: it stopped, not broke
        assert len(steps) == 12 and result.finish_reason == "length"
    finally:
        client.close()


def test_a_full_output_is_the_disk_full_error(demo_model: Path):
    with open("/dev/full", "w") as full:
        client = EngineClient(trace_output=full.fileno())
        try:
            client.load(str(demo_model), LoadSettings(n_ctx=2048))
            with pytest.raises(OSError) as caught:
                client.generate(LONG, trace_top=10)
        finally:
            client.close()
    assert caught.value.errno == 28 and "No space left on device" in str(caught.value)


def test_lines_need_a_client_made_with_an_output(client: EngineClient):
    with pytest.raises(ValueError, match="trace output"):
        client.generate(SHORT, trace_top=10)
