"""The thread tuner on a scripted clock (deterministic; the speed figures live in `bench --contention`): each
token's time is what the 2-core machine measured for that thread count under that load (ms per token at 0 % and
100 % of one core taken: 2 threads 10.9 / 70.4, 1 thread 15.9 / 16.4). A load appears, the tuner moves to one
thread within a few tokens; it stays while the load lasts; the load goes, it comes back to two; on a quiet machine
it stays on two and its probes cost little."""

from __future__ import annotations

from pathlib import Path

from logitscope.system.thread_tuner import MAX_PROBE_INTERVAL, PROBE_TOKENS, ThreadRecord, ThreadTuner
from logitscope.system.threads import physical_cores

MS = {(2, False): 10.9, (1, False): 15.9, (2, True): 70.4, (1, True): 16.4}


def run(tuner: ThreadTuner, tokens: int, loaded: bool) -> list[int]:
    """The thread count of each token, the clock answering for it."""
    used = []
    for k in range(tokens):
        n = tuner.threads()
        used.append(n)
        jitter = 1 + 0.02 * ((k * 7919) % 5 - 2) / 2   # ±2 %, deterministic
        tuner.record(MS[(n, loaded)] * jitter / 1000)
    return used


def test_a_quiet_machine_keeps_its_cores_and_probes_rarely() -> None:
    tuner = ThreadTuner(2, 2)
    used = run(tuner, 2000, loaded=False)
    assert tuner.current == 2 and not tuner.changes
    probes = used.count(1)
    assert probes <= PROBE_TOKENS * (2 + 2000 // MAX_PROBE_INTERVAL)
    # what the probes cost: the time at one thread over the time had it stayed at two
    cost = sum(MS[(n, False)] for n in used) / (2000 * MS[(2, False)])
    assert cost < 1.02


def test_a_losing_probe_ends_early_and_a_winning_one_runs_its_course() -> None:
    quiet = ThreadTuner(2, 2)
    used = run(quiet, 200, loaded=False)
    first = used.index(1)
    assert used[first:first + 4] == [1, 1, 1, 2]   # a warm-up and two tokens clearly slower: back to two
    loaded = ThreadTuner(2, 2)
    run(loaded, 100, loaded=False)
    during = run(loaded, 40, loaded=True)
    start = during.index(1)
    assert during[start:start + PROBE_TOKENS] == [1] * PROBE_TOKENS   # faster: timed to the end, then kept
    assert loaded.current == 1
    # decisively faster (4x): moved at once, no tokens spent at the slow count after it
    assert during[start + PROBE_TOKENS:] == [1] * (len(during) - start - PROBE_TOKENS)


def test_one_slow_token_before_a_probe_does_not_keep_a_losing_probe_going() -> None:
    tuner = ThreadTuner(2, 2)
    used = []
    for k in range(200):
        n = tuner.threads()
        used.append(n)
        hiccup = 3.0 if k % 64 == 62 else 1.0   # another process woke for one token, just before the probe
        tuner.record(MS[(n, False)] * hiccup / 1000)
    first = used.index(1)
    assert used[first:first + 4] == [1, 1, 1, 2] and not tuner.changes


def test_a_load_that_comes_and_goes_is_judged_by_the_mean_token_time() -> None:
    """Another process busy part of every tenth of a second: three of every nine tokens at two threads take 4x
    as long. Two threads' median token is the fast one, but their mean (21.8 ms) is one thread's 15.9 ms and
    more: throughput follows the mean (measured with `bench --contention`'s load, alternated against the tuner that
    judged by medians, 5-7 reps: 0.974 vs 0.939 of the best fixed count at 60 % load, 1.024 and 0.999 vs 0.96 and
    0.952 at 30 %)."""
    tuner = ThreadTuner(2, 2)
    run(tuner, 100, loaded=False)
    used = []
    for k in range(800):
        n = tuner.threads()
        used.append(n)
        tuner.record(MS[(n, False)] * (4.0 if n == 2 and k % 9 < 3 else 1.0) / 1000)
    assert tuner.current == 1 and used[400:].count(1) >= 0.9 * 400


def test_a_probe_far_slower_at_its_first_token_ends_there() -> None:
    """Probing two threads while another process keeps a core: each token takes 4x as long; a warm-up token
    that slow says enough (two more cost 0.3 s on the demo model)."""
    tuner = ThreadTuner(2, 2)
    run(tuner, 100, loaded=True)
    assert tuner.current == 1
    used = run(tuner, 200, loaded=True)
    first = used.index(2)
    assert used[first:first + 2] == [2, 1]


def test_a_load_moves_it_to_fewer_threads_and_back_when_the_load_goes() -> None:
    tuner = ThreadTuner(2, 2)
    run(tuner, 100, loaded=False)
    loaded = run(tuner, 600, loaded=True)
    assert loaded.index(1) < 10 and tuner.current == 1   # a slowdown probes at once
    change = tuner.changes[0]
    assert (change.before, change.after, change.slowed) == (2, 1, True) and change.speedup > 3
    settled = loaded[20:]
    assert settled.count(2) <= PROBE_TOKENS * (1 + len(settled) // 64)   # only probes go back to two
    quiet = run(tuner, 2 * MAX_PROBE_INTERVAL + 64, loaded=False)
    assert tuner.current == 2 and quiet[-1] == 2
    assert [(c.before, c.after) for c in tuner.changes] == [(2, 1), (1, 2)]


def test_noise_within_the_margin_never_moves_it() -> None:
    tuner = ThreadTuner(2, 2)
    for k in range(3000):
        tuner.record((10.0 if tuner.threads() == 2 else 10.4) * (1 + 0.05 * ((k * 31) % 3 - 1)) / 1000)
    assert not tuner.changes


def test_one_cpu_never_probes() -> None:
    tuner = ThreadTuner(1, 1)
    assert run(tuner, 300, loaded=True) == [1] * 300


def test_the_record_says_which_count_each_step_ran_with() -> None:
    record = ThreadRecord(2, auto=True)
    tuner = ThreadTuner(2, 2)
    for step in range(1, 200):
        record.used(step, tuner.threads())
        record.note(step, tuner.record(MS[(tuner.threads(), step > 50)] / 1000))
    data = record.to_json()
    assert data["auto"] is True and data["start"] == 2 and data["runs"][0] == [0, 2]
    assert data["runs"][1][1] == 1 and data["changes"][0][1:3] == [2, 1] and data["changes"][0][4] == "slowdown"


def test_physical_cores_count_hyper_thread_siblings_once(tmp_path: Path, monkeypatch) -> None:
    import os

    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3})
    for cpu, siblings in enumerate(("0,2", "1,3", "0,2", "1,3")):
        folder = tmp_path / f"cpu{cpu}" / "topology"
        folder.mkdir(parents=True)
        (folder / "thread_siblings_list").write_text(siblings + "\n")
    assert physical_cores(tmp_path) == 2
    assert physical_cores(tmp_path / "nowhere") == 4   # no topology: the CPU count


