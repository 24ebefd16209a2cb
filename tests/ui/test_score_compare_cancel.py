"""The Score dialog's comparison engine never drops a cancel: pressed before its job runs, or between its load,
vocabulary and score calls, it stops every call left (the job's own cancel token, not a flag the next call
clears). Real engine processes, demo model; the moment between two calls is made exact by a client that
cancels as its vocabulary call returns."""

from __future__ import annotations

from logitscope.host.client import EngineClient
from logitscope.host.score_compare import scoring_settings
from logitscope.protocol.score import ScoreRequest
from logitscope.ui.score.compare import CompareEngine

TEXT = "The lighthouse keeper climbed the stairs every evening to light the lamp for the ships at sea."
TIMEOUT_MS = 120_000


def _engine(qtbot):
    compare = CompareEngine()
    events: dict[str, list[object]] = {"loading": [], "scoring": [], "done": [], "failed": []}
    for name, found in events.items():
        getattr(compare, name).connect(found.append)
    return compare, events


def _ended(qtbot, compare: CompareEngine, events: dict[str, list[object]]) -> None:
    qtbot.waitUntil(lambda: bool(events["done"] or events["failed"]), timeout=TIMEOUT_MS)
    qtbot.wait(300)   # anything the worker would still emit


def _cancelled_at_once(qtbot, compare, events, path: str, vocab: list[bytes]) -> None:
    for found in events.values():
        found.clear()
    compare.score(path, scoring_settings(), ScoreRequest(text=TEXT), vocab)
    compare.cancel()   # before the worker's first call (which once cleared the cancel as it started)
    _ended(qtbot, compare, events)
    assert events["failed"] and not events["done"] and not events["scoring"], events
    assert "cancelled" in str(events["failed"][0])


def test_a_cancel_right_after_the_request_stops_it_before_anything_runs(qtbot, client, demo_model) -> None:
    compare, events = _engine(qtbot)
    path, vocab = str(demo_model), client.vocab()
    try:
        _cancelled_at_once(qtbot, compare, events, path, vocab)   # no engine process yet
        events["failed"].clear()
        compare.score(path, scoring_settings(), ScoreRequest(text=TEXT), vocab)
        _ended(qtbot, compare, events)
        assert events["done"] and not events["failed"], events
        _cancelled_at_once(qtbot, compare, events, path, vocab)   # the model loaded: vocabulary, then score
    finally:
        compare.close()


class _CancelAfterVocabulary(EngineClient):
    """A real engine client; the user's Cancel lands right after its vocabulary call returns."""

    compare: CompareEngine | None = None

    def vocab(self) -> list[bytes]:
        own = super().vocab()
        if self.compare is not None:
            self.compare.cancel()
        return own


def test_a_cancel_between_the_vocabulary_and_the_score_stops_the_score(qtbot, client, demo_model) -> None:
    compare, events = _engine(qtbot)
    hooked = _CancelAfterVocabulary()
    hooked.compare, compare.client = compare, hooked
    path, vocab = str(demo_model), client.vocab()
    try:
        compare.score(path, scoring_settings(), ScoreRequest(text=TEXT), vocab)
        _ended(qtbot, compare, events)
        assert events["loading"] and events["loading"][-1] == 1.0   # the load ran to its end
        assert events["failed"] and not events["done"] and not events["scoring"], events
        assert "cancelled" in str(events["failed"][0])
        # the next comparison runs (no cancel left behind for it)
        hooked.compare = None
        events["failed"].clear()
        compare.score(path, scoring_settings(), ScoreRequest(text=TEXT), vocab)
        _ended(qtbot, compare, events)
        assert events["done"] and not events["failed"], events
    finally:
        compare.close()
