"""Waiting on a remote server in the window: the connect dialog's timeout reaches the engine (a silent
server is given up after it), and Stop ends the wait on a hung server at once, long before any timeout."""

from __future__ import annotations

import pytest

from tests.helpers.fake_server import FakeServer

pytestmark = pytest.mark.gui

LONG_WAIT_S = 120.0  # a hung server: longer than any test waits for the window


def hangs(x) -> None:
    x.server.stopping.wait(LONG_WAIT_S)


def test_the_connect_dialogs_timeout_gives_up_on_a_silent_server(qtbot):
    from logitscope.host.remote import DEFAULT_TIMEOUT_S
    from logitscope.ui.dialogs.connect import ConnectDialog

    with FakeServer({("GET", "/v1/models"): hangs, ("GET", "/props"): hangs}) as server:
        dialog = ConnectDialog(server.url)
        qtbot.addWidget(dialog)
        dialog.show()
        assert dialog.timeout.value() == DEFAULT_TIMEOUT_S and dialog.engine().timeout_s == DEFAULT_TIMEOUT_S
        dialog.timeout.setValue(1)
        assert dialog.engine().timeout_s == 1
        dialog.list_button.click()
        qtbot.waitUntil(lambda: "sent nothing for 1 s" in dialog.status.text(), timeout=30_000)
        assert dialog.model.count() == 0


@pytest.mark.model  # the window starts its local engine process, ended once the server is connected
def test_stop_ends_the_wait_on_a_hung_server(qtbot, bare_window):
    from logitscope.host.remote import RemoteEngine

    models = {("GET", "/v1/models"): lambda x: x.json({"data": [{"id": "m", "owned_by": "x"}]})}
    with FakeServer(models | {("POST", "/v1/chat/completions"): hangs}) as server:
        with qtbot.waitSignal(bare_window.bridge.remoteConnected, timeout=30_000):
            bare_window.connect_server(RemoteEngine(server.url))  # the default timeout: 120 s
        qtbot.waitUntil(lambda: not bare_window.bridge.busy, timeout=10_000)
        bare_window.send("Hello")
        qtbot.waitUntil(lambda: "/v1/chat/completions" in [p for _m, p, _b in server.requests], timeout=30_000)
        with qtbot.waitSignal(bare_window.bridge.generationFinished, timeout=30_000):
            bare_window.stop()
        qtbot.waitUntil(lambda: bare_window.streaming is None, timeout=5_000)
    answer = bare_window.current.turns[-1].answer
    assert answer.status == "stopped" and answer.text == ""
