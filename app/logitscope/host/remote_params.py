"""The sampler settings a remote server takes, under its own names, and what it cannot apply (no I/O).

- llama-server (tools/server/server-schema.cpp): every llama.cpp setting under its own name; `samplers`
  (the stages that are on, in order), `logit_bias` as [[token id or text, bias or false (a ban)]],
  `grammar` (GBNF), `json_schema` (an object).
- llama-cpp-python's server (llama_cpp/server/types.py): `mirostat_mode`, `mirostat_tau`, `mirostat_eta`,
  `logit_bias` as {"token id": bias} (or, with `logit_bias_type: "tokens"`, {text: bias}), `grammar`,
  and on the chat endpoint `response_format: {"type": "json_object", "schema": ...}`. Its sampler chain
  is fixed (penalties, top-k, typical, top-p, min-p, temperature), has no typical_p in its API, applies
  Mirostat without the temperature, and fixes min-keep at 1.
- vLLM: `repetition_penalty`, `logit_bias` as {"token id": bias} clamped to [-100, 100] (OpenAI's),
  `response_format: {"type": "json_schema", ...}` (chat and completions). Its grammars
  (structured_outputs.grammar) are EBNF / Lark, not GBNF: a GBNF grammar is not sent.
- any OpenAI-compatible server: `logit_bias` (token ids, [-100, 100]) and, on the chat endpoint,
  `response_format: {"type": "json_schema", ...}`.

What cannot be sent is not sent; each setting that is on (it would change the answer) and not applied
is reported with the reason, its value written readably.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.sampler_settings import CHAIN_STAGES, LEGACY_ORDERS, SamplerSettings, is_on

OPENAI_BAN = -100.0          # OpenAI's logit_bias range is [-100, 100]; -100 "should result in a ban"
LLAMA_CPP_PYTHON_BAN = -1e30  # added to a float32 logit: its probability is 0 (JSON has no -inf)
SHOWN_CHARS = 60              # a grammar or schema in a notice: its start


def readable(name: str, value: Any) -> str:
    """A setting's value as a notice shows it: the chain as llama.cpp writes it, lists without Python's
    tuple syntax, a grammar or schema by its start."""
    if name == "samplers":
        return ";".join(value)
    if name == "logit_bias":
        return ", ".join(f"{t!r} {b:+g}" if math.isfinite(b) else f"{t!r} banned" for t, b in value)
    if name == "dry_sequence_breakers":
        return ", ".join(json.dumps(b, ensure_ascii=False) for b in value) or "none"
    if isinstance(value, str):
        flat = " ".join(value.split())
        return repr(flat if len(flat) <= SHOWN_CHARS else flat[:SHOWN_CHARS] + "…")
    return str(value)


# The settings of a stage that is off by default, by stage: sent only while it is on (Mirostat's switch,
# `mirostat`, always: a server started with Mirostat on keeps it unless told; the others are off by `samplers`).
_STAGE_OF = {**dict.fromkeys(("dry_multiplier", "dry_base", "dry_allowed_length", "dry_penalty_last_n"), "dry"),
             "xtc_probability": "xtc", "xtc_threshold": "xtc", "typical_p": "typ_p", "top_n_sigma": "top_n_sigma",
             "dynatemp_range": "dynatemp", "dynatemp_exponent": "dynatemp",
             "mirostat_tau": "mirostat", "mirostat_eta": "mirostat"}
STAGE_SETTINGS = tuple(_STAGE_OF)


def stage_on(name: str, s: SamplerSettings) -> bool:
    """Whether the stage a setting of STAGE_SETTINGS belongs to is on."""
    return {"dry": is_on("dry", s), "xtc": is_on("xtc", s), "typ_p": is_on("typ_p", s),
            "top_n_sigma": is_on("top_n_sigma", s), "dynatemp": s.dynatemp_range > 0,
            "mirostat": s.mirostat != 0}[_STAGE_OF[name]]


# The chain stage a setting belongs to: it matters only while the stage is in the chain applied.
_IN_STAGE = {"top_k": "top_k", "min_p": "min_p", "repeat_penalty": "penalties", "repeat_last_n": "penalties",
             "typical_p": "typ_p", "top_n_sigma": "top_n_sigma", "dynatemp_range": "temperature",
             "dynatemp_exponent": "temperature", **{name: "dry" for name in ("dry_multiplier", "dry_base",
             "dry_allowed_length", "dry_penalty_last_n", "dry_sequence_breakers")},
             "xtc_probability": "xtc", "xtc_threshold": "xtc"}


def matters(name: str, s: SamplerSettings) -> bool:
    """Whether a setting changes the answer under these settings: a stage's own settings matter when the
    stage is on and in the chain (and, for its secondary settings, differ from the default)."""
    if name in _IN_STAGE and _IN_STAGE[name] not in s.chain():
        return False
    default = SamplerSettings()
    penalties = s.repeat_penalty != 1 or s.frequency_penalty != 0 or s.presence_penalty != 0
    stage = {"dry": is_on("dry", s), "xtc": is_on("xtc", s), "dynatemp": s.dynatemp_range > 0,
             "mirostat": s.mirostat != 0}
    switch = {"dry_multiplier": "dry", "xtc_probability": "xtc", "dynatemp_range": "dynatemp", "mirostat": "mirostat"}
    if name in switch:
        return stage[switch[name]]
    for prefix in stage:  # a secondary setting of a stage
        if name.startswith(prefix + "_"):
            return stage[prefix] and getattr(s, name) != getattr(default, name)
    return {"top_k": s.top_k > 0, "min_p": s.min_p > 0, "repeat_penalty": s.repeat_penalty != 1,
            "repeat_last_n": penalties, "min_keep": s.min_keep > 1, "typical_p": s.typical_p < 1,
            "top_n_sigma": s.top_n_sigma > 0, "logit_bias": bool(s.logit_bias), "grammar": bool(s.grammar),
            "json_schema": bool(s.json_schema), "temperature": s.temperature not in (0, 1)}.get(name, True)


# The stages every server has; the others are reported through their own settings when a server lacks them.
CLASSIC = ("penalties", "top_k", "top_p", "min_p", "temperature")


def _changes_something(name: str, s: SamplerSettings) -> bool:
    """A classic stage that changes the distribution (temperature 0 is greedy: its place does not matter)."""
    return {"penalties": s.repeat_penalty != 1 or s.frequency_penalty != 0 or s.presence_penalty != 0,
            "top_k": s.top_k > 0, "top_p": s.top_p < 1, "min_p": s.min_p > 0,
            "temperature": s.temperature not in (0, 1) or s.dynatemp_range > 0}[name]


def chain_differs(s: SamplerSettings, fixed: tuple[str, ...]) -> bool:
    """Whether a server that always applies the chain `fixed` changes the answer by its order, or by
    applying a stage the settings' chain leaves out."""
    if s.mirostat:
        return False  # Mirostat replaces the chain, on every server that has it
    wanted = [n for n in s.samplers if n in CLASSIC and _changes_something(n, s)]
    return wanted != [n for n in fixed if n in CLASSIC and _changes_something(n, s)]


