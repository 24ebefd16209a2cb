"""Several answers to one prompt decoded together: one llama.cpp sequence per answer in one context
(engine/sequences.py), the batching that serving engines use to turn one model's weights into more tokens per
second.

The prompt is evaluated once, in sequence 0, and every other sequence is given its cells with
`llama_memory_seq_cp` (shared in the one KV stream, not evaluated again). Then, step by step: each live
answer's logits row goes through the recorded sampler with its own state (its own seed, its own penalty
history) exactly as a lone answer's step does (Decoder.take_step), and one `llama_decode` evaluates the chosen
token of every answer still going, each at its own next position in its own sequence. An answer ends as a lone
one does (an end-of-generation token, a stop sequence, max tokens); the others go on without it.

Each answer reads only its own cells: llama.cpp's mask hides the cells of other sequences. So an answer equals
the same seed generated alone, up to the rounding of a batch against one token (tests/test_batched.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from logitscope.base.errors import ContextOverflowError, LogitscopeError
from logitscope.base.messages import Message
from logitscope.base.utf8 import Utf8Stream
from logitscope.engine.decode import Decoder, _StopFilter
from logitscope.engine.runtime import Runtime
from logitscope.engine.sequences import SequenceContext, SequenceErrors
from logitscope.engine.thinking import ThinkingPlan, ThinkingSteps
from logitscope.protocol.api import DecodeOptions
from logitscope.protocol.batched import (
    MAX_BATCHED_ANSWERS,
    AnswerStep,
    BatchedResult,
    SequenceCells,
    ThroughputPoint,
    ThroughputRequest,
    ThroughputResult,
)
from logitscope.protocol.beams import MAX_BEAM_CELLS, BeamCellRun
from logitscope.protocol.sampler_settings import PRESETS, SamplerSettings
from logitscope.protocol.trace import GenerationResult, KvInfo, StepRecord, Timings
from logitscope.sampling.sampler_state import GrammarDeadEnd, SamplerState


def answer_settings(settings: SamplerSettings, n: int) -> list[SamplerSettings]:
    """N answers' settings: the same, answer k with the seed + k (the first keeps the given or drawn seed)."""
    base = settings.with_seed()
    assert base.seed is not None
    return [replace(base, seed=(base.seed + k) % 2**63) for k in range(n)]


@dataclass
class _Answer:
    seq: int
    settings: SamplerSettings
    state: SamplerState
    history: np.ndarray                  # the prompt and the answer's tokens so far (the penalties' window)
    n_history: int
    phases: ThinkingSteps | None
    stops: _StopFilter
    t_prev: float
    utf8: Utf8Stream = field(default_factory=Utf8Stream)
    emitted: list[StepRecord] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    i: int = 0
    cells: int = 0                       # the answer's own KV cells (its tokens evaluated)
    finish: str = "length"
    done: bool = False
    ttft_s: float = 0.0


