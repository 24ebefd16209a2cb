"""The Steering dock without the model: the Steering its rows make (order, scales, range, off -> None), the
sliders sized to the residual stream, every answer's request carrying the dock's steering (the scripted engine
records the requests), the badge, a file the engine refused marked and left out, the dock remembered across
restarts (a file that is gone dropped with a notice), and the chat saying how an answer was steered. The real
engine's tests are in test_steering_in_window.py."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.bench.steering_files import DEMO_N_LAYER, lora_adapter, random_vector
from logitscope.gguf.control_vector import read_control_vector
from logitscope.protocol.steering import ScaledFile, Steering
from logitscope.ui.steering.model import (
    DEFAULT_VECTOR_SPAN,
    DockState,
    SteeringFile,
    absolute,
    equal_norm_scale,
    from_settings,
    nice_ceiling,
    scale_span,
    to_settings,
)
from logitscope.ui.steering.panel import SteeringPanel
from tests.helpers.window import ask

pytestmark = pytest.mark.gui


@pytest.fixture
def files(tmp_path):
    return {"happy": random_vector(tmp_path / "happy.gguf", seed=1), "calm": random_vector(tmp_path / "calm.gguf", seed=2),
            "tune": lora_adapter(tmp_path / "tune.gguf", seed=3)}


# -- the panel's Steering --------------------------------------------------------------------------------------

def test_the_rows_make_the_steering_in_their_order_with_their_scales_and_range(qtbot, files):
    panel = SteeringPanel()
    qtbot.addWidget(panel)
    panel.set_model(DEMO_N_LAYER)
    # layers 1 to the model's last (29): '1 to 30' named a layer the model does not have
    assert panel.layer_range() == (1, DEMO_N_LAYER - 1) and panel.last_layer.maximum() == DEMO_N_LAYER - 1
    happy = panel.add_vector(SteeringFile(str(files["happy"]), 4.0))
    calm = panel.add_vector(SteeringFile(str(files["calm"]), 1.0))
    tune = panel.add_adapter(SteeringFile(str(files["tune"]), 1.0))
    assert panel.steering() is None                       # the master switch is off
    panel.set_on(True)
    assert panel.steering() == Steering(
        control_vectors=(ScaledFile(str(files["happy"]), 4.0), ScaledFile(str(files["calm"]), 1.0)),
        layer_start=1, layer_end=0, loras=(ScaledFile(str(files["tune"]), 1.0),))   # 0: to the model's last
    calm.scale.set_value(-2.5)                              # the box
    happy.scale.slider.setValue(happy.scale.slider.maximum())   # the slider: its end is the span
    tune.scale.set_value(0.5)
    panel.first_layer.setValue(10)
    panel.last_layer.setValue(20)
    steering = panel.steering()
    assert steering is not None
    assert steering.control_vectors == (ScaledFile(str(files["happy"]), DEFAULT_VECTOR_SPAN),
                                        ScaledFile(str(files["calm"]), -2.5))
    assert (steering.layer_start, steering.layer_end) == (10, 20)
    assert steering.loras == (ScaledFile(str(files["tune"]), 0.5),)
    assert panel.first_layer.maximum() == 20 and panel.last_layer.minimum() == 10   # never START > END
    happy.check.setChecked(False)
    steering = panel.steering()
    assert steering is not None and [f.path for f in steering.control_vectors] == [str(files["calm"])]
    calm.check.setChecked(False)
    steering = panel.steering()
    assert steering == Steering(loras=(ScaledFile(str(files["tune"]), 0.5),))   # no vector: no range sent
    tune.check.setChecked(False)
    assert panel.steering() is None                       # on, but nothing applies
    happy.check.setChecked(True)
    panel.set_on(False)
    assert panel.steering() is None


def test_removing_a_row_takes_it_out_of_the_steering(qtbot, files):
    panel = SteeringPanel()
    qtbot.addWidget(panel)
    panel.set_model(DEMO_N_LAYER)
    panel.add_vector(SteeringFile(str(files["happy"]), 3.0))
    calm = panel.add_vector(SteeringFile(str(files["calm"]), 2.0))
    panel.set_on(True)
    calm.remove_button.click()
    assert panel.steering() == Steering(control_vectors=(ScaledFile(str(files["happy"]), 3.0),), layer_start=1)
    assert str(files["calm"]) not in panel.rows and not panel.no_vectors.isVisible()


# -- the sliders' reach ----------------------------------------------------------------------------------------

def test_the_slider_reaches_one_and_a_half_times_the_scale_where_the_vector_adds_as_much_as_the_residual(qtbot):
    assert [nice_ceiling(x) for x in (0.7, 1.0, 1.2, 2.2, 3.0, 7.0, 11.0, 180.0, 270.0)] == \
        [1.0, 1.0, 2.0, 2.5, 5.0, 10.0, 20.0, 200.0, 500.0]
    resid = np.arange(DEMO_N_LAYER + 1, dtype=np.float32) * 10.0   # row N + 1 is after layer N: 10 (N + 1)
    n_embd = 64
    same = {n: np.eye(n_embd, dtype=np.float32)[0] for n in range(1, DEMO_N_LAYER)}      # one unit direction
    apart = {n: np.eye(n_embd, dtype=np.float32)[n] for n in range(1, DEMO_N_LAYER)}     # orthogonal ones
    # layers 10..20: eleven additions, summed; the residual after layer 20 is 210
    assert equal_norm_scale(resid, same, 10, 20) == pytest.approx(210.0 / 11)
    assert equal_norm_scale(resid, apart, 10, 20) == pytest.approx(210.0 / np.sqrt(11))
    assert equal_norm_scale(resid, {k: 2 * v for k, v in same.items()}, 10, 20) == pytest.approx(105.0 / 11)
    assert equal_norm_scale(resid, {5: same[5]}, 10, 20) is None          # no direction in the range
    assert equal_norm_scale(resid, {10: same[10], 11: -same[11]}, 10, 20) is None   # they cancel: nothing added
    assert equal_norm_scale(None, same, 1, 30) is None
    assert scale_span(210.0 / 11) == 50.0 and scale_span(None) == DEFAULT_VECTOR_SPAN

    panel = SteeringPanel()
    qtbot.addWidget(panel)
    panel.set_model(DEMO_N_LAYER)
    row = panel.add_vector(SteeringFile("/v.gguf", 1.0, directions=same))
    assert row.scale.span == DEFAULT_VECTOR_SPAN and "not measured yet" in row.caption.text()
    panel.set_residual(resid, "a short text")
    panel.first_layer.setValue(10)
    panel.last_layer.setValue(20)
    assert row.scale.span == 50.0 and row.scale.slider.value() == round(1.0 / 50 * row.scale.slider.maximum())
    assert "±50" in row.caption.text() and "19.1" in row.caption.text()
    assert "after layer 20: 19.1" in row.caption.toolTip()
    row.scale.slider.setValue(row.scale.slider.maximum() // 2)
    assert row.item.scale == 25.0
    row.scale.set_value(1000.0)     # the box takes more than the slider reaches
    assert row.item.scale == 1000.0 and row.scale.slider.value() == row.scale.slider.maximum()


# -- remembered ------------------------------------------------------------------------------------------------

def test_the_state_is_remembered_without_the_master_switch_and_gone_files_are_dropped(files, tmp_path):
    state = DockState(on=True, vectors=[SteeringFile(str(files["happy"]), 7.5), SteeringFile(str(tmp_path / "x.gguf"))],
                      adapters=[SteeringFile(str(files["tune"]), 0.25, enabled=False)], layer_start=10, layer_end=20)
    saved = to_settings(state)
    assert "on" not in saved
    again, gone = from_settings(saved)
    assert gone == [str(tmp_path / "x.gguf")]
    assert not again.on and (again.layer_start, again.layer_end) == (10, 20)
    assert [(f.path, f.scale, f.enabled) for f in again.vectors] == [(str(files["happy"]), 7.5, True)]
    assert [(f.path, f.scale, f.enabled) for f in again.adapters] == [(str(files["tune"]), 0.25, False)]
    assert from_settings("garbage") == (DockState(), [])
    odd, _ = from_settings({"vectors": [{"path": str(files["happy"]), "scale": "big"}, 3, {"path": ""}],
                            "layer_start": -4})
    assert [(f.scale, f.enabled) for f in odd.vectors] == [(1.0, True)] and odd.layer_start == 1


def test_a_restarted_window_has_the_dock_back_but_off_and_says_which_file_is_gone(qtbot, files, scripted_window):
    from logitscope.ui.steering.controller import SteeringController

    window = scripted_window
    window.steering.load_vector(str(files["happy"]))
    window.steering.load_vector(str(files["calm"]))
    window.steering.add_adapter(str(files["tune"]))
    window.steering.panel.rows[absolute(files["happy"])].scale.set_value(6.0)
    window.steering.panel.first_layer.setValue(10)
    window.steering.panel.set_on(True)
    window.steering.settings.sync()
    files["calm"].unlink()
    again = SteeringController(window.bridge, QSettings(window.steering.settings.fileName(),
                                                        QSettings.Format.IniFormat))   # as the next start does
    panel = again.panel
    qtbot.addWidget(panel)
    assert not panel.master.isChecked() and panel.steering() is None
    assert [(f.name, f.scale) for f in panel.state.vectors] == [("happy.gguf", 6.0)]
    assert [f.name for f in panel.state.adapters] == ["tune.gguf"] and panel.state.layer_start == 10
    assert not panel.notice.isHidden() and "calm.gguf" in panel.notice.text()
    assert "calm.gguf" in again.restore_notice   # the status line says it once the window listens
    panel.set_on(True)
    assert panel.steering().control_vectors == (ScaledFile(absolute(files["happy"]), 6.0),)


# -- in the window: every answer's request ------------------------------------------------------------------

def test_every_answer_carries_the_docks_steering_and_a_moved_slider_counts_from_the_next(qtbot, scripted_window,
                                                                                          files):
    window = scripted_window
    engine = window.bridge.local
    assert window.steering.load_vector(str(files["happy"]))
    ask(qtbot, window, "Say hi.")
    assert engine.requests[-1].steering is None            # loaded, but the master switch is off
    assert not window.steering.badge.isVisible()
    window.steering.panel.set_on(True)
    assert window.steering.badge.isVisible() and "1" in window.steering.badge.text()
    row = window.steering.panel.rows[absolute(files["happy"])]
    row.scale.set_value(8.0)
    answer = ask(qtbot, window, "Name a colour.")
    assert engine.requests[-1].steering == Steering(control_vectors=(ScaledFile(absolute(files["happy"]), 8.0),),
                                                    layer_start=1)
    status = window.chat.answers[-1].status
    assert "steered: happy.gguf ×8 on layers 1–29" in status.text() and absolute(files["happy"]) in status.toolTip()
    assert answer.result.steering["control_vectors"][0]["scale"] == 8.0
    row.scale.set_value(-3.0)
    window.regenerate(1)
    qtbot.waitUntil(lambda: window.streaming is None and len(engine.requests) == 3, timeout=10_000)
    assert engine.requests[-1].steering.control_vectors[0].scale == -3.0
    window.steering.badge.click()                           # one click: off
    assert not window.steering.panel.master.isChecked() and not window.steering.badge.isVisible()
    ask(qtbot, window, "Count to three.")
    assert engine.requests[-1].steering is None
    assert "steered" not in window.chat.answers[-1].status.text()


def test_a_vector_for_another_width_is_refused_in_one_message(qtbot, scripted_window, tmp_path):
    window = scripted_window
    narrow = random_vector(tmp_path / "narrow.gguf", n_embd=64)
    assert not window.steering.load_vector(str(narrow))
    assert "64 values per layer, but the model's embedding has 576" in window.last_error[1]
    assert not window.steering.panel.state.vectors
    assert not window.steering.load_vector(str(tmp_path / "none.gguf"))
    assert "does not exist" in window.last_error[1]


def test_an_adapter_the_engine_refuses_is_marked_once_and_left_out(qtbot, scripted_window, files):
    window = scripted_window
    engine = window.bridge.local
    window.steering.add_adapter(str(files["tune"]))
    window.steering.load_vector(str(files["happy"]))
    window.steering.panel.set_on(True)
    path = absolute(files["tune"])
    engine.fail_with = InvalidSettingsError(Message(
        "llama.cpp cannot apply the LoRA adapter {path} to this model: {reason}", path=path,
        reason="tensor 'blk.0.attn_q.weight' has wrong shape"))
    with qtbot.waitSignal(window.bridge.generationFailed, timeout=10_000):
        window.send("Say hi.")
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)
    boxes = [b for b in window.findChildren(QMessageBox, "errorBox") if b.isVisible()]
    assert len(boxes) == 1 and "cannot apply the LoRA adapter" in boxes[0].text() and "wrong shape" in boxes[0].text()
    row = window.steering.panel.rows[path]
    assert row.item.problem and not row.check.isChecked() and row.problem.isVisibleTo(row)
    ask(qtbot, window, "Name a colour.")                     # the next answer comes, without the adapter
    steering = engine.requests[-1].steering
    assert steering is not None and steering.loras == () and len(steering.control_vectors) == 1
    row.check.setChecked(True)                              # ticked again by hand: tried again
    assert not row.item.problem and window.steering.steering().loras == (ScaledFile(path, 1.0),)


def test_a_remote_engine_is_sent_nothing(qtbot, scripted_window, files, monkeypatch):
    from logitscope.protocol.engine_like import RemoteModelInfo

    window = scripted_window
    window.steering.load_vector(str(files["happy"]))
    window.steering.panel.set_on(True)
    assert window.steering.steering() is not None
    monkeypatch.setattr(window.bridge, "info", RemoteModelInfo("http://127.0.0.1:1", "m", "llama-server"))
    window.steering.model_changed()
    assert window.steering.steering() is None
    assert "A server cannot be steered" in window.steering.panel.unavailable.text()


def test_the_view_menu_entry_and_its_shortcut_bring_the_dock_forward(qtbot, scripted_window):
    window = scripted_window
    dock = window.docks["steering"]
    action = dock.toggleViewAction()
    assert action.shortcut().toString() == "Ctrl+Shift+S" and action in window.actions()
    assert dock.visibleRegion().isEmpty()                   # a tab behind the sampler controls
    action.trigger()
    qtbot.waitUntil(lambda: not dock.visibleRegion().isEmpty(), timeout=2_000)
    assert action.isChecked()
    action.trigger()                                        # on screen: the entry closes it
    assert dock.isHidden() and not action.isChecked()
    action.trigger()
    assert not dock.isHidden() and action.isChecked()


def test_the_layers_docks_inspection_sizes_the_sliders(qtbot, scripted_window, files):
    """The scripted lens's residual norms run from 1 to 40 over the 31 rows: what a vector adds over its layers
    (random unit directions, summed) is as large as the residual after the last of them at some scale: the slider
    reaches 1.5 times that, rounded."""
    window = scripted_window
    window.steering.load_vector(str(files["happy"]))
    row = window.steering.panel.rows[absolute(files["happy"])]
    ask(qtbot, window, "Say hi.")
    window.docks["layers"].raise_()
    qtbot.waitUntil(lambda: "layers" in window.forward.visible_views(), timeout=5_000)
    window.select_step(0, 2)
    # the scripted engine may have measured its short text first (it tokenizes any text, a token per byte):
    # the Layers dock's inspection sizes the slider once it is in
    qtbot.waitUntil(lambda: window.forward.last is not None and "Layers dock" in row.caption.toolTip(),
                    timeout=5_000)
    lens = window.forward.last.inspection.lens
    directions = read_control_vector(files["happy"]).directions
    last = max(directions)
    expected = float(lens.resid_norm[last + 1]) / float(np.linalg.norm(np.sum(list(directions.values()), axis=0)))
    assert row.scale.span == scale_span(expected) and row.scale.span < 50.0
    assert "Layers dock" in row.caption.toolTip() and f"{expected:.3g}" in row.caption.text()


def test_the_badge_counts_in_words() -> None:
    from logitscope.ui.steering.summary import SteeringSummary

    one, two = ScaledFile("/a.gguf"), ScaledFile("/b.gguf")
    assert SteeringSummary.badge(None) == ""
    assert SteeringSummary.badge(Steering(control_vectors=(one,))) == "Steering on: 1 vector ✕"   # "1 vector(s)" before
    assert SteeringSummary.badge(Steering(control_vectors=(one, two), loras=(one,))) == (
        "Steering on: 2 vectors, 1 adapter ✕")
    assert SteeringSummary.badge(Steering(loras=(one, two))) == "Steering on: 2 adapters ✕"
