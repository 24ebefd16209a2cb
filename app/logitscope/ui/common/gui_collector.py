"""Python's cyclic garbage collector, run on the GUI thread only.

A window or dialog held in a reference cycle (a lambda that keeps its owner, a slot bound to it) is freed by
the collector, and Python runs the collector on whichever thread happens to allocate when a generation fills:
often the bridge's worker or the engine client's reader. Qt objects destroyed there start their timers from
the wrong thread ("QBasicTimer::start: Timers cannot be started from another thread", seen in CI after a
window closed) and may crash. So automatic collection is switched off and a timer on the GUI thread collects
each generation when its threshold is passed, as Python itself would have (pyqtgraph's GarbageCollector does
the same).
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QObject, QTimer

# How often the GUI thread looks at the collector's counts: garbage waits at most this long for its turn.
COLLECT_INTERVAL_MS = 1000


class GuiThreadCollector(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        # Python's own thresholds, read before collection is switched off (a user's gc.set_threshold kept)
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(COLLECT_INTERVAL_MS)
        self.timer.timeout.connect(self.collect_due)
        self.timer.start()

    def collect_due(self) -> int:
        """Collect as Python's automatic collection would: once the youngest generation's count passed its
        threshold, the oldest generation whose count passed its own (the younger ones with it); returns the
        objects found unreachable."""
        counts = gc.get_count()
        due = [generation for generation in (0, 1, 2) if counts[generation] > self.thresholds[generation]]
        if 0 not in due:  # older generations are counted up by collections of the younger: none came due
            return 0
        return gc.collect(max(due))


def collect_on_gui_thread(app: QCoreApplication) -> GuiThreadCollector:
    """Switch automatic collection to the GUI thread of `app` (once: later calls return the same)."""
    existing = app.findChild(GuiThreadCollector)
    if isinstance(existing, GuiThreadCollector):
        return existing
    return GuiThreadCollector(app)
