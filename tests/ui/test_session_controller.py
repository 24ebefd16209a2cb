"""The fast tier: the chat session's state machine (send, stop, failures, edit and regenerate earlier
turns, versions, history writes) without a window and without running the model per test. The engine
is scripted: it replays StepRecords recorded once from the real demo model (tests/helpers/scripted_engine.py)."""

from __future__ import annotations

import threading

import pytest

from logitscope.base.errors import ContextOverflowError
from logitscope.protocol.api import DecodeOptions, LoadSettings
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.session.history import ChatHistory
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity
from tests.helpers.scripted_engine import ScriptedEngine

pytestmark = pytest.mark.gui


@pytest.fixture
def scripted(recording):
    return ScriptedEngine(recording)


@pytest.fixture
def session(qtbot, tmp_path, scripted):
    from logitscope.ui.bridge import EngineBridge
    from logitscope.ui.controllers.session import SessionController, SessionServices

    bridge = EngineBridge(client=scripted)  # type: ignore[arg-type]
    history = ChatHistory(HistoryStore(tmp_path / "history.sqlite3"))
    services = SessionServices(sampler_settings=lambda: SamplerSettings(temperature=0.0),
                               decode_options=lambda forced: DecodeOptions(max_tokens=6, forced=forced),
                               model_name=lambda: "scripted", can_fork=lambda: True,
                               model_identity=lambda: ModelIdentity("demo.gguf", 0, ""))
    controller = SessionController(bridge, history, services)
    with qtbot.waitSignal(bridge.loaded, timeout=5_000):
        bridge.load("demo.gguf", LoadSettings())
    yield controller
    bridge.shutdown()
    history.close()


def answered(qtbot, session, action) -> None:
    with qtbot.waitSignal(session.answerEnded, timeout=10_000):
        assert action()


def users(session) -> list[str]:
    return [t.user for t in session.current.turns]


def test_an_answer_streams_in_and_is_saved(qtbot, session, recording):
    started, arrived = [], []
    session.answerStarted.connect(started.append)
    session.stepsArrived.connect(lambda index, steps: arrived.extend(steps))
    answered(qtbot, session, lambda: session.send("Say hi."))
    answer = session.current.turns[0].answer
    steps, result = recording.answers[0]
    assert started == [0] and answer.status == "done" and session.streaming is None
    assert [s.token for s in answer.steps] == [s.token for s in steps] == [s.token for s in arrived]
    assert session.current.title == "Say hi."
    store = session.history.store
    path = store.active_path(session.current.store_id)
    assert [m.role for m in path] == ["user", "assistant"] and path[1].content == answer.text == result.text


def test_editing_an_earlier_question_asks_the_model_the_new_branch_and_keeps_the_old(qtbot, session, scripted):
    answered(qtbot, session, lambda: session.send("Say hi."))
    answered(qtbot, session, lambda: session.send("Name a colour."))
    answered(qtbot, session, lambda: session.edit(0, "Say hello."))
    sent = [(m.role, m.content) for m in scripted.requests[-1].messages]
    assert sent == [("user", "Say hello.")]                     # nothing of the old branch reaches the model
    assert users(session) == ["Say hello."] and session.current.question_versions(0) == (1, 2)
    assert session.switch_question(0, 0)
    assert users(session) == ["Say hi.", "Name a colour."]
    again = ChatHistory(session.history.store)                   # the store holds the same tree, same branch
    (saved,) = again.conversations()
    again.fill(saved)
    assert [t.user for t in saved.turns] == ["Say hi.", "Name a colour."]
    assert saved.question_versions(0) == (0, 2)


def test_regenerating_an_earlier_answer_keeps_the_later_turns_under_the_old_one(qtbot, session, scripted):
    answered(qtbot, session, lambda: session.send("Say hi."))
    answered(qtbot, session, lambda: session.send("Name a colour."))
    answered(qtbot, session, lambda: session.regenerate(0))
    assert [(m.role) for m in scripted.requests[-1].messages] == ["user"]
    assert users(session) == ["Say hi."] and len(session.current.turns[0].answers) == 2
    assert session.switch_answer(0, 0)
    assert users(session) == ["Say hi.", "Name a colour."]


def test_a_fork_is_saved_with_where_it_left_its_source(qtbot, session, recording):
    answered(qtbot, session, lambda: session.send("Say hi."))
    source = session.current.turns[0].answer
    forced = next(t for t in source.steps[2].raw_ids.tolist() if t != source.steps[2].token)
    answered(qtbot, session, lambda: session.fork(0, 2, forced))
    again = ChatHistory(HistoryStore(session.history.store.path))   # as after a restart
    try:
        (saved,) = again.conversations()
        again.fill(saved)
        old, fork = saved.turns[0].answers
        assert (fork.forked_at, fork.prefix_steps) == (2, 2)
        assert (old.forked_at, old.prefix_steps) == (None, 0)
    finally:
        again.close()


class CountedGate:
    """Lets `n` steps through, then holds each until opened (a ScriptedEngine gate)."""

    def __init__(self, n: int) -> None:
        self.left, self.opened = n, threading.Event()

    def wait(self, timeout: float) -> bool:
        if self.left > 0:
            self.left -= 1
            return True
        return self.opened.wait(timeout)


def test_a_fork_of_a_stopped_answer_grows_no_longer_than_it(qtbot, session, scripted):
    scripted.gate = gate = CountedGate(4)
    session.send("Say hi.")
    source = session.current.turns[0].answer
    qtbot.waitUntil(lambda: len(source.steps) == 4, timeout=10_000)
    session.stop()
    with qtbot.waitSignal(session.answerEnded, timeout=10_000):
        gate.opened.set()
    assert source.status == "stopped" and len(source.steps) == 4
    forced = next(t for t in source.steps[1].raw_ids.tolist() if t != source.steps[1].token)
    answered(qtbot, session, lambda: session.fork(0, 1, forced))
    assert scripted.requests[-1].options.max_tokens == 3   # 1 copied + 3 new: the 4 it was stopped at
    assert scripted.requests[-1].options.forced == (forced,)
    answered(qtbot, session, lambda: session.fork(0, 1, forced))   # a fork of a finished answer: the sliders' max
    assert scripted.requests[-1].options.max_tokens == 6


def test_stop_keeps_the_partial_answer_marked_stopped(qtbot, session, scripted):
    scripted.gate = threading.Event()
    session.send("Count to three.")
    qtbot.waitUntil(lambda: bool(scripted.requests))   # the engine is answering
    session.stop()
    with qtbot.waitSignal(session.answerEnded, timeout=10_000):
        scripted.gate.set()
    answer = session.current.turns[0].answer
    assert answer.status == "stopped" and not answer.error


def test_a_failed_answer_carries_the_error_and_the_session_goes_on(qtbot, session, scripted):
    failures = []
    session.failed.connect(failures.append)
    scripted.fail_with = ContextOverflowError("the prompt needs 300 tokens; the context holds 256")
    answered(qtbot, session, lambda: session.send("Say hi."))
    answer = session.current.turns[0].answer
    assert answer.status == "error" and "context holds 256" in answer.error
    assert failures == [answer.error]
    answered(qtbot, session, lambda: session.regenerate(0))
    assert session.current.turns[0].answer.status == "done"
