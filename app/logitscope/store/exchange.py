"""History in and out of the database: lossless JSON (export and import), readable Markdown, and one
answer's trace as JSON Lines in the README's trace format.

The JSON export ("logitscope-history", version 1) holds whole trees: every branch, every field, and each
answer's trace as its stored step records (base64 of `pack_step`) plus the bytes of every token they
mention (base64, keyed by token id). Messages refer to their parent by position in their conversation's
list, so an export -> import -> export round trip gives the same document except the conversation ids
and the export time.
"""

from __future__ import annotations

import base64
import binascii
import sqlite3
import struct
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from logitscope import __version__
from logitscope.base.errors import StoreError
from logitscope.protocol.trace import dumps, result_to_json, step_to_json, unpack_step
from logitscope.store.database import ChunkedTransaction, transaction
from logitscope.store.history import HistoryStore, active_path_of, insert_conversation, insert_message
from logitscope.store.import_check import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    STATUSES,
    CheckedExport,
    check_export,
    checked_field,
)
from logitscope.store.records import ROLES, Conversation, ModelIdentity, StoredMessage, migrated_sampler
from logitscope.store.results import stored_result
from logitscope.store.traces import (
    PieceVocab,
    load_trace,
    model_row_id,
    packed_steps,
    save_pieces,
    save_steps,
)

# -- JSON export -----------------------------------------------------------------------------------

def export_json(store: HistoryStore, conversation_ids: Sequence[int] | None = None) -> dict[str, Any]:
    """Lossless export of the given conversations (default: all, except those in the trash)."""
    conversations = _select(store, conversation_ids)
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "app_version": __version__,
        "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "conversations": [_export_conversation(store, conv) for conv in conversations],
    }


def _select(store: HistoryStore, conversation_ids: Sequence[int] | None) -> list[Conversation]:
    if conversation_ids is None:
        return sorted(store.list_conversations(), key=lambda c: c.id)
    return [store.conversation(cid) for cid in conversation_ids]


def _export_conversation(store: HistoryStore, conv: Conversation) -> dict[str, Any]:
    messages = store.messages(conv.id)
    position = {m.id: n for n, m in enumerate(messages)}
    return {
        "id": conv.id,  # for the reader; imports assign new ids
        "title": conv.title,
        "created_at": conv.created_at,
        "updated_at": conv.updated_at,
        "deleted_at": conv.deleted_at,
        "settings": conv.settings,
        "messages": [_export_message(store.connection, m, position) for m in messages],
    }


def _export_message(conn: sqlite3.Connection, m: StoredMessage, position: dict[int, int]) -> dict[str, Any]:
    return {
        "parent": position[m.parent_id] if m.parent_id is not None else None,
        "role": m.role,
        "content": m.content,
        "status": m.status,
        "created_at": m.created_at,
        "selected_seq": m.selected_seq,
        "model": m.model.to_dict() if m.model else None,
        "sampler": m.sampler,
        "seed": m.seed,
        "timings": m.timings,
        "kv": m.kv,
        "finish_reason": m.finish_reason,
        "error": m.error,
        "notices": m.notices,
        "forked_at": m.forked_at,
        "prefix_steps": m.prefix_steps,
        "steering": m.steering,
        "thinking": m.thinking,
        "reasoning": m.reasoning,
        "attachments": m.attachments or None,
        "threads": m.threads,
        "trace": _export_trace(conn, m) if m.n_steps else None,
    }


def _export_trace(conn: sqlite3.Connection, m: StoredMessage) -> dict[str, Any]:
    _, pieces = load_trace(conn, m.id)
    return {"steps": [_b64(blob) for blob in packed_steps(conn, m.id)],
            "pieces": {str(token): _b64(pieces[token]) for token in sorted(pieces)}}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


# -- JSON import -----------------------------------------------------------------------------------

def import_json(store: HistoryStore, document: Any) -> list[int]:
    """Add the conversations of an `export_json` document (as new conversations); returns their ids. One that is
    in the history already (the same title, times and number of messages, not in the trash: the same export
    imported twice) is not added again: the caller says how many were skipped.

    All or nothing: a document with any invalid part raises StoreError and adds nothing. A long import
    commits between conversations (database.ChunkedTransaction), so that the window can save the answer
    it streams meanwhile; an error removes the conversations it had committed."""
    # Every value is checked before a row is written (import_check), unless load_export already did.
    document = document if isinstance(document, CheckedExport) else check_export(document)
    conversations = checked_field(document, "conversations", list, "the export")
    conn = store.connection
    ids: list[int] = []
    try:
        with ChunkedTransaction(conn) as chunks:
            for n, conv in enumerate(conversations, 1):
                cid = _import_conversation(conn, conv, n)
                if cid is not None:
                    ids.append(cid)
                chunks.checkpoint()  # a conversation is never committed in part
    except BaseException as exc:
        if ids:
            _remove_imported(conn, ids, exc)
        if isinstance(exc, sqlite3.IntegrityError):
            raise StoreError("the history export holds inconsistent data: {exc}", exc=exc) from exc
        raise
    return ids


