"""What the engine records about each generated token, and the public trace format.

A StepRecord is everything the inspector needs to explain one token: the raw distribution (the top
RAW_TOP_N logits plus the log-sum-exp of all of them, so any sampler setting can be replayed on the
stored head without the model), each sampler stage's survivors, the final distribution, and timing.

A remote engine (logitscope.host.remote) fills the same record with what its server reports and
marks the rest unknown: NaN for a number, -1 for a count, rank or id, no stages. Its candidates may
have no ids, so such a step carries their bytes itself (`raw_pieces`, `final_pieces`).

Two encodings:
- `step_to_json` / `result_to_json`: the CLI's JSON Lines (`logitscope generate --json`), documented in
  docs/trace_schema.md, versioned by TRACE_SCHEMA_VERSION; older versions are read through
  `trace_schema.migrate_trace_line`.
- `pack_step` / `unpack_step`: a compact binary form (about 1.5 KB a step; probabilities, logits and
  timings as float32), for storage and for the steps the engine process sends to its caller
  (host/server.py).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import orjson

from logitscope import TRACE_SCHEMA_VERSION


class Vocab(Protocol):
    """Every token's bytes by id: the engine's list, or the store's PieceVocab."""

    def __getitem__(self, token: int, /) -> bytes: ...

    def __len__(self) -> int: ...


# The sampler's stages, llama.cpp's names (llama-server takes them too). The stored form of a step keeps
# each stage as its index here: append new stages, never reorder.
STAGE_NAMES = ("penalties", "top_k", "top_p", "min_p", "temperature",
               "dry", "xtc", "typ_p", "top_n_sigma", "mirostat", "mirostat_v2", "logit_bias", "grammar")

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
    # What a stage knows beyond its survivors (documented keys, all floats): "mu" (Mirostat's target surprise
    # used at this step), "mu_next" (after its update from the chosen token), "n_vocab" (Mirostat 1: the
    # vocabulary size its estimate uses), "temperature" (dynamic temperature's effective value), "triggered"
    # (XTC: 1 if its draw said cut this step; it removes nothing when fewer than two tokens reach the
    # threshold), "penalized" (DRY: candidates penalized), "allowed" (grammar: tokens it allowed).
    info: dict[str, float] = field(default_factory=dict)
    # int32, the candidates this stage removed among its input's STAGE_TOP_K best, best first (cheap to record:
    # top-k 40 removes none of them, XTC its cut), and for the grammar every token of the raw head (RAW_TOP_N)
    # it masked, so the head can be replayed and marked.
    removed_ids: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int32))


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
    # The candidates' bytes, aligned with raw_ids / final_ids, when they cannot be looked up by id in
    # the engine's vocabulary (a remote server); None for the local engine.
    raw_pieces: list[bytes] | None = None
    final_pieces: list[bytes] | None = None
    # Schema 3: the token was a speculative draft the model accepted (it came out of the verification batch
    # of an earlier step, without an evaluation of its own). Its sampler trace is complete all the same.
    drafted: bool = False
    # Within schema 3: the token is part of a reasoning model's thinking block (protocol/reasoning.py), the
    # tags included.
    thinking: bool = False

    @property
    def raw_probs(self) -> np.ndarray:
        return np.exp(self.raw_logits.astype(np.float64) - self.raw_lse).astype(np.float32)


@dataclass
class Timings:
    """A remote engine marks what its server does not report: -1 for a count, NaN for seconds."""

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
    """-1 (NaN for bytes_per_token) where a remote server does not tell."""

    n_ctx: int
    used_cells: int
    bytes_per_token: float
    allocated_bytes: int


@dataclass
class SpeculativeStats:
    """Speculative decoding of one generation: `draft` is "lookup" or the draft model's file name."""

    draft: str
    draft_max: int
    drafted: int = 0        # draft tokens verified
    accepted: int = 0       # of those, accepted (each a step without an evaluation of its own)
    evaluations: int = 0    # model evaluations that gave a step its logits (the prompt's included)
    n_tokens: int = 0       # steps generated

    @property
    def acceptance(self) -> float:
        return self.accepted / self.drafted if self.drafted else 0.0

    @property
    def tokens_per_evaluation(self) -> float:
        return self.n_tokens / self.evaluations if self.evaluations else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"draft": self.draft, "draft_max": self.draft_max, "drafted": self.drafted, "accepted": self.accepted,
                "evaluations": self.evaluations, "acceptance": round(self.acceptance, 4),
                "tokens_per_evaluation": round(self.tokens_per_evaluation, 4)}


