"""Replay a recorded step under other sampler settings, without the model.

The step keeps the top RAW_TOP_N raw logits and the log-sum-exp of all of them. Running the same
sampler stages on that head gives what the new settings would have done, except for the tail outside
the head: its share of the raw mass is reported (`tail_mass`) so the UI can say how exact the preview is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from logitscope.engine.sampler import Candidates, SamplerSettings, run_stages
from logitscope.engine.trace import StageRecord, StepRecord


@dataclass
class Replay:
    ids: np.ndarray          # final candidates, best first
    probs: np.ndarray        # their probabilities
    stages: list[StageRecord]
    tail_mass: float         # raw probability mass outside the stored head (not replayed)


def replay_step(step: StepRecord, settings: SamplerSettings, recent: Sequence[int] = ()) -> Replay:
    head = Candidates(step.raw_ids.astype(np.int32), step.raw_logits.astype(np.float32), True)
    final, stages = run_stages(head, settings, np.asarray(recent, dtype=np.int32))
    probs = final.probs()
    order = np.argsort(-probs, kind="stable")
    head_mass = float(np.exp(step.raw_logits.astype(np.float64) - step.raw_lse).sum())
    return Replay(final.ids[order], probs[order].astype(np.float32), stages, max(0.0, 1.0 - min(head_mass, 1.0)))
