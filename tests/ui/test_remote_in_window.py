"""The window over a remote engine: llama-cpp-python's real OpenAI-compatible server with the demo model."""

from __future__ import annotations

import math

import pytest

from tests.ui.conftest import GEN_TIMEOUT_MS

pytestmark = pytest.mark.gui


def token_text(step) -> str:  # noqa: ANN001
    from html import escape

    from logitscope.ui.common.tokens import token_label

    return escape(token_label(step.piece))


def test_chat_with_a_remote_server_and_inspect_what_it_reports(qtbot, window, real_server):
    from logitscope.host.remote import RemoteEngine

    with qtbot.waitSignal(window.bridge.remoteConnected, timeout=30_000):
        window.connect_server(RemoteEngine(real_server.url, api_key=real_server.api_key))
    qtbot.waitUntil(lambda: not window.bridge.busy, timeout=10_000)
    assert "remote" in window.status_backend.text() and "@" in window.windowTitle()
    assert window.bridge.local.pid is None  # the local engine process was ended
    window.sampler.max_tokens.setValue(12)
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        window.send("What is the capital of France?")
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)
    answer = window.current.turns[-1].answer
    assert answer.status == "done" and answer.steps and answer.text
    step = answer.steps[0]
    assert step.raw_pieces and not math.isnan(step.p_raw)  # alternatives come with their text
    window.select_step(0, 0)
    assert "Step 0" in window.distribution.caption.text()
    labels = [row.label for row in window.distribution.model.rows]
    assert any(label.strip("▶ ") for label in labels)
    assert "does not report" in window.waterfall.caption.text()
    assert token_text(step) in window.chat.answers[0].view.tooltip_html(step)
    # forking needs token ids: refused with a message, nothing breaks
    window.fork(0, 1, 42)
    assert window.streaming is None and len(window.current.turns[0].answers) == 1
    # the history records which server produced the answer
    message = window.history.store.message(answer.store_id)
    assert message.model is not None and real_server.url in message.model.file_name
    # and the local model comes back when one is loaded
    with qtbot.waitSignal(window.bridge.loaded, timeout=30_000):
        window.open_model(str(window.bridge.local.last_load[0]), ask=False)
    qtbot.waitUntil(lambda: not window.bridge.busy, timeout=10_000)
    assert window.bridge.remote is None and window.bridge.local.pid is not None
