"""The autoregressive loop: evaluate the prompt (reusing the cached prefix), then per token read the
logits, run the recorded sampler, decode the bytes, check stops, and evaluate the chosen token. The answer's
last token is never evaluated: the next evaluation (the next turn's prompt, which reuses the cached prefix)
takes it along, and the answer ends one evaluation sooner.

`generate` yields one StepRecord per visible token and finally a GenerationResult. Steps are held
back while their text could be the start of a stop sequence, so a stop sequence is never shown, even
when it spans tokens.

Speculative decoding (options.draft, engine/speculative.py): the chosen token is evaluated together with
up to draft_max drafts in one batch with logits at every position; the next steps take their logits from
that batch in order, each sampled by the recorded sampler with the history up to its own position, and a
step whose token equals the draft there needs no evaluation of its own. At the first token that differs
the remaining drafts leave the KV cache and the loop goes on from that token. The sampler's state moves
step by step exactly as in plain decoding, so every chain (penalties, DRY, grammar, Mirostat) applies.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.base.utf8 import Utf8Stream
from logitscope.engine.grammar import Grammar, schema_to_gbnf
from logitscope.engine.runtime import Runtime
from logitscope.engine.softmax_kernel import softmax_stats
from logitscope.engine.speculative import Backoff, DraftSource, LookupDraft, ModelDraft
from logitscope.engine.thinking import ThinkingPlan, ThinkingSteps
from logitscope.protocol.api import DRAFT_LOOKUP, DecodeOptions
from logitscope.protocol.notices import CONTEXT_FULL_NOTICE
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import (
    FINAL_TOP_K,
    RAW_TOP_N,
    GenerationResult,
    KvInfo,
    SpeculativeStats,
    StepRecord,
    Timings,
)
from logitscope.sampling.dry import DryBreakers, build_breakers
from logitscope.sampling.sampler import sample
from logitscope.sampling.sampler_state import GrammarDeadEnd, SamplerState, resolve_bias
from logitscope.sampling.stages import Candidates, top_indices
from logitscope.system.thread_tuner import ThreadRecord


@dataclass
class _StopFilter:
    """Holds back text that might be the beginning of a stop sequence."""

    stops: tuple[str, ...]
    pending: list[StepRecord] = field(default_factory=list)

    def push(self, step: StepRecord) -> tuple[list[StepRecord], bool]:
        """Returns (steps safe to show, whether a stop sequence was hit)."""
        self.pending.append(step)
        if not self.stops:
            out, self.pending = self.pending, []
            return out, False
        text = "".join(s.text for s in self.pending)
        hits = [i for i in (text.find(stop) for stop in self.stops) if i >= 0]
        if hits:
            return self._cut(min(hits)), True
        hold = max((k for stop in self.stops for k in range(1, len(stop)) if text.endswith(stop[:k])), default=0)
        return self._release(len(text) - hold), False

    def _release(self, n_chars: int) -> list[StepRecord]:
        out, used = [], 0
        while self.pending and used + len(self.pending[0].text) <= n_chars:
            used += len(self.pending[0].text)
            out.append(self.pending.pop(0))
        return out

    def _cut(self, n_chars: int) -> list[StepRecord]:
        """Release steps up to n_chars of text, shortening the step that crosses the stop."""
        out, used = [], 0
        for step in self.pending:
            if used >= n_chars:
                break
            room = n_chars - used
            if len(step.text) > room:
                step.text = step.text[:room]
            used += len(step.text)
            out.append(step)
        self.pending = []
        return out

    def flush(self) -> list[StepRecord]:
        out, self.pending = self.pending, []
        return out


class Decoder:
    """Per-model scratch (the vocabulary's id array) for the generation loop."""

    def __init__(self, runtime: Runtime, kv_bytes_per_token: float) -> None:
        self.rt = runtime
        self.kv_bytes_per_token = kv_bytes_per_token
        self.all_ids = np.arange(runtime.n_vocab, dtype=np.int32)
        self._exp = np.empty(runtime.n_vocab, dtype=np.float32)
        self._breakers: dict[tuple[str, ...], DryBreakers] = {}  # DRY's breakers scan the vocabulary: once

    # -- the sampler's per-generation state -------------------------------------------------------------
    def dry_breakers(self, breakers: tuple[str, ...]) -> DryBreakers:
        if breakers not in self._breakers:
            rt = self.rt
            pieces = [rt.piece(t) for t in range(rt.n_vocab)]
            self._breakers[breakers] = build_breakers(breakers, pieces, lambda text: rt.tokenize(text, False, False))
        return self._breakers[breakers]

    def new_state(self, settings: SamplerSettings, rng: np.random.Generator) -> SamplerState:
        """Everything the settings need from the model, checked: InvalidSettingsError for a grammar or schema
        that does not parse or a logit bias outside the vocabulary. Close it (it may hold a grammar)."""
        rt = self.rt
        ids, values = resolve_bias(settings.logit_bias, rt.n_vocab, lambda text: rt.tokenize(text, False, False))
        state = SamplerState(rng, rt.n_vocab, bias_ids=ids, bias_values=values)
        if settings.dry_on:
            state.dry_breakers = self.dry_breakers(tuple(settings.dry_sequence_breakers))
        text = schema_to_gbnf(settings.json_schema) if settings.json_schema else settings.grammar
        if text:
            state.grammar = Grammar(rt.vocab, rt.n_vocab, text, rt.log)
        return state

    def check_settings(self, settings: SamplerSettings) -> None:
        settings.validate()
        self.new_state(settings, np.random.default_rng(0)).close()

    def _start_grammar(self, state: SamplerState, answer_so_far: Sequence[int], forced: Sequence[int]) -> None:
        """The grammar reads the answer's first tokens (a fork's prefix); the forced tokens that follow are
        checked on a copy now, so that none can reach llama.cpp's grammar unchecked (it would abort)."""
        grammar = state.grammar
        if not isinstance(grammar, Grammar):
            return
        for token in answer_so_far:
            if not grammar.allows(token):
                raise InvalidSettingsError("the answer so far does not fit the grammar")
            grammar.accept(token)
        if forced:
            with grammar.clone() as probe:
                for token in forced:
                    if self.rt.is_eog(token) or not probe.allows(token):
                        raise InvalidSettingsError("the chosen token does not fit the grammar")
                    probe.accept(token)

    def kv_info(self) -> KvInfo:
        bpt = self.kv_bytes_per_token
        return KvInfo(self.rt.n_ctx, self.rt.kv_used, bpt, round(bpt * self.rt.n_ctx))

    def raw_stats(self, logits: np.ndarray) -> tuple[float, float, float, np.ndarray]:
        """(max, log-sum-exp, entropy in nats, exp(logits - max)) over the whole vocabulary, by llama.cpp's
        vectorised softmax (engine/softmax_kernel.py)."""
        top, lse, entropy = softmax_stats(logits, self._exp)
        return top, lse, entropy, self._exp

    def take_step(self, logits: np.ndarray, settings: SamplerSettings, recent: np.ndarray, state: SamplerState,
                  forced: int | None, i: int, utf8: Utf8Stream, phases: ThinkingSteps | None, kv_used: int,
                  t_prev: float) -> StepRecord:
        """One position's logits through the recorded sampler, the chosen token's bytes decoded: the step, fully
        recorded, its latency counted from `t_prev` (GrammarDeadEnd where no token fits the grammar). Plain,
        speculative and batched decoding all take their steps here."""
        top, lse, entropy_raw, e = self.raw_stats(logits)
        best = top_indices(logits, RAW_TOP_N)  # ranked once: the raw record, top-k and the records reuse it
        state.head_ids = best
        outcome = sample(Candidates(self.all_ids, logits, False, True, lse, best), settings, recent, state=state,
                         forced=forced)
        token = outcome.token
        p_raw = float(e[token]) * math.exp(top - lse)
        in_head = np.flatnonzero(best == token)
        rank_raw = int(in_head[0]) if len(in_head) else int(np.count_nonzero(logits > logits[token]))
        final = outcome.final
        probs = outcome.final_probs
        head = np.argsort(-probs, kind="stable")[:FINAL_TOP_K]
        where = np.flatnonzero(final.ids == token)
        p_final = float(probs[where[0]]) if len(where) else 0.0
        rank_final = int(np.count_nonzero(probs > p_final)) if len(where) else len(final)
        nz = probs[probs > 0]  # (0.0 - sum below: a lone candidate's entropy is 0.0, not -0.0)
        piece = self.rt.piece(token)
        text = "" if self.rt.is_eog(token) else utf8.feed(piece)
        return StepRecord(
            i=i, token=token, piece=piece, text=text,
            raw_ids=best.astype(np.int32), raw_logits=logits[best].astype(np.float32), raw_lse=lse,
            p_raw=p_raw, rank_raw=rank_raw, entropy_raw=entropy_raw, stages=outcome.stages,
            final_ids=final.ids[head].astype(np.int32), final_probs=probs[head].astype(np.float32),
            n_final=len(final), p=p_final, rank=rank_final,
            entropy=0.0 - float((nz * np.log(nz)).sum()), latency_s=time.perf_counter() - t_prev, kv_used=kv_used,
            drafted=False, thinking=phases.step(text) if phases is not None else False)

    def generate(self, prompt: Sequence[int], settings: SamplerSettings, options: DecodeOptions,
                 should_cancel: Callable[[], bool] = lambda: False,
                 notices: list[str] | None = None, n_prefix: int = 0,
                 draft_model: Runtime | None = None,
                 thinking: ThinkingPlan | None = None) -> Iterator[StepRecord | GenerationResult]:
        """`n_prefix`: how many of the prompt's last tokens are the start of the answer (a fork); their
        bytes prime the UTF-8 decoder, so a character split at the fork point still decodes.
        `draft_model`: the loaded draft model when options.draft names one. `thinking`: the answer's thinking
        block (engine/thinking.py; None: not recognised)."""
        settings.validate()
        options.validate()
        settings = settings.with_seed()
        # every check that needs the model (grammar, schema, biases) before anything is evaluated
        state = self.new_state(settings, np.random.default_rng(settings.seed))
        try:
            self._start_grammar(state, prompt[len(prompt) - n_prefix:] if n_prefix else (), options.forced)
            source: DraftSource | None = None
            if options.draft == DRAFT_LOOKUP:
                source = LookupDraft(prompt)
            elif options.draft:
                assert draft_model is not None, "the engine loads the draft model"
                source = ModelDraft(draft_model, should_cancel)
            yield from self._generate(prompt, settings, options, state, should_cancel, notices, n_prefix, source,
                                      thinking)
        finally:
            state.close()  # the native grammar, also on cancel or an exception

    def _generate(self, prompt: Sequence[int], settings: SamplerSettings, options: DecodeOptions,
                  state: SamplerState, should_cancel: Callable[[], bool], notices: list[str] | None,
                  n_prefix: int, source: DraftSource | None,
                  thinking: ThinkingPlan | None) -> Iterator[StepRecord | GenerationResult]:
        rt = self.rt
        window = max(settings.repeat_last_n, settings.dry_window(rt.n_ctx) if settings.dry_on else 0)
        t_start = time.perf_counter()
        finish = "length"
        # the thread count follows the machine (system/thread_tuner.py) while tokens go one at a time; drafts
        # verified in batches have another pace, and a count the user chose stays
        tuner = rt.tuner if source is None else None
        threads = ThreadRecord(rt.tuner.current if rt.tuner is not None else rt.n_threads, tuner is not None)
        if rt.tuner is not None:
            rt.use_threads(rt.tuner.current)
        try:
            n_eval = rt.sync(prompt, should_cancel)
        except InterruptedError:  # cancelled during the prompt evaluation
            n_eval, finish = 0, "cancelled"
        t_prompt = time.perf_counter()
        timings = Timings(load_s=rt.load_s, n_prompt=len(prompt), n_prompt_eval=n_eval, prompt_s=t_prompt - t_start)
        utf8 = Utf8Stream()
        prefix_texts = [utf8.feed(rt.piece(token)) for token in (prompt[len(prompt) - n_prefix:] if n_prefix else ())]
        phases = ThinkingSteps(thinking, prefix_texts) if thinking is not None else None
        stops = _StopFilter(tuple(options.stop))
        emitted: list[StepRecord] = []
        notices = list(notices or [])
        t_prev = t_prompt
        i = 0
        stopped_by_sequence = False
        committed = len(rt.tokens)       # context tokens before this step (the KV cache may hold drafts after)
        context = list(prompt)           # the same tokens, for the draft source
        queue: list[tuple[np.ndarray, int | None]] = []  # (logits, the draft they verify) of the last batch
        batch = [0, 0]                   # the open batch: drafted, accepted
        backoff = Backoff()
        if source is not None and not rt.settings.flash_attn:
            # measured: llama.cpp's attention without flash attention rounds a batch differently from one
            # token (logits up to ~0.9 apart on the demo model); with it, both are bit for bit the same
            notices.append(Message("speculative decoding without flash attention: the batched verification "
                                   "rounds slightly differently from one token at a time, so a near tie may "
                                   "go the other way; load with flash attention for output identical to "
                                   "plain decoding"))
        spec = (SpeculativeStats(options.draft if options.draft == DRAFT_LOOKUP else Path(options.draft).name,
                                 options.draft_max) if source is not None else None)
        fresh = True  # an evaluation (the prompt's first) whose logits no step has read yet
        while i < options.max_tokens and finish != "cancelled":
            if should_cancel():
                finish = "cancelled"
                break
            if fresh and spec is not None:
                # counted when a step reads it: one cut short by a cancel feeds no step
                spec.evaluations += 1
            fresh = False
            logits, draft = queue.pop(0) if queue else (rt.logits(), None)
            # the caller's forced tokens first (a fork's), then the engine's closing tags
            forced = options.forced[i] if i < len(options.forced) else phases.forced() if phases is not None else None
            try:
                step = self.take_step(logits, settings, rt.history(committed, window), state, forced, i, utf8,
                                      phases, committed, t_prev)
            except GrammarDeadEnd:
                notices.append(Message("no token fits the grammar here: generation stopped"))
                finish = "stop"
                break
            token = step.token
            drafted = draft is not None and token == draft
            if draft is not None:
                if drafted:
                    batch[1] += 1
                    assert spec is not None
                    spec.accepted += 1
                else:
                    rt.truncate(committed)  # the rejected draft and every draft after it
                    queue.clear()
                if not drafted or not queue or queue[0][1] is None:  # the batch is settled
                    backoff.record(*batch)
            step.drafted = drafted
            eog = rt.is_eog(token)
            t_prev += step.latency_s
            if i == 0:
                timings.ttft_s = t_prev - t_start
            i += 1
            released, hit_stop = stops.push(step)
            emitted.extend(released)
            yield from released
            if hit_stop:
                finish, stopped_by_sequence = "stop", True
                break
            if eog:
                finish = "stop"
                break
            state.accept(token)
            context.append(token)
            if i >= options.max_tokens:
                # the last token waits for the next evaluation, as it does after a stop (the next turn's prompt
                # reuses the cached prefix and takes it along): the answer ends one evaluation sooner (~100 ms
                # on a 7B model on a CPU); one a draft batch evaluated already leaves the cache below
                break
            if drafted:  # evaluated already, in the batch that verified it
                committed += 1
                continue
            if committed >= rt.n_ctx:
                notices.append(Message(CONTEXT_FULL_NOTICE, n_ctx=rt.n_ctx))
                break
            try:
                if tuner is not None:
                    rt.use_threads(tuner.threads())
                    threads.used(i + 1, tuner.threads())
                    t_eval = time.perf_counter()
                queue = self._evaluate(token, context, source, backoff, spec,
                                       min(options.draft_max, rt.n_ctx - committed - 1, options.max_tokens - i - 1))
                if tuner is not None:
                    threads.note(i + 1, tuner.record(time.perf_counter() - t_eval))
                fresh = True
            except InterruptedError:
                finish = "cancelled"
            batch = [len(queue) - 1, 0] if queue else [0, 0]
            committed += 1
        if len(rt.tokens) > committed:
            rt.truncate(committed)  # drafts left unverified when the answer ended
        for step in stops.flush():
            emitted.append(step)
            yield step
        if utf8.pending and not stopped_by_sequence:  # cut inside a character: its bytes stay in the pieces
            notices.append(Message("the answer ended inside a multi-byte character; its incomplete bytes are "
                                   "not part of the text"))
        timings.n_gen = i
        timings.gen_s = time.perf_counter() - t_prompt
        if spec is not None:
            spec.n_tokens = i
        yield GenerationResult(
            text="".join(s.text for s in emitted),  # exactly the steps' texts: they add up to the answer
            tokens=[s.token for s in emitted],
            finish_reason=finish,
            timings=timings,
            kv=self.kv_info(),
            settings=settings.to_dict() | {"max_tokens": options.max_tokens, "stop": list(options.stop)},
            prompt_tokens=list(prompt),
            notices=notices,
            speculative=spec,
            reasoning=phases.record() if phases is not None else None,
            threads=threads.to_json(),
        )

    def _evaluate(self, token: int, context: list[int], source: DraftSource | None, backoff: Backoff,
                  spec: SpeculativeStats | None, k: int) -> list[tuple[np.ndarray, int | None]]:
        """Evaluate the chosen token, with up to k drafts after it when a source has some: the logits
        rows of the verification batch with the draft each verifies (the last verifies none), or [] when
        the token went alone (its logits are rt.logits())."""
        rt = self.rt
        k = min(k, backoff.size)
        drafts = source.propose(context, k) if source is not None and k > 0 and backoff.ready() else []
        if not drafts:
            rt.eval([token])
            return []
        rows = rt.eval_outputs([token, *drafts])
        assert spec is not None
        spec.drafted += len(drafts)
        return [(rows[j], drafts[j] if j < len(drafts) else None) for j in range(len(rows))]
