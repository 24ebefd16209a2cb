"""What every screenshot script waits with: a real Qt event loop until `condition()` holds (the engine's
answers, loads and repaints come in as events), never a busy loop. Imported after QT_QPA_PLATFORM is set."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEventLoop, QTimer


def wait(condition: Callable[[], object], timeout: float = 240.0) -> bool:
    """Whether the condition held before `timeout` seconds passed."""
    end = time.monotonic() + timeout
    loop = QEventLoop()
    while not condition() and time.monotonic() < end:
        QTimer.singleShot(50, loop.quit)
        loop.exec()
    return bool(condition())