@dataclass
class GenerationResult:
    text: str
    tokens: list[int]
    finish_reason: str          # "stop" | "length" | "cancelled" | "error" (a remote stream broke off)
    timings: Timings
    kv: KvInfo
    settings: dict[str, Any]    # sampler settings actually used, seed included
    prompt_tokens: list[int]
    notices: list[str] = field(default_factory=list)
    trimmed_messages: int = 0
    speculative: SpeculativeStats | None = None   # None: no drafting
    steering: dict[str, Any] | None = None        # None: unsteered; else protocol.steering.steering_record
    reasoning: dict[str, Any] | None = None       # None: no thinking block; else protocol.reasoning's record
    threads: dict[str, Any] | None = None         # None: not known (a remote server); else system.thread_tuner's


def piece_text(piece: bytes) -> str:
    """A token's bytes, readable: valid UTF-8 as is, other bytes as <0xNN>."""
    try:
        return piece.decode("utf-8")
    except UnicodeDecodeError:
        return "".join(chr(b) if b < 0x80 else f"<0x{b:02X}>" for b in piece)


def _known(n: int) -> int | None:
    """A count, rank or id; negative means the engine could not tell (JSON null)."""
    return int(n) if n >= 0 else None


def _number(x: float, digits: int) -> float | None:
    """A measurement; NaN means the engine could not tell (JSON null)."""
    return round(x, digits) if math.isfinite(x) else None


def _entries(ids: np.ndarray, probs: np.ndarray, pieces: Sequence[bytes] | None,
             vocab: Vocab) -> list[dict[str, Any]] | None:
    if len(ids) == 0:  # no distribution reported (a remote server without these probabilities)
        return None
    # Python numbers in one call each: iterating numpy scalars one by one took half of a step's JSON time
    id_list, p_list = np.asarray(ids).tolist(), np.asarray(probs).tolist()
    if pieces is None:
        pieces = [vocab[t] for t in id_list]
    return [{"token": _known(t), "text": piece_text(piece), "p": _number(p, 6)}
            for t, p, piece in zip(id_list, p_list, pieces, strict=True)]


def _stage_json(s: StageRecord, vocab: Vocab, top: int) -> dict[str, Any]:
    return {"name": s.name, "n_in": s.n_in, "n_out": s.n_out, "mass_kept": round(s.mass_kept, 6),
            "info": {key: _number(value, 6) for key, value in s.info.items()},
            "removed": [{"token": t, "text": piece_text(vocab[t])} for t in np.asarray(s.removed_ids[:top]).tolist()]}


def step_to_json(step: StepRecord, vocab: Vocab, top: int = 10) -> dict[str, Any]:
    """`vocab`: every token's bytes, by id (from the engine once per model; unused for a step that
    carries its candidates' bytes). What the engine could not tell is null, never a made-up value."""
    raw_pieces = step.raw_pieces[:top] if step.raw_pieces is not None else None
    final_pieces = step.final_pieces[:top] if step.final_pieces is not None else None
    return {
        "type": "step",
        "i": step.i,
        "token": _known(step.token),
        "text": step.text,
        "piece": piece_text(step.piece),
        "bytes": step.piece.hex(),
        "p": _number(step.p, 6),
        "p_raw": _number(step.p_raw, 6),
        "rank": _known(step.rank),
        "rank_raw": _known(step.rank_raw),
        "entropy": _number(step.entropy_raw, 5),
        "entropy_final": _number(step.entropy, 5),
        "top_raw": _entries(step.raw_ids[:top], step.raw_probs[:top], raw_pieces, vocab),
        "top_final": _entries(step.final_ids[:top], step.final_probs[:top], final_pieces, vocab),
        "stages": [_stage_json(s, vocab, top) for s in step.stages] if step.stages else None,
        "latency_ms": round(step.latency_s * 1000, 3),
        "kv_used": _known(step.kv_used),
        "drafted": step.drafted,
        "thinking": step.thinking,
    }


