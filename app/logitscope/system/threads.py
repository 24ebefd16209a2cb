"""How many CPU threads llama.cpp may be given.

More threads than CPUs only make them wait for each other (ggml's threads spin while they wait):
`--threads 999` on two cores drove the load average to 288. A few per CPU are allowed, for machines
where the count we see is lower than what the process may really use."""

from __future__ import annotations

import os
from pathlib import Path

MAX_THREADS_PER_CPU = 4
CPU_TOPOLOGY = Path("/sys/devices/system/cpu")


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def max_threads() -> int:
    return MAX_THREADS_PER_CPU * available_cpus()


def physical_cores(topology: Path = CPU_TOPOLOGY) -> int:
    """The physical cores among the CPUs this process may run on, as llama.cpp counts them for its default
    thread count (one per set of hyper-thread siblings); the CPU count where the topology is not readable."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else list(range(available_cpus()))
    cores: set[str] = set()
    for cpu in cpus:
        try:
            cores.add((topology / f"cpu{cpu}" / "topology" / "thread_siblings_list").read_text().strip())
        except OSError:
            return len(cpus) or 1
    return max(1, len(cores))
