"""What the engine records about each generated token, and the public trace format.

A StepRecord is everything the inspector needs to explain one token: the raw distribution (the top
RAW_TOP_N logits plus the log-sum-exp of all of them, so any sampler setting can be replayed on the
stored head without the model), each sampler stage's survivors, the final distribution, and timing.

Two encodings:
- `step_to_json` / `result_to_json`: the CLI's JSON Lines (`logitscope generate --json`), documented in
  the README, versioned by TRACE_SCHEMA_VERSION.
- `pack_step` / `unpack_step`: a compact binary form for storage (about 1.5 KB a step).
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from logitscope import TRACE_SCHEMA_VERSION

RAW_TOP_N = 128     # raw logits kept per step (the head of the distribution)
STAGE_TOP_K = 8     # candidates kept per sampler stage
FINAL_TOP_K = 16    # candidates kept of the final distribution


@dataclass
class StageRecord:
    """One sampler stage: how many candidates went in and survived, and the mass they kept."""

    name: str
    n_in: int
    n_out: int
    mass_kept: float          # probability mass (under the stage's input distribution) of the survivors
    top_ids: np.ndarray       # int32, the best survivors, best first
    top_probs: np.ndarray     # float32, their probabilities if sampling stopped after this stage


@dataclass
class StepRecord:
    i: int
    token: int
    piece: bytes              # the token's bytes (a CJK character may span two tokens)
    text: str                 # what this step adds to the visible text (may be "" mid-character)
    raw_ids: np.ndarray       # int32 [<= RAW_TOP_N], best first
    raw_logits: np.ndarray    # float32, untouched logits of raw_ids
    raw_lse: float            # log-sum-exp over the whole vocabulary
    p_raw: float              # chosen token's probability before any sampler stage
    rank_raw: int             # its rank (0 = most likely) in the raw distribution
    entropy_raw: float        # nats, whole vocabulary
    stages: list[StageRecord]
    final_ids: np.ndarray     # int32, the final distribution's head, best first
    final_probs: np.ndarray   # float32
    n_final: int              # how many candidates the final draw was made from
    p: float                  # chosen token's probability in the final distribution
    rank: int                 # and its rank there
    entropy: float            # nats, final distribution
    latency_s: float          # time since the previous token was chosen (includes the forward pass)
    kv_used: int              # KV cells holding the context this token was predicted from

    @property
    def raw_probs(self) -> np.ndarray:
        return np.exp(self.raw_logits.astype(np.float64) - self.raw_lse).astype(np.float32)


@dataclass
class Timings:
    load_s: float = 0.0
    n_prompt: int = 0          # prompt tokens in the context
    n_prompt_eval: int = 0     # of those, evaluated now (the rest came from the KV cache)
    prompt_s: float = 0.0
    ttft_s: float = 0.0
    gen_s: float = 0.0
    n_gen: int = 0

    @property
    def prompt_tps(self) -> float:
        return self.n_prompt_eval / self.prompt_s if self.prompt_s > 0 else 0.0

    @property
    def gen_tps(self) -> float:
        return self.n_gen / self.gen_s if self.gen_s > 0 else 0.0


@dataclass
class KvInfo:
    n_ctx: int
    used_cells: int
    bytes_per_token: float
    allocated_bytes: int


@dataclass
class GenerationResult:
    text: str
    tokens: list[int]
    finish_reason: str          # "stop" | "length" | "cancelled"
    timings: Timings
    kv: KvInfo
    settings: dict[str, Any]    # sampler settings actually used, seed included
    prompt_tokens: list[int]
    notices: list[str] = field(default_factory=list)
    trimmed_messages: int = 0


def piece_text(piece: bytes) -> str:
    """A token's bytes, readable: valid UTF-8 as is, other bytes as <0xNN>."""
    try:
        return piece.decode("utf-8")
    except UnicodeDecodeError:
        return "".join(chr(b) if b < 0x80 else f"<0x{b:02X}>" for b in piece)


def _entries(ids: np.ndarray, probs: np.ndarray, vocab: Sequence[bytes]) -> list[dict[str, Any]]:
    return [{"token": int(t), "text": piece_text(vocab[int(t)]), "p": round(float(p), 6)}
            for t, p in zip(ids, probs, strict=True)]


