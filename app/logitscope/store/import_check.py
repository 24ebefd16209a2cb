"""A history export from outside, read with bounds and checked in full before anything is written.

An export file may come from another machine, a hand edit or someone hostile. Before
`exchange.import_json` writes a single row, this module makes sure that:
- reading is bounded: only a regular file (never a pipe or a device such as /dev/zero, which would be
  read forever), at most MAX_EXPORT_BYTES, parsed without crashing on deep nesting;
- every value can be stored and shown again: integers fit SQLite's 64 bits, times are finite and
  within 1970..3000 (a Markdown export formats them as dates), text holds no unpaired UTF-16
  surrogate (SQLite stores UTF-8, which cannot encode one), free-form values (sampler settings) are
  plain JSON, not nested without end, each trace step is a valid record;
- what is incomplete is said: a trace with missing steps is imported as it is, and the import reports it
  (and so does the answer itself, in its notices), since refusing would lose the rest of the file.

Every problem is a StoreError with one line that says where it is ("conversation 2, message 5: ...").
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import struct
import typing
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from logitscope.base.errors import StoreError
from logitscope.base.messages import Message
from logitscope.base.reading import NotAFileError, TooLargeError, read_bounded
from logitscope.protocol.reasoning import split_by_steps
from logitscope.protocol.trace import KvInfo, StepRecord, Timings, unpack_step
from logitscope.store.records import ROLES

EXPORT_FORMAT = "logitscope-history"
EXPORT_VERSION = 1
STATUSES = ("streaming", "done", "interrupted", "error")

# About 200,000 answer tokens with their traces (2.4 kB each); reading and checking one takes about four
# times its size in memory (measured: 409 MiB for 100 MB).
MAX_EXPORT_BYTES = 512 * 1024 * 1024
INT64 = (-(2**63), 2**63 - 1)          # SQLite's INTEGER
TOKEN_IDS = (0, 2**31 - 1)             # a step record stores token ids as int32
STEP_INDEXES = (0, 2**31 - 1)          # and its index too
TIMES = (0.0, 32_503_680_000.0)        # seconds since 1970, up to the year 3000 (the limit on Windows)
PROBABILITY_SLACK = 1.001              # float32 rounding; anything beyond is a damaged record
MAX_PLAIN_DEPTH = 8                    # free-form values: a sampler's settings are 2 levels deep

_SURROGATE = re.compile("[\ud800-\udfff]")  # json.loads joins valid pairs: any left is unpaired
_TOKEN_KEY = re.compile(r"(?:0|[1-9][0-9]{0,9})")


class CheckedExport(dict[str, Any]):
    """A document that passed `check_export`, as `import_json` will write it (which then does not check
    it again), and `notices`: what to tell the user about it (incomplete traces)."""

    def __init__(self, document: dict[str, Any], notices: list[str]) -> None:
        super().__init__(document)
        self.notices = notices


def load_export(path: str | Path) -> CheckedExport:
    """Read, parse and check the export at `path` (StoreError on any problem)."""
    path = Path(path)
    return check_export(parse_export(read_export_bytes(path), str(path)))


# -- reading, bounded ------------------------------------------------------------------------------

def read_export_bytes(path: Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (default MAX_EXPORT_BYTES). A pipe, a device
    or a folder is refused without reading from it (base/reading.py)."""
    limit = MAX_EXPORT_BYTES if limit is None else limit
    try:
        return read_bounded(path, limit)
    except NotAFileError as exc:
        raise StoreError("cannot import {path}: it is {st_mode}, not a file", path=path, st_mode=exc.kind) from None
    except TooLargeError:
        raise StoreError("{path} is larger than {value} MiB, the most a history import reads: "
                         "export and import fewer conversations at a time ('history export ID')", path=path,
                         value=limit // 2 ** 20) from None
    except OSError as exc:
        raise StoreError("cannot read {path}: {exc}", path=path, exc=exc.strerror or exc) from exc


def parse_export(data: bytes, source: str) -> Any:
    """JSON from bytes; StoreError (never RecursionError or a decoder's traceback) when it is not."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise StoreError("{source} is not a JSON file: it is not UTF-8 text (byte {exc_start})", source=source, exc_start=exc.start) from None
    try:
        return json.loads(text)
    except RecursionError:
        raise StoreError("{source} is nested too deeply to be a Logitscope history export", source=source) from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's guard against quadratic int parsing
            raise StoreError("{source} holds a number with thousands of digits; it is not a "
                             "Logitscope history export", source=source) from None
        raise StoreError("{source} is not a JSON file: {exc}", source=source, exc=exc) from None


# -- checking ----------------------------------------------------------------------------------------

def check_export(document: Any) -> CheckedExport:
    """Check a whole parsed export (see the module's docstring); StoreError names the first problem.

    Returns the document to write: the same, except that each answer whose trace misses steps carries a
    notice saying so."""
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise StoreError("this is not a Logitscope history export (no \"format\": \"logitscope-history\")")
    version = document.get("version")
    if version != EXPORT_VERSION or isinstance(version, bool):
        raise StoreError("this history export has version {version}; this Logitscope reads "
                         "version {EXPORT_VERSION}", version=_short(version), EXPORT_VERSION=EXPORT_VERSION)
    notices: list[str] = []
    conversations = [_conversation(conv, f"conversation {n}", notices)
                     for n, conv in enumerate(checked_field(document, "conversations", list, "the export"), 1)]
    return CheckedExport({**document, "conversations": conversations}, notices)


def _conversation(conv: Any, where: str, notices: list[str]) -> dict[str, Any]:
    if not isinstance(conv, dict):
        raise StoreError("{where} is not an object", where=where)
    _text(conv, "title", where)
    for key in ("created_at", "updated_at", "deleted_at"):
        _time(conv, key, where, optional=key == "deleted_at")
    settings = checked_field(conv, "settings", dict, where, optional=True)   # absent before conversations had any
    if settings is not None:
        _plain(settings, f"{where}, settings", 0)
    messages = checked_field(conv, "messages", list, where)
    return {**conv, "messages": [_message(msg, k, f"{where}, message {k + 1}", notices)
                                 for k, msg in enumerate(messages)]}


def _message(msg: Any, position: int, where: str, notices: list[str]) -> dict[str, Any]:
    if not isinstance(msg, dict):
        raise StoreError("{where} is not an object", where=where)
    parent = _int(msg, "parent", where, INT64, optional=True)
    if parent is not None and not 0 <= parent < position:
        raise StoreError('{where}: "parent" must be the position of an earlier message', where=where)
    role, status = _text(msg, "role", where), _text(msg, "status", where)
    if role not in ROLES or status not in STATUSES:
        raise StoreError("{where}: unknown role {role} or status {status}", where=where, role=_short(role), status=_short(status))
    _text(msg, "content", where)
    _time(msg, "created_at", where)
    _int(msg, "selected_seq", where, INT64)
    _int(msg, "seed", where, INT64, optional=True)
    for key in ("forked_at", "prefix_steps"):   # step indexes; absent from exports made before forks were stored
        _int(msg, key, where, STEP_INDEXES, optional=True)
    for key in ("finish_reason", "error", "thinking"):   # thinking: absent before it was stored apart
        _text(msg, key, where, optional=True)
    _attachments(msg, where)
    for k, notice in enumerate(checked_field(msg, "notices", list, where, optional=True) or [], 1):
        if not isinstance(notice, str):
            raise StoreError("{where}: notice {k} must be str", where=where, k=k)
        _no_surrogate(notice, f"{where}, notice {k}")
    model = checked_field(msg, "model", dict, where, optional=True)
    if model is not None:
        _text(model, "file_name", f"{where}, model")
        _int(model, "size", f"{where}, model", (0, INT64[1]))
        _text(model, "head_sha256", f"{where}, model")
    for key in ("sampler", "steering", "reasoning", "threads"):   # all but the first: absent from older exports
        value = checked_field(msg, key, dict, where, optional=True)
        if value is not None:
            _plain(value, f"{where}, {key}", 0, finite=True)
    for key, cls in (("timings", Timings), ("kv", KvInfo)):
        _record(checked_field(msg, key, dict, where, optional=True), cls, f"{where}, {key}")
    trace = checked_field(msg, "trace", dict, where, optional=True)
    if trace is None:
        return msg
    if model is None:
        raise StoreError("{where}: a trace needs the model that produced it", where=where)
    missing = _missing_steps(msg, _trace(trace, where))
    if missing is None:
        return msg
    notices.append(Message("{where}: the trace has only {missing}; it was imported as it is", where=where, missing=missing))
    note = f"imported with only {missing}"
    old = msg.get("notices") or []
    return msg if note in old else {**msg, "notices": [*old, note]}


# -- traces ------------------------------------------------------------------------------------------

def _trace(trace: dict[str, Any], where: str) -> list[StepRecord]:
    steps = [_step(text, f"{where}, trace step {k}")
             for k, text in enumerate(checked_field(trace, "steps", list, where), 1)]
    seen: set[int] = set()
    for k, step in enumerate(steps, 1):
        if step.i in seen:
            raise StoreError("{where}, trace step {k} repeats step {step_i}", where=where, k=k, step_i=step.i)
        seen.add(step.i)
    for token, text in checked_field(trace, "pieces", dict, where).items():
        if not _TOKEN_KEY.fullmatch(token) or int(token) > TOKEN_IDS[1]:
            raise StoreError("{where}: piece key {token} is not a token id", where=where, token=_short(token))
        _base64(text, f"{where}, piece {token}")
    return steps


def _step(text: Any, where: str) -> StepRecord:
    blob = _base64(text, where)
    try:
        step = unpack_step(blob)
    except (struct.error, ValueError, IndexError) as exc:  # short, garbled or not UTF-8
        raise StoreError("{where} is not a valid step record: {exc}", where=where, exc=exc) from None
    if not STEP_INDEXES[0] <= step.i <= STEP_INDEXES[1]:
        raise StoreError("{where} is not a valid step record: its index is {step_i}", where=where, step_i=step.i)
    for pieces, ids, name in ((step.raw_pieces, step.raw_ids, "raw"), (step.final_pieces, step.final_ids, "final")):
        if pieces and len(pieces) != len(ids):  # the trace export pairs them one to one
            raise StoreError("{where} is not a valid step record: {n_pieces} {name} pieces for "
                             "{n_ids} tokens", where=where, n_pieces=len(pieces), name=name, n_ids=len(ids))
    absurd = _absurd_number(step)
    if absurd:
        raise StoreError("{where} is not a valid step record: {absurd}", where=where, absurd=absurd)
    return step


def _absurd_number(step: StepRecord) -> str | None:
    """What no engine writes: a probability outside [0, 1], an infinite entropy or latency. NaN is
    allowed everywhere (a remote engine's "unknown")."""
    with np.errstate(all="ignore"):  # NaN compares false: allowed
        scalars = np.array([step.p, step.p_raw, *(s.mass_kept for s in step.stages)], np.float64)
        probabilities = np.concatenate([scalars, step.raw_probs, step.final_probs, *(s.top_probs for s in step.stages)])
        if np.any((probabilities < 0) | (probabilities > PROBABILITY_SLACK)):  # one test for the usual case
            return f"a probability out of range ({np.nanmax(np.abs(probabilities)):.3g})"
    for stage in step.stages:  # schema 2's stage tail
        if len(stage.removed_ids) and int(stage.removed_ids.min()) < 0:
            return f"a token id {int(stage.removed_ids.min())} removed by {stage.name}"
        if any(math.isinf(value) for value in stage.info.values()):
            return f"an infinite value in what {stage.name} recorded"
    for name, value in (("entropy", step.entropy_raw), ("final entropy", step.entropy), ("latency", step.latency_s)):
        if math.isinf(value) or value < -1e-3:  # (float rounding may give -0.0000001)
            return f"its {name} is {value}"
    return None


@dataclass(frozen=True)
class _MissingSteps:
    present: int
    expected: int
    gaps: list[tuple[int, int]]  # first and last index of each run of missing steps

    def __str__(self) -> str:
        runs = [f"{a}" if a == b else f"{a}-{b}" for a, b in self.gaps[:3]] + (["..."] if len(self.gaps) > 3 else [])
        return f"{self.present} of {self.expected} steps (missing: {', '.join(runs)})"


def _missing_steps(msg: dict[str, Any], steps: list[StepRecord]) -> _MissingSteps | None:
    """Steps are numbered from 0 without gaps; a finished answer has one per generated token (n_gen),
    except the tokens of a stop sequence, which are held back: there the steps' texts make the answer."""
    indexes = sorted(step.i for step in steps)
    expected = indexes[-1] + 1 if indexes else 0
    timings = msg.get("timings")
    if (msg["status"] == "done" and timings is not None and timings["n_gen"] > max(expected, len(steps))
            and not _texts_add_up(msg["content"], steps)):
        expected = timings["n_gen"]
    if expected == len(steps):
        return None
    gaps, previous = [], -1
    for i in [*indexes, expected]:
        if i > previous + 1:
            gaps.append((previous + 1, i - 1))
        previous = i
    return _MissingSteps(len(steps), expected, gaps)


def _texts_add_up(content: str, steps: list[StepRecord]) -> bool:
    """The steps' texts make the answer (its thinking block apart, as stored), but for replacement characters
    the final flush of an incomplete UTF-8 sequence may add."""
    ordered = sorted(steps, key=lambda s: s.i)
    split = split_by_steps([s.text for s in ordered], [s.thinking for s in ordered])
    joined = split.answer
    if split.has_block and not content.startswith(joined):   # an answer stored before thinking was kept apart
        joined = "".join(s.text for s in ordered)
    return content.startswith(joined) and not content[len(joined):].strip("\ufffd")


def _attachments(msg: dict[str, Any], where: str) -> None:
    """A message's files: a list of {"name": text, "text": text} (absent before messages had any)."""
    for k, attachment in enumerate(checked_field(msg, "attachments", list, where, optional=True) or [], 1):
        here = f"{where}, attachment {k}"
        if not isinstance(attachment, dict):
            raise StoreError("{where} is not an object", where=here)
        _text(attachment, "name", here)
        _text(attachment, "text", here)
        _plain(attachment, here, 0)


# -- values ------------------------------------------------------------------------------------------

def checked_field(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str,
                  optional: bool = False) -> Any:
    """obj[key] if it has one of the JSON types `kind` (None too when optional), else a StoreError saying where."""
    value = obj.get(key)
    if value is None and optional:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):  # JSON true is no number
        names = " or ".join(k.__name__ for k in kinds)
        if optional:
            raise StoreError('{where}: "{key}" must be {names} or null', where=where, key=key, names=names)
        raise StoreError('{where}: "{key}" must be {names}', where=where, key=key, names=names)
    return value


def _text(obj: dict[str, Any], key: str, where: str, optional: bool = False) -> str | None:
    value: str | None = checked_field(obj, key, str, where, optional)
    if value is not None:
        _no_surrogate(value, f"{where}: \"{key}\"")
    return value


def _no_surrogate(text: str, where: str) -> None:
    found = _SURROGATE.search(text)
    if found:
        raise StoreError("{where} holds an unpaired UTF-16 surrogate (\\u{group:04x}), which is "
                         "not text", where=where, group=ord(found.group()))


def _int(obj: dict[str, Any], key: str, where: str, bounds: tuple[int, int], optional: bool = False) -> int | None:
    value: int | None = checked_field(obj, key, int, where, optional)
    if value is not None and not bounds[0] <= value <= bounds[1]:
        raise StoreError('{where}: "{key}" must be between {bounds} and {bounds2}, not {value}', where=where, key=key, bounds=bounds[0], bounds2=bounds[1], value=_short(value))
    return value


def _time(obj: dict[str, Any], key: str, where: str, optional: bool = False) -> float | None:
    value: float | None = checked_field(obj, key, (int, float), where, optional)
    if value is not None and not (math.isfinite(value) and TIMES[0] <= value <= TIMES[1]):
        raise StoreError('{where}: "{key}" must be a time in seconds since 1970 (up to the year '
                         "3000), not {value}", where=where, key=key, value=_short(value))
    return value


def _record(values: dict[str, Any] | None, cls: type, where: str) -> None:
    """A dataclass's fields as stored (Timings, KvInfo): every field there with its type (NaN allowed:
    a remote engine's unknown), plus any other plain values (written by another version)."""
    if values is None:
        return
    hints = typing.get_type_hints(cls)
    for f in fields(cls):
        if f.name not in values:
            raise StoreError('{where}: "{f_name}" is missing', where=where, f_name=f.name)
        if hints[f.name] is int:
            _int(values, f.name, where, INT64)
        else:
            checked_field(values, f.name, (int, float), where)
    _plain(values, where, 0)


def _plain(value: Any, where: str, depth: int, finite: bool = False) -> None:
    """Plain JSON that can be stored and exported again: bounded depth, 64-bit integers, real text; with
    `finite`, no NaN or infinity (no engine writes one in its settings, and an export would then hold a bare
    `NaN`, which is not JSON)."""
    if depth > MAX_PLAIN_DEPTH:
        raise StoreError("{where} is nested more than {MAX_PLAIN_DEPTH} levels deep", where=where, MAX_PLAIN_DEPTH=MAX_PLAIN_DEPTH)
    if isinstance(value, dict):
        for key, item in value.items():
            _no_surrogate(key, f"{where}: a key")
            _plain(item, f"{where}, {_short(key)}", depth + 1, finite)
    elif isinstance(value, list):
        for item in value:
            _plain(item, where, depth + 1, finite)
    elif isinstance(value, str):
        _no_surrogate(value, where)
    elif finite and isinstance(value, float) and not math.isfinite(value):
        raise StoreError("{where} holds {value}, not a finite number", where=where, value=json.dumps(value))
    elif isinstance(value, int) and not isinstance(value, bool) and not INT64[0] <= value <= INT64[1]:
        raise StoreError("{where} holds {value}, larger than a 64-bit integer", where=where, value=_short(value))


def _base64(text: Any, where: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, TypeError, ValueError) as exc:
        raise StoreError("{where} is not valid base64", where=where) from exc


def _short(value: Any, limit: int = 40) -> str:
    """A value for a message: its repr, cut short (a hostile file may hold a megabyte in one string)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        return f"a {len(str(abs(value)))}-digit number"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
