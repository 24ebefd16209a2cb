"""A question's attached files through the session: sent to the engine rendered into the message, saved with
it, kept by regenerate and edit, and read back from the history so a reloaded chat sends the same prompt."""

from __future__ import annotations

import pytest

from logitscope.protocol.api import DecodeOptions, LoadSettings
from logitscope.protocol.attachments import Attachment, render_message
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.session.conversation import Conversation
from logitscope.session.history import ChatHistory
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity
from tests.helpers.scripted_engine import ScriptedEngine

pytestmark = pytest.mark.gui
NOTES = Attachment("notes.md", "# Plan\n- ship it\n")


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


def test_attached_files_are_sent_saved_regenerated_edited_and_reloaded(qtbot, session, scripted):
    answered(qtbot, session, lambda: session.send("Summarise.", [NOTES]))
    content = render_message("Summarise.", [NOTES])
    assert scripted.requests[-1].messages[-1].content == content
    turn = session.current.turns[0]
    stored = session.history.store.message(turn.store_id)
    assert (stored.content, stored.attachments) == ("Summarise.", [NOTES.to_dict()])   # kept apart from the text
    answered(qtbot, session, lambda: session.regenerate(0))
    assert scripted.requests[-1].messages[-1].content == content
    answered(qtbot, session, lambda: session.edit(0, "Summarise briefly."))
    assert scripted.requests[-1].messages[-1].content == render_message("Summarise briefly.", [NOTES])
    answered(qtbot, session, lambda: session.send("And the risks?"))
    sent = scripted.requests[-1].messages

    reloaded = Conversation(store_id=session.current.store_id, loaded=False)
    session.history.fill(reloaded)
    assert reloaded.turns[0].attachments == (NOTES,) and reloaded.turns[1].attachments == ()
    assert reloaded.messages_for(1) == sent      # the same prompt as before the reload
    reloaded.switch_question(0, 0)
    assert reloaded.turns[0].user == "Summarise." and reloaded.turns[0].attachments == (NOTES,)


def test_files_alone_can_be_sent_and_name_the_chat(qtbot, session, scripted):
    answered(qtbot, session, lambda: session.send("", [NOTES]))
    assert session.current.title == "notes.md"
    assert scripted.requests[-1].messages[-1].content == render_message("", [NOTES])
    assert not session.send("", [])
