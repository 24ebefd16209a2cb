"""The engine process's trace output: the CLI's standard output, inherited (a local `generate --json`).

A reader that stopped reading (`generate --json | reader` whose reader sleeps) fills the pipe, and a plain
write then waits for as long as it sleeps: the engine could not take a Ctrl+C, and neither could the CLI, which
waits for the engine. Here a write waits for room in small polls; once the answer is cancelled it waits at most
STALLED_AFTER_CANCEL_S more (a slow reader that still reads gets the last lines), then gives the output up for
the answer: OutputStalledError, and what comes after is dropped until the next answer starts.
"""

from __future__ import annotations

import errno
import io
import os
import select
import threading
import time
from typing import Any

POLL_S = 0.1
STALLED_AFTER_CANCEL_S = 1.0
PIPE_BUF = select.PIPE_BUF   # a write of at most this many bytes into a pipe with room never blocks


class OutputStalledError(OSError):
    """The trace's reader read nothing while the answer was being cancelled."""

    def __init__(self) -> None:
        super().__init__(errno.EAGAIN, "the output is not being read")


class TraceOutput(io.RawIOBase):
    def __init__(self, fd: int, cancel: threading.Event) -> None:
        super().__init__()
        self.fd, self.cancel = fd, cancel
        self.given_up = False
        self._poll = select.poll()
        self._poll.register(fd, select.POLLOUT)

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def start_answer(self) -> None:
        """A new answer writes again (an output given up was given up for one answer)."""
        self.given_up = False

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        if self.given_up:
            return len(view)
        give_up_at = float("inf")
        while not self._poll.poll(POLL_S * 1000):
            if self.cancel.is_set():
                give_up_at = min(give_up_at, time.monotonic() + STALLED_AFTER_CANCEL_S)
                if time.monotonic() >= give_up_at:
                    self.given_up = True
                    raise OutputStalledError
        return os.write(self.fd, view[:PIPE_BUF])
