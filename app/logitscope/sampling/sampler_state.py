"""What one generation's sampler carries from step to step, and what the stateful stages need from the model.

Mirostat's mu (2 * tau at the start, updated after every chosen token from its surprise), the grammar's
state (advanced by every token of the answer, forced ones included), the RNG (XTC's draw and the final
draw), the logit biases resolved to token ids and DRY's sequence breakers as token sequences. The DRY and
penalty history is the context itself (Runtime.recent), as llama-server feeds the prompt to its samplers.

Replay builds one from a recorded step instead: mu from the record, the grammar as the recorded mask, XTC's
recorded outcome.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.sampling.dry import DryBreakers


class TokenMask(Protocol):
    """The grammar as the pipeline sees it: which candidates it allows now, and advancing past a token."""

    def allowed(self, ids: np.ndarray, full: bool = False) -> np.ndarray: ...


class RecordedMask:
    """The grammar as a step recorded it: the head's tokens it masked (replay, without the model)."""

    def __init__(self, masked: np.ndarray) -> None:
        self.masked = np.asarray(masked, dtype=np.int64)

    def allowed(self, ids: np.ndarray, full: bool = False) -> np.ndarray:
        return ~np.isin(ids, self.masked)


class GrammarDeadEnd(Exception):
    """No token fits the grammar at this step (the generation stops)."""


@dataclass
class SamplerState:
    rng: np.random.Generator
    n_vocab: int = 0
    mu: float | None = None                  # Mirostat's target surprise now; None: 2 * tau (not started)
    grammar: TokenMask | None = None
    bias_ids: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    bias_values: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.float32))
    dry_breakers: DryBreakers = field(default_factory=DryBreakers)
    head_ids: np.ndarray | None = None       # this step's raw head (the grammar records what it masked there)
    xtc_triggered: bool | None = None        # replay: XTC's recorded outcome instead of a new draw

    def accept(self, token: int) -> None:
        """The answer goes on with `token`: advance the grammar (raises if it does not fit)."""
        accept = getattr(self.grammar, "accept", None)
        if accept is not None:
            accept(token)

    def close(self) -> None:
        close = getattr(self.grammar, "close", None)
        if close is not None:
            close()


def resolve_bias(pairs: Sequence[tuple[int | str, float]], n_vocab: int,
                 tokenize: Callable[[str], list[int]] | None) -> tuple[np.ndarray, np.ndarray]:
    """(token ids, biases): a text biases every token of its tokenization (no BOS, as llama-server does).
    InvalidSettingsError for an id outside the vocabulary or a text that gives no token."""
    ids: list[int] = []
    values: list[float] = []
    for target, bias in pairs:
        if isinstance(target, str):
            if tokenize is None:
                continue
            tokens = tokenize(target)
            if not tokens:
                raise InvalidSettingsError("the logit-bias text {text!r} gives no token", text=target)
        else:
            if not 0 <= target < n_vocab:
                raise InvalidSettingsError("logit-bias token {token} is not in the vocabulary (0 to {last})",
                                           token=target, last=n_vocab - 1)
            tokens = [target]
        ids.extend(tokens)
        values.extend([bias if math.isfinite(bias) else -math.inf] * len(tokens))
    return np.array(ids, dtype=np.int64), np.array(values, dtype=np.float32)