# Each chain stage's own setting: a server that lacks it does not apply the stage.
_STAGE_SETTING = {"penalties": "frequency_penalty", "dry": "dry_multiplier", "top_n_sigma": "top_n_sigma",
                  "top_k": "top_k", "typ_p": "typical_p", "top_p": "top_p", "min_p": "min_p", "xtc": "xtc_probability",
                  "temperature": "temperature"}


def applied_stages(unsupported: Mapping[str, str]) -> list[str]:
    """The chain stages a server applies (capabilities()["samplers"])."""
    return [name for name in CHAIN_STAGES if _STAGE_SETTING[name] not in unsupported]


def json_schema_object(text: str) -> dict[str, Any]:
    """The JSON schema setting as the object a server takes; InvalidSettingsError if it is not one."""
    try:
        schema = json.loads(text)
    except ValueError as exc:
        raise InvalidSettingsError("the JSON schema is not valid JSON: {error}", error=str(exc)) from None
    except RecursionError:
        raise InvalidSettingsError("the JSON schema is nested too deeply") from None
    if not isinstance(schema, dict):
        raise InvalidSettingsError("the JSON schema must be a JSON object")
    return schema


def _ids_only(s: SamplerSettings, ban: float, server: str) -> tuple[dict[str, float], str | None]:
    """OpenAI's form, {"token id": bias} in [-100, 100]; and why the texts were not sent, if any."""
    ids = {str(t): max(OPENAI_BAN, min(-OPENAI_BAN, b)) if math.isfinite(b) else ban
           for t, b in s.logit_bias if isinstance(t, int)}
    texts = [t for t, _ in s.logit_bias if isinstance(t, str)]
    why = f"{server} takes token ids, not texts: {', '.join(map(repr, texts))} not sent" if texts else None
    return ids, why


