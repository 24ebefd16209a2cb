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
        if self.generate.knockouts:
            raise InvalidSettingsError("answers in a batch are made without knocked-out heads or blocks: clear them "
                                       "in Causal tracing first")
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


THROUGHPUT_SIZES = (1, 2, 4, 8)   # the batch sizes the Throughput view measures
GROWTH_THRESHOLD = 1.1            # growth has stopped at the smallest batch within 10 % of the best tokens/s measured


@dataclass(frozen=True)
class ThroughputRequest:
    """Generation speed against the batch size, measured on the loaded model: for each size, that many greedy
    answers of `n_tokens` to a counting prompt of `n_prompt` tokens decoded together, every step recorded."""
    sizes: tuple[int, ...] = THROUGHPUT_SIZES
    n_prompt: int = 64
    n_tokens: int = 48

    def validate(self) -> None:
        if not self.sizes or any(not 1 <= b <= MAX_BATCHED_ANSWERS for b in self.sizes):
            raise InvalidSettingsError("batch sizes from 1 to {limit}", limit=MAX_BATCHED_ANSWERS)
        if not (1 <= self.n_prompt <= 4096 and 2 <= self.n_tokens <= 1024):
            raise InvalidSettingsError("the prompt takes 1 to 4096 tokens and each answer 2 to 1024")


@dataclass(frozen=True)
class ThroughputPoint:
    batch: int
    tok_per_s: float          # all answers together (llama-batched-bench's S_TG)
    kv_cells: int             # the KV cells the batch holds at its end (the prompt once, then each answer's)
    kv_bytes: int
    seconds: float            # the whole batch, its prompt included

    @property
    def per_answer(self) -> float:
        return self.tok_per_s / self.batch


@dataclass
class ThroughputResult:
    points: list[ThroughputPoint]
    threads: int

    @property
    def stops_growing_at(self) -> int | None:
        """The smallest batch size within GROWTH_THRESHOLD of the best throughput measured: larger batches add less
        than that (None: only the largest size is, so it may still grow)."""
        if len(self.points) < 2:
            return None
        best = max(p.tok_per_s for p in self.points)
        knee = next(p.batch for p in self.points if p.tok_per_s * GROWTH_THRESHOLD >= best)
        return None if knee == self.points[-1].batch else knee
