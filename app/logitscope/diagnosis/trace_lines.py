"""A `generate --json` trace (JSON Lines: "step" lines, then "done") read back into StepRecords and a
GenerationResult, so that `logitscope explain` diagnoses it like a stored answer.

The JSON keeps each step's raw head as probabilities (`top_raw`, at least 10 candidates with their texts), not
logits: they come back as logits over a log-sum-exp of 0, which gives the same probabilities, and the
candidates' bytes travel with the step (`raw_pieces`), as a remote step's do. Several traces one after another
(`cat a.jsonl b.jsonl`) are several answers; a trace without its "done" line (the generation broke off) is an
answer that did not finish. A `generate --explain --json` diagnosis line is skipped: it is worked out again.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from logitscope.base.errors import StoreError
from logitscope.protocol.trace import GenerationResult, KvInfo, StageRecord, StepRecord, Timings
from logitscope.protocol.trace_schema import migrate_trace_line

DIAGNOSIS_LINE = "diagnosis"   # the "type" of `generate --explain --json`'s last line
_TINY_P = 1e-12                # a probability rounded to 0 in the JSON: still a finite logit


@dataclass
class TraceAnswer:
    steps: list[StepRecord]
    result: GenerationResult | None   # None: no "done" line (the answer did not finish)
    settings: dict[str, Any]


def looks_like_trace(text: str) -> bool:
    """Whether `text` reads as trace lines: its first line is an object with a "type" (even a damaged one, for
    the reader to report by line); a history export is one JSON object that starts with its "format"."""
    first = text.lstrip("\ufeff \t\r\n").split("\n", 1)[0].strip()
    if first.replace(" ", "").startswith('{"type"'):
        return True
    try:
        line = json.loads(first)
    except (ValueError, RecursionError):
        return False
    return isinstance(line, dict) and "type" in line


def read_trace_lines(text: str, source: str) -> list[TraceAnswer]:
    """Every answer in the JSON Lines `text`; StoreError (naming `source` and the line) on anything else."""
    answers: list[TraceAnswer] = []
    steps: list[StepRecord] = []
    for n, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        if not raw.strip():
            continue
        where = f"{source}, line {n}"
        try:
            line = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            raise StoreError("{where} is not JSON: {exc}", where=where, exc=str(exc)[:80]) from None
        if not isinstance(line, dict) or line.get("type") not in ("step", "done", DIAGNOSIS_LINE):
            raise StoreError("{where} is not a trace line (a \"type\" of \"step\" or \"done\"): this is not the "
                             "output of `logitscope generate --json`", where=where)
        line = migrate_trace_line(line)
        try:
            if line["type"] == "step":
                steps.append(_step(line))
            elif line["type"] == "done":
                result = _result(line, steps)
                answers.append(TraceAnswer(steps, result, dict(result.settings)))
                steps = []
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            raise StoreError("{where} is not a valid trace {kind} line: {exc}", where=where, kind=line["type"],
                             exc=_reason(exc)) from None
    if steps:
        answers.append(TraceAnswer(steps, None, {}))
    if not answers:
        raise StoreError("{source} holds no trace: no \"step\" or \"done\" line", source=source)
    return answers


def _reason(exc: BaseException) -> str:
    return f"no {exc}" if isinstance(exc, KeyError) else str(exc)[:80]


def _count(value: Any) -> int:  # noqa: ANN401 - a JSON value
    """A count, rank or id: null is unknown (-1)."""
    if value is None:
        return -1
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def _float(value: Any) -> float:  # noqa: ANN401 - a JSON value
    """A measurement: null is unknown (NaN)."""
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{value!r} is not a number")
    return float(value)


def _candidates(entries: Sequence[Mapping[str, Any]] | None) -> tuple[np.ndarray, np.ndarray, list[bytes]]:
    """(ids, probabilities, bytes) of a `top_raw` / `top_final` list (null: none reported)."""
    entries = entries or []
    ids = np.array([_count(e["token"]) for e in entries], dtype=np.int32)
    probs = np.array([_float(e["p"]) for e in entries], dtype=np.float64)
    return ids, probs, [str(e["text"]).encode("utf-8", "surrogatepass") for e in entries]


def _step(line: Mapping[str, Any]) -> StepRecord:
    raw_ids, raw_p, raw_pieces = _candidates(line.get("top_raw"))
    final_ids, final_p, final_pieces = _candidates(line.get("top_final"))
    piece = bytes.fromhex(line["bytes"]) if isinstance(line.get("bytes"), str) else str(line["piece"]).encode()
    stages = [StageRecord(str(s["name"]), _count(s.get("n_in")), _count(s.get("n_out")), _float(s.get("mass_kept")),
                          np.empty(0, np.int32), np.empty(0, np.float32)) for s in line.get("stages") or ()]
    return StepRecord(
        i=_count(line["i"]), token=_count(line.get("token")), piece=piece, text=str(line["text"]),
        raw_ids=raw_ids, raw_logits=np.log(np.maximum(raw_p, _TINY_P)).astype(np.float32), raw_lse=0.0,
        p_raw=_float(line.get("p_raw")), rank_raw=_count(line.get("rank_raw")), entropy_raw=_float(line.get("entropy")),
        stages=stages, final_ids=final_ids, final_probs=final_p.astype(np.float32), n_final=len(final_ids),
        p=_float(line.get("p")), rank=_count(line.get("rank")), entropy=_float(line.get("entropy_final")),
        latency_s=_float(line.get("latency_ms")) / 1000, kv_used=_count(line.get("kv_used")),
        raw_pieces=raw_pieces, final_pieces=final_pieces, drafted=bool(line.get("drafted")))


def _result(line: Mapping[str, Any], steps: Sequence[StepRecord]) -> GenerationResult:
    n_gen, gen_tps = _count(line["n_gen"]), _float(line.get("gen_tps"))
    n_eval, prompt_tps = _count(line.get("n_prompt_eval")), _float(line.get("prompt_tps"))
    kv = line.get("kv") or {}
    settings = line.get("settings") or {}
    notices = line.get("notices") or []
    if not isinstance(settings, dict) or not isinstance(notices, list) or not isinstance(kv, dict):
        raise TypeError("settings and kv must be objects and notices a list")
    return GenerationResult(
        text=str(line.get("text", "")), tokens=[s.token for s in steps], finish_reason=str(line["finish_reason"]),
        timings=Timings(load_s=_float(line.get("load_s")), n_prompt=_count(line.get("n_prompt")), n_prompt_eval=n_eval,
                        prompt_s=n_eval / prompt_tps if n_eval >= 0 and prompt_tps > 0 else math.nan,
                        ttft_s=_float(line.get("ttft_s")),
                        gen_s=n_gen / gen_tps if gen_tps > 0 else math.nan if math.isnan(gen_tps) else 0.0,
                        n_gen=n_gen),
        kv=KvInfo(_count(kv.get("n_ctx")), _count(kv.get("used_cells")), _float(kv.get("bytes_per_token")),
                  _count(kv.get("allocated_bytes"))),
        settings=dict(settings), prompt_tokens=[], notices=[str(n) for n in notices])
