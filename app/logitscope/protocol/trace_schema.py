"""Older trace records in today's schema (TRACE_SCHEMA_VERSION; docs/trace_schema.md describes each).

Schema 1 -> 2 (every llama.cpp sampler):
- settings: the chain is `samplers` (llama-server's names, in the order applied) instead of the
  `order` name ("temperature_last" / "temperature_first", see sampler.LEGACY_ORDERS); the settings a
  schema-1 engine did not have (DRY, XTC, typical-p, top-n-sigma, dynamic temperature, Mirostat, logit
  bias, grammar, JSON schema, min-keep) are added at their defaults: off, which is what it applied;
- a step's stages gain `info` ({} : nothing recorded) and `removed` (null: not recorded).

Schema 2 -> 3 (speculative decoding):
- a step gains `drafted` (false: every step before schema 3 was decoded one at a time);
- the "done" line gains `speculative` (null: no drafting).
The stored (packed) form needs nothing: a step without the drafted tail reads as not drafted.

Within schema 3, the "done" line gained an optional `steering` (null: unsteered, which every trace without
it was), then an optional `reasoning` (null: no thinking block), and a step an optional `thinking` (false).

Every reader of stored or exported traces goes through these functions: the history (store.records,
for the window and the exports) and `history import` (store.exchange). They are idempotent: a record
already in today's schema comes back unchanged, and keys they do not know are kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from logitscope import TRACE_SCHEMA_VERSION
from logitscope.protocol.sampler_settings import LEGACY_ORDERS, SamplerSettings


def migrate_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """A recorded settings dict in schema 2. A schema-1 dict (it has `order` and no `samplers`) gets
    `samplers` for its order (an unknown order is kept as it is, for the reader to report) and the new
    settings at their defaults; anything else comes back as a copy."""
    out = dict(settings)
    order = out.get("order")
    if "samplers" in out or not (isinstance(order, str) and order in LEGACY_ORDERS):
        return out  # schema 2 already, no sampler settings, or an order no engine wrote
    del out["order"]
    out["samplers"] = list(LEGACY_ORDERS[order])
    # to_dict's order, each known setting as recorded or at its default, then the other keys (max_tokens, ...)
    migrated = {name: out.pop(name, default) for name, default in SamplerSettings().to_dict().items()}
    return migrated | out


def migrate_trace_line(line: Mapping[str, Any]) -> dict[str, Any]:
    """One line of a `generate --json` trace (a "step" or the "done" line) in today's schema."""
    out = dict(line)
    if out.get("type") == "step":
        if isinstance(out.get("stages"), list):
            out["stages"] = [{**stage, "info": stage.get("info", {}), "removed": stage.get("removed")}
                             if isinstance(stage, Mapping) else stage for stage in out["stages"]]
        out.setdefault("drafted", False)
        out.setdefault("thinking", False)   # optional within schema 3: no thinking block before it
    elif out.get("type") == "done":
        if isinstance(out.get("settings"), Mapping):
            out["settings"] = migrate_settings(out["settings"])
        out.setdefault("speculative", None)
        out.setdefault("steering", None)  # optional within schema 3: absent in traces written before it
        out.setdefault("reasoning", None)
        out.setdefault("threads", None)
        if isinstance(out.get("schema"), int) and out["schema"] < TRACE_SCHEMA_VERSION:
            out["schema"] = TRACE_SCHEMA_VERSION
    return out


def migrate_trace(lines: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [migrate_trace_line(line) for line in lines]