class BatchedDecoding:
    """A context for N answers of up to `max_tokens` to prompts of up to `n_prompt` tokens; `run` as often as
    wanted (each run empties it first), then `close`."""

    def __init__(self, runtime: Runtime, decoder: Decoder, n_prompt: int, n_answers: int, max_tokens: int,
                 threads: int, ensure_fits: Callable[[int], None] | None = None) -> None:
        if not 1 <= n_answers <= MAX_BATCHED_ANSWERS:
            raise ContextOverflowError("answers at once: 1 to {limit}, not {n}", limit=MAX_BATCHED_ANSWERS,
                                       n=n_answers)
        cells = n_prompt + n_answers * max_tokens
        if n_prompt + max_tokens > runtime.n_ctx or cells > MAX_BEAM_CELLS:
            raise ContextOverflowError("{n} answers of {max_tokens} tokens to a prompt of {n_prompt} tokens do "
                                       "not fit (context {n_ctx}, at most {limit} cells at once): lower max tokens",
                                       n=n_answers, max_tokens=max_tokens, n_prompt=n_prompt, n_ctx=runtime.n_ctx,
                                       limit=MAX_BEAM_CELLS)
        self.rt = runtime
        self.decoder = decoder
        self.n_answers = n_answers
        self.seqs = SequenceContext(runtime, cells, n_answers, threads, _ERRORS, ensure_fits)

    def close(self) -> None:
        self.seqs.close()

    def use_threads(self, n: int) -> None:
        self.seqs.use_threads(n)

    def run(self, prompt: Sequence[int], settings: Sequence[SamplerSettings], options: DecodeOptions,
            should_cancel: Callable[[], bool] = lambda: False, thinking: ThinkingPlan | None = None
            ) -> Iterator[AnswerStep | BatchedResult]:
        """One AnswerStep per visible token of any answer as it is taken, then the BatchedResult. `settings`:
        one per answer, each with its seed (answer_settings)."""
        if len(settings) != self.n_answers:
            raise ValueError(f"{len(settings)} settings for {self.n_answers} answers")
        options.validate()
        states: list[SamplerState] = []
        try:
            for s in settings:
                s.validate()
                assert s.seed is not None, "each answer's seed is chosen before (answer_settings)"
                states.append(self.decoder.new_state(s, np.random.default_rng(s.seed)))
            yield from self._run(list(prompt), list(settings), states, options, should_cancel, thinking)
        finally:
            for state in states:
                state.close()

    def _run(self, prompt: list[int], settings: list[SamplerSettings], states: list[SamplerState],
             options: DecodeOptions, should_cancel: Callable[[], bool], thinking: ThinkingPlan | None
             ) -> Iterator[AnswerStep | BatchedResult]:
        rt, seqs, n_prompt = self.rt, self.seqs, len(prompt)
        max_tokens = min(options.max_tokens, rt.n_ctx - n_prompt)
        t_start = time.perf_counter()
        cancelled = False
        try:
            seqs.eval_prompt(prompt, should_cancel)
        except InterruptedError:
            cancelled = True
        for seq in range(1, self.n_answers):
            seqs.share(0, seq)
        t_prompt = time.perf_counter()
        answers = []
        for seq, (s, state) in enumerate(zip(settings, states, strict=True)):
            history = np.zeros(n_prompt + max_tokens, dtype=np.int32)
            history[:n_prompt] = prompt
            answers.append(_Answer(seq, s, state, history, n_prompt, ThinkingSteps(thinking, []) if thinking else None,
                                   _StopFilter(tuple(options.stop)), t_prompt, finish="cancelled" if cancelled else
                                   "length", done=cancelled))
        rows = {a.seq: -1 for a in answers}  # which row of the last decode holds each answer's logits
        n_decodes = 0
        while not all(a.done for a in answers):
            if should_cancel() or rt.abort_requested:
                for a in answers:
                    if not a.done:
                        a.finish, a.done = "cancelled", True
                break
            batch: list[tuple[int, int, int]] = []
            for a in answers:
                if a.done:
                    continue
                token = yield from self._step(a, seqs.logits(rows[a.seq]), options, max_tokens, t_start)
                if token is not None:
                    batch.append((token, n_prompt + a.cells, a.seq))
                    a.cells += 1
            if not batch:
                break
            seqs.eval_rows(batch)
            n_decodes += 1
            rows = {seq: j for j, (_, _, seq) in enumerate(batch)}
        t_end = time.perf_counter()
        for a in answers:
            for step in a.stops.flush():
                a.emitted.append(step)
                yield AnswerStep(a.seq, step)
        yield self._result(prompt, answers, options, t_start, t_prompt, t_end, n_decodes)

    def _step(self, a: _Answer, logits: np.ndarray, options: DecodeOptions, max_tokens: int, t_start: float
              ) -> Generator[AnswerStep, None, int | None]:
        """Answer a's next step from its logits row; returns the token to evaluate next (None: it ended)."""
        s = a.settings
        window = max(s.repeat_last_n, s.dry_window(self.rt.n_ctx) if s.dry_on else 0)
        forced = options.forced[a.i] if a.i < len(options.forced) else a.phases.forced() if a.phases else None
        try:
            step = self.decoder.take_step(logits, s, a.history[max(0, a.n_history - window):a.n_history], a.state,
                                          forced, a.i, a.utf8, a.phases, a.n_history, a.t_prev)
        except GrammarDeadEnd:
            a.notices.append(Message("no token fits the grammar here: generation stopped"))
            a.finish, a.done = "stop", True
            return None
        a.t_prev += step.latency_s
        if a.i == 0:
            a.ttft_s = a.t_prev - t_start
        a.i += 1
        released, hit_stop = a.stops.push(step)
        a.emitted.extend(released)
        for record in released:
            yield AnswerStep(a.seq, record)
        if hit_stop or self.rt.is_eog(step.token):
            a.finish, a.done = "stop", True
            return None
        a.state.accept(step.token)
        a.history[a.n_history] = step.token
        a.n_history += 1
        if a.i >= max_tokens:
            a.done = True  # by length: its last token needs no evaluation
            return None
        return step.token

    def _result(self, prompt: list[int], answers: list[_Answer], options: DecodeOptions, t_start: float,
                t_prompt: float, t_end: float, n_decodes: int) -> BatchedResult:
        rt, seqs, n_prompt = self.rt, self.seqs, len(prompt)
        bpt = self.decoder.kv_bytes_per_token
        results = []
        for a in answers:
            # each answer's own time: from the prompt's end to its last step (the others' steps included)
            timings = Timings(load_s=rt.load_s, n_prompt=n_prompt, n_prompt_eval=n_prompt, prompt_s=t_prompt - t_start,
                              ttft_s=a.ttft_s, gen_s=a.t_prev - t_prompt, n_gen=a.i)
            results.append(GenerationResult(
                text="".join(s.text for s in a.emitted), tokens=[s.token for s in a.emitted],
                finish_reason=a.finish, timings=timings,
                kv=KvInfo(seqs.n_ctx, n_prompt + a.cells, bpt, round(bpt * seqs.n_ctx)),
                settings=a.settings.to_dict() | {"max_tokens": options.max_tokens, "stop": list(options.stop)},
                prompt_tokens=prompt, notices=a.notices,
                reasoning=a.phases.record() if a.phases is not None else None))
        everyone = tuple(range(self.n_answers))
        cells = [BeamCellRun(0, n_prompt, everyone)] if n_prompt else []
        cells += [BeamCellRun(n_prompt, a.cells, (a.seq,)) for a in answers if a.cells]
        sequences = [SequenceCells(seq, *seqs.positions(seq), seqs.state_bytes(seq)) for seq in everyone]
        return BatchedResult(answers=results, prompt_s=t_prompt - t_start, gen_s=t_end - t_prompt,
                             n_decodes=n_decodes, cells=cells,
                             sequences=sequences, n_ctx=seqs.n_ctx, bytes_per_cell=bpt)


