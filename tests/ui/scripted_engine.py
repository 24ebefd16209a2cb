"""A scripted engine for the fast UI tier: the EngineClient interface (host/engine_api.py EngineLike, plus
load / last_load / vocab) replaying StepRecords recorded from the real demo model, so the chat's state
machine can be tested without running the model for each test. `record` makes the recording once."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from logitscope.engine.api import GenerateRequest, LoadSettings, ModelInfo
from logitscope.engine.sampler import SamplerSettings
from logitscope.engine.trace import GenerationResult, StepRecord
from logitscope.errors import LogitscopeError
from logitscope.host.engine_api import LOCAL_CAPABILITIES


@dataclass
class Recording:
    info: ModelInfo
    vocab: list[bytes]
    answers: list[tuple[list[StepRecord], GenerationResult]]


def record(engine, questions: Sequence[str], max_tokens: int = 6) -> Recording:  # noqa: ANN001 - engine.core.Engine
    """Answer each question once with the real engine (greedy), keeping every step and the result."""
    from logitscope.engine.api import ChatMessage, DecodeOptions

    answers = []
    for question in questions:
        request = GenerateRequest(messages=[ChatMessage("user", question)], settings=SamplerSettings(temperature=0.0),
                                  options=DecodeOptions(max_tokens=max_tokens))
        events = list(engine.generate(request))
        steps = [e for e in events if isinstance(e, StepRecord)]
        (result,) = [e for e in events if isinstance(e, GenerationResult)]
        answers.append((steps, result))
    return Recording(engine.info, engine.vocab(), answers)


@dataclass
class ScriptedEngine:
    """Answers each generate() with the next recorded answer (round robin); `fail_with` makes the next
    generate() raise that error instead (`load_error`: the next load); `gate` (when set) is waited for before each step."""

    recording: Recording
    requests: list[GenerateRequest] = field(default_factory=list)
    fail_with: LogitscopeError | None = None
    load_error: LogitscopeError | None = None
    gate: threading.Event | None = None
    last_load: tuple[str, LoadSettings] | None = None
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
            sent.append(replace(step))
            if on_step is not None:
                on_step(sent[-1])
        finish = "cancelled" if len(sent) < len(steps) else result.finish_reason
        return replace(result, text="".join(s.text for s in sent), tokens=[s.token for s in sent],
                       finish_reason=finish, settings=request.settings.to_dict())

    def cancel(self) -> None:
        self._cancel.set()

    def close(self) -> None:
        self._info = None

    def tokenize(self, text: str, add_special: bool = False, parse_special: bool = True) -> list[int]:
        return [i for i, piece in enumerate(self.recording.vocab) if piece and piece.decode("utf-8", "replace") == text][:1]

    def vocab(self) -> list[bytes]:
        return list(self.recording.vocab)

    def capabilities(self) -> dict[str, object]:
        return {**LOCAL_CAPABILITIES, "backend": "scripted", "gpu_offload": False, "kv_map": False}  # no KV cache
