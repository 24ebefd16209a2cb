"""What the user can see now: panels nobody sees are not refreshed while tokens stream.

Qt calls a dock tabbed behind another "visible" (isVisible() is True) though none of it is painted: the
visible region is what tells. A dock that comes to the front again emits visibilityChanged(True); the
window connects that to the panels' catch-up, which brings a stale panel up to date at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget

from logitscope.ui.bridge import REPAINT_INTERVAL_MS

# a request within the interval waits this long past it, for a drain of new steps to come first
GRACE_MS = REPAINT_INTERVAL_MS + 10


def on_screen(widget: QWidget) -> bool:
    """Some of the widget is painted now (not hidden, not in a dock tabbed behind another)."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


class Coalescer(QObject):
    """Calls `fn` at most once per `interval_ms`: many updates in a burst cost one repaint.

    A request after a quiet interval calls `fn` at once, inside the caller's event. While an answer
    streams that event is the bridge's drain of new steps, so the panel's repaint joins the chat's in one
    frame instead of waking the GUI thread and flushing the window once more. A request within the
    interval leaves `fn` to the first request after it (a steady stream gets there within a drain) or,
    when none comes, to a timer just after the interval: the last update is never lost."""

    def __init__(self, interval_ms: int, fn: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._interval_s = interval_ms / 1000
        self._fn = fn
        self._last = -float("inf")
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._run)

    def request(self) -> None:
        waited = time.monotonic() - self._last
        if waited >= self._interval_s:
            self._run()
        elif not self._timer.isActive():
            self._timer.start(round((self._interval_s - waited) * 1000) + GRACE_MS)

    def cancel(self) -> None:
        """What was requested has been done another way: nothing is pending, and the interval starts now."""
        self._timer.stop()
        self._last = time.monotonic()

    def _run(self) -> None:
        self._timer.stop()
        self._last = time.monotonic()
        self._fn()
