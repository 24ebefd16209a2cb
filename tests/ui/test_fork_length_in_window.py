"""A fork of an answer the user stopped grows no longer than it did: real window, real engine, demo model."""

from __future__ import annotations

import pytest

from tests.helpers.window import GEN_TIMEOUT_MS

pytestmark = pytest.mark.gui

STOP_AT = 12   # steps: the stop lands at the next streamed batch, so the answer may hold a few more


def test_a_fork_of_a_stopped_answer_keeps_its_length(qtbot, real_window):
    w = real_window
    w.sampler.max_tokens.setValue(512)

    def stop_when_long(_turn: int, _steps: list) -> None:
        answer = w.current.turns[-1].answer
        if answer is not None and len(answer.steps) >= STOP_AT:
            w.stop()

    w.session.stepsArrived.connect(stop_when_long)
    with qtbot.waitSignal(w.session.answerEnded, timeout=GEN_TIMEOUT_MS):
        w.send("Write a long story about a dragon who learns to paint.")
    w.session.stepsArrived.disconnect(stop_when_long)
    source = w.current.turns[0].answer
    assert source.status == "stopped" and STOP_AT <= len(source.steps) < 512
    step = source.steps[3]
    forced = next(t for t in step.raw_ids.tolist() if t != step.token)
    with qtbot.waitSignal(w.session.answerEnded, timeout=GEN_TIMEOUT_MS):
        w.fork(0, 3, forced)
    fork = w.current.turns[0].answer
    assert fork is not source and fork.steps[3].token == forced
    assert fork.result.finish_reason == "length" and len(fork.steps) == len(source.steps)
