"""Model ▸ Throughput…: the measurement runs on the worker, the curve, the table and where growth stops are shown,
Esc stops it; scripted (fast tier) and on the real engine with the demo model."""

from __future__ import annotations

import threading

import pytest

from logitscope.ui.throughput.view import SHORTCUT


def open_dialog(qtbot, window):
    action = next(a for a in window.model_menu.actions() if a.shortcut().toString() == SHORTCUT)
    assert action.isEnabled(), action.toolTip()
    action.trigger()
    dialog = window.throughput_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    return dialog


@pytest.mark.gui
def test_the_curve_the_table_and_where_it_stops_growing(qtbot, scripted_window) -> None:
    dialog = open_dialog(qtbot, scripted_window)
    dialog.measure_button.click()
    assert dialog.running and not dialog.measure_button.isEnabled()
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    result = dialog.measured
    assert result is not None and [p.batch for p in result.points] == [1, 2, 4, 8]
    assert dialog.table.rowCount() == 4 and dialog.table.item(3, 0).text() == "8"
    assert dialog.table.item(2, 1).text() == "159.0" and dialog.table.item(2, 2).text() == "39.8"
    xs, ys = dialog.total_curve.getData()
    assert list(xs) == [1, 2, 4, 8] and list(ys) == [p.tok_per_s for p in result.points]
    # 172 at 8 is less than 10 % above 159 at 4: growth stops at 4
    assert "stops growing at 4 answers" in dialog.summary.text()
    assert "1.6x" in dialog.summary.text()
    # the curves are named above the plot, not by a legend box over the first points
    plot = dialog.plot.getPlotItem()
    assert plot.legend is None and "all answers" in plot.titleLabel.text and "each answer" in plot.titleLabel.text


@pytest.mark.gui
def test_a_slow_machines_rates_keep_a_decimal(qtbot, scripted_window) -> None:
    """'1.1x (7 against 6)' could not be checked by reading it; rates under 100 tokens/s keep one decimal."""
    from logitscope.protocol.batched import ThroughputPoint, ThroughputResult

    dialog = open_dialog(qtbot, scripted_window)
    points = [ThroughputPoint(batch=1, tok_per_s=6.5, kv_cells=72, kv_bytes=1 << 20, seconds=2.0),
              ThroughputPoint(batch=2, tok_per_s=7.2, kv_cells=80, kv_bytes=1 << 20, seconds=2.5)]
    text = dialog.summary_text(ThroughputResult(points, 1))
    assert "1.1x the tokens per second of one (7.2 against 6.5), each answer at 3.6." in text


@pytest.mark.gui
def test_esc_stops_a_measurement_and_a_smaller_largest_batch_measures_less(qtbot, scripted_window) -> None:
    engine = scripted_window.bridge.client
    engine.gate = threading.Event()
    dialog = open_dialog(qtbot, scripted_window)
    dialog.largest.setCurrentIndex(0)   # 2
    assert dialog.request().sizes == (1, 2)
    dialog.measure_button.click()
    qtbot.waitUntil(lambda: bool(engine.requests) or dialog.bridge.busy, timeout=5_000)
    dialog.keyPressEvent(_escape())
    engine.gate.set()
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    assert dialog.measured is None and dialog.status.text() == "Stopped."
    assert dialog.measure_button.isEnabled()


class _OneAtATime:
    """A gate the scripted engine waits at before each batch size: `release()` lets one size through."""

    def __init__(self) -> None:
        self._sizes = threading.Semaphore(0)

    def wait(self, timeout: float) -> bool:
        return self._sizes.acquire(timeout=timeout)

    def release(self) -> None:
        self._sizes.release()


@pytest.mark.gui
def test_each_batch_size_shows_as_it_is_measured_and_a_stop_keeps_them(qtbot, scripted_window) -> None:
    engine = scripted_window.bridge.client
    engine.gate = gate = _OneAtATime()
    dialog = open_dialog(qtbot, scripted_window)
    dialog.largest.setCurrentIndex(1)   # 4
    assert dialog.request().sizes == (1, 2, 4)
    dialog.measure_button.click()
    dialog.largest.setCurrentIndex(2)   # changed while it measures: the running measurement's sizes are said
    for done in (1, 2):
        gate.release()
        qtbot.waitUntil(lambda done=done: dialog.table.rowCount() == done, timeout=5_000)
        assert dialog.running and dialog.status.text() == f"Measuring… {done} of 3 batch sizes done."
    xs, _ys = dialog.total_curve.getData()
    assert list(xs) == [1, 2]
    dialog.keyPressEvent(_escape())
    gate.release()
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    assert dialog.status.text() == "Stopped after 2 of 3 batch sizes; the figures above were measured."
    assert dialog.table.rowCount() == 2 and dialog.table.item(1, 1).text() == "122.0"
    assert "2 answers together make 1.1x the tokens per second of one" in dialog.summary.text()
    dialog.largest.setCurrentIndex(1)   # 4 again
    dialog.measure_button.click()   # a new measurement starts from an empty table
    assert dialog.table.rowCount() == 0 and dialog.summary.text() == ""
    for _ in range(3):
        gate.release()
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    assert dialog.table.rowCount() == 3 and dialog.measured is not None


def _escape():
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QKeyEvent

    return QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)


@pytest.mark.model
def test_throughput_measured_on_the_demo_model(qtbot, real_window) -> None:
    dialog = open_dialog(qtbot, real_window)
    dialog.largest.setCurrentIndex(0)   # 1 and 2 answers
    dialog.tokens.setValue(8)
    live, progress = [], []
    dialog.pointMeasured.connect(live.append)
    dialog.progressed.connect(progress.append)
    dialog.measure_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    result = dialog.measured
    assert result is not None, dialog.status.text()
    assert live == result.points   # each size reached the window as soon as it was measured
    assert len(progress) > 2 and progress == sorted(progress) and progress[-1] <= 1.0   # within the sizes too
    assert [p.batch for p in result.points] == [1, 2] and all(p.tok_per_s > 0 for p in result.points)
    assert result.points[1].kv_cells == result.points[0].kv_cells + 8   # the prompt once, then each answer's
    assert dialog.table.rowCount() == 2 and "threads" in dialog.status.text()


def test_where_growth_stops_is_where_larger_batches_add_little() -> None:
    from logitscope.protocol.batched import ThroughputPoint, ThroughputResult

    def result(*rates: float) -> ThroughputResult:
        return ThroughputResult([ThroughputPoint(b, r, 0, 0, 1.0) for b, r in zip((1, 2, 4, 8), rates, strict=False)],
                                2)

    assert result(110, 122, 159, 172).stops_growing_at == 4
    assert result(118, 125, 160, 198).stops_growing_at is None   # a slow start, then it grows again
    assert result(100, 104, 105, 103).stops_growing_at == 1
    assert result(100).stops_growing_at is None
