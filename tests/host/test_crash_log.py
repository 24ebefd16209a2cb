"""A crash message quotes the log lines that speak of the failure, never a routine line that came last."""

from __future__ import annotations

import pytest

from logitscope.base.errors import EngineCrashedError
from logitscope.host.crash_log import crash_hint, meaningful_lines

ROUTINE = [  # what llama.cpp logs while loading the demo model (captured from the engine process)
    "logitscope.llama: llama_kv_cache: size =   45.00 MiB (  2048 cells,  30 layers,  1/1 seqs)",
    "logitscope.llama: resolve_fused_ops: fused DeepSeek V4 HC post enabled",
    "logitscope.llama: sched_reserve: graph: nodes = 1086, splits = 1, input objects = 4, input tensors = 6",
    "logitscope.llama: sched_reserve: reserve took 5.93 ms, sched copies = 1",
]


def test_routine_lines_are_not_a_reason():
    assert meaningful_lines(ROUTINE) == [] and crash_hint(ROUTINE) == ""


def test_the_failed_check_is_kept_over_later_lines():
    tail = [*ROUTINE[:2], "logitscope.llama: /src/ggml.c:1234: GGML_ASSERT(n_tokens <= n_batch) failed",
            "logitscope.llama: error: decode failed", *ROUTINE[2:]]
    assert meaningful_lines(tail) == ["/src/ggml.c:1234: GGML_ASSERT(n_tokens <= n_batch) failed",
                                      "error: decode failed"]
    assert crash_hint(tail).startswith("/src/ggml.c:1234: GGML_ASSERT")


def test_the_last_telling_lines_in_order():
    tail = ["llama_model_load: error loading model: tensor 'x' is corrupt", *ROUTINE,
            "Fatal Python error: Aborted", *ROUTINE]
    assert crash_hint(tail) == "llama_model_load: error loading model: tensor 'x' is corrupt / Fatal Python error: Aborted"


def test_a_real_crash_does_not_quote_a_routine_line(client):
    with pytest.raises(EngineCrashedError) as caught:
        client.call("crash", how="abort")
    message = str(caught.value)
    assert "SIGABRT" in message
    assert not any(line.removeprefix("logitscope.llama: ").strip() in message
                   for line in caught.value.log_tail if not meaningful_lines([line])), message
    assert any(not meaningful_lines([line]) for line in caught.value.log_tail)  # there were routine lines
