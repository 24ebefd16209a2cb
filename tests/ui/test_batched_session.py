"""Regenerate xN in the chat session (fast tier, scripted engine): N versions decoded together, each saved with its
own seed and steps, the first streaming on screen, a stop or a failure ending every one of them."""

from __future__ import annotations

import threading

import pytest

from logitscope.base.errors import ContextOverflowError
from logitscope.session.history import ChatHistory
from logitscope.store.history import HistoryStore
from tests.ui.test_session_controller import answered, scripted, session  # noqa: F401 - the fixtures

pytestmark = pytest.mark.gui


def test_regenerate_many_adds_every_version_with_its_own_seed_and_steps(qtbot, session, scripted, recording):  # noqa: F811
    answered(qtbot, session, lambda: session.send("Say hi."))
    on_screen, notices = [], []
    session.stepsArrived.connect(lambda index, steps: on_screen.extend(steps))
    session.notice.connect(notices.append)
    answered(qtbot, session, lambda: session.regenerate(0, 3))
    turn = session.current.turns[0]
    assert len(turn.answers) == 4 and turn.active == 1 and session.streaming is None
    batch = turn.answers[1:]
    seeds = [a.settings["seed"] for a in batch]
    assert seeds == [seeds[0], seeds[0] + 1, seeds[0] + 2]
    for k, answer in enumerate(batch):
        steps, _ = recording.answers[(1 + k) % len(recording.answers)]
        assert answer.status == "done" and [s.token for s in answer.steps] == [s.token for s in steps]
        assert answer.result is not None and answer.result.settings["batch"]["answer"] == k
    assert [s.token for s in on_screen] == [s.token for s in batch[0].steps]  # only the version on screen streamed
    assert any("3 answers in" in n and "decoded together" in n for n in notices)
    again = ChatHistory(HistoryStore(session.history.store.path))   # every version is in the history
    try:
        (saved,) = again.conversations()
        again.fill(saved)
        assert [a.text for a in saved.turns[0].answers[1:]] == [a.text for a in batch]
    finally:
        again.close()
    assert session.switch_answer(0, 3) and session.current.turns[0].answer is batch[2]


def test_a_stop_ends_every_version_with_what_it_has(qtbot, session, scripted):  # noqa: F811
    answered(qtbot, session, lambda: session.send("Say hi."))
    scripted.gate = threading.Event()
    assert session.regenerate(0, 2)
    qtbot.waitUntil(lambda: len(scripted.requests) == 2)
    session.stop()
    with qtbot.waitSignal(session.answerEnded, timeout=10_000):
        scripted.gate.set()
    assert [a.status for a in session.current.turns[0].answers[1:]] == ["stopped", "stopped"]
    assert not session.busy


def test_a_failed_batch_marks_every_version_and_the_session_goes_on(qtbot, session, scripted):  # noqa: F811
    answered(qtbot, session, lambda: session.send("Say hi."))
    scripted.fail_with = ContextOverflowError("the prompt needs 300 tokens; the context holds 256")
    answered(qtbot, session, lambda: session.regenerate(0, 2))
    assert [a.status for a in session.current.turns[0].answers[1:]] == ["error", "error"]
    assert not session.regenerate(0, 9) and not session.regenerate(0, 1 - 2)
    answered(qtbot, session, lambda: session.regenerate(0))


def test_a_batch_the_engine_would_refuse_opens_no_versions(qtbot, session, scripted):  # noqa: F811
    from dataclasses import replace

    from logitscope.protocol.causal import Ablation

    answered(qtbot, session, lambda: session.send("Say hi."))
    notices: list[str] = []
    session.notice.connect(notices.append)
    session.services = replace(session.services, knockouts=lambda: (Ablation(1, head=1),))
    requests = len(scripted.requests)
    assert not session.regenerate(0, 3)
    assert len(session.current.turns[0].answers) == 1 and not session.busy and len(scripted.requests) == requests
    assert notices == ["Not sent: answers in a batch are made without knocked-out heads or blocks: clear them in "
                       "Causal tracing first"]   # (a knocked-out FFN block was called a head)
    again = ChatHistory(HistoryStore(session.history.store.path))   # nothing empty was saved either
    try:
        (saved,) = again.conversations()
        again.fill(saved)
        assert len(saved.turns[0].answers) == 1
    finally:
        again.close()
