"""What the user can see now: panels nobody sees are not refreshed while tokens stream (issue 12).

Qt calls a dock tabbed behind another "visible" (isVisible() is True) though none of it is painted: the
visible region is what tells. A dock that comes to the front again emits visibilityChanged(True); the
window connects that to the panels' catch-up, which brings a stale panel up to date at once.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget


def on_screen(widget: QWidget) -> bool:
    """Some of the widget is painted now (not hidden, not in a dock tabbed behind another)."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


class Coalescer(QObject):
    """Calls `fn` at most once per `interval_ms`, soon after the first request of each interval: many
    updates in a burst cost one repaint."""

    def __init__(self, interval_ms: int, fn: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(fn)

    def request(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def cancel(self) -> None:
        self._timer.stop()
