"""The thread count that is fastest now, chosen between tokens from their measured times.

On a quiet machine llama.cpp is fastest with one thread per physical core; when another process takes a core,
ggml's threads wait for the one that lost its core at every operation, and fewer threads are faster (measured on
2 cores with one kept busy: 14 tok/s with 2 threads, 61 with 1). The tuner starts from the physical core count and
probes a neighbouring count now and then (and at once when the tokens slow down), for a few tokens; it moves only
when the probe is faster by MARGIN, and probes less often each time a probe finds nothing better. Where the other
processes' load is known (system/cpu_load.py), a regular probe of one thread fewer waits while they leave every
CPU free, and one of one thread more while they leave none, so a quiet machine loses nothing to it. No clock of
its own: the caller reports each token's time (a scripted clock in the tests)."""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

PROBE_TOKENS = 6          # tokens timed at the probed count (the first of them, a warm-up, is not counted)
LOSING_AFTER = 2          # counted probe tokens that may end a probe early, all slower than the bracket before
HOPELESS = 3.0            # one probe token (the warm-up too) this much slower than the bracket before ends it there
DECISIVE = 1.35           # a probe this much faster than the tokens just before it moves at once (no second half)
BRACKET = 4               # tokens at the current count just before and just after a probe, its comparison
FIRST_PROBE_AFTER = 64    # tokens at the starting count before the first probe
MAX_PROBE_INTERVAL = 256  # a probe that finds nothing better doubles the interval, up to this
MARGIN = 0.08             # a probe must be this much faster to move (hysteresis: no flapping on noise)
SLOWDOWN = 1.35           # the recent tokens this much slower than the count's usual time: probe at once
RECENT = 8                # tokens kept per thread count (its usual time is their median)
FREE_CPU = 0.5            # a probe of one thread more needs this much of a CPU that other processes leave free
QUIET = 0.25              # other processes' work (CPUs' worth) under which a regular probe of one thread fewer waits


@dataclass(frozen=True)
class ThreadChange:
    step: int          # the first token timed at the new count's usual pace (after the probe)
    before: int
    after: int
    speedup: float     # the old count's pace (time per token) over the new count's
    slowed: bool       # the probe came from a slowdown (another process took a core), not the regular check

    def to_json(self) -> list[object]:
        return [self.step, self.before, self.after, round(self.speedup, 3), "slowdown" if self.slowed else "probe"]


