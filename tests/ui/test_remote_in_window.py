"""The window over a remote engine: llama-cpp-python's real OpenAI-compatible server with the demo model."""

from __future__ import annotations

import math

import pytest

from tests.helpers.window import GEN_TIMEOUT_MS

pytestmark = pytest.mark.gui


def token_text(step) -> str:  # noqa: ANN001
    from html import escape

    from logitscope.ui.common.tokens import token_label

    return escape(token_label(step.piece))


def test_chat_with_a_remote_server_and_inspect_what_it_reports(qtbot, real_window, real_server):
    from logitscope.host.remote import RemoteEngine

    with qtbot.waitSignal(real_window.bridge.remoteConnected, timeout=30_000):
        real_window.connect_server(RemoteEngine(real_server.url, api_key=real_server.api_key))
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
    assert "remote" in real_window.status_backend.text() and "@" in real_window.windowTitle()
    assert real_window.bridge.local.pid is None  # the local engine process was ended
    real_window.sampler.max_tokens.setValue(12)
    with qtbot.waitSignal(real_window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        real_window.send("What is the capital of France?")
    qtbot.waitUntil(lambda: real_window.streaming is None, timeout=5_000)
    answer = real_window.current.turns[-1].answer
    assert answer.status == "done" and answer.steps and answer.text
    step = answer.steps[0]
    assert step.raw_pieces and not math.isnan(step.p_raw)  # alternatives come with their text
    real_window.select_step(0, 0)
    assert "Step 0" in real_window.distribution.caption.text()
    labels = [row.label for row in real_window.distribution.model.rows]
    assert any(label.strip("▶ ") for label in labels)
    assert "does not report" in real_window.waterfall.caption.text()
    assert token_text(step) in real_window.chat.answers[0].view.tooltip_html(step)
    # forking needs token ids: refused with a message, nothing breaks
    real_window.fork(0, 1, 42)
    assert real_window.streaming is None and len(real_window.current.turns[0].answers) == 1
    # the history records which server produced the answer
    message = real_window.history.store.message(answer.store_id)
    assert message.model is not None and real_server.url in message.model.file_name
    # and the local model comes back when one is loaded
    with qtbot.waitSignal(real_window.bridge.loaded, timeout=30_000):
        real_window.open_model(str(real_window.bridge.local.last_load[0]), ask=False)
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
    assert real_window.bridge.remote is None and real_window.bridge.local.pid is not None