def _remove_imported(conn: sqlite3.Connection, ids: list[int], cause: BaseException) -> None:
    """Undo the chunks an import had committed before it failed (what was not committed is rolled back)."""
    try:
        with transaction(conn):
            conn.executemany("DELETE FROM conversations WHERE id = ?", ((cid,) for cid in ids))
    except sqlite3.Error as exc:
        raise StoreError("the import failed ({cause}) and the conversations it had already added "
                         "(ids {ids}-{ids2}) could not be removed: {exc}", cause=cause, ids=ids[0], ids2=ids[-1], exc=exc) from cause


def _import_conversation(conn: sqlite3.Connection, conv: Any, n: int) -> int | None:
    """The new conversation's id; None when it is in the history already."""
    where = f"conversation {n}"
    if not isinstance(conv, dict):
        raise StoreError("{where} is not an object", where=where)
    title = checked_field(conv, "title", str, where).strip() or "Imported conversation"
    created = checked_field(conv, "created_at", (int, float), where)
    updated = checked_field(conv, "updated_at", (int, float), where)
    messages = checked_field(conv, "messages", list, where)
    if _present(conn, title, created, updated, len(messages)):
        return None
    cid = insert_conversation(conn, title, created, updated,
                              checked_field(conv, "deleted_at", (int, float), where, optional=True),
                              checked_field(conv, "settings", dict, where, optional=True))
    new_ids: list[int] = []
    for k, msg in enumerate(messages, 1):
        new_ids.append(_import_message(conn, cid, msg, new_ids, f"{where}, message {k}"))
    return cid


def _present(conn: sqlite3.Connection, title: str, created: float, updated: float, n_messages: int) -> bool:
    """A conversation outside the trash with this title, these times and this many messages (what an export of it
    holds; a conversation written to since has a later time and comes in as a conversation of its own)."""
    return conn.execute(
        "SELECT 1 FROM conversations c WHERE c.title = ? AND c.created_at = ? AND c.updated_at = ? "
        "AND c.deleted_at IS NULL AND (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) = ? LIMIT 1",
        (title, created, updated, n_messages)).fetchone() is not None


def _import_message(conn: sqlite3.Connection, cid: int, msg: Any, new_ids: list[int], where: str) -> int:
    if not isinstance(msg, dict):
        raise StoreError("{where} is not an object", where=where)
    parent = checked_field(msg, "parent", int, where, optional=True)
    if parent is not None and not 0 <= parent < len(new_ids):
        raise StoreError('{where}: "parent" must be the position of an earlier message', where=where)
    role = checked_field(msg, "role", str, where)
    status = checked_field(msg, "status", str, where)
    if role not in ROLES or status not in STATUSES:
        raise StoreError("{where}: unknown role {role!r} or status {status!r}", where=where, role=role, status=status)
    model = checked_field(msg, "model", dict, where, optional=True)
    trace = checked_field(msg, "trace", dict, where, optional=True)
    model_id = None
    if model is not None:
        identity = ModelIdentity(checked_field(model, "file_name", str, where), checked_field(model, "size", int, where),
                                 checked_field(model, "head_sha256", str, where))
        model_id = model_row_id(conn, identity)
    if trace is not None and model_id is None:
        raise StoreError("{where}: a trace needs the model that produced it", where=where)
    notices = checked_field(msg, "notices", list, where, optional=True)
    message_id = insert_message(
        conn, cid, new_ids[parent] if parent is not None else None, role, checked_field(msg, "content", str, where),
        status="interrupted" if status == "streaming" else status,  # nothing is writing it any more
        created_at=checked_field(msg, "created_at", (int, float), where),
        selected_seq=checked_field(msg, "selected_seq", int, where),
        model_id=model_id, sampler=migrated_sampler(checked_field(msg, "sampler", dict, where, optional=True)),
        seed=checked_field(msg, "seed", int, where, optional=True), timings=checked_field(msg, "timings", dict, where, optional=True),
        kv=checked_field(msg, "kv", dict, where, optional=True),
        finish_reason=checked_field(msg, "finish_reason", str, where, optional=True),
        error=checked_field(msg, "error", str, where, optional=True), notices=notices,
        # exports written before forks were stored have neither: no fork
        forked_at=checked_field(msg, "forked_at", int, where, optional=True),
        prefix_steps=checked_field(msg, "prefix_steps", int, where, optional=True) or 0,
        # exports written before steering was stored have none: unsteered
        steering=checked_field(msg, "steering", dict, where, optional=True),
        # exports written before thinking was stored apart have it in "content", if at all
        thinking=checked_field(msg, "thinking", str, where, optional=True),
        reasoning=checked_field(msg, "reasoning", dict, where, optional=True),
        attachments=checked_field(msg, "attachments", list, where, optional=True),
        threads=checked_field(msg, "threads", dict, where, optional=True))
    if trace is not None:
        assert model_id is not None
        _import_trace(conn, message_id, model_id, trace, where)
    return message_id


