"""What a diagnosis says: findings, each with its evidence and a fix the window can apply in one click.

Plain data (no Qt, no llama.cpp): the CLI prints it, the window shows it, both from the same objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from logitscope.base.messages import Message
from logitscope.protocol.api import DecodeOptions, LoadSettings
from logitscope.protocol.sampler_settings import SamplerSettings

KINDS = ("loop", "cut_off", "guessing", "off_course", "stop_missed", "trimmed", "slow", "thinking_unclosed",
         "thinking_budget", "thinking_loop")
SEVERITIES = ("info", "warning", "problem")   # mildest first

# Each kind's short name, for the badge, the dock and the CLI.
KIND_TITLES: dict[str, Message] = {
    "loop": Message("repetition loop"),
    "cut_off": Message("cut off"),
    "guessing": Message("guessing"),
    "off_course": Message("sampling drove it off course"),
    "stop_missed": Message("end of turn missed"),
    "trimmed": Message("context trimmed"),
    "slow": Message("slow"),
    "thinking_unclosed": Message("thinking never ended"),
    "thinking_budget": Message("thinking cut by the budget"),
    "thinking_loop": Message("thinking in circles"),
}


@dataclass(frozen=True)
class Fix:
    """Setting changes that address a finding: applied to the answer's own settings, they make the new
    version. `load` changes need the model reloaded; `model`: another model file to load instead (a smaller
    quantization of the same model), with the same load settings; `fork` = (step, token): regenerate from that
    step with that token forced (the model's first choice where the sampler strayed)."""

    label: Message
    sampler: tuple[tuple[str, Any], ...] = ()
    decode: tuple[tuple[str, Any], ...] = ()
    load: tuple[tuple[str, Any], ...] = ()
    fork: tuple[int, int] | None = None
    model: str | None = None

    def sampler_settings(self, base: SamplerSettings) -> SamplerSettings:
        return replace(base, **dict(self.sampler))

    def decode_options(self, base: DecodeOptions) -> DecodeOptions:
        return replace(base, **dict(self.decode))

    def load_settings(self, base: LoadSettings) -> LoadSettings:
        return replace(base, **dict(self.load))

    @property
    def needs_reload(self) -> bool:
        return bool(self.load) or self.model is not None

    def to_dict(self) -> dict[str, Any]:
        return {"label": str(self.label), "sampler": dict(self.sampler), "decode": dict(self.decode),
                "load": dict(self.load), "fork": list(self.fork) if self.fork else None, "model": self.model}


@dataclass(frozen=True)
class Finding:
    kind: str                              # one of KINDS
    severity: str                          # one of SEVERITIES
    text: Message                          # plain language: what happened and why
    spans: tuple[tuple[int, int], ...] = ()   # evidence: step index ranges [start, end)
    fix: Fix | None = None
    other_fixes: tuple[Fix, ...] = ()      # milder alternatives to `fix`, each one click too

    @property
    def title(self) -> Message:
        return KIND_TITLES[self.kind]

    @property
    def steps(self) -> list[int]:
        """Every step index of the evidence, in order."""
        return [i for start, end in self.spans for i in range(start, end)]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "title": str(self.title), "severity": self.severity, "text": str(self.text),
                "spans": [list(s) for s in self.spans], "steps": self.steps,
                "fix": self.fix.to_dict() if self.fix else None,
                "other_fixes": [other.to_dict() for other in self.other_fixes]}


@dataclass(frozen=True)
class Diagnosis:
    findings: tuple[Finding, ...] = ()
    skipped: tuple[Message, ...] = ()      # checks the trace had no data for, and why
    n_steps: int = 0

    @property
    def worst(self) -> str | None:
        """The most severe finding's severity; None for a clean answer."""
        if not self.findings:
            return None
        return max((f.severity for f in self.findings), key=SEVERITIES.index)

    def of_kind(self, kind: str) -> list[Finding]:
        return [f for f in self.findings if f.kind == kind]

    def to_dict(self) -> dict[str, Any]:
        return {"findings": [f.to_dict() for f in self.findings], "skipped": [str(m) for m in self.skipped],
                "n_steps": self.n_steps}


@dataclass(frozen=True)
class Quant:
    """A model file's quantization: its file type (general.file_type's name) and its measured bits per weight."""

    file_type: str
    bits_per_weight: float
    path: str = ""


@dataclass(frozen=True)
class Context:
    """What the diagnosis knows beyond the trace; every field optional (an imported trace has none of it).

    `reference_tps`: generation speed this model reaches on this machine (the median of its other stored
    answers, or a `bench` figure); `load`: the settings the model was loaded with; `gpu_offload`: whether
    the engine could offload layers to a GPU; `quant`: the loaded file's quantization; `smaller`: a file of the
    same model with fewer bits per weight in the library (diagnosis/quants.py finds it)."""

    reference_tps: float | None = None
    load: LoadSettings | None = None
    gpu_offload: bool | None = None
    notices: Sequence[str] = field(default_factory=tuple)   # notices kept apart from the result (the store)
    forked_at: int | None = None   # a fork: the steps up to here were copied or forced, not drawn
    quant: Quant | None = None
    smaller: Quant | None = None
