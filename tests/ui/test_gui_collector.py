"""Python's collector frees widgets on the GUI thread only: a dropped window in a reference cycle, while a
worker thread allocates enough to fill every generation, is not destroyed there (Qt would warn that timers
cannot be started from another thread, as CI saw) but at the GUI thread's next collection."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from logitscope.ui.common.gui_collector import GuiThreadCollector, collect_on_gui_thread

pytestmark = pytest.mark.gui


def _allocate_cycles(count: int) -> None:
    for _ in range(count):
        cycle: list[object] = []
        cycle.append(cycle)


def test_a_window_in_a_cycle_is_freed_on_the_gui_thread(qtbot, qapp) -> None:
    collect_on_gui_thread(qapp)
    gc.collect()
    tree = QTreeWidget()
    tree.show()
    QTreeWidgetItem(tree, ["a row"])
    tree.keep = [tree]  # a cycle: only the collector can free it
    freed_on: list[str] = []
    weakref.finalize(tree, lambda: freed_on.append(threading.current_thread().name))
    del tree
    worker = threading.Thread(target=_allocate_cycles, args=(200_000,), name="worker")  # past every threshold
    worker.start()
    worker.join()
    assert freed_on == []
    qtbot.waitUntil(lambda: bool(freed_on), timeout=5_000)
    assert freed_on == [threading.main_thread().name]


def test_one_collector_per_application_and_it_collects_what_is_due(qapp) -> None:
    collector = collect_on_gui_thread(qapp)
    assert collect_on_gui_thread(qapp) is collector and not gc.isenabled()
    assert len(qapp.findChildren(GuiThreadCollector)) == 1
    gc.collect()
    assert collector.collect_due() == 0  # nothing came due
    _allocate_cycles(collector.thresholds[0] + 10)
    assert collector.collect_due() >= collector.thresholds[0]  # the cycles, found unreachable
    assert gc.get_count()[0] < collector.thresholds[0]
