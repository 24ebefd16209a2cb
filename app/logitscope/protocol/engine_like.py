"""What the CLI and the GUI need from an engine, whichever runs the model: the local engine process
(logitscope.host.client.EngineClient) or a server over HTTP (logitscope.host.remote.RemoteEngine).

Engines differ in what they can report. `capabilities()` says so, key by key (CAPABILITY_KEYS), so the
UI can hide a waterfall that will never come or disable a slider the server ignores. A step's unknown
values are NaN or -1 and become null in the JSON Lines trace (protocol/trace.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from logitscope.protocol.api import GenerateRequest, ModelInfo
from logitscope.protocol.batched import (
    AnswerStep,
    BatchedRequest,
    BatchedResult,
    ThroughputPoint,
    ThroughputRequest,
    ThroughputResult,
)
from logitscope.protocol.beams import BeamProgress, BeamRequest, BeamResult
from logitscope.protocol.causal import (
    AblateRequest,
    Ablation,
    AblationEffect,
    HeadScan,
    HeadScanRequest,
    PatchRequest,
    PatchResult,
)
from logitscope.protocol.forced_compare import ForcedKl
from logitscope.protocol.forward import AttentionMatrix, ForwardInspection, InspectRequest
from logitscope.protocol.sampler_settings import LOCAL_STAGES, SamplerSettings
from logitscope.protocol.score import ScoreRequest, ScoreResult
from logitscope.protocol.steering import Steering
from logitscope.protocol.steering_compare import SteeringCompare, SteeringCompareRequest
from logitscope.protocol.trace import GenerationResult, StepRecord

# What `capabilities()` answers, besides the local build's "backend" and "gpu_offload":
CAPABILITY_KEYS: dict[str, str] = {
    "remote": "the model runs on a server, not in a local engine process",
    "raw_probs": "each step's probabilities before any sampler stage (p_raw, top_raw)",
    "final_probs": "each step's probabilities after the sampler (p, top_final)",
    "stages": "the per-stage waterfall (each sampler stage's survivors and kept mass)",
    "entropy": "entropy over the whole vocabulary",
    "kv": "KV cache numbers (cells used per step, bytes per token)",
    "token_ids": "token ids of the chosen tokens and their alternatives",
    "tokenize": "tokenize(text) works",
    "vocab": "vocab() gives every token's bytes",
    "fork": "generation can continue after forced tokens (forking at a token)",
    "unsupported_settings": "{setting name: why this engine cannot apply it}; the UI disables those",
    "kv_map": "kv_map() shows which KV cells hold which part of the conversation and which were reused",
    "forward_pass": "inspect() and attention_matrix(): the logit lens and attention maps of a step",
    "samplers": "the sampler stages this engine applies (protocol/trace.py STAGE_NAMES)",
    "grammar": "constrained output: a GBNF grammar or a JSON schema",
    "beams": "beam_search(): hypotheses in llama.cpp sequences of one context, the tree and the shared KV cells",
    "score": "score(): every token of a given text scored by the model (log-probability, rank, alternatives)",
}

LOCAL_CAPABILITIES: dict[str, object] = {
    "remote": False, "raw_probs": True, "final_probs": True, "stages": True, "entropy": True, "kv": True,
    "token_ids": True, "tokenize": True, "vocab": True, "fork": True, "unsupported_settings": {},
    "kv_map": True,
    "forward_pass": True,
    "samplers": list(LOCAL_STAGES), "grammar": True, "beams": True, "score": True, "batched": True,
}


@dataclass
class RemoteModelInfo:
    """What a remote engine learns about its server and model (there is no GGUF header to read)."""

    base_url: str
    model: str                      # the model id sent with each request
    server: str                     # the kind of server: "llama-server", "llama-cpp-python", "vllm", "openai"
    models: list[str] = field(default_factory=list)   # every model the server lists
    n_ctx: int | None = None        # the context size, when the server tells it

    @property
    def name(self) -> str:
        return self.model.rsplit("/", 1)[-1]


@runtime_checkable
class EngineLike(Protocol):
    """The engine interface the CLI and the GUI program against."""

    @property
    def info(self) -> ModelInfo | RemoteModelInfo | None: ...

    def generate(self, request: GenerateRequest,
                 on_step: Callable[[StepRecord], None] | None = None) -> GenerationResult:
        """Steps go to `on_step` as they are produced; the result comes last. Its `settings` name the
        engine that produced it under "engine"."""
        ...

    def cancel(self) -> None:
        """Stop the current generation (from any thread): it returns finish_reason "cancelled". Must not
        block or wait for a lock the generating thread may hold: the CLI calls it from its SIGINT handler,
        which runs on that thread."""
        ...

    def close(self) -> None: ...

    def check_settings(self, settings: SamplerSettings) -> None:
        """InvalidSettingsError when these sampler settings cannot run here (a value out of range; locally
        also a grammar or JSON schema that does not parse, a logit-bias token outside the vocabulary)."""
        ...

    def tokenize(self, text: str, add_special: bool = False, parse_special: bool = True) -> list[int]:
        """May raise UnsupportedByServerError (a remote server without a tokenize endpoint)."""
        ...

    def prompt_tokens(self, request: GenerateRequest) -> list[int]:
        """The tokens the model reads for `request` (its chat template applied). May raise
        UnsupportedByServerError (remote servers apply their own template)."""
        ...

    def vocab(self) -> list[bytes]:
        """Every token's bytes, by id. May raise UnsupportedByServerError (remote servers)."""
        ...

    def capabilities(self) -> dict[str, object]:
        """CAPABILITY_KEYS, plus "backend" and "gpu_offload"."""
        ...

    def inspect(self, request: InspectRequest) -> ForwardInspection:
        """The logit lens and attention weights of a step. Raises UnsupportedByServerError on a remote engine
        (capability "forward_pass" False)."""
        ...

    def attention_matrix(self, tokens: list[int], layer: int, head: int, steering: Steering | None = None,
                         knockouts: tuple[Ablation, ...] = ()) -> AttentionMatrix:
        """One layer/head's attention over a whole context. Remote engines: UnsupportedByServerError."""
        ...

    def generate_batched(self, request: BatchedRequest,
                         on_step: Callable[[AnswerStep], None] | None = None) -> BatchedResult:
        """N answers to one prompt decoded together, each step to `on_step` with its answer; `cancel()` ends them all
        with what they have. Remote engines: UnsupportedByServerError (capability "batched" False)."""
        ...

    def throughput(self, request: ThroughputRequest, on_progress: Callable[[float], None] | None = None,
                   on_point: Callable[[ThroughputPoint], None] | None = None) -> ThroughputResult:
        """Tokens per second against the batch size on the loaded model, each size's point to `on_point` as soon as it
        is measured; `cancel()` stops it (CancelledError).
        Remote engines: UnsupportedByServerError (capability "batched" False)."""
        ...

    def beam_search(self, request: BeamRequest,
                    on_progress: Callable[[BeamProgress], None] | None = None) -> BeamResult:
        """Beam search (engine/beams.py), each step to `on_progress` as it is taken; `cancel()` stops it within a
        step (result.cancelled) or during the prompt (CancelledError). Remote engines: UnsupportedByServerError
        (capability "beams" False)."""
        ...

    def score(self, request: ScoreRequest, on_progress: Callable[[float], None] | None = None) -> ScoreResult:
        """Every token of a text scored by the model. Remote engines: UnsupportedByServerError (capability
        "score" False)."""
        ...

    def save_distributions(self, tokens: list[int], first: int, path: str, steering: Steering | None = None) -> int:
        """The next-token distributions predicting tokens[first:], in llama.cpp's quantized rows, to `path`
        (np.save). Remote engines: UnsupportedByServerError (capability "score" False)."""
        ...

    def compare_distributions(self, tokens: list[int], first: int, path: str,
                              steering: Steering | None = None) -> ForcedKl:
        """This model's distributions predicting tokens[first:] against the ones saved at `path` by another
        engine: KLD, Δp, top-1 agreement per token. Remote engines: UnsupportedByServerError."""
        ...

    def set_threads(self, n_threads: int) -> int:
        """The CPU threads generation uses from now on (0: one per CPU); returns the count before. Remote
        engines: UnsupportedByServerError."""
        ...

    def compare_steering(self, request: SteeringCompareRequest) -> SteeringCompare:
        """An answer's distributions under two steerings, step by step. Remote engines: UnsupportedByServerError
        (capability "score" False: it needs every token's probability)."""
        ...

    def ablate(self, request: AblateRequest) -> AblationEffect:
        """A step with heads or blocks knocked out (protocol/causal.py). Remote engines: UnsupportedByServerError
        (capability "forward_pass" False)."""
        ...

    def head_scan(self, request: HeadScanRequest, on_progress: Callable[[float], None] | None = None) -> HeadScan:
        """Every head knocked out alone. Remote engines: UnsupportedByServerError."""
        ...

    def patch(self, request: PatchRequest, on_progress: Callable[[float], None] | None = None) -> PatchResult:
        """Activation patching, clean into corrupted. Remote engines: UnsupportedByServerError."""
        ...
