"""A real reasoning trace replayed in the window (the scripted engine over tests/data/thinking_trace.json.gz, no
llama.cpp): the chat folds the thinking, the timeline shades its steps apart from the answer's, the diagnosis says
the budget cut it short, and its fix puts a larger budget in the sampler controls for the new version."""

from __future__ import annotations

import pytest

from logitscope.protocol.api import LoadSettings
from logitscope.protocol.sampler_settings import PRESETS

pytestmark = pytest.mark.gui


@pytest.fixture
def thinking_window(qtbot, tmp_path, demo_model, isolated_home):
    from PySide6.QtCore import QSettings

    from logitscope.ui.app import apply_theme, create_app
    from logitscope.ui.bridge import EngineBridge
    from logitscope.ui.main_window import MainWindow
    from tests.helpers.scripted_engine import ScriptedEngine, load_thinking

    recording = load_thinking(demo_model)
    app = create_app([])
    dark = apply_theme(app, "light")
    w = MainWindow(bridge=EngineBridge(client=ScriptedEngine(recording)),
                   settings=QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat), dark=dark)
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(w.bridge.loaded, timeout=10_000):
        w.bridge.load(recording.info.card.path, LoadSettings(n_ctx=2048))
    w.sampler.set_settings(PRESETS["Greedy"])
    yield w
    w.close()


def test_the_trace_is_folded_shaded_diagnosed_and_fixed_with_a_budget(qtbot, thinking_window) -> None:
    w = thinking_window
    w.send("What is 6 times 7?")
    qtbot.waitUntil(lambda: not w.session.busy, timeout=10_000)
    answer = w.current.turns[0].answer
    bubble = w.chat.answers[0]
    assert bubble.fold.n_steps == 16 and bubble.answer_text() == "6 times 7 equals 42."
    assert bubble.regenerate_button.menu() is bubble.regenerate_menu   # the arrow: Answer without thinking
    # the timeline: the block's 16 steps shaded, the answer's after them plain
    qtbot.waitUntil(lambda: w.timeline.n_steps == len(answer.steps), timeout=5_000)
    assert w.timeline.n_thinking == 16
    assert all(band.isVisible() and band.getRegion() == (-0.5, 15.5) for band in w.timeline.thinking_bands)
    # the diagnosis: cut by the budget; its fix allows twice as much thinking
    qtbot.waitUntil(lambda: bubble.badge.isVisible(), timeout=5_000)
    assert "thinking cut by the budget" in bubble.badge.text()
    bubble.badge.click()
    panel = w.diagnosis.panel
    qtbot.waitUntil(lambda: panel.finding is not None, timeout=5_000)
    assert panel.finding.kind == "thinking_budget"
    panel.fix_button.click()
    qtbot.waitUntil(lambda: len(w.current.turns[0].answers) == 2 and not w.session.busy, timeout=10_000)
    assert w.sampler.reasoning_budget.value() == 24
    assert w.bridge.client.requests[-1].options.reasoning_budget == 24