def extra_params(kind: str, s: SamplerSettings, chat: bool) -> tuple[dict[str, Any], dict[str, str]]:
    """The parameters beyond plain renames (SERVER_KINDS' params) for a server of this kind, and the
    settings that could not be sent at all or in part, with the reason."""
    params: dict[str, Any] = {}
    missing: dict[str, str] = {}
    schema = json_schema_object(s.json_schema) if s.json_schema else None
    if kind == "llama-server":
        if s.logit_bias:
            params["logit_bias"] = [[t, b if math.isfinite(b) else False] for t, b in s.logit_bias]
        if s.dry_sequence_breakers and is_on("dry", s):
            params["dry_sequence_breakers"] = list(s.dry_sequence_breakers)
        elif is_on("dry", s):
            missing["dry_sequence_breakers"] = "llama-server refuses an empty list (it keeps its default breakers)"
        if s.grammar:
            params["grammar"] = s.grammar
        if schema is not None:
            params["json_schema"] = schema
    elif kind == "llama-cpp-python":
        texts = [t for t, _ in s.logit_bias if isinstance(t, str)]
        if s.logit_bias and len(texts) == len(s.logit_bias):  # its "tokens" mode takes texts, all or none
            params["logit_bias"] = {t: b if math.isfinite(b) else LLAMA_CPP_PYTHON_BAN for t, b in s.logit_bias}
            params["logit_bias_type"] = "tokens"
        elif s.logit_bias:
            params["logit_bias"] = {str(t): b if math.isfinite(b) else LLAMA_CPP_PYTHON_BAN
                                    for t, b in s.logit_bias if isinstance(t, int)}
            if texts:
                missing["logit_bias"] = ("llama-cpp-python's server takes token ids or texts in one request, not "
                                         f"both: {', '.join(map(repr, texts))} not sent")
        if s.grammar:
            params["grammar"] = s.grammar
        if schema is not None and chat:
            params["response_format"] = {"type": "json_object", "schema": schema}
        elif schema is not None:
            missing["json_schema"] = "llama-cpp-python's server takes a JSON schema on the chat endpoint only (use --chat)"
        if s.mirostat and s.temperature not in (0, 1):
            missing["temperature"] = "llama-cpp-python's server applies Mirostat without the temperature"
    else:  # vLLM and plain OpenAI
        name = "vLLM" if kind == "vllm" else "the OpenAI API"
        if s.logit_bias:
            params["logit_bias"], why = _ids_only(s, OPENAI_BAN, name)
            if why:
                missing["logit_bias"] = why
        if schema is not None and (chat or kind == "vllm"):
            params["response_format"] = {"type": "json_schema", "json_schema": {"name": "schema", "schema": schema}}
        elif schema is not None:
            missing["json_schema"] = "OpenAI's completions endpoint takes no JSON schema (use --chat)"
    return params, {k: v for k, v in missing.items() if matters(k, s)}


def not_applied(unsupported: Mapping[str, str], fixed_order: str | None, s: SamplerSettings) -> dict[str, str]:
    """The settings a server ignores (`unsupported`) that would change the answer. The chain's order
    counts only where the server's own is known (`fixed_order`) and differs."""
    out = {name: why for name, why in unsupported.items() if name != "samplers" and matters(name, s)}
    if "samplers" in unsupported and fixed_order is not None and chain_differs(s, LEGACY_ORDERS[fixed_order]):
        out["samplers"] = unsupported["samplers"]
    return out
