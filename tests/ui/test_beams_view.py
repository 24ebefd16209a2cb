"""The Beams view in the real window, on the real engine (demo model): opened from its menu action, the search
runs on the bridge's worker, the tree shows every candidate with pruned ones greyed and the winner's path
highlighted, the greedy answer beside it, and the KV cache map tells the cells the beams shared."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFontMetrics

from logitscope.protocol.sampler_settings import PRESETS
from logitscope.ui.beams.view import PRUNED_FOREGROUND, SHORTCUT, WINNER_BACKGROUND, WINNER_FOREGROUND
from logitscope.ui.common.tokens import id_label
from tests.helpers.beams_view import SEARCH_TIMEOUT_MS, tree_items


def _search(qtbot, dialog, question: str, beams: int, max_tokens: int) -> None:
    dialog.question.setText(question)
    dialog.beams.setValue(beams)
    dialog.max_tokens.setValue(max_tokens)
    dialog.run_button.click()
    assert dialog.running and not dialog.run_button.isEnabled()  # it runs on the worker: the GUI is free
    qtbot.waitUntil(lambda: not dialog.running, timeout=SEARCH_TIMEOUT_MS)


def test_beams_view_in_the_real_window(qtbot, real_window) -> None:
    action = real_window.beams_action
    assert action.shortcut().toString() == SHORTCUT
    action.trigger()
    dialog = real_window.beams_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)

    _search(qtbot, dialog, "Name three colours.", beams=1, max_tokens=8)
    assert dialog.beam_result is not None and dialog.greedy is not None, dialog.status.text()
    assert dialog.beam_result.winner.tokens == dialog.greedy.tokens  # one beam is greedy

    real_window.sampler.set_settings(PRESETS["Precise"])  # a sampled answer beside the beams
    real_window.docks["memory"].show()
    real_window.docks["memory"].raise_()
    _search(qtbot, dialog, "Name three colours.", beams=3, max_tokens=8)
    result = dialog.beam_result
    assert result is not None and result.n_beams == 3
    assert dialog.tree.topLevelItemCount() == 6  # the prompt's 2N best first tokens
    items = list(tree_items(dialog.tree))
    node_of = {id(item): item.data(0, 0x0100) for item in items}  # Qt.UserRole
    winning = set(result.path(result.winner.node))
    highlighted = [item for item in items if item.background(0).color() == QColor(WINNER_BACKGROUND)]
    assert {node_of[id(item)] for item in highlighted} == winning
    # dark text on the light highlight (the dark theme's white text was unreadable there), and the deepest
    # winning token not cut by its column
    assert all(item.foreground(0).color() == QColor(WINNER_FOREGROUND) for item in highlighted)
    deepest = next(item for item in highlighted if node_of[id(item)] == result.winner.node)
    cell = dialog.tree.visualRect(dialog.tree.indexFromItem(deepest, 0))
    needed = cell.left() + QFontMetrics(deepest.font(0)).horizontalAdvance(deepest.text(0))
    assert needed <= dialog.tree.columnWidth(0), (needed, dialog.tree.columnWidth(0))
    assert sum(dialog.tree.columnWidth(c) for c in range(4)) <= dialog.tree.viewport().width()  # no side scroll
    # each token labelled as the distribution dock labels it (·, ↵, <0xNN> for a part of a character)
    assert all(item.text(0) == id_label(result.nodes[node_of[id(item)]].token, real_window.bridge.vocab)
               for item in items)
    greyed = [item for item in items if item.foreground(0).color() == QColor(PRUNED_FOREGROUND)]
    assert greyed and all(result.nodes[node_of[id(item)]].status == "pruned" for item in greyed)
    assert dialog.greedy is not None
    assert result.winner.text.replace("\n", "<br>")[:10] in dialog.winner.text()
    assert "Greedy" in dialog.greedy_label.text() and f"{result.winner.score:.4f}" in dialog.winner.text()
    assert "Sampled answer" in dialog.sampled_label.text()  # the window's sampler settings, beside them

    # the KV cache map, asked after the search, tells the cells the beams shared
    qtbot.waitUntil(lambda: real_window.memory.kv_map.kv is not None and bool(real_window.memory.kv_map.kv.beam_cells),
                    timeout=30_000)
    assert "shared by several beams" in real_window.memory.kv_map.beams.summary.text()


def test_what_cannot_run_says_so_in_the_view(qtbot, real_window) -> None:
    real_window.beams_action.trigger()
    dialog = real_window.beams_dialog
    dialog.question.setText("  ")
    dialog.run_button.click()
    assert not dialog.running and dialog.status.text() == "Write a question first."
    dialog.question.setText("word " * 3000)  # longer than the context: the engine refuses in one line
    dialog.run_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=SEARCH_TIMEOUT_MS)
    assert dialog.beam_result is None
    assert dialog.status.text().startswith("The search failed:") and "\n" not in dialog.status.text()


def test_a_remote_engine_says_at_once_that_beams_need_a_local_model(qtbot, real_window, demo_model) -> None:
    """Capabilities are known when the server is connected: the action and the dialog say why, and a search
    asked anyway runs nothing (it once ran the greedy and sampled answers on the server first)."""
    from logitscope.host.remote import RemoteEngine
    from logitscope.protocol.api import LoadSettings
    from tests.helpers.fake_server import FakeServer, chat_chunk, chat_logprob, chat_routes, data

    assert real_window.beams_action.isEnabled()   # the local demo model can
    chunks = [data(chat_chunk("Hi", [chat_logprob("Hi", -0.1, {"Hi": -0.1})])), data(chat_chunk(None, None, "stop")),
              "data: [DONE]\n\n"]
    with FakeServer(chat_routes(chunks)) as server:
        with qtbot.waitSignal(real_window.bridge.remoteConnected, timeout=30_000):
            real_window.connect_server(RemoteEngine(server.url))
        qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
        asked = len(server.requests)
        dialog = real_window.beams_dialog
        reason = "Beam search needs a local model"
        assert not real_window.beams_action.isEnabled() and real_window.beams_action.statusTip().startswith(reason)
        dialog.show()
        assert not dialog.run_button.isEnabled() and dialog.status.text().startswith(reason)
        dialog.run()   # Enter in the question, or a stale click: still nothing runs
        assert not dialog.running and not real_window.bridge.busy and dialog.status.text().startswith(reason)
        qtbot.wait(300)
        assert len(server.requests) == asked, server.requests[asked:]   # no answer was asked of the server
    with qtbot.waitSignal(real_window.bridge.loaded, timeout=30_000):   # a local model again: beams can run
        real_window.open_model(str(demo_model), LoadSettings(n_ctx=2048), ask=False)
    qtbot.waitUntil(lambda: real_window.beams_action.isEnabled() and dialog.run_button.isEnabled(), timeout=10_000)
    qtbot.waitUntil(lambda: "remote" not in real_window.status_backend.text(), timeout=10_000)   # the local engine's
    assert real_window.score_action.isEnabled() and real_window.models.can_fork()   # no capability of the server stays
    assert not dialog.status.text().startswith(reason)   # the open dialog no longer says a local model is needed
    dialog.close()