def result_to_json(result: GenerationResult) -> dict[str, Any]:
    t = result.timings
    return {
        "type": "done",
        "schema": TRACE_SCHEMA_VERSION,
        "text": result.text,
        "tokens": [_known(token) for token in result.tokens],
        "finish_reason": result.finish_reason,
        "n_prompt": _known(t.n_prompt),
        "n_prompt_eval": _known(t.n_prompt_eval),
        "n_gen": t.n_gen,
        "prompt_tps": _number(t.prompt_tps, 2) if t.n_prompt_eval >= 0 and math.isfinite(t.prompt_s) else None,
        "gen_tps": _number(t.gen_tps, 2) if math.isfinite(t.gen_s) else None,  # a server's 1e-320 ms: inf
        "ttft_s": _number(t.ttft_s, 4),
        "load_s": _number(t.load_s, 4),
        "kv": {"n_ctx": _known(result.kv.n_ctx), "used_cells": _known(result.kv.used_cells),
               "bytes_per_token": result.kv.bytes_per_token if math.isfinite(result.kv.bytes_per_token) else None,
               "allocated_bytes": _known(result.kv.allocated_bytes)},
        "settings": result.settings,
        "notices": result.notices,
        "speculative": result.speculative.to_json() if result.speculative is not None else None,
        "steering": result.steering,  # optional (null: unsteered; absent in traces written before)
        "reasoning": result.reasoning,  # optional (null: no thinking block; absent in traces written before)
        "threads": result.threads,  # optional (null: not known; absent in traces written before)
    }


# keys as the standard library writes them (a logit bias's token ids), numpy's numbers as numbers
_JSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY


def dumps(obj: dict[str, Any]) -> str:
    """One JSON line's text, UTF-8 as is. Strict JSON: a NaN or an infinity that slipped through is written
    null, as _number writes what the engine could not tell (never the `NaN` token no JSON reader accepts);
    text no UTF-8 can carry (a lone surrogate) raises ValueError, as writing it would.

    By orjson: ~4x less time than the standard library's encoder, measured on the demo model's step lines
    as the engine writes them between two decodes (79 -> 15 us a step): the JSON stream's own cost."""
    try:
        return orjson.dumps(obj, option=_JSON_OPTIONS).decode("utf-8")
    except orjson.JSONEncodeError as exc:
        raise ValueError(str(exc)) from None


# -- compact binary form -------------------------------------------------------------------------

_HEAD = struct.Struct("<iiIfffifiiffffi")
# Optional tails after the final distribution, each a tag byte then its data, in this order when both
# are there (a record written before a tail existed ends before it, and reads as before):
_PIECES_TAIL = b"P"   # the candidates' own bytes (a remote step)
_STAGES_TAIL = b"S"   # schema 2: each stage's info and removed_ids
_DRAFTED_TAIL = b"D"  # schema 3: the step was an accepted draft (no data; absent: it was not)
_THINKING_TAIL = b"T"  # within schema 3: the step is in a thinking block (no data; absent: it is not)
_INFO_KEY = 255       # the longest info key, in UTF-8 bytes
_U16, _STAGE, _F64 = struct.Struct("<H"), struct.Struct("<BIIfB"), struct.Struct("<d")
_I4, _F4 = np.dtype("<i4"), np.dtype("<f4")


def pack_step(step: StepRecord) -> bytes:
    """Binary form for storage. Pieces are not repeated per step (the store keeps a vocabulary)."""
    text = step.text.encode()
    parts = [_HEAD.pack(step.i, step.token, len(step.raw_ids), step.raw_lse, step.p_raw, step.entropy_raw,
                        step.rank_raw, step.p, step.rank, step.n_final, step.entropy, step.latency_s,
                        0.0, 0.0, step.kv_used),
             _U16.pack(len(step.piece)), step.piece, _U16.pack(len(text)), text,
             _raw(step.raw_ids, _I4), _raw(step.raw_logits, _F4), bytes((len(step.stages),))]
    for s in step.stages:
        parts += [_STAGE.pack(STAGE_NAMES.index(s.name), s.n_in, s.n_out, s.mass_kept, len(s.top_ids)),
                  _raw(s.top_ids, _I4), _raw(s.top_probs, _F4)]
    parts += [bytes((len(step.final_ids),)), _raw(step.final_ids, _I4), _raw(step.final_probs, _F4)]
    if step.raw_pieces is not None or step.final_pieces is not None:
        # An optional tail (older records end before it): the candidates' own bytes.
        parts.append(_PIECES_TAIL)
        for pieces in (step.raw_pieces or [], step.final_pieces or []):
            parts.append(bytes((len(pieces),)))
            parts += [_U16.pack(len(piece)) + piece for piece in pieces]
    if any(s.info or len(s.removed_ids) for s in step.stages):
        parts.append(_STAGES_TAIL)
        for s in step.stages:
            parts.append(bytes((len(s.info),)))
            for key, value in s.info.items():
                name = key.encode()[:_INFO_KEY]
                parts += [bytes((len(name),)), name, _F64.pack(value)]  # Mirostat's mu: exact
            removed = s.removed_ids[:0xFFFF]
            parts += [_U16.pack(len(removed)), _raw(removed, _I4)]
    if step.drafted:
        parts.append(_DRAFTED_TAIL)
    if step.thinking:
        parts.append(_THINKING_TAIL)
    return b"".join(parts)