def step_to_json(step: StepRecord, vocab: Sequence[bytes], top: int = 10) -> dict[str, Any]:
    """`vocab`: every token's bytes, by id (from the engine once per model)."""
    return {
        "type": "step",
        "i": step.i,
        "token": step.token,
        "text": step.text,
        "piece": piece_text(step.piece),
        "bytes": step.piece.hex(),
        "p": round(step.p, 6),
        "p_raw": round(step.p_raw, 6),
        "rank": step.rank,
        "rank_raw": step.rank_raw,
        "entropy": round(step.entropy_raw, 5),
        "entropy_final": round(step.entropy, 5),
        "top_raw": _entries(step.raw_ids[:top], step.raw_probs[:top], vocab),
        "top_final": _entries(step.final_ids[:top], step.final_probs[:top], vocab),
        "stages": [{"name": s.name, "n_in": s.n_in, "n_out": s.n_out, "mass_kept": round(s.mass_kept, 6)}
                   for s in step.stages],
        "latency_ms": round(step.latency_s * 1000, 3),
        "kv_used": step.kv_used,
    }


def result_to_json(result: GenerationResult) -> dict[str, Any]:
    t = result.timings
    return {
        "type": "done",
        "schema": TRACE_SCHEMA_VERSION,
        "text": result.text,
        "tokens": result.tokens,
        "finish_reason": result.finish_reason,
        "n_prompt": t.n_prompt,
        "n_prompt_eval": t.n_prompt_eval,
        "n_gen": t.n_gen,
        "prompt_tps": round(t.prompt_tps, 2),
        "gen_tps": round(t.gen_tps, 2),
        "ttft_s": round(t.ttft_s, 4),
        "load_s": round(t.load_s, 4),
        "kv": {"n_ctx": result.kv.n_ctx, "used_cells": result.kv.used_cells,
               "bytes_per_token": result.kv.bytes_per_token, "allocated_bytes": result.kv.allocated_bytes},
        "settings": result.settings,
        "notices": result.notices,
    }


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


# -- compact binary form -------------------------------------------------------------------------

_HEAD = struct.Struct("<iiIfffifiiffffi")
_STAGE_NAMES = ("penalties", "top_k", "top_p", "min_p", "temperature")


def pack_step(step: StepRecord) -> bytes:
    """Binary form for storage. Pieces are not repeated per step (the store keeps a vocabulary)."""
    head = _HEAD.pack(step.i, step.token, len(step.raw_ids), step.raw_lse, step.p_raw, step.entropy_raw,
                      step.rank_raw, step.p, step.rank, step.n_final, step.entropy, step.latency_s,
                      0.0, 0.0, step.kv_used)
    parts = [head, struct.pack("<H", len(step.piece)), step.piece, struct.pack("<H", len(step.text.encode())),
             step.text.encode(), step.raw_ids.astype("<i4").tobytes(), step.raw_logits.astype("<f4").tobytes(),
             struct.pack("<B", len(step.stages))]
    for s in step.stages:
        parts.append(struct.pack("<BIIfB", _STAGE_NAMES.index(s.name), s.n_in, s.n_out, s.mass_kept, len(s.top_ids)))
        parts += [s.top_ids.astype("<i4").tobytes(), s.top_probs.astype("<f4").tobytes()]
    parts += [struct.pack("<B", len(step.final_ids)), step.final_ids.astype("<i4").tobytes(),
              step.final_probs.astype("<f4").tobytes()]
    return b"".join(parts)


def unpack_step(data: bytes) -> StepRecord:
    pos = 0

    def take(fmt: str) -> tuple[Any, ...]:
        nonlocal pos
        values = struct.unpack_from(fmt, data, pos)
        pos += struct.calcsize(fmt)
        return values

    def arr(dtype: str, n: int) -> np.ndarray:
        nonlocal pos
        out = np.frombuffer(data, dtype=dtype, count=n, offset=pos).copy()
        pos += 4 * n
        return out

    (i, token, n_raw, raw_lse, p_raw, entropy_raw, rank_raw, p, rank, n_final, entropy, latency,
     _r1, _r2, kv_used) = take(_HEAD.format)
    (n_piece,) = take("<H")
    piece = data[pos:pos + n_piece]
    pos += n_piece
    (n_text,) = take("<H")
    text = data[pos:pos + n_text].decode()
    pos += n_text
    raw_ids, raw_logits = arr("<i4", n_raw), arr("<f4", n_raw)
    stages = []
    for _ in range(take("<B")[0]):
        name_i, n_in, n_out, mass, k = take("<BIIfB")
        stages.append(StageRecord(_STAGE_NAMES[name_i], n_in, n_out, mass, arr("<i4", k), arr("<f4", k)))
    (k,) = take("<B")
    final_ids, final_probs = arr("<i4", k), arr("<f4", k)
    return StepRecord(i, token, bytes(piece), text, raw_ids, raw_logits, raw_lse, p_raw, rank_raw, entropy_raw,
                      stages, final_ids, final_probs, n_final, p, rank, entropy, latency, kv_used)
