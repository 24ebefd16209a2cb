"""Across the bridge, outcomes are typed (the error object itself), never strings the window compares:
a user's cancel is told apart from a failure by its type. Fast tier (scripted engine)."""

from __future__ import annotations

import pytest

from logitscope.base.errors import LoadCancelledError, ModelLoadError
from logitscope.host.client import CancelledError
from logitscope.protocol.api import LoadSettings

pytestmark = pytest.mark.gui


def test_a_cancelled_load_is_a_typed_outcome_and_no_error_box(qtbot, scripted_window):
    window = scripted_window
    engine = window.bridge.local
    engine.load_error = LoadCancelledError("whatever the text says")
    with qtbot.waitSignal(window.bridge.loadFailed, timeout=5_000) as blocker:
        window.bridge.load("demo.gguf", LoadSettings())
    assert isinstance(blocker.args[0], LoadCancelledError)
    assert not hasattr(window, "last_error")
    engine.load_error = ModelLoadError("unknown model architecture: 'frobnicator'")
    with qtbot.waitSignal(window.bridge.loadFailed, timeout=5_000):
        window.bridge.load("bad.gguf", LoadSettings())
    assert window.last_error[0] == "The model could not be loaded" and "frobnicator" in window.last_error[1]


def test_a_cancel_between_the_load_and_its_vocabulary_is_a_cancelled_load(qtbot, scripted_window, monkeypatch):
    """Cancel pressed as the load ended: the job's next call (the vocabulary) was refused with CancelledError,
    which the window took for a failure and showed in an error box (a race seen once in the full suite)."""
    window = scripted_window
    engine = window.bridge.local

    real_vocab = engine.vocab

    def cancelled_once() -> list[bytes]:   # the previous model's reload then takes its vocabulary as usual
        monkeypatch.setattr(engine, "vocab", real_vocab)
        raise CancelledError("cancelled")

    monkeypatch.setattr(engine, "vocab", cancelled_once)
    failures = []
    window.bridge.loadFailed.connect(failures.append)
    with qtbot.waitSignal(window.bridge.loaded, timeout=5_000):   # the model before is back
        window.bridge.load("another.gguf", LoadSettings())
    assert [type(f) for f in failures] == [LoadCancelledError] and not hasattr(window, "last_error")


def test_a_stop_reported_as_cancelled_error_marks_the_answer_stopped_without_a_message(qtbot, scripted_window):
    window = scripted_window
    window.bridge.local.fail_with = CancelledError("stopped")
    with qtbot.waitSignal(window.bridge.generationFailed, timeout=5_000) as blocker:
        window.send("Say hi.")
    assert isinstance(blocker.args[0], CancelledError)
    qtbot.waitUntil(lambda: window.streaming is None)
    assert window.current.turns[0].answer.status == "stopped" and not hasattr(window, "last_error")


def test_a_call_after_shutdown_is_dropped_not_raised(qtbot, scripted_window):
    """A debounced settings check fired after the window closed: the bridge's pool was shut down and the
    call raised inside Qt's event loop (a traceback on closing). After shutdown a call is simply dropped."""
    bridge = scripted_window.bridge
    bridge.shutdown()
    answers: list[object] = []
    future = bridge.call(lambda client: 42, done=answers.append)
    qtbot.wait(50)
    assert future.cancelled() and answers == [] and not bridge.busy