def _raw(values: np.ndarray, dtype: np.dtype[Any]) -> bytes:
    """The array's bytes in `dtype` (no conversion, no copy, when it is already that)."""
    return values.tobytes() if values.dtype == dtype else values.astype(dtype).tobytes()


def unpack_step(data: bytes) -> StepRecord:
    """The step `pack_step` wrote. Its arrays are read-only views on `data` (a step is never changed in
    place): ~12 µs a step instead of ~30 with copies and a closure per field, which counts for the window,
    which unpacks every step the engine sends. Garbled data raises struct.error, ValueError or IndexError."""
    frombuffer = np.frombuffer
    (i, token, n_raw, raw_lse, p_raw, entropy_raw, rank_raw, p, rank, n_final, entropy, latency,
     _r1, _r2, kv_used) = _HEAD.unpack_from(data, 0)
    pos = _HEAD.size
    (n,) = _U16.unpack_from(data, pos)
    piece = bytes(data[pos + 2:pos + 2 + n])
    pos += 2 + n
    (n,) = _U16.unpack_from(data, pos)
    text = bytes(data[pos + 2:pos + 2 + n]).decode()
    pos += 2 + n
    raw_ids = frombuffer(data, _I4, n_raw, pos)
    raw_logits = frombuffer(data, _F4, n_raw, pos + 4 * n_raw)
    pos += 8 * n_raw
    stages = []
    n_stages, pos = data[pos], pos + 1
    for _ in range(n_stages):
        name_i, n_in, n_out, mass, k = _STAGE.unpack_from(data, pos)
        pos += _STAGE.size
        stages.append(StageRecord(STAGE_NAMES[name_i], n_in, n_out, mass, frombuffer(data, _I4, k, pos),
                                  frombuffer(data, _F4, k, pos + 4 * k)))
        pos += 8 * k
    k, pos = data[pos], pos + 1
    final_ids, final_probs = frombuffer(data, _I4, k, pos), frombuffer(data, _F4, k, pos + 4 * k)
    pos += 8 * k
    raw_pieces = final_pieces = None
    if data[pos:pos + 1] == _PIECES_TAIL:
        raw_pieces, pos = _unpack_pieces(data, pos + 1)
        final_pieces, pos = _unpack_pieces(data, pos)
    if data[pos:pos + 1] == _STAGES_TAIL:
        pos += 1
        for stage in stages:
            n_info, pos = data[pos], pos + 1
            for _ in range(n_info):
                n = data[pos]
                key = bytes(data[pos + 1:pos + 1 + n]).decode(errors="replace")
                (stage.info[key],) = _F64.unpack_from(data, pos + 1 + n)
                pos += 1 + n + _F64.size
            (n,) = _U16.unpack_from(data, pos)
            stage.removed_ids = frombuffer(data, _I4, n, pos + 2)
            pos += 2 + 4 * n
    drafted = data[pos:pos + 1] == _DRAFTED_TAIL
    pos += drafted
    thinking = data[pos:pos + 1] == _THINKING_TAIL
    return StepRecord(i, token, piece, text, raw_ids, raw_logits, raw_lse, p_raw, rank_raw, entropy_raw,
                      stages, final_ids, final_probs, n_final, p, rank, entropy, latency, kv_used,
                      raw_pieces, final_pieces, drafted, thinking)


def _unpack_pieces(data: bytes, pos: int) -> tuple[list[bytes], int]:
    pieces = []
    n_pieces, pos = data[pos], pos + 1
    for _ in range(n_pieces):
        (n,) = _U16.unpack_from(data, pos)
        pieces.append(bytes(data[pos + 2:pos + 2 + n]))
        pos += 2 + n
    return pieces, pos