def _context_failed(reason: str) -> LogitscopeError:
    return LogitscopeError("llama.cpp could not create the context for answers in a batch: {reason}", reason=reason)


def _eval_failed(rc: int) -> LogitscopeError:
    return LogitscopeError("llama.cpp could not evaluate the batch of answers (llama_decode returned {rc})", rc=rc)


_ERRORS = SequenceErrors(_context_failed, _eval_failed, "answers in a batch cancelled during the prompt")


def _fits_with(ensure_fits: Callable[[int, int], None], answers: int, cells: int) -> None:
    ensure_fits(cells, answers)


def counting_prompt(rt: Runtime, n_tokens: int) -> list[int]:
    """A counting sequence: greedy decoding keeps counting, so no answer stops early."""
    text, i = "", 1
    while len(rt.tokenize(text, True, True)) < n_tokens:
        text += f"{i}, "
        i += 1
    return rt.tokenize(text, True, True)[:n_tokens]


PROGRESS_STEP = 0.01   # a throughput measurement reports its progress in steps of 1 % (not every answer's step)


def measure_throughput(rt: Runtime, decoder: Decoder, request: ThroughputRequest, threads: int,
                       ensure_fits: Callable[[int, int], None] | None = None,
                       on_progress: Callable[[float], None] | None = None,
                       should_cancel: Callable[[], bool] = lambda: False,
                       on_point: Callable[[ThroughputPoint], None] | None = None) -> ThroughputResult:
    """Each batch size in turn: that many greedy answers decoded together, timed as llama-batched-bench times them
    (n_tokens decodes after the prompt; the first token comes from the prompt's logits). `ensure_fits(cells,
    answers)` refuses a context that cannot fit. `on_point` gets each size's point as soon as it is measured;
    `on_progress` the fraction of all the answers' steps taken (a hundred times at most). A cancel raises
    InterruptedError."""
    request.validate()
    prompt = counting_prompt(rt, request.n_prompt)
    greedy = replace(PRESETS["Greedy"], seed=0)
    options = DecodeOptions(max_tokens=request.n_tokens + 1)
    points = []
    total_steps, steps, reported = sum(request.sizes) * (request.n_tokens + 1), 0, 0.0
    for size in request.sizes:
        fits = None if ensure_fits is None else partial(_fits_with, ensure_fits, size)
        batch = BatchedDecoding(rt, decoder, len(prompt), size, request.n_tokens + 1, threads, fits)
        try:
            result = None
            for event in batch.run(prompt, answer_settings(greedy, size), options, should_cancel):
                if isinstance(event, BatchedResult):
                    result = event
                    continue
                steps += 1
                if on_progress is not None and steps / total_steps - reported >= PROGRESS_STEP:
                    reported = steps / total_steps
                    on_progress(min(reported, 1.0))
        finally:
            batch.close()
        assert result is not None
        if any(a.finish_reason == "cancelled" for a in result.answers):
            raise InterruptedError("throughput measurement cancelled")
        cells = len(prompt) + sum(a.kv.used_cells - len(prompt) for a in result.answers)
        tokens = sum(a.timings.n_gen - 1 for a in result.answers)   # the decodes' tokens, as the tool counts them
        points.append(ThroughputPoint(size, tokens / result.gen_s if result.gen_s > 0 else 0.0, cells,
                                      round(cells * decoder.kv_bytes_per_token), result.prompt_s + result.gen_s))
        if on_point is not None:
            on_point(points[-1])
    return ThroughputResult(points, threads)
