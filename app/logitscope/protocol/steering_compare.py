"""Comparing an answer's next-token distributions under two steerings (say, none and a control vector): what
crosses the process boundary.

The answer's tokens are read, in one batch, by the same model steered one way (A) and the other (B), both
forced onto the same tokens, so step i of both is predicted from the same context. Per step: KL(A || B) over
the whole vocabulary (nats), the answer token's log-probability under each, each side's top tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.steering import Steering

COMPARE_TOP_N = 10          # top tokens kept per step and side
MAX_COMPARE_STEPS = 2048    # steps compared at most (A's whole-vocabulary rows are held while B runs)


@dataclass(frozen=True)
class SteeringCompareRequest:
    """`tokens`: the prompt and the answer; the distributions predicting tokens[n_prompt:] are compared."""

    tokens: tuple[int, ...]
    n_prompt: int
    a: Steering | None = None
    b: Steering | None = None
    top: int = COMPARE_TOP_N

    @property
    def n_steps(self) -> int:
        return len(self.tokens) - self.n_prompt

    def validate(self) -> None:
        if self.n_prompt < 1:
            raise InvalidSettingsError("a comparison needs at least one prompt token before the answer")
        if not 1 <= self.n_steps <= MAX_COMPARE_STEPS:
            raise InvalidSettingsError("a comparison takes between 1 and {limit} answer tokens, not {n}",
                                       limit=MAX_COMPARE_STEPS, n=self.n_steps)
        if not 1 <= self.top <= 128:
            raise InvalidSettingsError("the number of top tokens must be between 1 and 128")
        for steering in (self.a, self.b):
            if steering is not None:
                steering.validate()


@dataclass
class SteeringCompare:
    kl: np.ndarray               # float64 [steps]: KL(A || B), nats, whole vocabulary
    logprob_a: np.ndarray        # float64 [steps]: the answer token's log-probability under A
    logprob_b: np.ndarray
    top_ids_a: np.ndarray        # int32 [steps, top], best first
    top_logprobs_a: np.ndarray   # float32 [steps, top]
    top_ids_b: np.ndarray
    top_logprobs_b: np.ndarray
    seconds: float = 0.0
    steering_a: dict[str, Any] | None = None  # what each side was computed with (steering_record)
    steering_b: dict[str, Any] | None = None
    notices: list[str] = field(default_factory=list)

    @property
    def first_disagreement(self) -> int | None:
        """The first step where A's and B's most likely tokens differ (None: they agree throughout)."""
        differ = np.flatnonzero(self.top_ids_a[:, 0] != self.top_ids_b[:, 0])
        return int(differ[0]) if len(differ) else None
