"""The throttle every streaming panel uses: at once after a quiet interval (inside the caller's event, so
its repaint joins the chat's frame), at most once per interval, and never losing the last request."""

from __future__ import annotations

import time

from logitscope.ui.common.visibility import GRACE_MS, Coalescer


def _counted(interval_ms: int) -> tuple[Coalescer, list[float]]:
    calls: list[float] = []
    return Coalescer(interval_ms, lambda: calls.append(time.monotonic())), calls


def test_a_first_request_runs_at_once_in_the_callers_event(qtbot):
    coalescer, calls = _counted(300)
    coalescer.request()
    assert len(calls) == 1   # no event loop turn in between


def test_requests_within_the_interval_cost_one_call_and_the_last_is_not_lost(qtbot):
    coalescer, calls = _counted(200)
    coalescer.request()
    for _ in range(20):
        coalescer.request()
    assert len(calls) == 1
    qtbot.wait(200 + GRACE_MS + 100)   # no request after the interval: the timer brings the pending one
    assert len(calls) == 2
    assert calls[1] - calls[0] >= 0.2


def test_a_steady_stream_calls_once_per_interval_from_its_own_requests(qtbot):
    coalescer, calls = _counted(100)
    end = time.monotonic() + 1.0
    while time.monotonic() < end:   # a drain every 20 ms
        coalescer.request()
        qtbot.wait(20)
    assert 3 <= len(calls) <= 11, calls   # ~10; fewer only when a loaded machine stretches the waits
    gaps = [b - a for a, b in zip(calls, calls[1:], strict=False)]
    assert min(gaps) >= 0.1


def test_cancel_drops_the_pending_call_and_restarts_the_interval(qtbot):
    coalescer, calls = _counted(150)
    coalescer.request()
    coalescer.request()   # pending
    coalescer.cancel()    # done another way
    qtbot.wait(150 + GRACE_MS + 100)
    assert len(calls) == 1
    coalescer.cancel()
    coalescer.request()   # within the interval that cancel started: waits for it
    assert len(calls) == 1
    qtbot.waitUntil(lambda: len(calls) == 2, timeout=1_000)
