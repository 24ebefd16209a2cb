"""A cancel token names the caller's own calls (host/client.py EngineClient.cancel_token): a call made inside the
block stops once the token is true; a call made outside it, afterwards, runs to the end. Real engine process."""

from __future__ import annotations

import pytest

from logitscope.host.client import CancelledError
from logitscope.protocol.score import ScoreRequest

TEXT = "The lamp was lit at dusk, and the keeper climbed the stairs to watch the ships pass in the night. " * 6


def test_a_token_stops_its_own_call_and_nothing_after_it(client) -> None:
    stop = [False]

    def progress(_fraction: float) -> None:
        stop[0] = True  # the job's Cancel, pressed once scoring is under way

    with client.cancel_token(lambda: stop[0]), pytest.raises(CancelledError):
        client.score(ScoreRequest(text=TEXT, n_ctx=32), on_progress=progress)
    # the token is gone with the block: the same flag does not reach the next call
    result = client.score(ScoreRequest(text=TEXT, n_ctx=32))
    assert result.n_scored == len(result.tokens) - 1
    with client.cancel_token(lambda: False):  # a token never set stops nothing
        assert client.score(ScoreRequest(text="Hello there, keeper.")).n_scored > 0
