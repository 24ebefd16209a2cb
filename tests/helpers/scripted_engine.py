"""A scripted engine for the fast UI tier: the EngineClient interface (protocol/engine_like.py EngineLike, plus
load / last_load / vocab) replaying StepRecords recorded from the real demo model, so the chat's state
machine can be tested without llama.cpp. The recording is a data file, tests/data/scripted_engine.json.gz,
written by scripts/record_scripted_engine.py (`record` + `save_recording`) and read by `load_recording`;
tests/ui/test_scripted_recording.py checks that it still matches the real engine."""

from __future__ import annotations

import base64
import gzip
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from logitscope.base.errors import (
    ContextOverflowError,
    InvalidSettingsError,
    LogitscopeError,
    UnsupportedByServerError,
)
from logitscope.gguf.card import ModelCard, QuantShare
from logitscope.protocol.api import GenerateRequest, LoadSettings, ModelInfo, answer_reserve
from logitscope.protocol.batched import (
    AnswerStep,
    BatchedRequest,
    BatchedResult,
    ThroughputPoint,
    ThroughputRequest,
    ThroughputResult,
)
from logitscope.protocol.beams import BeamProgress, BeamRequest, BeamResult
from logitscope.protocol.cvector import CvectorRequest, CvectorResult
from logitscope.protocol.engine_like import LOCAL_CAPABILITIES
from logitscope.protocol.forward import (
    LENS_TOP_K,
    AttentionMatrix,
    AttentionRow,
    ForwardInspection,
    InspectRequest,
    LayerLens,
)
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.steering import steering_or_none, steering_record
from logitscope.protocol.trace import (
    GenerationResult,
    KvInfo,
    SpeculativeStats,
    StepRecord,
    Timings,
    pack_step,
    unpack_step,
)

RECORDING_FILE = Path(__file__).resolve().parents[1] / "data" / "scripted_engine.json.gz"
RECORDING_FORMAT = 1
QUESTIONS = ("Say hi.", "Name a colour.", "Count to three.")
MAX_TOKENS = 6
# A reasoning trace (record_thinking): the thinking model's greedy answer, its block closed by a budget
THINKING_FILE = RECORDING_FILE.with_name("thinking_trace.json.gz")
THINKING_QUESTIONS = ("What is 6 times 7?",)
THINKING_BUDGET = 12
THINKING_MAX_TOKENS = 32


@dataclass
class Recording:
    info: ModelInfo
    vocab: list[bytes]
    answers: list[tuple[list[StepRecord], GenerationResult]]


def record(engine, questions: Sequence[str] = QUESTIONS, max_tokens: int = MAX_TOKENS,  # noqa: ANN001 - engine.core.Engine
           reasoning_budget: int = -1) -> Recording:
    """Answer each question once with the real engine (greedy), keeping every step and the result."""
    from logitscope.protocol.api import ChatMessage, DecodeOptions

    answers = []
    for question in questions:
        request = GenerateRequest(messages=[ChatMessage("user", question)], settings=SamplerSettings(temperature=0.0),
                                  options=DecodeOptions(max_tokens=max_tokens, reasoning_budget=reasoning_budget))
        events = list(engine.generate(request))
        steps = [e for e in events if isinstance(e, StepRecord)]
        (result,) = [e for e in events if isinstance(e, GenerationResult)]
        answers.append((steps, result))
    return Recording(engine.info, engine.vocab(), answers)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def save_recording(recording: Recording, path: Path = RECORDING_FILE) -> None:
    """Steps as the engine sends them to the window (pack_step), the rest as plain JSON; the card's path
    is left out (it is the recording machine's): `load_recording` is told where the model is."""
    info = asdict(recording.info)
    info["card"]["path"] = None
    document = {
        "format": RECORDING_FORMAT,
        "info": info,
        "vocab": [_b64(piece) for piece in recording.vocab],
        "answers": [{"steps": [_b64(pack_step(step)) for step in steps], "result": asdict(result)}
                    for steps, result in recording.answers],
    }
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:   # the same bytes each time
        fh.write(json.dumps(document, separators=(",", ":")).encode())


