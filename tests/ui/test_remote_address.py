"""The server address in the window: a bad one is reported in the connect dialog (which stays open), and
a password in it is never shown (title, status bar, model card) nor stored in the history."""

from __future__ import annotations

import pytest

from tests.helpers.fake_server import FakeServer, chat_chunk, chat_logprob, chat_routes, data
from tests.helpers.window import GEN_TIMEOUT_MS

pytestmark = pytest.mark.gui


def test_the_connect_dialog_reports_a_bad_address_and_stays_open(qtbot):
    from logitscope.ui.dialogs.connect import ConnectDialog

    dialog = ConnectDialog("http://bob:hunter2@127.0.0.1:99999")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.accept()
    assert dialog.isVisible() and dialog.result() != ConnectDialog.DialogCode.Accepted
    assert "must be between 1 and 65535" in dialog.status.text() and "hunter2" not in dialog.status.text()
    dialog.list_button.click()
    assert "must be between 1 and 65535" in dialog.status.text()


def test_a_password_in_the_address_is_never_shown_or_stored(qtbot, real_window):
    from logitscope.host.remote import RemoteEngine

    chunks = [data(chat_chunk("Hi", [chat_logprob("Hi", -0.1, {"Hi": -0.1})])), data(chat_chunk(None, None, "stop")),
              "data: [DONE]\n\n"]
    with FakeServer(chat_routes(chunks)) as server:
        url = server.url.replace("http://", "http://bob:hunter2@")
        with qtbot.waitSignal(real_window.bridge.remoteConnected, timeout=30_000):
            real_window.connect_server(RemoteEngine(url))
        qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
        with qtbot.waitSignal(real_window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
            real_window.send("Hello")
        qtbot.waitUntil(lambda: real_window.streaming is None, timeout=5_000)
    answer = real_window.current.turns[-1].answer
    assert answer.status == "done" and answer.text == "Hi"
    shown = [real_window.windowTitle(), real_window.model_label.text(), real_window.status_model.text(),
             real_window.model_card.text.toPlainText(), real_window.history.store.message(answer.store_id).model.file_name]
    assert all("bob:****@127.0.0.1" in text for text in shown[:2] + shown[3:]), shown
    assert not any("hunter2" in text for text in shown), shown
