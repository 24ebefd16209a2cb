"""The JSON Lines trace as it is written: one step per line as the steps come, then the caller's 'done' line.

One writer for both places a trace is written from: the engine process, straight to the CLI's standard output
that it inherited (a local `generate --json`: no step crosses to the CLI and back, which cost the CLI ~220 µs
of CPU a token on a 2-core machine, taken from llama.cpp's threads), and the CLI itself (a remote server's
steps, or when it keeps the steps for --explain).
"""

from __future__ import annotations

import time
from typing import TextIO

from logitscope.protocol.trace import StepRecord, Vocab, dumps, step_to_json

# What is written goes out at most 30 times a second (and all of it at the end): each flush wakes the reader,
# which then competes with llama.cpp's threads for the cores.
OUTPUT_FLUSH_S = 1 / 30
JSON_TOP = 10  # candidates per distribution in a step line, at least (--top asks for more)


class StepLines:
    """Writes steps to `out` as JSON lines (protocol/trace.py's step_to_json with `vocab`, `top` candidates),
    flushing at most every OUTPUT_FLUSH_S; the first step at once. OSError when the output is full or gone."""

    def __init__(self, out: TextIO, vocab: Vocab, top: int) -> None:
        self.out, self.vocab, self.top = out, vocab, top
        self._flushed = float("-inf")

    def write(self, step: StepRecord) -> None:
        self.out.write(dumps(step_to_json(step, self.vocab, top=self.top)) + "\n")
        now = time.monotonic()
        if now - self._flushed >= OUTPUT_FLUSH_S:
            self.out.flush()
            self._flushed = now

    def flush(self) -> None:
        self.out.flush()
