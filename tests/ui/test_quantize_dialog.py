"""Model ▸ Quantize…: the dialog's defaults (the loaded model, its size and bits per weight, the target named
after the type), its refusals (an existing file asked about, a type that needs an importance matrix, a model
that is quantized already without requantizing), closing while it runs; and real quantizations of a copy of the
demo model (Q4_1) in an engine process of their own: Q8_0 to the end, IQ4_XS cancelled half-way (nothing left).
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

from logitscope.host.client import CancelledError
from logitscope.protocol.quantize import ModelSize, QuantizeRequest, QuantizeResult, model_size
from logitscope.ui.models.quantize_dialog import SHORTCUT, QuantizeDialog
from logitscope.ui.models.quantize_source import default_target

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("does not support")]  # offscreen: raise()

QUANTIZE_TIMEOUT_MS = 120_000   # an engine process starts, llama.cpp's dry run, then the quantization itself
SIZE = ModelSize(file_bytes=1000, tensor_bytes=800, n_elements=1600)


@pytest.fixture
def source(tmp_path: Path, demo_model: Path) -> Path:
    """A copy of the demo model alone in a folder of its own (what is left there after a job is checked)."""
    folder = tmp_path / "models"
    folder.mkdir()
    return Path(shutil.copyfile(demo_model, folder / demo_model.name))


class StandIn:
    """quantize_model without an engine: records its requests; `block` waits for a cancel."""

    def __init__(self, block: bool = False, error: BaseException | None = None) -> None:
        self.requests: list[QuantizeRequest] = []
        self.block, self.error = block, error
        self.started = threading.Event()
        self.cancelled = False

    def __call__(self, request: QuantizeRequest, on_progress, should_cancel, on_estimate) -> QuantizeResult:  # noqa: ANN001
        self.requests.append(request)
        self.started.set()
        on_estimate(12345)
        if self.error is not None:
            raise self.error
        while self.block:
            if should_cancel():
                self.cancelled = True
                raise CancelledError("cancelled")
            time.sleep(0.01)
        on_progress(1.0)
        return QuantizeResult(request.type, request.target, SIZE, SIZE, 0.5)


def make_dialog(qtbot, job=None, loads: list[str] | None = None, compares: list[tuple[str, str]] | None = None,
                **kwargs) -> QuantizeDialog:  # noqa: ANN001
    load = (lambda path: loads.append(path) or True) if loads is not None else None
    compare = (lambda a, b: compares.append((a, b))) if compares is not None else None
    dialog = QuantizeDialog(load, compare, **({"job": job} if job is not None else {}), **kwargs)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_the_default_target_is_the_source_with_the_new_type_never_the_source_itself():
    assert default_target("/m/SmolLM2-135M-Instruct.Q4_1.gguf", "Q4_K_M") == "/m/SmolLM2-135M-Instruct.Q4_K_M.gguf"
    assert default_target("/m/llama-3-8b-f16.gguf", "Q8_0") == "/m/llama-3-8b-Q8_0.gguf"
    assert default_target("/m/model.gguf", "IQ4_XS") == "/m/model.IQ4_XS.gguf"
    assert default_target("/m/qwen-q4_k_m-00001-of-00003.gguf", "Q6_K") == "/m/qwen-Q6_K.gguf"
    assert default_target("/m/SmolLM2.Q4_1.gguf", "Q4_1") == "/m/SmolLM2.Q4_1-requantized.gguf"


def test_the_source_shows_its_size_and_bpw_and_the_target_follows_the_type(qtbot, source):
    dialog = make_dialog(qtbot)
    assert "Choose a GGUF model" in dialog.source_info.text()
    dialog.open_with(str(source))
    size = model_size(source)
    info = dialog.source_info.text()
    assert f"{size.bpw:.2f} bits per weight" in info and "MiB" in info and "mostly Q4_1" in info
    assert "quantized already" in info and dialog.requantize.isChecked()   # the Q4_1 model: ticked, and why
    assert dialog.selected_type().name == "Q4_K_M"
    assert dialog.target.text() == str(source.parent / "SmolLM2-135M-Instruct.Q4_K_M.gguf")
    dialog.select_type("Q8_0")
    assert dialog.target.text() == str(source.parent / "SmolLM2-135M-Instruct.Q8_0.gguf")
    dialog.target.setText(str(source.parent / "mine.gguf"))   # edited by hand: it stays
    dialog.select_type("Q6_K")
    assert dialog.target.text() == str(source.parent / "mine.gguf")
    types = [dialog.type.itemData(i) for i in range(dialog.type.count())]
    assert {"Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q4_0", "Q3_K_M", "Q2_K", "IQ4_XS"} <= set(types)
    assert "needs an importance matrix" in dialog.type.itemText(types.index("IQ2_XS"))
    assert "needs an importance matrix" not in dialog.type.itemText(types.index("IQ4_XS"))
    assert dialog.type.itemText(types.index("F32")) == "F32 — 26.00G @ 7B"   # not llama-quantize's column padding


def test_an_existing_target_is_replaced_only_after_asking(qtbot, source, monkeypatch):
    job = StandIn()
    dialog = make_dialog(qtbot, job)
    dialog.set_source(str(source))
    target = Path(dialog.target.text())
    target.write_bytes(b"keep me")
    asked: list[str] = []
    monkeypatch.setattr(dialog, "_ask", lambda title, text: asked.append(text) or False)
    assert not dialog.start()
    assert asked and str(target) in asked[0] and not job.requests
    assert target.read_bytes() == b"keep me" and "Nothing was written" in dialog.status.text()
    monkeypatch.setattr(dialog, "_ask", lambda title, text: asked.append(text) or True)
    assert dialog.start()
    qtbot.waitUntil(lambda: not dialog.running, timeout=5_000)
    assert len(asked) == 2 and job.requests[0].overwrite and job.requests[0].target == str(target)


def test_a_type_that_needs_an_importance_matrix_is_refused_without_one(qtbot, source):
    job = StandIn()
    dialog = make_dialog(qtbot, job)
    dialog.set_source(str(source))
    dialog.select_type("IQ2_XS")
    assert "IQ2_XS needs an importance matrix" in dialog.type_note.text()
    assert not dialog.start()
    assert not job.requests and "IQ2_XS needs an importance matrix" in dialog.error
    assert dialog.status.text() == dialog.error and "\n" not in dialog.error


def test_paths_the_system_refuses_are_said_so_and_never_raise(qtbot, source):
    job = StandIn()
    dialog = make_dialog(qtbot, job)
    dialog.set_source(str(source) + "q" * 300)   # typed on: a name too long for the file system
    assert dialog.source_info.text() == "There is no file at this path."
    assert not dialog.start() and dialog.error == "There is no file at this path."
    dialog.set_source(str(source))
    dialog.target.setText(str(source.parent / ("q" * 300 + ".gguf")))
    assert not dialog.start()
    assert dialog.error.startswith("Cannot use the path ") and dialog.error.endswith(": File name too long")
    assert not job.requests


def test_closing_while_it_runs_asks_then_stops_it(qtbot, source, monkeypatch):
    job = StandIn(block=True)
    dialog = make_dialog(qtbot, job)
    dialog.set_source(str(source))
    assert dialog.start()
    qtbot.waitUntil(lambda: dialog.estimate == 12345, timeout=5_000)
    assert "about 12.06 KiB" in dialog.estimate_label.text() and not dialog.quantize_button.isEnabled()
    monkeypatch.setattr(dialog, "_ask", lambda title, text: False)
    dialog.reject()
    assert dialog.isVisible() and dialog.running   # "no": it goes on
    monkeypatch.setattr(dialog, "_ask", lambda title, text: True)
    dialog.reject()
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: not dialog.running, timeout=5_000)
    assert dialog.status.text() == "Stopped: nothing was written." and dialog.quantized is None
    assert dialog.quantize_button.isEnabled()


def test_a_bug_in_the_job_is_one_line_never_a_traceback(qtbot, source):
    dialog = make_dialog(qtbot, StandIn(error=RuntimeError("boom")))
    dialog.set_source(str(source))
    dialog.start()
    qtbot.waitUntil(lambda: not dialog.running, timeout=5_000)
    assert dialog.error == "Internal error (a bug; the details are in the log): RuntimeError: boom"
    assert "Traceback" not in dialog.status.text()


def test_the_model_menu_opens_it_on_the_loaded_model(qtbot, scripted_window):
    window = scripted_window
    action = next(a for a in window.model_menu.actions() if a.text() == "&Quantize…")
    assert action.isEnabled() and action.shortcut().toString() == SHORTCUT and action in window.actions()
    shortcuts = [a.shortcut().toString() for a in window.actions() if not a.shortcut().isEmpty()]
    assert shortcuts.count(SHORTCUT) == 1
    action.trigger()
    dialog = window.quantize_dialog
    assert dialog.isVisible() and dialog.source.text() == window.bridge.info.card.path
    # "Compare with the original" is the Score dialog's KL comparison
    assert dialog.compare == window.score_dialog.start_kl_comparison


def test_the_window_closing_stops_a_running_quantization(qtbot, scripted_window, source):
    window = scripted_window
    dialog = window.quantize_dialog
    job = StandIn(block=True)
    dialog.runner.job = job
    dialog.open_with(str(source))
    assert dialog.start()
    assert job.started.wait(5)
    window.close()   # the dialog's filter cancels the job and waits for it (its clean-up) before the window goes
    assert dialog.runner.wait(0) and job.cancelled


# -- real quantizations (an engine process each) ----------------------------------------------------------------

@pytest.mark.model
def test_quantizing_a_copy_to_q8_0_shows_the_sizes_and_offers_the_next_steps(qtbot, source):
    loads: list[str] = []
    compares: list[tuple[str, str]] = []
    dialog = make_dialog(qtbot, loads=loads, compares=compares)
    dialog.set_source(str(source))
    dialog.select_type("Q8_0")
    assert dialog.requantize.isChecked()
    progress: list[float] = []
    dialog.runner.progressed.connect(progress.append)
    with qtbot.waitSignal(dialog.runner.succeeded, timeout=QUANTIZE_TIMEOUT_MS):
        assert dialog.start()
    result = dialog.quantized
    assert result is not None, dialog.status.text()
    target = source.parent / "SmolLM2-135M-Instruct.Q8_0.gguf"
    assert result.target == str(target) and target.is_file()
    assert target.stat().st_size == model_size(target).file_bytes == result.after.file_bytes
    assert sorted(p.name for p in source.parent.iterdir()) == sorted([source.name, target.name])  # no .part
    assert progress and progress[-1] == 1.0 and dialog.progress.value() == dialog.progress.maximum()
    assert dialog.estimate is not None and dialog.estimate >= result.after.file_bytes * 0.9
    assert dialog.estimate_label.text().startswith("Estimated size: about ")
    text = dialog.status.text()
    before, after = result.before, result.after
    assert f"{before.bpw:.2f} bpw → " in text and f"{after.bpw:.2f} bpw (Q8_0)" in text and "MiB" in text
    assert text.startswith(f"Done in {result.seconds:.1f} s") and str(target) in text
    assert after.bpw > before.bpw and after.file_bytes > before.file_bytes   # Q4_1 -> Q8_0: bigger
    assert dialog.load_button.isVisible() and dialog.compare_button.isVisible()
    dialog.compare_button.click()
    assert compares == [(str(source), str(target))]
    dialog.load_button.click()
    assert loads == [str(target)] and not dialog.isVisible()


@pytest.mark.model
def test_a_cancel_during_an_iq4_xs_quantization_leaves_only_the_source(qtbot, source):
    dialog = make_dialog(qtbot)
    dialog.set_source(str(source))
    dialog.select_type("IQ4_XS")
    progress: list[float] = []
    dialog.runner.progressed.connect(progress.append)
    assert dialog.start()
    qtbot.waitUntil(lambda: any(0 < f < 1 for f in progress), timeout=QUANTIZE_TIMEOUT_MS)
    assert dialog.cancel_button.isEnabled()
    with qtbot.waitSignal(dialog.runner.failed, timeout=30_000):
        dialog.cancel_button.click()
    assert dialog.quantized is None and dialog.status.text() == "Stopped: nothing was written."
    assert [p.name for p in source.parent.iterdir()] == [source.name]
    assert dialog.quantize_button.isEnabled() and not dialog.cancel_button.isEnabled()


@pytest.mark.model
def test_an_already_quantized_model_without_requantizing_is_one_clear_refusal(qtbot, source):
    dialog = make_dialog(qtbot)
    dialog.set_source(str(source))
    dialog.select_type("Q8_0")
    dialog.requantize.setChecked(False)
    with qtbot.waitSignal(dialog.runner.failed, timeout=QUANTIZE_TIMEOUT_MS):
        assert dialog.start()
    assert dialog.error.startswith("This model is quantized already (") and "Allow requantizing" in dialog.error
    assert "\n" not in dialog.error and "Traceback" not in dialog.error and dialog.status.text() == dialog.error
    assert [p.name for p in source.parent.iterdir()] == [source.name]
    assert not dialog.load_button.isVisible()
