"""An answer's GenerationResult, rebuilt from its stored message: the one place that does it (the trace
export and the window's history both call it).

Tolerant of other versions: keys it does not know are ignored, and a field it does not find reads as
unknown, as a remote engine reports it (-1 for a count, NaN for a float; null in the JSON trace)."""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from logitscope.protocol.reasoning import UNCLOSED, joined_text, syntax_named
from logitscope.protocol.trace import GenerationResult, KvInfo, StepRecord, Timings
from logitscope.store.records import StoredMessage

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T", bound="DataclassInstance")

_UNKNOWN: dict[object, object] = {int: -1, float: math.nan}


def from_stored(cls: type[T], values: Mapping[str, Any]) -> T:
    """A dataclass of numbers (Timings, KvInfo) from its stored dict."""
    hints = typing.get_type_hints(cls)
    known = {f.name: values[f.name] if f.name in values else _UNKNOWN[hints[f.name]]
             for f in dataclasses.fields(cls)}
    return cls(**known)


def stored_result(message: StoredMessage, steps: Sequence[StepRecord]) -> GenerationResult | None:
    """The result of a stored answer, or None when it has none (it never finished: no timings)."""
    if message.timings is None:
        return None
    reasoning = message.reasoning if isinstance(message.reasoning, dict) else None
    return GenerationResult(
        text=whole_text(message), tokens=[step.token for step in steps], finish_reason=message.finish_reason or "",
        timings=from_stored(Timings, message.timings), kv=from_stored(KvInfo, message.kv or {}),
        settings=dict(message.sampler or {}), prompt_tokens=[], notices=list(message.notices),
        steering=message.steering if isinstance(message.steering, dict) else None, reasoning=reasoning,
        threads=message.threads if isinstance(message.threads, dict) else None)


def whole_text(message: StoredMessage) -> str:
    """The answer's whole text, its thinking block put back before it (stored apart since schema 6)."""
    record = message.reasoning if isinstance(message.reasoning, dict) else {}
    return joined_text(message.thinking, message.content, opened_by_prompt=bool(record.get("opened_by_prompt")),
                       closed=record.get("ended") != UNCLOSED, syntax=syntax_named(record.get("format")))
