"""The Layers and Attention docks follow the selected step, ask the engine only when someone can
see them, drop stale answers, and say plainly why when they cannot show anything. Over the scripted engine
(tests/helpers/scripted_engine.py: lens and attention arrays computed from the request), so no model runs."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from logitscope.base.errors import LogitscopeError
from logitscope.ui.inspector.attention import MEAN_OF_HEADS
from logitscope.ui.inspector.layers import FIRST_TOKEN
from tests.helpers.window import ask

pytestmark = pytest.mark.gui




def engine_of(window):
    return window.bridge.local


def show_dock(qtbot, window, key: str):
    dock = window.docks[key]
    dock.raise_()
    qtbot.waitUntil(lambda: key in window.forward.visible_views(), timeout=5_000)
    return dock.widget()


def context_of(answer, step: int) -> list[int]:
    return list(answer.result.prompt_tokens) + [s.token for s in answer.steps[:step]]


def wait_shown(qtbot, window, key: str, step: int):
    page = window.docks[key].widget()
    qtbot.waitUntil(lambda: not page.showing_empty() and page.panel.shown_key is not None
                    and page.panel.shown_key[1] == step, timeout=5_000)
    return page.panel


def test_nothing_is_asked_while_the_docks_are_hidden(qtbot, scripted_window):
    engine = engine_of(scripted_window)
    answer = ask(qtbot, scripted_window, "Hi!", max_tokens=4)
    scripted_window.select_step(0, 1)
    scripted_window.select_step(0, 2)
    qtbot.wait(100)
    assert not scripted_window.forward.visible_views()          # the default layout keeps them behind other tabs
    assert engine.inspect_requests == [] and scripted_window.forward.requests_sent == 0
    show_dock(qtbot, scripted_window, "layers")
    wait_shown(qtbot, scripted_window, "layers", 2)
    (request,) = engine.inspect_requests                # one request, for the step selected now
    assert list(request.tokens) == context_of(answer, 2)
    assert request.n_prompt == len(answer.result.prompt_tokens)   # its answer evaluated one token at a time
    assert request.chosen == answer.steps[2].token
    assert request.lens and not request.attention       # the Attention dock is not shown: not asked


def test_layers_grid_shows_the_lens_and_a_layer_on_click(qtbot, scripted_window):
    answer = ask(qtbot, scripted_window, "Hi!", max_tokens=4)
    show_dock(qtbot, scripted_window, "layers")
    scripted_window.select_step(0, 3)
    panel = wait_shown(qtbot, scripted_window, "layers", 3)
    lens = panel.lens
    n_layer = scripted_window.bridge.info.card.n_layer
    assert panel.model.rowCount() == n_layer + 1 and lens.chosen == answer.steps[3].token
    assert panel.model.headerData(0, Qt.Orientation.Vertical) == "embd"
    # the chosen token's cell is the one outlined, in every row where it is among the top tokens
    for row in range(n_layer + 1):
        outlined = [c for c in range(FIRST_TOKEN, panel.model.columnCount()) if panel.model.is_chosen(panel.model.index(row, c))]
        rank = int(lens.chosen_rank[row])
        assert outlined == ([FIRST_TOKEN + rank] if rank < lens.top_ids.shape[1] else [])
    assert panel.row == n_layer                          # the last layer is shown first
    # clicking a cell of row 5 shows that layer's distribution; up/down move the layer
    grid = panel.grid
    rect = grid.visualRect(panel.model.index(5, FIRST_TOKEN + 1))
    grid.scrollTo(panel.model.index(5, FIRST_TOKEN + 1))
    rect = grid.visualRect(panel.model.index(5, FIRST_TOKEN + 1))
    qtbot.mouseClick(grid.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert panel.row == 5
    shown = [c.raw for c in panel.layer_model.rows]
    assert shown == pytest.approx(lens.top_probs[5].tolist())
    grid.setFocus()
    qtbot.keyClick(grid, Qt.Key.Key_Down)
    assert panel.row == 6
    qtbot.keyClick(grid, Qt.Key.Key_Up)
    qtbot.keyClick(grid, Qt.Key.Key_Up)
    assert panel.row == 4


def test_a_newer_selection_supersedes_an_older_request(qtbot, scripted_window):
    engine = engine_of(scripted_window)
    answer = ask(qtbot, scripted_window, "Hi!", max_tokens=4)
    show_dock(qtbot, scripted_window, "layers")
    gate = threading.Event()
    engine.inspect_gate = gate
    scripted_window.select_step(0, 1)
    qtbot.waitUntil(lambda: scripted_window.forward._in_flight is not None, timeout=2_000)
    page = scripted_window.docks["layers"].widget()
    assert page.showing_empty() and page.empty_text() == "Computing…"
    scripted_window.select_step(0, 2)
    scripted_window.select_step(0, 3)
    gate.set()
    panel = wait_shown(qtbot, scripted_window, "layers", 3)
    qtbot.waitUntil(lambda: scripted_window.forward._in_flight is None, timeout=2_000)
    qtbot.wait(50)
    assert panel.shown_key[1] == 3                      # the stale answer for step 1 was dropped
    assert [list(r.tokens) for r in engine.inspect_requests][-1] == context_of(answer, 3)
    # step 1 (computed if its job had started, else skipped as stale), then only the newest: step 3
    assert len(engine.inspect_requests) <= 2


@pytest.mark.qt_log_ignore("does not support")  # offscreen: the tooltip popup
def test_attention_strip_heads_and_the_chat(qtbot, scripted_window):
    engine = engine_of(scripted_window)
    answer = ask(qtbot, scripted_window, "Hi!", max_tokens=4)
    show_dock(qtbot, scripted_window, "attention")
    scripted_window.select_step(0, 3)
    panel = wait_shown(qtbot, scripted_window, "attention", 3)
    context = context_of(answer, 3)
    card = scripted_window.bridge.info.card
    assert engine.inspect_requests[-1].attention and not engine.inspect_requests[-1].lens
    assert len(panel.strip.labels) == len(context)
    assert panel.head() == MEAN_OF_HEADS and panel.layer() == card.n_layer - 1
    weights = panel.row.weights
    assert panel.strip.weights == pytest.approx(weights[-1].mean(axis=0))
    panel.head_box.setCurrentIndex(1 + 4)
    panel.layer_box.setCurrentIndex(2)
    assert panel.strip.weights == pytest.approx(weights[2, 4])
    assert panel.kv_label.text() == f"head 4 reads KV head {4 * card.n_head_kv // card.n_head} of {card.n_head_kv}"
    # hovering a token tells its weight; clicking an answer token highlights that step in the chat
    position = len(context) - 2                          # the answer's second token (step 1)
    chip = panel.strip.chip_rect(position)
    hover = QHelpEvent(QEvent.Type.ToolTip, chip.center(), panel.strip.mapToGlobal(chip.center()))
    QApplication.sendEvent(panel.strip, hover)
    assert QToolTip.text().endswith(f"weight {weights[2, 4, position]:.3f}")
    assert QToolTip.text().startswith(panel.strip.labels[position])
    panel.area.ensureVisible(chip.center().x(), chip.center().y())
    qtbot.mouseClick(panel.strip, Qt.MouseButton.LeftButton, pos=chip.center())
    assert scripted_window.chat.answers[0].view.highlighted_step == 1
    # a prompt token has no place in the answer: the status bar says where it is
    with qtbot.waitSignal(scripted_window.statusMessage, timeout=2_000) as said:
        qtbot.mouseClick(panel.strip, Qt.MouseButton.LeftButton, pos=panel.strip.chip_rect(0).center())
    assert "prompt" in said.args[0]
    # it names the token and its position, and keeps it marked in the strip
    assert said.args[0].startswith(f"{panel.strip.labels[0]} at position 0 ")
    assert panel.strip.marked == 0


def test_whole_prompt_matrix_is_lower_triangular(qtbot, scripted_window):
    engine = engine_of(scripted_window)
    answer = ask(qtbot, scripted_window, "Hi!", max_tokens=4)
    show_dock(qtbot, scripted_window, "attention")
    scripted_window.select_step(0, 2)
    panel = wait_shown(qtbot, scripted_window, "attention", 2)
    panel.layer_box.setCurrentIndex(3)
    panel.head_box.setCurrentIndex(1 + 5)
    qtbot.mouseClick(panel.whole_button, Qt.MouseButton.LeftButton)
    dialog = scripted_window.forward.matrix_dialog
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.matrix is not None, timeout=5_000)
    n = len(context_of(answer, 2))
    assert engine.matrix_requests[-1] == (n, 3, 5)
    weights = dialog.view.weights
    assert weights.shape == (n, n) and np.allclose(np.triu(weights, 1), 0)
    assert "causal mask" in dialog.view.cell_text(0, n - 1)
    assert f"{weights[n - 1, 0]:.3f}" in dialog.view.cell_text(n - 1, 0)
    dialog.head_box.setCurrentIndex(0)                   # another head: asked again
    qtbot.waitUntil(lambda: dialog.matrix.head == 0, timeout=5_000)
    image = dialog.view.grab().toImage()                 # painted, the mask hatched above the diagonal
    assert not image.isNull()


def test_unavailable_views_and_engine_errors_are_said_plainly(qtbot, scripted_window):
    engine = engine_of(scripted_window)
    ask(qtbot, scripted_window, "Hi!", max_tokens=4)
    show_dock(qtbot, scripted_window, "attention")
    engine.inspect_unavailable = {"attention": "this architecture has no attention tensors"}
    scripted_window.select_step(0, 1)
    page = scripted_window.docks["attention"].widget()
    qtbot.waitUntil(lambda: "no attention tensors" in page.empty_text(), timeout=5_000)
    assert page.showing_empty()
    engine.inspect_unavailable = {"attention_window": "layers 0, 2 and 4 see only the last 512 tokens"}
    scripted_window.select_step(0, 3)                            # a note about the weights: shown with them
    panel = wait_shown(qtbot, scripted_window, "attention", 3)
    assert panel.note.text() == "Layers 0, 2 and 4 see only the last 512 tokens" and not panel.note.isHidden()
    engine.inspect_unavailable = {}
    engine.inspect_error = LogitscopeError("the inspection context could not be created")
    scripted_window.select_step(0, 2)
    qtbot.waitUntil(lambda: "could not be created" in page.empty_text(), timeout=5_000)
    assert page.empty_text().startswith("The engine could not inspect this step")


def test_a_remote_engine_says_why_and_asks_nothing(qtbot, scripted_window):
    engine = engine_of(scripted_window)
    ask(qtbot, scripted_window, "Hi!", max_tokens=4)
    scripted_window.forward.set_capabilities({"remote": True, "forward_pass": False})
    for key in ("layers", "attention"):
        page = show_dock(qtbot, scripted_window, key)
        scripted_window.select_step(0, 1)
        assert page.showing_empty() and "remote server" in page.empty_text()
    assert engine.inspect_requests == []


def test_nothing_selected_says_so(qtbot, scripted_window):
    page = show_dock(qtbot, scripted_window, "layers")
    assert page.showing_empty() and "No step selected" in page.empty_text()


class StepGate:
    """Lets the scripted engine's steps through a given number at a time (its `gate`)."""

    def __init__(self) -> None:
        self.steps = threading.Semaphore(0)

    def wait(self, timeout: float) -> bool:
        return self.steps.acquire(timeout=timeout)

    def let_through(self, n: int) -> None:
        self.steps.release(n)