class ThreadTuner:
    def __init__(self, start: int, most: int, other_load: Callable[[], float | None] | None = None) -> None:
        """`other_load`: CPUs' worth of other processes' work since it was last asked (None: not known;
        system/cpu_load.py), asked before a probe of one thread more."""
        self.current = max(1, min(start, most))
        self._other_load = other_load
        self.start = self.current
        self.most = max(1, most)
        self.changes: list[ThreadChange] = []
        self.steps = 0                                   # tokens reported so far (all answers)
        self._interval = FIRST_PROBE_AFTER
        self._since_probe = 0
        self._times: dict[int, deque[float]] = {}
        self._usual: dict[int, float] = {}               # each count's median when it last settled
        self._probe: int | None = None                    # the count being probed
        self._probe_times: list[float] = []
        self._probed: int | None = None                   # the count probed, until the bracket's second half
        self._before: list[float] = []
        self._after: list[float] = []
        self._slowed = False
        self._up_next = False                             # probes alternate between one fewer and one more

    def threads(self) -> int:
        """The count to evaluate the next token with."""
        return self._probe if self._probe is not None else self.current

    def record(self, seconds: float) -> ThreadChange | None:
        """The time of the token just evaluated with `threads()`; the change made, if any."""
        self.steps += 1
        if self._probe is not None:
            self._probe_times.append(seconds)
            # a probe slower by the margin at every counted token than the tokens just before it ends early: on a
            # quiet machine the probed count only costs (one fewer thread: 1.5x the time per token on 2 cores), and
            # so does one more thread while another process takes a core (2x)
            counted = self._probe_times[1:]
            before = pace(self._before)
            losing = (len(counted) >= LOSING_AFTER and min(counted) > before * (1 + MARGIN)
                      or seconds > before * HOPELESS)
            if len(self._probe_times) == PROBE_TOKENS or losing:   # back to the current count for the bracket's end
                self._after, self._probed, self._probe = [], self._probe, None
                if len(counted) == PROBE_TOKENS - 1 and pace(counted) * DECISIVE < before:
                    # no second half: its tokens would all be spent at the slow count; the pace it is measured
                    # against is the latest (a load that just came is in the last tokens, not in all four)
                    return self._decide(pace(self._before[-2:]))
            return None
        times = self._times.setdefault(self.current, deque(maxlen=RECENT))
        times.append(seconds)
        if self._probed is not None:
            self._after.append(seconds)
            return self._decide() if len(self._after) == BRACKET else None
        self._since_probe += 1
        if len(times) < BRACKET or self.most == 1:
            return None
        recent = statistics.median(list(times)[-BRACKET:])
        usual = self._usual.get(self.current)
        if usual is None or (len(times) == RECENT and recent < usual):
            self._usual[self.current] = usual = statistics.median(times)
        if recent > SLOWDOWN * usual:
            self._begin_probe(slowed=True)
        elif self._since_probe >= self._interval:
            self._begin_probe(slowed=False)
        return None

    def _begin_probe(self, slowed: bool) -> None:
        below, above = self.current - 1, self.current + 1
        choices = [n for n in ((above, below) if self._up_next else (below, above)) if 1 <= n <= self.most]
        self._up_next = not self._up_next
        self._since_probe = 0
        # asked once a probe: it measures since the last time it was asked
        other = self._other_load() if self._other_load is not None else None
        if above in choices and not self._cpu_free_for(above, other):
            choices.remove(above)   # it could only lose; asking costs nothing, so the interval stays
        if below in choices and not slowed and other is not None and other < QUIET:
            # every CPU is ours and the tokens keep their pace: one thread per physical core (llama.cpp's own
            # choice) stays, and the regular probe's tokens at one thread fewer (~1 % of a 160-token answer on 2
            # cores) are not spent; a slowdown, or other processes' work, probes as before
            choices.remove(below)
        if not choices:
            if slowed:  # the slowdown is the machine's: the usual time follows it (no new probe each token)
                self._usual[self.current] = statistics.median(list(self._times[self.current])[-BRACKET:])
            return
        self._before = list(self._times[self.current])[-BRACKET:]
        self._probe, self._probe_times, self._slowed = choices[0], [], slowed

    def _cpu_free_for(self, threads: int, other: float | None) -> bool:
        """Whether other processes (`other`: their CPUs' worth of work) leave a CPU for one thread more (not known:
        assume so)."""
        return other is None or self.most - other - (threads - 1) >= FREE_CPU

    def _decide(self, base: float | None = None) -> ThreadChange | None:
        """The probe against the tokens just before and just after it at the current count: a load that comes
        and goes (a duty cycle of some 100 ms, a few tokens) weighs on both sides alike."""
        probe, self._probed = self._probed, None
        assert probe is not None
        probed = pace(self._probe_times[1:] or self._probe_times)  # ended at the warm-up: its time
        if base is None:
            base = pace(self._before + self._after)
        if probed < base * (1 - MARGIN):
            change = ThreadChange(self.steps, self.current, probe, base / probed, self._slowed)
            self.changes.append(change)
            self.current = probe
            self._times[probe] = deque(self._probe_times[1:], maxlen=RECENT)
            self._usual.pop(probe, None)   # its pace now, not when it was last used
            self._interval = FIRST_PROBE_AFTER
            return change
        if self._slowed:   # the slowdown is the machine's, not this count's: its usual time follows it
            self._usual[self.current] = base
        self._interval = min(MAX_PROBE_INTERVAL, self._interval * 2)
        return None


def pace(times: list[float]) -> float:
    """A count's time per token, as throughput sees it: the mean (under a load that comes and goes, the slow
    tokens are what the count costs; a median hides them), without the slowest of four or more (one hiccup of
    the system is nobody's pace)."""
    kept = sorted(times)[:-1] if len(times) >= 4 else list(times)
    return sum(kept) / len(kept)


@dataclass
class ThreadRecord:
    """What an answer's trace says of its threads (the done line's `threads`): whether they were tuned, the
    count each step's forward pass ran with (runs of [first step, count]: probes show as short runs) and each
    change with why."""

    start: int
    auto: bool
    runs: list[list[int]] = field(default_factory=list)
    changes: list[ThreadChange] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.runs = [[0, self.start]]   # step 0's logits come from the prompt's evaluation

    def used(self, step: int, n: int) -> None:
        """Step `step`'s logits were computed with n threads."""
        if self.runs[-1][1] != n:
            self.runs.append([step, n])

    def note(self, step: int, change: ThreadChange | None) -> None:
        if change is not None:
            self.changes.append(ThreadChange(step, change.before, change.after, change.speedup, change.slowed))

    def to_json(self) -> dict[str, object]:
        return {"auto": self.auto, "start": self.start, "runs": self.runs,
                "changes": [c.to_json() for c in self.changes]}
