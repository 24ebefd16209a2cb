"""Which lines of a crashed engine's log say something about the crash.

llama.cpp logs hundreds of routine lines while loading ("llama_kv_cache: size = 45 MiB", "sched_reserve:
reserve took 5 ms"); the last of them says nothing about why the process died, so it is never shown as the
reason. What is shown: a failed check (GGML_ASSERT), or lines that speak of an error, and otherwise nothing.
"""

from __future__ import annotations

import re

LLAMA_PREFIX = "logitscope.llama: "   # how the engine process forwards llama.cpp's log lines
SHOWN = 3
# words that make a line worth showing, from llama.cpp, ggml, Python or the C runtime
TELLING = re.compile(r"GGML_ASSERT|error|fail|fatal|abort|exception|traceback|out of memory|cannot|unable|"
                     r"invalid|corrupt|segmentation|killed|terminate", re.IGNORECASE)


def meaningful_lines(tail: list[str], n: int = SHOWN) -> list[str]:
    """The last `n` lines of the log that speak of a failure, without the forwarding prefix, oldest first."""
    found = [line.removeprefix(LLAMA_PREFIX).strip() for line in tail if TELLING.search(line)]
    return found[-n:]


def crash_hint(tail: list[str]) -> str:
    """One line for the crash message: the failed check if there is one, else the telling lines, else ""."""
    lines = meaningful_lines(tail)
    asserted = next((line for line in reversed(lines) if "GGML_ASSERT" in line), None)
    return asserted if asserted is not None else " / ".join(lines)
