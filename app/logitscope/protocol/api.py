"""What crosses the process boundary: the requests a caller makes and what it learns back.

Plain dataclasses, importable without llama.cpp: the GUI process and the CLI use them with the engine
client and never load llama.cpp's library themselves (a test checks this).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.base.utf8 import require_utf8
from logitscope.gguf.card import ModelCard
from logitscope.gguf.memory import KV_CACHE_TYPES, UNQUANTIZED_KV
from logitscope.protocol.causal import Ablation
from logitscope.protocol.reasoning import DEFAULT_REASONING_FORMAT, UNLIMITED, validate_reasoning
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.steering import Steering
from logitscope.system.threads import MAX_THREADS_PER_CPU, available_cpus, max_threads

MAX_N_CTX = 1 << 21   # 2M tokens: past any model's training context


@dataclass(frozen=True)
class LoadSettings:
    n_ctx: int = 4096
    n_gpu_layers: int = 0
    n_threads: int = 0           # 0: all physical cores we can see
    type_k: str = UNQUANTIZED_KV
    type_v: str = UNQUANTIZED_KV
    flash_attn: bool = False
    n_batch: int = 512

    def validate(self, names: Mapping[str, str] | None = None) -> None:
        """InvalidSettingsError naming the first bad value; `names`: how the caller's user calls each field
        (the CLI's flags, cli/option_names.py), else the field's own name."""
        label = {f: f for f in ("n_ctx", "n_gpu_layers", "n_threads", "n_batch")} | dict(names or {})
        if self.n_ctx < 0 or self.n_ctx > MAX_N_CTX:
            raise InvalidSettingsError("{name} must be between 0 (the model's training context) "
                                       "and {value}", name=label["n_ctx"], value=MAX_N_CTX)
        if self.n_gpu_layers < -1:
            raise InvalidSettingsError("{name} must be -1 (all) or a number of layers >= 0", name=label["n_gpu_layers"])
        if not 0 <= self.n_threads <= max_threads():
            raise InvalidSettingsError(
                "{name} must be between 0 (automatic) and {max_threads} "
                "({MAX_THREADS_PER_CPU} per CPU; this machine has {available_cpus}), not "
                "{n_threads}", name=label["n_threads"], max_threads=max_threads(), MAX_THREADS_PER_CPU=MAX_THREADS_PER_CPU,
                available_cpus=available_cpus(), n_threads=self.n_threads)
        for name in (self.type_k, self.type_v):
            if name not in KV_CACHE_TYPES:
                raise InvalidSettingsError("KV cache type must be one of {KV_CACHE_TYPES}, not "
                                           "{name!r}", KV_CACHE_TYPES=', '.join(KV_CACHE_TYPES), name=name)
        if self.type_v != UNQUANTIZED_KV and not self.flash_attn:
            raise InvalidSettingsError("a quantized V cache needs flash attention on")
        if self.n_batch < 1:
            raise InvalidSettingsError("{name} must be >= 1", name=label["n_batch"])

    def to_dict(self) -> dict[str, object]:
        return asdict(self)



@dataclass(frozen=True)
class ChatMessage:
    role: str       # "system" | "user" | "assistant"
    content: str
    thinking: str = ""   # an earlier answer's thinking, for a template that reads `reasoning_content`



# Speculative decoding (engine/speculative.py): where the drafts come from, and how many per evaluation.
DRAFT_LOOKUP = "lookup"    # prompt lookup: n-grams of the context; anything else names a draft GGUF
DEFAULT_DRAFT_MAX = 8
DRAFT_MAX_LIMIT = 32


@dataclass
class DecodeOptions:
    max_tokens: int = 256
    stop: tuple[str, ...] = ()
    forced: tuple[int, ...] = ()   # tokens to emit first regardless of the draw (forking at a token)
    draft: str = ""                # "" = no speculative decoding, DRAFT_LOOKUP, or a draft model's path
    draft_max: int = DEFAULT_DRAFT_MAX  # drafts verified per evaluation, at most
    # A reasoning model's thinking block (protocol/reasoning.py): recognised ("deepseek") or not ("none"), and
    # its budget: -1 unlimited, 0 none, N tokens after which the engine closes it.
    reasoning_format: str = DEFAULT_REASONING_FORMAT
    reasoning_budget: int = UNLIMITED

    def validate(self, names: Mapping[str, str] | None = None) -> None:
        """InvalidSettingsError naming the first bad value; `names` as in LoadSettings.validate."""
        label = {"max_tokens": Message("max tokens"), "draft_max": "draft-max"} | dict(names or {})
        validate_reasoning(self.reasoning_format, self.reasoning_budget)
        if self.max_tokens < 1:
            raise InvalidSettingsError("{name} must be >= 1", name=label["max_tokens"])
        if not 1 <= self.draft_max <= DRAFT_MAX_LIMIT:
            raise InvalidSettingsError("{name} must be between 1 and {limit}, not {value}", name=label["draft_max"],
                                       limit=DRAFT_MAX_LIMIT, value=self.draft_max)
        if any(not s for s in self.stop):
            raise InvalidSettingsError("a stop sequence cannot be empty")
        for stop in self.stop:
            require_utf8(stop, "a stop sequence")


def answer_reserve(n_ctx: int, max_tokens: int) -> int:
    """The context cells a chat prompt leaves for the answer: older turns are dropped until it does."""
    return min(max_tokens, n_ctx // 2)



@dataclass
class ModelInfo:
    """What the caller learns about a loaded model."""

    card: ModelCard
    load: LoadSettings             # as requested (a reload repeats it): n_ctx 64 or 0 stays 64 or 0
    n_ctx: int                     # the cells the context has (llama_n_ctx: 64 asked gives 256)
    load_s: float
    backend: str
    gpu_offload_supported: bool
    n_gpu_layers: int              # layers actually offloaded (0 on a CPU build)
    kv_bytes_per_token: float
    kv_allocated_bytes: int
    compute_buffer_bytes: int | None
    log_tail: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # for the user: e.g. the context was rounded up


@dataclass
class GenerateRequest:
    """Exactly one of `prompt` (raw text, tokenized as llama.cpp does: BOS per the model's metadata,
    special tokens parsed) or `messages` (a chat, rendered with the model's template)."""

    prompt: str | None = None
    messages: list[ChatMessage] | None = None
    system: str | None = None
    settings: SamplerSettings = field(default_factory=SamplerSettings)
    options: DecodeOptions = field(default_factory=DecodeOptions)
    # Tokens of the answer already in place (forking at a token): appended to the prompt, so the KV
    # cache that holds them is reused, and generation continues after them.
    assistant_prefix: tuple[int, ...] = ()
    steering: Steering | None = None  # control vectors and LoRA adapters (None: none; a later request's
                                      # None takes off what an earlier one applied)
    knockouts: tuple[Ablation, ...] = ()  # heads and blocks kept knocked out (zeroed everywhere: causal tracing)

    def validate(self) -> None:
        if (self.prompt is None) == (self.messages is None):
            raise InvalidSettingsError("give either a raw prompt or chat messages")
        if self.messages is not None and not self.messages:
            raise InvalidSettingsError("a chat needs at least one message")
        if self.prompt is not None and self.prompt == "":
            raise InvalidSettingsError("the prompt is empty")
        if self.prompt is not None:
            require_utf8(self.prompt, "the prompt")
        if self.system is not None:
            require_utf8(self.system, "the system prompt")
        for message in self.messages or ():
            require_utf8(message.content, f"the {message.role} message")
        self.settings.validate()
        self.options.validate()
        if self.steering is not None:
            self.steering.validate()
