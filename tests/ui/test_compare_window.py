"""Compare mode in the window (ui/compare/): one question to two engines, the answers in two columns, the KL of
A's answer under B drawn under A's text. The fast tests run two scripted engines; the last one the demo model
twice, in two configurations."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
import pytest
from PySide6.QtGui import QTextCursor

from logitscope.protocol.api import LoadSettings
from logitscope.protocol.forced_compare import ForcedKl
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.system.machine import MachineMemory
from tests.helpers.scripted_engine import ScriptedEngine

GIB = 1 << 30
DIFFER_AT = (2, 4)    # the scripted B's top-1 differs from A's at these answer tokens


@dataclass
class ComparingEngine(ScriptedEngine):
    """The scripted engine with the compare calls: save writes nothing but is recorded; compare answers a KL that
    grows along the answer, the top-1 differing at DIFFER_AT."""

    saved: list[tuple[list[int], int, str]] = field(default_factory=list)
    compared: list[tuple[list[int], int, str]] = field(default_factory=list)
    threads: list[int] = field(default_factory=list)

    def set_threads(self, n_threads: int) -> int:
        self.threads.append(n_threads)
        return 2

    def save_distributions(self, tokens, first, path, steering=None):  # noqa: ANN001, ANN201
        self.saved.append((list(tokens), first, path))
        return len(tokens) - first

    def compare_distributions(self, tokens, first, path, steering=None):  # noqa: ANN001, ANN201
        self.compared.append((list(tokens), first, path))
        n = len(tokens) - first
        kl = ForcedKl.empty(n)
        kl.kld[:] = np.geomspace(1e-5, 2.0, n)
        kl.p_diff[:] = -0.01
        kl.same_top[:] = True
        kl.same_top[list(DIFFER_AT)] = False
        kl.scored[:] = True
        kl.nll[:] = 0.5
        kl.top_ids[:] = np.arange(5)
        kl.top_logprobs[:] = np.log([0.5, 0.2, 0.1, 0.05, 0.01])
        return kl


@pytest.fixture
def compare_window(qtbot, tmp_path, recording, isolated_home):
    from PySide6.QtCore import QSettings

    from logitscope.ui.app import apply_theme, create_app
    from logitscope.ui.bridge import EngineBridge
    from logitscope.ui.compare.engine_b import SecondEngine
    from logitscope.ui.main_window import MainWindow

    app = create_app([])
    dark = apply_theme(app, "light")
    engine_a = ComparingEngine(recording)
    w = MainWindow(bridge=EngineBridge(client=engine_a), settings=QSettings(str(tmp_path / "ui.ini"),
                                                                            QSettings.Format.IniFormat), dark=dark)
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(w.bridge.loaded, timeout=10_000):
        w.bridge.load(recording.info.card.path, LoadSettings(n_ctx=2048))
    w.sampler.set_settings(PRESETS["Greedy"])
    engines_b: list[ComparingEngine] = []

    def make_bridge() -> EngineBridge:
        engines_b.append(ComparingEngine(recording))
        engines_b[-1]._next = 1     # B answers with another recorded answer than A
        return EngineBridge(client=engines_b[-1])

    machine = {"memory": MachineMemory(64 * GIB, 32 * GIB)}
    cw = w.compare
    cw.set_second_engine(SecondEngine(make_bridge, lambda: machine["memory"]))
    yield w, cw, engine_a, engines_b, machine
    cw.close()
    w.close()


def _action(w):  # noqa: ANN001, ANN202
    return next(a for a in w.model_menu.actions() if a.text().replace("&", "").startswith("Compare two models"))


@pytest.mark.gui
def test_the_action_opens_the_window_with_a_model_loaded(compare_window, qtbot):
    w, cw, *_ = compare_window
    action = _action(w)
    assert action.isEnabled() and action.shortcut().toString() == "Ctrl+Shift+A"
    action.trigger()
    qtbot.waitUntil(cw.isVisible, timeout=2000)


@pytest.mark.gui
def test_one_question_streams_into_two_columns_and_b_reads_a_s_tokens(compare_window, qtbot, recording):
    w, cw, engine_a, engines_b, _machine = compare_window
    cw.show()
    cw.config.set_config("q8_0", True)
    with qtbot.waitSignal(cw.kl_shown, timeout=10_000) as shown:
        assert cw.send("Say hi.")
    steps_a, result_a = recording.answers[0]
    steps_b, _ = recording.answers[1]
    (engine_b,) = engines_b
    # the same messages, system prompt and settings to both; each engine on its share of the cores
    (req_a,), (req_b,) = engine_a.requests, engine_b.requests
    assert req_a.messages == req_b.messages and req_a.settings == req_b.settings and req_a.system == req_b.system
    assert engine_a.threads[0] >= 1 and engine_b.last_load[1].type_v == "q8_0" and engine_b.last_load[1].flash_attn
    # the main chat saw none of it
    assert not w.current.turns
    assert cw.column_a.view.toPlainText().replace("▶", "") == "".join(s.text for s in steps_a)
    assert cw.column_b.view.toPlainText() == "".join(s.text for s in steps_b)
    assert "tokens/s" in cw.column_a.speed.text() and "tokens/s" in cw.column_b.speed.text()
    # B read exactly A's prompt and answer, from a file A wrote (deleted afterwards)
    tokens = list(result_a.prompt_tokens) + [s.token for s in steps_a]
    ((saved, first, path),) = engine_a.saved
    assert saved == tokens and first == len(result_a.prompt_tokens) and engine_b.compared == [(tokens, first, path)]
    summary = shown.args[0]
    assert summary.first_divergence == DIFFER_AT[0] and summary.n == len(steps_a)
    text = cw.summary_label.text()
    assert "mean KLD" in text and "same top-1" in text and f"first divergence at token {DIFFER_AT[0] + 1}" in text
    # drawn under A's text: a KL colour per token (none for ~0), wavy underlines where the top-1 differs, the mark
    view = cw.column_a.view
    assert view.first_divergence == DIFFER_AT[0]
    low, high = view.token_format(0), view.token_format(len(steps_a) - 1)
    assert low.background().color().alpha() == 0 and high.background().color().alpha() > 150
    assert view.token_format(DIFFER_AT[1]).underlineStyle() == view.token_format(0).UnderlineStyle.WaveUnderline
    assert view.token_format(1).underlineStyle() != view.token_format(0).UnderlineStyle.WaveUnderline
    assert "▶" in view.toPlainText() and "▶" not in cw.column_b.view.toPlainText()
    # clicking one of A's tokens: A's distribution from its trace beside B's at the same place
    view.tokenClicked.emit(DIFFER_AT[0])
    left, right = cw.column_a.inspector.left, cw.column_a.inspector.right
    assert left.rowCount() >= 1 and right.rowCount() == 5 and "differs" in cw.column_a.inspector.right_note.text()
    assert right.item(0, 1).text() == "50.0%"
    # again on the button: the same comparison, not another answer
    assert cw.forced_button.isEnabled()
    with qtbot.waitSignal(cw.kl_shown, timeout=10_000):
        cw.forced_button.click()
    assert len(engine_b.compared) == 2 and len(engine_a.requests) == 1


@pytest.mark.gui
def test_a_click_on_a_token_selects_it(compare_window, qtbot):
    _w, cw, *_ = compare_window
    cw.show()
    with qtbot.waitSignal(cw.kl_shown, timeout=10_000):
        cw.send("Say hi.")
    view = cw.column_a.view
    cursor = QTextCursor(view.document())
    cursor.setPosition(1)
    rect = view.cursorRect(cursor)
    with qtbot.waitSignal(view.tokenClicked, timeout=2000) as clicked:
        from PySide6.QtCore import Qt

        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert clicked.args[0] == 0 and view.selected == 0


@pytest.mark.gui
def test_two_models_that_do_not_fit_are_refused_before_b_loads(compare_window, qtbot):
    _w, cw, _a, engines_b, machine = compare_window
    machine["memory"] = MachineMemory(200 << 20, 100 << 20)
    cw.show()
    assert not cw.send("Say hi.")
    assert not engines_b and cw.error.isVisible()
    assert "do not fit in memory together" in cw.error.text() and "A needs about" in cw.error.text()
    assert cw.send_button.isEnabled()


@pytest.mark.gui
def test_stop_stops_both(compare_window, qtbot):
    import threading

    _w, cw, engine_a, engines_b, _machine = compare_window
    gate = threading.Event()
    engine_a.gate = gate
    cw.show()
    assert cw.load_b()
    qtbot.waitUntil(lambda: cw.second.ready, timeout=5000)
    engines_b[0].gate = gate
    assert cw.send("Say hi.")
    qtbot.waitUntil(lambda: cw.stop_button.isEnabled(), timeout=2000)
    cw.stop()
    gate.set()
    qtbot.waitUntil(lambda: not cw.answering, timeout=5000)
    assert cw.kl is None and not engine_a.saved and not cw.error.isVisible()
    assert cw.send_button.isEnabled()


@pytest.mark.gui
def test_closing_the_window_ends_b_s_engine(compare_window, qtbot):
    _w, cw, _a, engines_b, _machine = compare_window
    cw.show()
    with qtbot.waitSignal(cw.kl_shown, timeout=10_000):
        cw.send("Say hi.")
    assert cw.second.bridge is not None
    cw.close()
    assert cw.second.bridge is None and engines_b[0].info is None   # ScriptedEngine.close forgets its model


@pytest.mark.gui
@pytest.mark.model
def test_the_demo_model_in_two_configurations(real_window, qtbot):
    """A: the demo model as loaded (f16 KV cache, flash attention off); B: the same file with a q8_0 KV cache and
    flash attention, in an engine process of its own."""
    w = real_window
    w.sampler.max_tokens.setValue(16)
    cw = w.compare
    cw.show()
    cw.config.set_config("q8_0", True)
    with qtbot.waitSignal(cw.kl_shown, timeout=120_000) as shown:
        assert cw.send("What is the capital of France?")
    assert not cw.error.isVisible(), cw.error.text()
    pid_b = cw.second.bridge.local.pid
    assert pid_b and pid_b != w.bridge.local.pid
    assert cw.column_a.view.steps and cw.column_b.view.steps
    assert len(cw.runner_a.result.tokens) <= 16 and cw.runner_b.result.tokens
    summary = shown.args[0]
    assert summary.n == len(cw.runner_a.result.tokens) and 0 <= summary.mean_kld < 0.5
    assert "mean KLD" in cw.summary_label.text() and "tokens/s" in cw.column_b.speed.text()
    # both named by their file ('A: SmolLM2-135M-Instruct' beside 'B: SmolLM2-135M-Instruct.Q4_1.gguf' before)
    assert cw.column_a.title.text().startswith("A: SmolLM2-135M-Instruct.Q4_1.gguf · ")
    assert cw.column_b.title.text().startswith("B: SmolLM2-135M-Instruct.Q4_1.gguf · ")
    cw.column_a.view.tokenClicked.emit(0)
    assert cw.column_a.inspector.right.rowCount() == 5
    cw.close()
    assert cw.second.bridge is None

    def ended() -> bool:
        try:
            os.kill(pid_b, 0)
        except ProcessLookupError:
            return True
        return False

    qtbot.waitUntil(ended, timeout=10_000)   # B's engine process is gone; A's is not
    assert w.bridge.info is not None


@pytest.mark.gui
def test_another_model_file_starts_from_a_s_kv_cache(compare_window, qtbot, tmp_path):
    """B as another file kept 'KV cache q8_0': a second difference from A, hidden in the header."""
    _w, cw, *_ = compare_window
    load_a = cw.info_a.load
    assert (load_a.type_k, load_a.flash_attn) == ("f16", False)   # A: not the same-model default
    picker = cw.config
    assert picker.same_model and picker.kv.currentText() == "q8_0" and picker.flash.isChecked()
    assert picker.pick(str(tmp_path / "other.gguf"))
    b = picker.settings(load_a)
    assert (b.type_k, b.type_v, b.flash_attn) == (load_a.type_k, load_a.type_v, load_a.flash_attn)
    picker.kind.setCurrentIndex(0)   # the same model again: its usual question, a quantized KV cache
    assert picker.kv.currentText() == "q8_0" and picker.flash.isChecked()
