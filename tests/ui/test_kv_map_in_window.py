"""The KV cache map inside "Memory and context": fetched after each answer only while it is on screen, and
turn 2 shows the cells it reused from turn 1. Real window, real engine process, demo model."""

from __future__ import annotations

import pytest

from tests.helpers.window import ask

pytestmark = pytest.mark.gui


def test_kv_map_shows_reuse_on_turn_two(qtbot, real_window):
    panel = real_window.memory.kv_map
    calls: list[object] = []
    real_window.bridge.local.kv_map = _counting(real_window.bridge.local.kv_map, calls)

    # hidden (its dock is a tab behind the waterfall): an answer does not ask the engine for the map
    assert not panel.on_screen()
    first_answer = ask(qtbot, real_window, "What is the capital of France?", max_tokens=12)
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=5_000)
    assert calls == [] and panel.kv is None

    # shown: it asks once and draws turn 1, nothing reused yet
    real_window.docks["memory"].raise_()
    qtbot.waitUntil(lambda: panel.kv is not None, timeout=10_000)
    first = panel.kv
    assert len(calls) == 1
    assert first.n_reused == 0 and first.n_evaluated > 0 and not any(run.reused for run in first.runs)
    assert sum(run.count for run in first.runs) == real_window.bridge.info.n_ctx - panel.strip.free_cells()
    assert {"template", "user", "answer"} <= {run.segment for run in first.runs}
    assert panel.summary.text().startswith(f"0 tokens reused, {first.n_evaluated} evaluated")
    assert first_answer.text

    # turn 2, shown: one more call after the answer; the cells of turn 1 are marked reused
    ask(qtbot, real_window, "And the capital of Italy?", max_tokens=12)
    qtbot.waitUntil(lambda: panel.kv is not first, timeout=10_000)
    second = panel.kv
    assert len(calls) == 2
    assert second.n_reused > first.n_evaluated  # turn 1's prompt and its answer
    reused = [run for run in second.runs if run.reused]
    assert reused and reused[0].start == 0 and sum(run.count for run in reused) == second.n_reused
    assert "assistant" in {run.segment for run in reused}
    assert panel.summary.text().startswith(
        f"{second.n_reused} tokens reused, {second.n_evaluated} evaluated, {second.n_freed} freed")
    assert panel.strip.reused_cells() == second.n_reused
    tip = panel.strip.tooltip_at(0)
    assert "reused" in tip


@pytest.mark.qt_log_ignore("does not support")  # offscreen: a floating window's size hints and raise()
def test_memory_dock_floated_while_hidden_catches_up(qtbot, real_window):
    """Floating the dock shows it as a new top-level window: it is painted only after visibilityChanged
    (whose catch-up then finds nothing on screen), so the gauge and the map must catch up when painted."""
    memory = real_window.memory
    answer = ask(qtbot, real_window, "Name a colour.", max_tokens=6)
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=5_000)
    used = len(answer.result.prompt_tokens) + len(answer.steps)
    assert not memory.kv_map.on_screen() and memory.gauge.value() == 0   # hidden: nothing updated yet
    dock = real_window.docks["memory"]
    dock.setFloating(True)
    dock.show()
    qtbot.waitUntil(lambda: memory.gauge.value() > 0, timeout=5_000)
    assert abs(memory.gauge.value() - used) <= 1   # the last token may not be in the cache yet
    assert memory.kv_used.text().endswith(f"({memory.gauge.value()} tokens)")
    qtbot.waitUntil(lambda: memory.kv_map.kv is not None, timeout=10_000)


def test_kv_map_says_a_remote_engine_cannot_show_it(qtbot):
    from logitscope.protocol.engine_like import LOCAL_CAPABILITIES, RemoteModelInfo
    from logitscope.ui.inspector.memory import MemoryPanel

    memory = MemoryPanel()  # what the model controller pushes a remote server's model and capabilities to
    qtbot.addWidget(memory)
    panel = memory.kv_map
    memory.set_model(RemoteModelInfo("http://127.0.0.1:1", "m", "llama-server"))
    memory.set_capabilities({**LOCAL_CAPABILITIES, "remote": True, "kv": False, "kv_map": False})
    assert not panel.available and "cannot show" in panel.summary.text()
    assert panel.strip.n_ctx == 0 and panel.kv is None
    memory.set_capabilities(LOCAL_CAPABILITIES)  # back to a local engine
    assert panel.available and "cannot show" not in panel.summary.text()


def _counting(method, calls: list[object]):  # noqa: ANN001, ANN202
    def counted():  # noqa: ANN202
        calls.append(None)
        return method()

    return counted


def test_kv_map_shows_only_the_conversation_in_the_cache(qtbot, real_window):
    """Another chat, or another version, is not what the engine's cache holds: the map says so instead of
    drawing the other one's cells, and comes back with the chat and version it belongs to."""
    w, panel = real_window, real_window.memory.kv_map
    w.docks["memory"].raise_()
    ask(qtbot, w, "What is the capital of France?", max_tokens=8)
    qtbot.waitUntil(lambda: panel.kv is not None, timeout=10_000)
    france = panel.kv
    w.new_chat()
    assert panel.kv is None and panel.strip.runs == [] and panel.summary.text() == "Shown after the next answer."
    ask(qtbot, w, "Name a colour.", max_tokens=6)
    qtbot.waitUntil(lambda: panel.kv is not None, timeout=10_000)
    colour = panel.kv
    assert colour is not france
    w.conversation_list.setCurrentRow(1)   # the first chat: the cache holds the second one
    assert panel.kv is None and panel.strip.runs == [] and "not in the engine's KV cache" in panel.summary.text()
    w.conversation_list.setCurrentRow(0)   # back: its map, as it was
    assert panel.kv is colour and panel.strip.runs == colour.runs
    w.regenerate(0)
    qtbot.waitUntil(lambda: w.streaming is None and panel.kv is not None and panel.kv is not colour, timeout=30_000)
    w.switch_branch(0, 0)   # the first version is not what the cache holds now
    assert panel.kv is None and "not in the engine's KV cache" in panel.summary.text()
    w.switch_branch(0, 1)
    assert panel.kv is not None and panel.kv is not colour