def test_streaming_follows_the_live_step_without_piling_up_requests(qtbot, scripted_window):
    engine = engine_of(scripted_window)
    show_dock(qtbot, scripted_window, "layers")
    gate = StepGate()
    engine.gate = gate                                   # the answer streams only as steps are let through
    scripted_window.sampler.max_tokens.setValue(6)
    scripted_window.send("Hi!")
    gate.let_through(2)                                  # two steps in, the engine is still generating
    page = scripted_window.docks["layers"].widget()
    qtbot.waitUntil(lambda: "after the engine finishes" in page.empty_text(), timeout=3_000)
    for _ in range(4):
        qtbot.wait(150)
        gate.let_through(1)
    qtbot.waitUntil(lambda: scripted_window.streaming is None, timeout=10_000)
    answer = scripted_window.current.turns[0].answer
    last = len(answer.steps) - 1
    panel = wait_shown(qtbot, scripted_window, "layers", last)
    assert panel.lens.chosen == answer.steps[last].token
    # while it streamed the engine was generating: at most one request waited behind it (and, stale by the
    # end, skipped the engine), then the last step was asked for once
    assert scripted_window.forward.requests_sent <= 3
    assert [r.chosen for r in engine.inspect_requests] == [answer.steps[last].token]


def test_the_inspected_step_of_a_history_answer_asks_for_its_prompt(qtbot, scripted_window):
    """An answer without a result (loaded from history, where prompt tokens are not kept) gets its prompt
    from the engine, in the same worker job."""
    engine = engine_of(scripted_window)
    answer = ask(qtbot, scripted_window, "Hi!", max_tokens=4)
    prompt = list(answer.result.prompt_tokens)
    answer.result = None
    calls = []
    engine.prompt_tokens = lambda request: calls.append(request) or prompt
    show_dock(qtbot, scripted_window, "layers")
    scripted_window.select_step(0, 2)
    wait_shown(qtbot, scripted_window, "layers", 2)
    assert len(calls) == 1 and calls[0].messages[-1].content == "Hi!"
    assert list(engine.inspect_requests[-1].tokens) == prompt + [s.token for s in answer.steps[:2]]