def record_thinking(engine) -> Recording:  # noqa: ANN001 - engine.core.Engine, the thinking model loaded
    """A real reasoning trace: the thinking copy of the demo model (tests/helpers/thinking_model.py) answering
    inside the block its template opened, the budget closing it, then the answer."""
    return record(engine, THINKING_QUESTIONS, THINKING_MAX_TOKENS, THINKING_BUDGET)


def save_thinking(recording: Recording, path: Path = THINKING_FILE) -> None:
    """The answers alone: the model card and vocabulary are the demo model's, in RECORDING_FILE."""
    document = {"format": RECORDING_FORMAT,
                "answers": [{"steps": [_b64(pack_step(step)) for step in steps], "result": asdict(result)}
                            for steps, result in recording.answers]}
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
        fh.write(json.dumps(document, separators=(",", ":")).encode())


def load_thinking(model_path: Path, path: Path = THINKING_FILE) -> Recording:
    """The scripted engine's recording with the reasoning trace's answers in place of its own."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        document = json.load(fh)
    answers = [([unpack_step(base64.b64decode(s)) for s in a["steps"]], _result(a["result"]))
               for a in document["answers"]]
    return replace(load_recording(model_path), answers=answers)


def _model_info(d: dict[str, Any], model_path: Path) -> ModelInfo:
    card = dict(d["card"], path=str(model_path), quant_mix=[QuantShare(**q) for q in d["card"]["quant_mix"]])
    return ModelInfo(**dict(d, card=ModelCard(**card), load=LoadSettings(**d["load"])))


def _result(d: dict[str, Any]) -> GenerationResult:
    speculative = d["speculative"] and SpeculativeStats(**d["speculative"])
    return GenerationResult(**dict(d, timings=Timings(**d["timings"]), kv=KvInfo(**d["kv"]), speculative=speculative))


def load_recording(model_path: Path, path: Path = RECORDING_FILE) -> Recording:
    """The recording `save_recording` wrote, its card pointing at `model_path` (the demo model's file)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        document = json.load(fh)
    if document["format"] != RECORDING_FORMAT:
        raise ValueError(f"{path} is format {document['format']}, not {RECORDING_FORMAT}: record it again")
    answers = [([unpack_step(base64.b64decode(s)) for s in a["steps"]], _result(a["result"]))
               for a in document["answers"]]
    return Recording(_model_info(document["info"], model_path),
                     [base64.b64decode(piece) for piece in document["vocab"]], answers)


@dataclass
class ScriptedEngine:
    """Answers each generate() with the next recorded answer (round robin); `fail_with` makes the next
    generate() raise that error instead (`load_error`: the next load); `gate` (when set) is waited for before each step."""

    recording: Recording
    requests: list[GenerateRequest] = field(default_factory=list)
    fail_with: LogitscopeError | None = None
    load_error: LogitscopeError | None = None
    gate: threading.Event | None = None
    inspect_requests: list[InspectRequest] = field(default_factory=list)
    inspect_gate: threading.Event | None = None    # when set: each inspect() waits for it
    inspect_unavailable: dict[str, str] = field(default_factory=dict)   # views the engine cannot show
    inspect_error: LogitscopeError | None = None
    matrix_requests: list[tuple[int, int, int]] = field(default_factory=list)   # (n tokens, layer, head)
    last_load: tuple[str, LoadSettings] | None = None
    # check_settings: a grammar / schema text or a bias token -> the InvalidSettingsError the engine would raise
    refuse: dict[str, InvalidSettingsError] = field(default_factory=dict)
    checked: list[SamplerSettings] = field(default_factory=list)
    stages: Callable[[StepRecord], StepRecord] | None = None   # rewrites each replayed step (extra stage records)
    cvector_requests: list[CvectorRequest] = field(default_factory=list)
    cvector_gate: threading.Event | None = None    # when set: each pair of a build waits for it
    prompt_requests: list[GenerateRequest] = field(default_factory=list)   # prompt_tokens' (counting a message)
    _info: ModelInfo | None = None
    _next: int = 0
    _cancel: threading.Event = field(default_factory=threading.Event)

    @property
    def info(self) -> ModelInfo | None:
        return self._info

    def load(self, path: str, settings: LoadSettings | None = None,
             on_progress: Callable[[float], None] | None = None) -> ModelInfo:
        if self.load_error is not None:
            error, self.load_error = self.load_error, None
            raise error
        if on_progress is not None:
            on_progress(1.0)
        self.last_load = (str(path), settings or LoadSettings())
        self._info = self.recording.info
        return self._info

    def generate(self, request: GenerateRequest,
                 on_step: Callable[[StepRecord], None] | None = None) -> GenerationResult:
        self._cancel.clear()  # a new call: an earlier cancel is spent (as in EngineClient)
        self.requests.append(request)
        self.check_settings(request.settings)   # as the engine: before anything is generated
        if self.fail_with is not None:
            error, self.fail_with = self.fail_with, None
            raise error
        steps, result = self.recording.answers[self._next % len(self.recording.answers)]
        self._next += 1
        sent: list[StepRecord] = []
        for step in steps:
            if self.gate is not None:
                self.gate.wait(10)
            if self._cancel.is_set():
                break
            sent.append(self.stages(replace(step)) if self.stages is not None else replace(step))
            if on_step is not None:
                on_step(sent[-1])
        finish = "cancelled" if len(sent) < len(steps) else result.finish_reason
        return replace(result, text="".join(s.text for s in sent), tokens=[s.token for s in sent],
                       finish_reason=finish, settings=request.settings.to_dict(),
                       steering=self._steering_record(request))

    def generate_batched(self, request: BatchedRequest,
                         on_step: Callable[[AnswerStep], None] | None = None) -> BatchedResult:
        """The next N recorded answers, their steps interleaved one by one as a batch delivers them."""
        self._cancel.clear()
        self.requests.append(request.generate)
        self.check_settings(request.generate.settings)
        if self.fail_with is not None:
            error, self.fail_with = self.fail_with, None
            raise error
        recorded = [self.recording.answers[(self._next + k) % len(self.recording.answers)]
                    for k in range(request.n_answers)]
        self._next += request.n_answers
        sent: list[list[StepRecord]] = [[] for _ in recorded]
        for i in range(max(len(steps) for steps, _ in recorded)):
            if self.gate is not None:
                self.gate.wait(10)
            if self._cancel.is_set():
                break
            for k, (steps, _) in enumerate(recorded):
                if i < len(steps):
                    sent[k].append(replace(steps[i]))
                    if on_step is not None:
                        on_step(AnswerStep(k, sent[k][-1]))
        base = request.generate.settings.with_seed()
        answers = []
        for k, ((steps, result), got) in enumerate(zip(recorded, sent, strict=True)):
            finish = "cancelled" if len(got) < len(steps) else result.finish_reason
            answers.append(replace(result, text="".join(s.text for s in got), tokens=[s.token for s in got],
                                   finish_reason=finish, settings=replace(base, seed=(base.seed or 0) + k).to_dict()
                                   | {"batch": {"answers": request.n_answers, "answer": k}},
                                   steering=self._steering_record(request.generate)))
        return BatchedResult(answers=answers, prompt_s=0.01, gen_s=0.1, n_decodes=max(len(g) for g in sent),
                             cells=[], sequences=[], n_ctx=self.recording.info.n_ctx, bytes_per_cell=0.0)

    def throughput(self, request: ThroughputRequest, on_progress: Callable[[float], None] | None = None,
                   on_point: Callable[[ThroughputPoint], None] | None = None) -> ThroughputResult:
        """A curve of the real machine's shape (bench --batched, 2 cores): it grows to 4 and flattens."""
        request.validate()
        self._cancel.clear()  # a new call: an earlier cancel is spent (as in EngineClient)
        figures = {1: 110.0, 2: 122.0, 4: 159.0, 8: 172.0}
        points = []
        for done, size in enumerate(request.sizes):
            if self.gate is not None:
                self.gate.wait(10)
            if self._cancel.is_set():
                from logitscope.host.client import CancelledError

                raise CancelledError("cancelled")
            cells = request.n_prompt + size * request.n_tokens
            points.append(ThroughputPoint(size, figures.get(size, 170.0), cells, cells * 18432, 0.5 * size))
            if on_point is not None:
                on_point(points[-1])
            if on_progress is not None:
                on_progress((done + 1) / len(request.sizes))
        return ThroughputResult(points, 2)

    def _steering_record(self, request: GenerateRequest) -> dict[str, Any] | None:
        """What the engine records of the request's steering (the same shape; no file is read)."""
        steering = steering_or_none(request.steering)
        if steering is None:
            return None

        def entry(path: str, scale: float) -> dict[str, Any]:
            return {"file": Path(path).name, "path": path, "sha256": "0" * 64, "scale": scale}

        vectors = [entry(f.path, f.scale) for f in steering.control_vectors]
        layers = steering.layer_range(self.recording.info.card.n_layer) if vectors else None
        return steering_record(vectors, layers, [entry(f.path, f.scale) for f in steering.loras])

    def build_cvector(self, request: CvectorRequest,
                      on_progress: Callable[[float], None] | None = None) -> CvectorResult:
        """Seeded unit directions of the request's layers, after `progress` for each pair (cancel stops it)."""
        from logitscope.host.client import CancelledError

        self._cancel.clear()
        request.validate()
        self.cvector_requests.append(request)
        card = self.recording.info.card
        layers = request.layers(card.n_layer)
        n = len(request.positive)
        for k in range(n):
            if self.cvector_gate is not None:
                self.cvector_gate.wait(10)
            if self._cancel.is_set():
                raise CancelledError("cancelled")
            if on_progress is not None:
                on_progress((k + 1) / n)
        directions = np.random.default_rng(n).standard_normal((len(layers), card.n_embd)).astype(np.float32)
        directions /= np.linalg.norm(directions, axis=1, keepdims=True)
        return CvectorResult(layers, directions, card.architecture, request.method, n, 10 * n, [n] * len(layers))

    def cancel(self) -> None:
        self._cancel.set()

    def beam_search(self, request: BeamRequest, on_progress: Callable[[BeamProgress], None] | None = None) -> BeamResult:
        raise UnsupportedByServerError("the scripted engine replays recorded answers: it cannot search with beams")

    def check_settings(self, settings: SamplerSettings) -> None:
        """EngineClient.check_settings: refuses what `refuse` lists (the text of a grammar or schema, a bias token)."""
        self.checked.append(settings)
        for key in [settings.grammar, settings.json_schema] + [str(t) for t, _ in settings.logit_bias]:
            if key in self.refuse:
                raise self.refuse[key]

    # -- the forward pass: arrays of the contract's shapes, computed from the request alone --
    def inspect(self, request: InspectRequest) -> ForwardInspection:
        if self.inspect_gate is not None:
            self.inspect_gate.wait(10)
        self.inspect_requests.append(request)
        if self.inspect_error is not None:
            raise self.inspect_error
        card = self.recording.info.card
        tokens = list(request.tokens)
        lens = None if "lens" in self.inspect_unavailable or not request.lens else scripted_lens(
            tokens, request.chosen, card.n_layer, len(self.recording.vocab))
        attention = None if "attention" in self.inspect_unavailable or not request.attention else AttentionRow(
            position=len(tokens) - 1, weights=scripted_attention(tokens, card.n_layer, card.n_head),
            kv_head_of=[h * card.n_head_kv // card.n_head for h in range(card.n_head)], window=[None] * card.n_layer)
        return ForwardInspection(tokens, lens, attention, dict(self.inspect_unavailable), seconds=0.01)

    def attention_matrix(self, tokens: list[int], layer: int, head: int, steering: object = None,
                         knockouts: tuple[object, ...] = ()) -> AttentionMatrix:
        self.matrix_requests.append((len(tokens), layer, head))
        n = len(tokens)
        raw = np.tril(1.0 + (np.add.outer(np.arange(n), np.arange(n)) * (layer + 1) + head) % 5).astype(np.float32)
        return AttentionMatrix(layer, head, raw / raw.sum(axis=1, keepdims=True))

    def close(self) -> None:
        self._info = None

    def tokenize(self, text: str, add_special: bool = False, parse_special: bool = True) -> list[int]:
        """A text that is one token of the vocabulary: that token; any other: one token per UTF-8 byte."""
        exact = [i for i, piece in enumerate(self.recording.vocab) if piece and piece.decode("utf-8", "replace") == text]
        return exact[:1] or list(text.encode("utf-8", "surrogatepass"))

    def prompt_tokens(self, request: GenerateRequest) -> list[int]:
        """One token per byte of a plain chat format (the recording keeps no template); a prompt that leaves
        less than the engine's reserve for the answer overflows, as the engine's last message would."""
        self.prompt_requests.append(request)
        head = [("system", request.system)] if request.system else []
        text = "".join(f"<{role}>{content}</{role}>" for role, content in
                       head + [(m.role, m.content) for m in request.messages or ()]) + "<assistant>"
        n_ctx = self.recording.info.n_ctx
        if len(text.encode()) > n_ctx - answer_reserve(n_ctx, request.options.max_tokens):
            raise ContextOverflowError("the message is too long: the prompt needs {n_tokens} tokens",
                                       n_tokens=len(text.encode()))
        return list(text.encode())

    def vocab(self) -> list[bytes]:
        return list(self.recording.vocab)

    def capabilities(self) -> dict[str, object]:
        return {**LOCAL_CAPABILITIES, "backend": "scripted", "gpu_offload": False, "kv_map": False, "beams": False}  # no KV cache


def scripted_lens(tokens: list[int], chosen: int | None, n_layer: int, n_vocab: int) -> LayerLens:
    """A lens where the chosen token climbs from outside the top tokens to rank 0 at the last layer."""
    rows = n_layer + 1
    base = sum(tokens) % n_vocab
    target = chosen if chosen is not None else base
    probs = np.array([0.5 ** (k + 1) for k in range(LENS_TOP_K)], dtype=np.float32)
    top_ids = np.zeros((rows, LENS_TOP_K), dtype=np.int32)
    top_probs = np.tile(probs, (rows, 1))
    ranks = np.zeros(rows, dtype=np.int32)
    for r in range(rows):
        others = [(base + 7 * r + 13 * k + 1) % n_vocab for k in range(LENS_TOP_K + 1)]
        others = [t for t in others if t != target][:LENS_TOP_K]
        rank = max(0, (rows - 1 - r) // 3)          # rank 0 in the last few layers, beyond the top before
        ranks[r] = rank
        ids = others[:]
        if rank < LENS_TOP_K:
            ids.insert(rank, target)
        top_ids[r] = ids[:LENS_TOP_K]
    chosen_prob = np.where(ranks < LENS_TOP_K, probs[np.minimum(ranks, LENS_TOP_K - 1)], 0.0001).astype(np.float32)
    entropy = np.linspace(6.0, 1.0, rows, dtype=np.float32)
    norms = np.linspace(1.0, 40.0, rows, dtype=np.float32)
    added = np.linspace(0.5, 5.0, n_layer, dtype=np.float32)
    return LayerLens(["embd"] + [str(layer) for layer in range(n_layer)], top_ids, top_probs, target, ranks,
                     chosen_prob, entropy, norms, added, added[::-1].copy())


def scripted_attention(tokens: list[int], n_layer: int, n_head: int) -> np.ndarray:
    """Causal rows over the context that sum to 1, different per layer and head."""
    n = len(tokens)
    layer, head, position = np.ogrid[0:n_layer, 0:n_head, 0:n]
    raw = (1.0 + (position * 31 + layer * 7 + head * 3 + sum(tokens)) % 10).astype(np.float32)
    return raw / raw.sum(axis=2, keepdims=True)
