"""How many of this process's CPUs other processes keep busy: /proc/stat's busy time on the CPUs of our affinity
mask, minus this process's own CPU time (Linux; elsewhere: not known).

The thread tuner asks it before it probes one thread more: with no CPU free, that probe can only lose, and it
loses a lot (two threads on two cores while another process holds one: a token at 4-5 tok/s instead of 50 on the
demo model, some 4 % of a 160-token answer every 256 tokens). A virtual machine's stolen time counts as taken.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

PROC_STAT = Path("/proc/stat")
_IDLE_FIELDS = (3, 4)          # idle, iowait: of user nice system idle iowait irq softirq steal guest guest_nice
_COUNTED_FIELDS = 8            # guest time is already in user time


class OtherLoad:
    """`cores()`: CPUs' worth of other processes' work since the call before (the first call: since creation)."""

    def __init__(self, stat: Path = PROC_STAT, clock: Callable[[], float] = time.monotonic,
                 own_cpu: Callable[[], float] = time.process_time) -> None:
        self._stat, self._clock, self._own_cpu = stat, clock, own_cpu
        self._cpus = {f"cpu{n}" for n in os.sched_getaffinity(0)} if hasattr(os, "sched_getaffinity") else set()
        self._tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self._last = self._sample()

    def _sample(self) -> tuple[float, float, float] | None:
        """(wall seconds, busy seconds of our CPUs, this process's CPU seconds), None when not known."""
        if not self._cpus:
            return None
        try:
            lines = self._stat.read_text(encoding="ascii", errors="replace").splitlines()
        except OSError:
            return None
        busy = 0
        seen = 0
        for line in lines:
            name, _, rest = line.partition(" ")
            if name not in self._cpus:
                continue
            try:
                fields = [int(v) for v in rest.split()[:_COUNTED_FIELDS]]
            except ValueError:
                return None
            busy += sum(v for i, v in enumerate(fields) if i not in _IDLE_FIELDS)
            seen += 1
        if seen != len(self._cpus):
            return None
        return self._clock(), busy / self._tick, self._own_cpu()

    def cores(self) -> float | None:
        now = self._sample()
        last, self._last = self._last, now
        if now is None or last is None or now[0] - last[0] < 0.05:  # a few clock ticks say nothing
            return None
        other = (now[1] - last[1]) - (now[2] - last[2])
        return max(0.0, other / (now[0] - last[0]))
