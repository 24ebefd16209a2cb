"""How many CPU threads llama.cpp may be given.

More threads than CPUs only make them wait for each other (ggml's threads spin while they wait):
`--threads 999` on two cores drove the load average to 288. A few per CPU are allowed, for machines
where the count we see is lower than what the process may really use."""

from __future__ import annotations

import os

MAX_THREADS_PER_CPU = 4


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def max_threads() -> int:
    return MAX_THREADS_PER_CPU * available_cpus()
