"""Several answers to one prompt, decoded together in one batch (engine/batched.py): what they report."""

from __future__ import annotations

from dataclasses import dataclass, field

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.api import GenerateRequest
from logitscope.protocol.beams import BeamCellRun
from logitscope.protocol.trace import GenerationResult, StepRecord

MAX_BATCHED_ANSWERS = 8   # Regenerate xN: 2 to 8 answers at once
BATCH_CHOICES = (2, 4, 8)  # what the chat's Regenerate arrow offers


@dataclass
class BatchedRequest:
    """N answers to `generate`'s prompt or chat at once, answer k with the settings' seed + k."""
    generate: GenerateRequest
    n_answers: int = 2

    def validate(self) -> None:
        if not 1 <= self.n_answers <= MAX_BATCHED_ANSWERS:
            raise InvalidSettingsError("answers at once: 1 to {limit}, not {n}", limit=MAX_BATCHED_ANSWERS,
                                       n=self.n_answers)
        self.generate.validate()


@dataclass
class AnswerStep:
    """Step `step` of answer `answer` (0 to N-1), recorded as a step of a lone answer is."""
    answer: int
    step: StepRecord


@dataclass(frozen=True)
class SequenceCells:
    """What llama.cpp says one answer's sequence holds at the end: its first and last position and the size of its
    saved state (its cells' K and V, the shared prompt's included)."""
    seq: int
    pos_min: int
    pos_max: int
    state_bytes: int


@dataclass
class BatchedResult:
    answers: list[GenerationResult]     # answer k: sequence k, its own seed
    prompt_s: float                     # the prompt, evaluated once for all of them
    gen_s: float                        # from the prompt's end to the last answer's end
    n_decodes: int                      # batched llama_decode calls after the prompt
    cells: list[BeamCellRun]            # the KV map: the prompt's cells once (held by all), then each answer's own
    sequences: list[SequenceCells]      # the same, as llama.cpp reports it
    n_ctx: int                          # cells of the batch's context
    bytes_per_cell: float
    notices: list[str] = field(default_factory=list)

    @property
    def n_tokens(self) -> int:
        return sum(a.timings.n_gen for a in self.answers)

    @property
    def gen_tps(self) -> float:
        """All answers' tokens per second together (llama-batched-bench's S_TG)."""
        return self.n_tokens / self.gen_s if self.gen_s > 0 else 0.0