def test_no_probe_of_one_thread_more_while_other_processes_hold_the_cpus() -> None:
    """At one thread under a full load, a probe of two threads costs a token at 4-5 tok/s (the demo model): it is
    not made while the other processes' work leaves no CPU free, and is as soon as they leave one."""
    other = {"cores": 0.0}
    tuner = ThreadTuner(2, 2, other_load=lambda: other["cores"])
    run(tuner, 100, loaded=False)
    other["cores"] = 1.0
    loaded = run(tuner, 2000, loaded=True)
    assert tuner.current == 1 and loaded[20:].count(2) == 0
    other["cores"] = 0.1
    quiet = run(tuner, 200, loaded=False)
    assert tuner.current == 2 and quiet.index(2) <= 64


def test_while_every_cpu_is_free_no_regular_probe_is_spent_and_a_load_from_the_start_is_still_found() -> None:
    """Other processes' work known to be nil: no token at one thread fewer (a probe only costs there); work of
    theirs that slows nothing still has its regular probes; a load there from the first token, which no slowdown
    shows, is found by the first regular probe."""
    quiet = ThreadTuner(2, 2, other_load=lambda: 0.1)
    assert run(quiet, 2000, loaded=False).count(1) == 0 and quiet.current == 2
    busy_elsewhere = ThreadTuner(2, 2, other_load=lambda: 0.5)
    used = run(busy_elsewhere, 2000, loaded=False)
    assert used.count(1) > 0 and busy_elsewhere.current == 2
    loaded = ThreadTuner(2, 2, other_load=lambda: 1.0)
    used = run(loaded, 200, loaded=True)
    assert loaded.current == 1 and used.index(1) <= 64 + 1


def test_an_unknown_load_leaves_the_probes_as_they_were() -> None:
    known, unknown = ThreadTuner(2, 2), ThreadTuner(2, 2, other_load=lambda: None)
    for tuner in (known, unknown):
        run(tuner, 100, loaded=False)
    assert run(known, 1000, loaded=True) == run(unknown, 1000, loaded=True)


def test_a_slowdown_with_no_cpu_free_asks_once_not_at_every_token() -> None:
    """One thread, slowed by processes that hold every CPU: no count to probe; the load is asked once for it, then
    the slower pace is the usual one (not a /proc/stat read per token)."""
    asked = []
    tuner = ThreadTuner(1, 2, other_load=lambda: asked.append(1) or 2.0)
    for k in range(300):
        tuner.record((16.4 if k < 100 else 40.0) / 1000)
    assert tuner.current == 1 and 1 <= len(asked) <= 2 + 300 // 64   # the regular checks, and the slowdown once
