"""The engine: one model, its chat template and the recorded decoding loop, behind one small API.

This object lives in the engine process (logitscope.host.server); callers use logitscope.host.client,
which has the same methods. Nothing here knows about processes or Qt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from logitscope.base.errors import (
    ContextOverflowError,
    LoadCancelledError,
    NoModelLoadedError,
)
from logitscope.base.messages import Message
from logitscope.engine import quantize
from logitscope.engine.batched import BatchedDecoding, answer_settings, measure_throughput
from logitscope.engine.beams import beam_search
from logitscope.engine.capacity import ensure_batch_fits, ensure_beams_fit, ensure_it_can_fit
from logitscope.engine.chat import ChatTemplate, build_chat_prompt
from logitscope.engine.decode import Decoder
from logitscope.engine.forced_compare import compare_distributions, save_distributions, set_threads
from logitscope.engine.forward.causal import CausalTracer
from logitscope.engine.forward.edits import knockout_edits
from logitscope.engine.forward.inspection import Inspector
from logitscope.engine.handles import backend_name, llama_log, supports_gpu_offload
from logitscope.engine.runtime import Runtime, RuntimePieces
from logitscope.engine.score import Scorer
from logitscope.engine.speculative import check_vocabulary
from logitscope.engine.steering.apply import Steerer, SteeringFiles
from logitscope.engine.steering.compare import compare_steering
from logitscope.engine.steering.cvector_build import build_control_vector
from logitscope.engine.thinking import plan_thinking
from logitscope.gguf.card import ModelCard, read_model_card
from logitscope.gguf.memory import kv_bytes_per_token, kv_bytes_per_token_by_layer
from logitscope.protocol.api import (
    DRAFT_LOOKUP,
    ChatMessage,
    DecodeOptions,
    GenerateRequest,
    LoadSettings,
    ModelInfo,
    answer_reserve,
)
from logitscope.protocol.batched import (
    AnswerStep,
    BatchedRequest,
    BatchedResult,
    ThroughputPoint,
    ThroughputRequest,
    ThroughputResult,
)
from logitscope.protocol.beams import BeamCellRun, BeamProgress, BeamRequest, BeamResult
from logitscope.protocol.causal import (
    AblateRequest,
    Ablation,
    AblationEffect,
    HeadScan,
    HeadScanRequest,
    PatchRequest,
    PatchResult,
)
from logitscope.protocol.cvector import CvectorRequest, CvectorResult
from logitscope.protocol.forced_compare import ForcedKl
from logitscope.protocol.forward import AttentionMatrix, ForwardInspection, InspectRequest
from logitscope.protocol.kv_map import SHARED_BY_ANSWERS, SHARED_BY_BEAMS, KvMap, PromptLayout, build_runs
from logitscope.protocol.quantize import QuantizeRequest, QuantizeResult
from logitscope.protocol.sampler_settings import LOCAL_STAGES, SamplerSettings
from logitscope.protocol.score import ScoreRequest, ScoreResult
from logitscope.protocol.steering import Steering, steering_record
from logitscope.protocol.steering_compare import SteeringCompare, SteeringCompareRequest
from logitscope.protocol.trace import GenerationResult, StepRecord, Vocab
from logitscope.system.thread_tuner import ThreadTuner

Events = Iterator[StepRecord | GenerationResult]


class Engine:
    def __init__(self) -> None:
        self.runtime: Runtime | None = None
        self.card: ModelCard | None = None
        self.template: ChatTemplate | None = None
        self.decoder: Decoder | None = None
        self.info: ModelInfo | None = None
        self.layout: PromptLayout | None = None  # what the last request's prompt was made of (the KV map)
        self.inspector: Inspector | None = None  # the forward-pass inspection context, made on first use
        # the cells of the last beam search or batch of answers, and its context's size (in the KV map)
        self.shared_cells: tuple[list[BeamCellRun], int, str] | None = None
        self.scorer: Scorer | None = None  # the scoring context, made on first use
        self.draft: Runtime | None = None  # the speculative draft model, loaded when a request names it
        self.steering_files: SteeringFiles | None = None  # the model's vectors and adapters, read once
        self.steerer: Steerer | None = None  # the generation context's control vectors and LoRA adapters
        self._knockout_steerer: Steerer | None = None  # the knockout context's (Runtime.use_knockouts)
        self._tuner_aside: ThreadTuner | None = None  # the thread tuner while set_threads holds a count

    # -- model ---------------------------------------------------------------------------------------
    def load(self, path: str | Path, settings: LoadSettings,
             on_progress: Callable[[float], None] | None = None,
             should_cancel: Callable[[], bool] | None = None) -> ModelInfo:
        settings.validate()
        card = read_model_card(path)  # a clear error for bad files before llama.cpp sees them
        ensure_it_can_fit(card, settings.n_ctx, settings.type_k, settings.type_v,
                          offload=settings.n_gpu_layers != 0 and supports_gpu_offload())
        self.unload()
        runtime = Runtime(path, settings, on_progress, should_cancel)
        if should_cancel is not None and should_cancel():
            runtime.close()
            raise LoadCancelledError("model load cancelled")
        bos, eos = (runtime.piece(t).decode("utf-8", "replace") if t is not None and t >= 0 else ""
                    for t in (card.bos_id, card.eos_id))
        self.template = ChatTemplate(runtime.chat_template() or card.chat_template, bos, eos)
        bpt = kv_bytes_per_token(card, settings.type_k, settings.type_v)
        self.runtime, self.card = runtime, card
        self.decoder = Decoder(runtime, bpt)
        assert runtime.model is not None and runtime.context is not None
        self.steering_files = SteeringFiles(runtime.model, runtime.n_layer, runtime.log)
        self.steerer = Steerer(runtime.context, self.steering_files)
        self.info = ModelInfo(
            card=card, load=settings, n_ctx=runtime.n_ctx, load_s=runtime.load_s,
            backend=backend_name(), gpu_offload_supported=supports_gpu_offload(),
            n_gpu_layers=min(max(settings.n_gpu_layers, 0) if settings.n_gpu_layers >= 0 else card.n_offloadable,
                             card.n_offloadable) if supports_gpu_offload() else 0,
            kv_bytes_per_token=bpt, kv_allocated_bytes=round(bpt * runtime.n_ctx),
            compute_buffer_bytes=round(runtime.compute_buffer_mib * 1024 * 1024) or None,
            log_tail=runtime.log.tail(40), notices=list(runtime.notices),
        )
        return self.info

    def unload(self) -> None:
        self._drop_draft()
        if self.inspector is not None:
            self.inspector.close()  # its context before the model it was made on
        if self.scorer is not None:
            self.scorer.close()
        if self.runtime is not None:
            self.runtime.close()
        self.runtime = self.card = self.template = self.decoder = self.info = self.inspector = self.scorer = None
        self._tuner_aside = None
        self.layout = self.shared_cells = self.steerer = self.steering_files = None  # adapters go with the model
        self._knockout_steerer = None

    def reset(self) -> None:
        """Forget the KV cache: the next prompt is evaluated from scratch."""
        self._require().truncate(0)
        self.layout = None

    def _require(self) -> Runtime:
        if self.runtime is None:
            raise NoModelLoadedError("no model is loaded")
        return self.runtime

    # -- text ----------------------------------------------------------------------------------------
    def tokenize(self, text: str, add_special: bool = False, parse_special: bool = True) -> list[int]:
        return self._require().tokenize(text, add_special, parse_special)

    def vocab(self) -> list[bytes]:
        rt = self._require()
        return [rt.piece(t) for t in range(rt.n_vocab)]

    def pieces(self) -> Vocab:
        """Every token's bytes by id, each looked up when asked (a step's few candidates, not the vocabulary)."""
        return RuntimePieces(self._require())

    def chat_tokens(self, text: str) -> list[int]:
        rt = self._require()
        tokens = rt.tokenize(text, rt.add_bos, True)
        if len(tokens) > 1 and tokens[0] == tokens[1] == rt.bos:  # the template wrote BOS already
            tokens = tokens[1:]
        return tokens

    def render_chat(self, messages: list[ChatMessage], system: str | None = None) -> str:
        self._require()
        assert self.template is not None
        head = [ChatMessage("system", system)] if system else []
        return self.template.render(head + [m for m in messages if m.role != "system" or not system])

    # -- generation ----------------------------------------------------------------------------------
    def prepare(self, req: GenerateRequest) -> tuple[list[int], list[str], DecodeOptions]:
        tokens, notices, options, _layout = self._prepare(req)
        return tokens, notices, options

    def _prepare(self, req: GenerateRequest) -> tuple[list[int], list[str], DecodeOptions, PromptLayout]:
        rt = self._require()
        req.validate()
        options = req.options
        reserve = answer_reserve(rt.n_ctx, options.max_tokens)
        if req.messages is not None:
            assert self.template is not None
            thinking_off = options.reasoning_budget == 0 and options.reasoning_format != "none"
            prompt = build_chat_prompt(self.template, req.messages, req.system, self.chat_tokens, rt.n_ctx, reserve,
                                       thinking_off)
            if self.template.stop:
                options = replace(options, stop=tuple(options.stop) + self.template.stop)
            tokens = prompt.tokens + list(req.assistant_prefix)
            if len(tokens) >= rt.n_ctx:
                raise ContextOverflowError("the answer so far fills the context window: nothing more can be generated")
            layout = PromptLayout(len(prompt.tokens), len(req.assistant_prefix), prompt.text, tuple(prompt.messages))
            return tokens, prompt.notices, options, layout
        tokens = rt.tokenize(req.prompt or "", True, True)
        if len(tokens) >= rt.n_ctx:
            raise ContextOverflowError(
                "the prompt is {n_tokens} tokens but the context holds {n_ctx}; shorten it or "
                "load the model with a larger context", n_tokens=len(tokens), n_ctx=rt.n_ctx)
        return tokens, [], options, PromptLayout(len(tokens))

    def generate(self, req: GenerateRequest,
                 should_cancel: Callable[[], bool] = lambda: False) -> Events:
        tokens, notices, options, self.layout = self._prepare(req)
        self.shared_cells = None
        assert self.decoder is not None and self.steerer is not None and self.card is not None
        rt = self._require()
        for ablation in req.knockouts:
            ablation.validate(rt.n_layer, self.card.n_head)
        labels = tuple(dict.fromkeys(a.label for a in req.knockouts))
        rt.use_knockouts(labels, knockout_edits(req.knockouts, self.card.n_head))
        steerer = self._generation_steerer(rt)
        if steerer.apply(req.steering):
            rt.truncate(0)  # the cached cells were computed with another steering
        draft = None
        if options.draft and options.draft != DRAFT_LOOKUP:
            draft = self._draft_model(options.draft)
        else:
            self._drop_draft()  # drafting off (or by lookup): its model's memory goes back now, not at a reload
        template = self.template.source if self.template is not None else None
        prompt_text = self.layout.text if self.layout.text is not None else req.prompt or ""
        thinking = plan_thinking(options, prompt_text, template, lambda text: rt.tokenize(text, False, True))
        events = self.decoder.generate(tokens, req.settings, options, should_cancel, notices,
                                       n_prefix=len(req.assistant_prefix), draft_model=draft, thinking=thinking)
        record = steerer.record
        if labels:   # the knocked-out heads are recorded with the steering: what the answer was made with
            record = {**(record or steering_record([], None, [])), "knockouts": list(labels)}
        return events if record is None else _steered(events, record)

    def _generation_steerer(self, rt: Runtime) -> Steerer:
        """The steering of the generation context in use: the plain one's, or the knockout context's."""
        assert self.steerer is not None and self.steering_files is not None
        if not rt.knockouts:
            return self.steerer
        if self._knockout_steerer is None:
            self._knockout_steerer = Steerer(rt.context, self.steering_files)
        return self._knockout_steerer

    def _draft_model(self, path: str) -> Runtime:
        """The draft model at `path`, loaded once next to the model (its own context, as large, on the same
        threads and GPU layers); a file that is not a GGUF or a model with another vocabulary is refused."""
        if self.draft is not None and str(self.draft.path) == path:
            return self.draft
        self._drop_draft()
        rt = self._require()
        read_model_card(path)  # a clear error for a missing or bad file before llama.cpp sees it
        load = rt.settings
        draft = Runtime(path, LoadSettings(n_ctx=rt.n_ctx, n_gpu_layers=load.n_gpu_layers, n_threads=load.n_threads,
                                           flash_attn=load.flash_attn, n_batch=load.n_batch))
        try:
            check_vocabulary(rt, draft)
        except BaseException:
            draft.close()
            raise
        self.draft = draft
        return draft

    def abort(self) -> None:
        """Stop a running prompt evaluation, the draft model's included (any thread: only sets flags)."""
        for rt in (self.runtime, self.draft):
            if rt is not None:
                rt.abort()

    def _drop_draft(self) -> None:
        if self.draft is not None:
            self.draft.close()
            self.draft = None

    def beam_search(self, request: BeamRequest, should_cancel: Callable[[], bool] = lambda: False,
                    on_progress: Callable[[BeamProgress], None] | None = None) -> BeamResult:
        """Beam search on a context of its own (engine/beams.py), each step to `on_progress` as it is taken; the
        generation context is untouched. Cancelled during the prompt: InterruptedError."""
        request.validate()
        tokens, notices, options, _layout = self._prepare(request.generate)
        assert self.info is not None and self.card is not None
        self.shared_cells = None  # a search cancelled before its first step leaves no cells to show
        card, load = self.card, self.info.load

        def ensure_fits(n_cells: int) -> None:  # as score's context: an absurd one is refused, not allocated
            ensure_beams_fit(card, n_cells, request.n_beams, load.type_k, load.type_v,
                             offload=load.n_gpu_layers != 0 and supports_gpu_offload())

        assert self.steering_files is not None
        result = beam_search(self._require(), tokens, request.n_beams, options.max_tokens, request.length_penalty,
                             round(self.info.kv_bytes_per_token), should_cancel, on_progress, ensure_fits,
                             (self.steering_files, request.generate.steering))
        room = self._require().n_ctx - len(tokens)
        if options.max_tokens > room:  # beam_search shortened the search to what each beam's sequence can hold
            notices.append(Message("the context holds {n_ctx} tokens: after the prompt's {n_prompt} there is room "
                                   "for {room} tokens of answer, not the {max_tokens} asked",
                                   n_ctx=room + len(tokens), n_prompt=len(tokens), room=room,
                                   max_tokens=options.max_tokens))
        result.notices = notices
        self.shared_cells = (list(result.cells), result.n_ctx, SHARED_BY_BEAMS)
        return result

    def generate_batched(self, request: BatchedRequest, should_cancel: Callable[[], bool] = lambda: False
                         ) -> Iterator[AnswerStep | BatchedResult]:
        """N answers to one prompt decoded together on a context of their own (engine/batched.py), answer k with
        the seed + k, steered as a lone answer would be; the generation context is untouched."""
        request.validate()
        req = request.generate
        tokens, notices, options, layout = self._prepare(req)
        rt = self._require()
        assert self.info is not None and self.card is not None and self.decoder is not None
        assert self.steering_files is not None
        self.shared_cells = None
        if options.draft:
            notices.append(Message("answers in a batch are decoded without drafting: they share each step already"))
            options = replace(options, draft="")
        if not rt.settings.flash_attn:
            notices.append(Message("without flash attention a batch rounds attention slightly differently from one "
                                   "answer alone, so a near tie may go the other way; load with flash attention for "
                                   "answers identical to their seeds generated alone"))
        card, load, n = self.card, self.info.load, request.n_answers

        def ensure_fits(n_cells: int) -> None:
            ensure_batch_fits(card, n_cells, n, load.type_k, load.type_v,
                              offload=load.n_gpu_layers != 0 and supports_gpu_offload())

        max_tokens = max(1, min(options.max_tokens, rt.n_ctx - len(tokens)))
        threads = rt.tuner.current if rt.tuner is not None else rt.n_threads
        batch = BatchedDecoding(rt, self.decoder, len(tokens), n, max_tokens, threads, ensure_fits)
        try:
            steerer = Steerer(batch.seqs.ptr, self.steering_files)
            steerer.apply(req.steering)
            template = self.template.source if self.template is not None else None
            prompt_text = layout.text if layout.text is not None else req.prompt or ""
            thinking = plan_thinking(options, prompt_text, template, lambda text: rt.tokenize(text, False, True))
            settings = answer_settings(req.settings, n)
            for event in batch.run(tokens, settings, replace(options, max_tokens=max_tokens), should_cancel,
                                   thinking):
                if isinstance(event, BatchedResult):
                    event.notices = notices
                    for k, answer in enumerate(event.answers):
                        answer.notices = notices + answer.notices
                        answer.steering = steerer.record
                        answer.settings["batch"] = {"answers": n, "answer": k,
                                                    "tok_per_s_together": round(event.gen_tps, 2)}
                    self.shared_cells = (list(event.cells), event.n_ctx, SHARED_BY_ANSWERS)
                yield event
        finally:
            batch.close()

    def throughput(self, request: ThroughputRequest, on_progress: Callable[[float], None] | None = None,
                   should_cancel: Callable[[], bool] = lambda: False,
                   on_point: Callable[[ThroughputPoint], None] | None = None) -> ThroughputResult:
        """Tokens per second against the batch size on the loaded model (engine/batched.py measure_throughput), on
        contexts of its own: the chat's KV cache is left as it was. Cancelled: InterruptedError."""
        rt = self._require()
        assert self.info is not None and self.card is not None and self.decoder is not None
        card, load = self.card, self.info.load

        def ensure_fits(n_cells: int, n_answers: int) -> None:
            ensure_batch_fits(card, n_cells, n_answers, load.type_k, load.type_v,
                              offload=load.n_gpu_layers != 0 and supports_gpu_offload())

        rt.clear_abort()
        # a benchmark of the machine: its cores, as llama-batched-bench takes them, not the count the chat's tuner
        # holds at this moment (one thread while another program had a core); a count the user chose stays
        threads = rt.tuner.start if rt.tuner is not None else rt.n_threads
        return measure_throughput(rt, self.decoder, request, threads, ensure_fits, on_progress,
                                  lambda: should_cancel() or rt.abort_requested, on_point)

    def check_settings(self, settings: SamplerSettings) -> None:
        """InvalidSettingsError with a clear message for settings this model cannot run: out-of-range values,
        a grammar or JSON schema that does not parse, a logit-bias token outside the vocabulary. generate runs
        the same check before it evaluates anything."""
        self._require()
        assert self.decoder is not None
        self.decoder.check_settings(settings)

    def kv_map(self) -> KvMap:
        """The generation context's cells after the last request: what each run holds, whether that request
        reused it, and what a cell costs."""
        rt = self._require()
        assert self.info is not None
        load = self.info.load
        by_layer = [round(b) for b in kv_bytes_per_token_by_layer(self.info.card, load.type_k, load.type_v)]
        n_cells = len(rt.tokens)
        layout = self.layout
        n_reused = min(rt.last_sync.n_kept, n_cells) if layout is not None else 0
        n_prompt = layout.n_tokens + layout.n_prefix if layout is not None else 0
        segments = layout.segments(self.chat_tokens) if layout is not None else []
        return KvMap(n_ctx=rt.n_ctx, runs=build_runs(segments, n_cells, n_reused), n_reused=n_reused,
                     n_evaluated=max(0, min(n_prompt, n_cells) - n_reused), bytes_per_cell=sum(by_layer),
                     bytes_per_cell_by_layer=by_layer, n_freed=rt.last_sync.n_freed if layout is not None else 0,
                     beam_cells=list(self.shared_cells[0]) if self.shared_cells else [],
                     beam_n_ctx=self.shared_cells[1] if self.shared_cells else 0,
                     shared_by=self.shared_cells[2] if self.shared_cells else SHARED_BY_BEAMS)
    # -- inside the forward pass ---------------------------------------------------------------------
    def _inspector(self) -> Inspector:
        rt = self._require()
        if self.inspector is None:
            assert self.card is not None and self.steering_files is not None and self.steerer is not None
            self.inspector = Inspector(rt, self.card, self.steering_files, self.steerer)
        return self.inspector

    def inspect(self, request: InspectRequest) -> ForwardInspection:
        """The logit lens and attention of the step at the last of `request.tokens` (engine/forward/inspection.py)."""
        return self._inspector().inspect(request)

    def attention_matrix(self, tokens: list[int], layer: int, head: int, steering: Steering | None = None,
                         knockouts: tuple[Ablation, ...] = ()) -> AttentionMatrix:
        return self._inspector().attention_matrix(tokens, layer, head, steering, knockouts)

    # -- causal tracing (engine/forward/causal.py, on the inspection context) -----------------------------
    def _tracer(self, should_cancel: Callable[[], bool]) -> CausalTracer:
        rt = self._require()
        rt.clear_abort()   # a cancel meant for an earlier request
        first = self._inspector()
        card, files, steerer = self.card, self.steering_files, self.steerer
        assert card is not None and files is not None and steerer is not None

        def lane(threads: int) -> Inspector:   # a scan's extra inspection context, steered as the first
            return Inspector(rt, card, files, steerer, threads=threads)

        return CausalTracer(first, lambda: should_cancel() or rt.abort_requested, lanes=lane)

    def ablate(self, request: AblateRequest, should_cancel: Callable[[], bool] = lambda: False) -> AblationEffect:
        """The step at the last token with heads or blocks knocked out, against the same step without."""
        return self._tracer(should_cancel).ablate(request)

    def head_scan(self, request: HeadScanRequest, on_progress: Callable[[float], None] | None = None,
                  should_cancel: Callable[[], bool] = lambda: False) -> HeadScan:
        """Every head (and block) knocked out alone, one evaluation each; progress: heads done / heads."""
        return self._tracer(should_cancel).head_scan(request, on_progress)

    def patch(self, request: PatchRequest, on_progress: Callable[[float], None] | None = None,
              should_cancel: Callable[[], bool] = lambda: False) -> PatchResult:
        """Activation patching from a clean prompt into a corrupted one: the layers x positions heatmap."""
        return self._tracer(should_cancel).patch(request, on_progress)

    # -- scoring a text -----------------------------------------------------------------------------------
    def score(self, request: ScoreRequest, on_progress: Callable[[float], None] | None = None,
              should_cancel: Callable[[], bool] = lambda: False) -> ScoreResult:
        """Every token's log-probability, rank, entropy and alternatives under the model (engine/score.py),
        in a scoring context of its own: the chat's KV cache is left as it was."""
        self._require()
        request.validate()
        assert self.card is not None and self.info is not None
        load = self.info.load
        ensure_it_can_fit(self.card, request.n_ctx, load.type_k, load.type_v,
                          offload=load.n_gpu_layers != 0 and supports_gpu_offload())
        return self._scorer().score(request, on_progress, should_cancel)

    def _scorer(self) -> Scorer:
        rt = self._require()
        if self.scorer is None:
            assert self.steering_files is not None
            self.scorer = Scorer(rt, self.steering_files)
        return self.scorer

    def compare_steering(self, request: SteeringCompareRequest,
                         should_cancel: Callable[[], bool] = lambda: False) -> SteeringCompare:
        """An answer's next-token distributions under two steerings, forced onto the same tokens
        (engine/steering/compare.py), on the scoring context: the chat's KV cache is left as it was."""
        rt = self._require()
        request.validate()
        if len(request.tokens) > rt.n_ctx:
            raise ContextOverflowError("{n_tokens} tokens do not fit in the model's context of {n_ctx}",
                                       n_tokens=len(request.tokens), n_ctx=rt.n_ctx)
        return compare_steering(self._scorer(), request, should_cancel)

    def save_distributions(self, tokens: list[int], first: int, path: str, steering: Steering | None = None,
                           should_cancel: Callable[[], bool] = lambda: False) -> int:
        """The next-token distributions predicting tokens[first:], in llama.cpp's quantized rows, to `path`
        (engine/forced_compare.py), on the scoring context; returns how many."""
        return save_distributions(self._scorer(), tokens, first, path, steering, should_cancel)

    def compare_distributions(self, tokens: list[int], first: int, path: str, steering: Steering | None = None,
                              should_cancel: Callable[[], bool] = lambda: False) -> ForcedKl:
        """This model's distributions predicting tokens[first:] against the ones another engine saved at `path`:
        per token KLD, Δp, top-1 agreement (engine/forced_compare.py), on the scoring context."""
        return compare_distributions(self._scorer(), tokens, first, path, steering, should_cancel)

    def set_threads(self, n_threads: int) -> int:
        """The generation context's CPU threads from now on (0: as loaded, tuned to the machine's load when the
        load chose no count); returns the count before, 0 when it was tuned (two engines answering side by side
        share the cores: engine/forced_compare.py)."""
        rt = self._require()
        tuned = rt.tuner is not None
        if n_threads and tuned:   # a count chosen for a while: the tuner waits aside
            self._tuner_aside, rt.tuner = rt.tuner, None
        elif not n_threads and self._tuner_aside is not None:
            rt.tuner, self._tuner_aside = self._tuner_aside, None
        before = set_threads(rt, n_threads or (rt.tuner.current if rt.tuner is not None else 0))
        return 0 if tuned else before

    # -- control vectors ----------------------------------------------------------------------------------
    def build_cvector(self, request: CvectorRequest, on_progress: Callable[[float], None] | None = None,
                      should_cancel: Callable[[], bool] = lambda: False) -> CvectorResult:
        """A control vector from prompt pairs, as llama-cvector-generator builds it (engine/steering), on a
        context of its own: the chat's KV cache is left as it was. Progress: pairs done / pairs."""
        return build_control_vector(self._require(), request, on_progress, should_cancel)

    # -- quantizing a model file (no model needs to be loaded) --------------------------------------------
    def quantize_estimate(self, request: QuantizeRequest) -> int:
        """The bytes the quantized model will take on disk (llama.cpp's dry run)."""
        return quantize.estimate_bytes(request, llama_log())

    def quantize(self, request: QuantizeRequest, on_progress: Callable[[float], None] | None = None
                 ) -> QuantizeResult:
        """llama_model_quantize, as llama-quantize calls it; it cannot be stopped mid-way (the caller ends the
        engine process: host/quantize_job.py)."""
        return quantize.quantize(request, llama_log(), on_progress)

    def capabilities(self) -> dict[str, object]:
        """What this llama.cpp build can do (asked before any model is loaded)."""
        return {"backend": backend_name(), "gpu_offload": supports_gpu_offload(),
                "samplers": list(LOCAL_STAGES), "grammar": True, "speculative": True}


def _steered(events: Events, record: dict[str, object]) -> Events:
    """The answer's events, its result recording the steering it was made with."""
    for event in events:
        if isinstance(event, GenerationResult):
            event.steering = record
        yield event