def _import_trace(conn: sqlite3.Connection, message_id: int, model_id: int, trace: dict[str, Any], where: str) -> None:
    packed = []
    for k, text in enumerate(checked_field(trace, "steps", list, where), 1):
        blob = _unb64(text, f"{where}, trace step {k}")
        try:
            step = unpack_step(blob)
        except (struct.error, ValueError, IndexError) as exc:  # short, garbled or not UTF-8
            raise StoreError("{where}, trace step {k} is not a valid step record: {exc}", where=where, k=k, exc=exc) from exc
        packed.append((step.i, blob))
    pieces: dict[int, bytes] = {}
    for token, text in checked_field(trace, "pieces", dict, where).items():
        if not token.isdigit():
            raise StoreError("{where}: piece key {token!r} is not a token id", where=where, token=token)
        pieces[int(token)] = _unb64(text, f"{where}, piece {token}")
    save_pieces(conn, model_id, pieces)
    save_steps(conn, message_id, packed)




def _unb64(text: Any, where: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, TypeError, ValueError) as exc:
        raise StoreError("{where} is not valid base64", where=where) from exc


# -- Markdown --------------------------------------------------------------------------------------

def export_markdown(store: HistoryStore, conversation_ids: Sequence[int] | None = None) -> str:
    """The active path of each conversation, readable (default: all, except those in the trash)."""
    return "\n---\n\n".join(_markdown(store, conv) for conv in _select(store, conversation_ids))


def _markdown(store: HistoryStore, conv: Conversation) -> str:
    messages = store.messages(conv.id)
    siblings: dict[int | None, list[int]] = {}
    for m in messages:
        siblings.setdefault(m.parent_id, []).append(m.id)
    started = datetime.fromtimestamp(conv.created_at).strftime("%Y-%m-%d %H:%M")
    out = [f"# {conv.title}\n", f"_Started {started}; exported from Logitscope {__version__}. "
           "Only the active branch is shown._\n"]
    for m in active_path_of(messages):
        versions = siblings[m.parent_id]
        heading = m.role.capitalize()
        if len(versions) > 1:
            heading += f" (version {versions.index(m.id) + 1} of {len(versions)})"
        out.append(f"## {heading}\n")
        if m.thinking is not None:
            out.append(f"<details><summary>Thinking</summary>\n\n{m.thinking}\n\n</details>\n")
        out.append((m.content or "_(empty)_") + "\n")
        for attachment in m.attachments:
            out.append(f"_Attached: {attachment.get('name')} ({len(str(attachment.get('text', '')))} characters)_\n")
        if m.role == "assistant":
            out.append(f"<sub>{_answer_line(m)}</sub>\n")
    return "\n".join(out)


def _answer_line(m: StoredMessage) -> str:
    parts = []
    if m.model:
        parts.append(m.model.file_name)
    if m.sampler:
        s = m.sampler
        parts.append(", ".join(f"{label} {s[key]}" for key, label in (
            ("temperature", "temperature"), ("top_k", "top-k"), ("top_p", "top-p"), ("min_p", "min-p"))
            if key in s))
    if m.seed is not None:
        parts.append(f"seed {m.seed}")
    if m.timings and m.timings.get("gen_s"):
        parts.append(f"{m.timings['n_gen']} tokens at {m.timings['n_gen'] / m.timings['gen_s']:.1f} tok/s")
    parts.append({"done": f"finished: {m.finish_reason}",
                  "interrupted": "interrupted: Logitscope closed before the answer was complete",
                  "error": f"failed: {m.error}",
                  "streaming": "still being written"}[m.status])
    return " · ".join(parts)


# -- one trace as JSON Lines ----------------------------------------------------------------------

def export_trace_jsonl(store: HistoryStore, message_id: int, top: int = 10) -> str:
    """An answer's trace in the format of `logitscope generate --json` (docs/trace_schema.md): a "step" line
    per token, then the "done" line. An answer that never finished (interrupted, error) has no "done"
    line, as when `generate --json` is killed mid-answer."""
    message = store.message(message_id)
    steps, pieces = store.load_trace(message_id)
    if not steps:
        raise StoreError("message {message_id} has no trace (only answers generated by "
                         "Logitscope have one)", message_id=message_id)
    vocab = PieceVocab(pieces)
    lines = [dumps(step_to_json(step, vocab, top=top)) for step in steps]
    result = stored_result(message, steps) if message.status == "done" else None
    if result is not None:
        lines.append(dumps(result_to_json(result)))
    return "\n".join(lines) + "\n"