def test_layout_places_the_new_docks(qtbot, scripted_window):
    for key in ("layers", "attention"):
        dock = scripted_window.docks[key]
        assert not dock.isFloating() and scripted_window.tabifiedDockWidgets(dock)


def fully_shown_columns(grid) -> list[int]:
    """The grid's columns whose whole width is inside its viewport."""
    width = grid.viewport().width()
    return [c for c in range(grid.model().columnCount())
            if grid.columnViewportPosition(c) >= 0 and grid.columnViewportPosition(c) + grid.columnWidth(c) <= width]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (2560, 1440)])
def test_the_layers_grid_reads_at_both_common_sizes(qtbot, scripted_window, size):
    """At 1280x720 the grid once showed its top-1 column alone, beside a side panel, with clipped digits: the
    chosen and entropy columns read in full, with at least three token columns beside them."""
    window = scripted_window
    window.resize(*size)
    window.reset_layout()
    ask(qtbot, window, "Hi!", max_tokens=4)
    show_dock(qtbot, window, "layers")
    window.select_step(0, 2)
    panel = wait_shown(qtbot, window, "layers", 2)
    grid = panel.grid
    qtbot.waitUntil(lambda: grid.viewport().width() > 0)
    for column in range(FIRST_TOKEN):      # the chosen token's rank and p, the entropy: never elided
        text = panel.model.data(panel.model.index(panel.model.rowCount() - 1, column))
        assert grid.columnWidth(column) >= grid.fontMetrics().horizontalAdvance(text), (column, text)
    # too narrow for the grid beside the layer's distribution: they are tabs (a double-click shows the layer)
    assert panel.grid_in_tabs == (size[0] < 2560) and grid.isVisible()
    shown = fully_shown_columns(grid)
    assert shown[:FIRST_TOKEN] == list(range(FIRST_TOKEN))
    assert len(shown) - FIRST_TOKEN >= 3, (size, grid.viewport().width(), shown)
    if panel.grid_in_tabs:                 # a double-click on a layer shows its distribution's tab
        index = panel.model.index(3, FIRST_TOKEN)
        qtbot.mouseClick(grid.viewport(), Qt.MouseButton.LeftButton, pos=grid.visualRect(index).center())
        qtbot.mouseDClick(grid.viewport(), Qt.MouseButton.LeftButton, pos=grid.visualRect(index).center())
        assert panel.row == 3 and panel.side.currentIndex() == 1 and panel.layer_table.isVisible()
