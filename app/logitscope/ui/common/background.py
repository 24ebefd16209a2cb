"""Run slow work that does not touch the model (disk scans, the Hub) off the GUI thread.

`Background.run(fn, done, failed)` calls `fn` on a worker thread; `done(value)` or `failed(message)` then
run on the GUI thread. Only LogitscopeError messages are shown to people; anything else is a bug and
is reported as such, never swallowed.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Signal

from logitscope.base.errors import LogitscopeError


class Background(QObject):
    _finished = Signal(object, object)  # callback, argument: delivered on the GUI thread

    def __init__(self, parent: QObject | None = None, workers: int = 2) -> None:
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="background")
        self._finished.connect(lambda callback, value: callback(value))

    def run(self, fn: Callable[[], Any], done: Callable[[Any], None] | None = None,
            failed: Callable[[str], None] | None = None) -> Future[Any]:
        def job() -> None:
            try:
                value = fn()
            except LogitscopeError as exc:
                if failed:
                    self._finished.emit(failed, str(exc))
                return
            except Exception as exc:  # a bug: say so plainly, keep the details in the log
                traceback.print_exc()
                if failed:
                    self._finished.emit(failed, f"internal error: {type(exc).__name__}: {exc}")
                return
            if done:
                self._finished.emit(done, value)

        return self._pool.submit(job)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
