"""What the history store hands out: plain, immutable records (no database handle inside)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from logitscope.base.errors import StoreError
from logitscope.protocol.trace_schema import migrate_settings

Role = Literal["system", "user", "assistant"]
Status = Literal["streaming", "done", "interrupted", "error"]
ROLES: tuple[str, ...] = ("system", "user", "assistant")

IDENTITY_HEAD_BYTES = 1 << 20


@dataclass(frozen=True)
class ModelIdentity:
    """Which model file produced an answer: its name, its size and the SHA-256 of its first MiB.

    Hashing a whole multi-GB file would take seconds; the first MiB holds the GGUF header (architecture,
    tokenizer, tensor layout), which together with the exact size tells real-world files apart."""

    file_name: str
    size: int
    head_sha256: str

    @classmethod
    def of_file(cls, path: str | Path) -> ModelIdentity:
        path = Path(path)
        try:
            with path.open("rb") as fh:
                head = fh.read(IDENTITY_HEAD_BYTES)
            size = path.stat().st_size
        except OSError as exc:
            raise StoreError("cannot read the model file {path}: {exc}", path=path, exc=exc.strerror or exc) from exc
        return cls(path.name, size, hashlib.sha256(head).hexdigest())

    def to_dict(self) -> dict[str, Any]:
        return {"file_name": self.file_name, "size": self.size, "head_sha256": self.head_sha256}


@dataclass(frozen=True)
class Conversation:
    id: int
    title: str
    created_at: float           # seconds since the epoch
    updated_at: float
    deleted_at: float | None    # set while the conversation is in the trash (soft-deleted)
    n_messages: int             # all branches
    settings: dict[str, Any] | None = None   # its own settings (system prompt preset, sampler); None: the defaults


@dataclass(frozen=True)
class StoredMessage:
    """One message of a stored conversation (a question, a system prompt or an answer), as the history
    holds it. Not base.messages.Message, which is a user-facing text to translate."""

    id: int
    conversation_id: int
    parent_id: int | None
    role: Role
    content: str
    status: Status
    created_at: float
    selected_seq: int                       # at a fork, the active path follows the highest
    model: ModelIdentity | None = None      # assistant answers only, from here on
    sampler: dict[str, Any] | None = None   # SamplerSettings as a dict, with the actual seed once known
    seed: int | None = None
    timings: dict[str, Any] | None = None   # logitscope.protocol.trace.Timings as a dict
    kv: dict[str, Any] | None = None        # logitscope.protocol.trace.KvInfo as a dict
    finish_reason: str | None = None        # "stop" | "length" | "cancelled" (done answers)
    error: str | None = None                # why an answer has status "error"
    notices: list[str] = field(default_factory=list)
    n_steps: int = 0                        # trace steps stored (load them with HistoryStore.load_trace)
    forked_at: int | None = None            # a fork: the step where it left the answer it was forked from
    prefix_steps: int = 0                   # a fork: the steps it copied from that answer
    steering: dict[str, Any] | None = None  # the steering it was made with (None: unsteered), as its trace says
    thinking: str | None = None             # a reasoning model's thinking block, tags off (None: no block)
    reasoning: dict[str, Any] | None = None  # the trace's reasoning record (protocol/reasoning.py)
    attachments: list[dict[str, Any]] = field(default_factory=list)  # a user message's files: {name, text}
    threads: dict[str, Any] | None = None   # the trace's threads record (system/thread_tuner.py); None: unknown


@dataclass(frozen=True)
class SearchHit:
    conversation: Conversation
    message_id: int | None      # the first matching message; None when only the title matched
    snippet: str                # the matching text with a little context, on one line


# -- rows ------------------------------------------------------------------------------------------

CONVERSATION_COLUMNS = ("c.id, c.title, c.created_at, c.updated_at, c.deleted_at, "
                        "(SELECT count(*) FROM messages WHERE conversation_id = c.id), c.settings_json")

MESSAGE_COLUMNS = ("m.id, m.conversation_id, m.parent_id, m.role, m.content, m.status, m.created_at, "
                   "m.selected_seq, md.file_name, md.size, md.head_sha256, m.sampler_json, m.seed, "
                   "m.timings_json, m.kv_json, m.finish_reason, m.error, m.notices_json, "
                   "(SELECT count(*) FROM trace_steps WHERE message_id = m.id), m.forked_at, m.prefix_steps, "
                   "m.steering_json, m.thinking, m.reasoning_json, m.attachments_json, m.threads_json")
MESSAGE_FROM = "messages m LEFT JOIN models md ON md.id = m.model_id"


def conversation_from_row(row: sqlite3.Row | tuple[Any, ...]) -> Conversation:
    cid, title, created, updated, deleted, n_messages, settings = row
    return Conversation(cid, title, created, updated, deleted, n_messages, _settings_json(settings))


def message_from_row(row: sqlite3.Row | tuple[Any, ...]) -> StoredMessage:
    (mid, cid, parent, role, content, status, created, seq, file_name, size, sha, sampler, seed,
     timings, kv, finish, error, notices, n_steps, forked_at, prefix_steps, steering,
     thinking, reasoning, attachments, threads) = row
    return StoredMessage(
        id=mid, conversation_id=cid, parent_id=parent, role=role, content=_text(content), status=status,
        created_at=created if isinstance(created, int | float) else 0, selected_seq=seq,
        model=ModelIdentity(file_name, size, sha) if file_name is not None else None,
        sampler=migrated_sampler(_stored(sampler, dict)), seed=seed, timings=_stored(timings, dict),
        kv=_stored(kv, dict), finish_reason=finish, error=error, notices=_stored(notices, list) or [], n_steps=n_steps,
        forked_at=forked_at, prefix_steps=prefix_steps, steering=_stored(steering, dict), thinking=thinking,
        reasoning=_stored(reasoning, dict), attachments=_stored(attachments, list) or [],
        threads=_stored(threads, dict))


def _stored(text: str | None, shape: type) -> Any:
    """A message's JSON field as stored; text that is not JSON, or JSON of another shape (a damaged or
    hand-edited database), reads as unknown (None): the message, its conversation and the others still read."""
    try:
        value = _json(text)
    except (ValueError, TypeError):   # not JSON, or not text at all (a blob)
        return None
    return value if isinstance(value, shape) else None


def _text(value: Any) -> str:
    """A message's text as stored; a blob (a hand-edited database) read as UTF-8, unreadable bytes replaced."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value if isinstance(value, str) else ""


def migrated_sampler(settings: Any) -> Any:
    """Recorded sampler settings in today's trace schema (an answer stored or exported by an older
    version: engine.trace_schema); anything but a dict as it is."""
    return migrate_settings(settings) if isinstance(settings, dict) else settings


def _settings_json(text: str | None) -> Any:
    """A conversation's settings as stored; text that is not JSON (a damaged or hand-edited database) reads
    as none, so that the conversation still lists and opens (its next settings replace it)."""
    try:
        return _json(text)
    except ValueError:
        return None


def _json(text: str | None) -> Any:
    return json.loads(text) if text is not None else None


def to_json(value: Any) -> str | None:
    return json.dumps(value, ensure_ascii=False) if value is not None else None
