"""Other processes' CPU use, from /proc/stat (a written file and a clock of the test's own; then the real one)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from logitscope.system.cpu_load import OtherLoad

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or not Path("/proc/stat").exists(),
                                reason="/proc/stat and CPU affinity are Linux's")


def stat_file(path: Path, busy_ticks: int, idle_ticks: int) -> None:
    tick = os.sysconf("SC_CLK_TCK")
    lines = [f"cpu  {busy_ticks * 99} 0 0 0 0 0 0 0 0 0"]  # the total line and CPUs outside the mask: not read
    lines += [f"cpu{n} {busy_ticks} 0 0 {idle_ticks} 0 0 0 0 0 0" for n in sorted(os.sched_getaffinity(0))]
    lines += [f"cpu{n} {busy_ticks * 7} 0 0 0 0 0 0 0 0 0" for n in range(4096, 4098)]
    path.write_text("\n".join(lines) + "\nintr 1 2 3\n")
    assert tick > 0


def test_the_busy_time_of_our_cpus_less_our_own_over_the_wall_time(tmp_path: Path) -> None:
    tick = os.sysconf("SC_CLK_TCK")
    cpus = len(os.sched_getaffinity(0))
    stat = tmp_path / "stat"
    clock, own = [100.0], [5.0]
    stat_file(stat, 1000, 1000)
    load = OtherLoad(stat, clock=lambda: clock[0], own_cpu=lambda: own[0])
    clock[0] += 2.0                 # 2 s later: each CPU busy 1 s more (tick ticks), of which 0.5 s were ours
    own[0] += 0.5
    stat_file(stat, 1000 + tick, 1000 + tick)
    assert load.cores() == pytest.approx((cpus * 1.0 - 0.5) / 2.0)


@pytest.mark.parametrize("content", ["", "cpu0 x y z\n", "cpu  1 2 3 4\n"])
def test_an_unreadable_stat_file_is_not_known(tmp_path: Path, content: str) -> None:
    stat = tmp_path / "stat"
    stat.write_text(content)
    assert OtherLoad(stat).cores() is None
    assert OtherLoad(tmp_path / "missing").cores() is None


def test_a_busy_process_shows_and_our_own_work_does_not() -> None:
    mine = OtherLoad()
    time.sleep(0.3)
    mine.cores()
    end = time.process_time() + 0.6
    while time.process_time() < end:   # this process busy: not another's work
        pass
    ours = mine.cores()
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        load = OtherLoad()
        time.sleep(1.0)
        theirs = load.cores()
    finally:
        busy.kill()
        busy.wait()
    assert ours is not None and theirs is not None
    assert theirs >= 0.7 and theirs - ours >= 0.5
