"""A busy GUI never delays the engine: the GUI thread sleeps 2 s in the middle of an answer, and
no step of the engine takes anywhere near that long; nothing is lost either."""

from __future__ import annotations

import time

from tests.helpers.window import GEN_TIMEOUT_MS

N_TOKENS = 300
STALL_S = 2.0


def test_the_gui_thread_sleeping_mid_answer_delays_no_engine_step(qtbot, real_window):
    stalled: list[int] = []

    def stall(steps: list) -> None:  # a slot on the GUI thread, like any slow handler would be
        if not stalled and steps[-1].i >= 20:
            stalled.append(steps[-1].i)
            time.sleep(STALL_S)

    real_window.bridge.steps.connect(stall)
    real_window.sampler.max_tokens.setValue(N_TOKENS)
    with qtbot.waitSignal(real_window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS) as finished:
        real_window.send("Write a very long story about a dragon.")  # the demo model never ends it (greedy)
    result = finished.args[0]
    answer = real_window.current.turns[-1].answer
    assert stalled, "the GUI thread was never stalled: the test means nothing"
    assert result.timings.n_gen == N_TOKENS and len(answer.steps) == N_TOKENS  # nothing lost
    assert [s.i for s in answer.steps] == list(range(N_TOKENS))
    worst = max(s.latency_s for s in answer.steps[1:])
    assert worst < STALL_S / 2, f"an engine step took {worst:.2f} s while the GUI thread slept {STALL_S} s"
