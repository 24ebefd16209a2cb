"""Traces in the database: packed steps per message, and token pieces per model.

A step names up to ~190 tokens (the raw head, each stage's survivors, the final head, the choice).
Their bytes are stored once per model in `token_pieces`, so after a restart the inspector can show
every alternative as text without loading the model.
"""

from __future__ import annotations

import sqlite3
import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import overload

from logitscope.base.errors import StoreError
from logitscope.protocol.trace import StepRecord, unpack_step
from logitscope.store.records import ModelIdentity

_IN_CHUNK = 500  # host parameters per "IN (...)": well under every SQLite build's limit


def referenced_tokens(steps: Sequence[StepRecord]) -> set[int]:
    """Every token id the steps mention. Unknown ids (-1: a remote server that names tokens by text only)
    are left out: such steps carry their candidates' bytes themselves (raw_pieces / final_pieces).
    Steps go in batches (the window saves a streaming answer a few times a second): one set for all of
    them costs ~8 µs a step, a set per step ~20 (numpy's unique, more)."""
    ids = {int(step.token) for step in steps}
    for step in steps:
        ids.update(step.raw_ids.tolist())
        ids.update(step.final_ids.tolist())
        for stage in step.stages:
            ids.update(stage.top_ids.tolist())
    if min(ids, default=0) < 0:
        ids = {i for i in ids if i >= 0}
    return ids


class PieceVocab(Sequence[bytes]):
    """The `vocab` argument of `step_to_json`, made of stored pieces: vocab[token] -> bytes.

    A token without a stored piece reads as b"" (only possible for hand-made imports). Its length reaches past
    the largest stored id, as a vocabulary's does past every id (views check `0 <= token < len(vocab)`)."""

    def __init__(self, pieces: Mapping[int, bytes]) -> None:
        self._pieces = pieces
        self._length = max(pieces, default=-1) + 1

    @overload
    def __getitem__(self, token: int) -> bytes: ...

    @overload
    def __getitem__(self, token: slice) -> list[bytes]: ...

    def __getitem__(self, token: int | slice) -> bytes | list[bytes]:
        if isinstance(token, slice):
            return [self._pieces.get(t, b"") for t in range(*token.indices(self._length))]
        return self._pieces.get(int(token), b"")

    def __len__(self) -> int:
        return self._length


def model_row_id(conn: sqlite3.Connection, model: ModelIdentity) -> int:
    key = (model.file_name, model.size, model.head_sha256)
    conn.execute("INSERT OR IGNORE INTO models (file_name, size, head_sha256) VALUES (?, ?, ?)", key)
    row_id: int = conn.execute("SELECT id FROM models WHERE file_name = ? AND size = ? AND head_sha256 = ?",
                               key).fetchone()[0]
    return row_id


def save_pieces(conn: sqlite3.Connection, model_id: int, pieces: Mapping[int, bytes]) -> None:
    conn.executemany("INSERT OR IGNORE INTO token_pieces (model_id, token, piece) VALUES (?, ?, ?)",
                     ((model_id, token, bytes(piece)) for token, piece in pieces.items()))


def save_steps(conn: sqlite3.Connection, message_id: int, packed: Iterable[tuple[int, bytes]]) -> None:
    """`packed`: (step index, pack_step bytes) pairs."""
    conn.executemany("INSERT INTO trace_steps (message_id, i, data) VALUES (?, ?, ?)",
                     ((message_id, i, data) for i, data in packed))


def packed_steps(conn: sqlite3.Connection, message_id: int) -> list[bytes]:
    return [row[0] for row in conn.execute("SELECT data FROM trace_steps WHERE message_id = ? ORDER BY i",
                                           (message_id,))]


def load_pieces(conn: sqlite3.Connection, model_id: int | None, tokens: Iterable[int]) -> dict[int, bytes]:
    if model_id is None:
        return {}
    pieces: dict[int, bytes] = {}
    for chunk in _chunks(sorted(tokens), _IN_CHUNK):
        marks = ",".join("?" * len(chunk))
        pieces.update(conn.execute(f"SELECT token, piece FROM token_pieces WHERE model_id = ? AND token IN ({marks})",
                                   (model_id, *chunk)))
    return pieces


def load_trace(conn: sqlite3.Connection, message_id: int) -> tuple[list[StepRecord], dict[int, bytes]]:
    row = conn.execute("SELECT model_id FROM messages WHERE id = ?", (message_id,)).fetchone()
    if row is None:
        raise StoreError("there is no message with id {message_id}", message_id=message_id)
    try:
        steps = [unpack_step(data) for data in packed_steps(conn, message_id)]
    except (struct.error, ValueError, IndexError, UnicodeDecodeError) as exc:   # a damaged or hand-edited row
        raise StoreError("the recorded trace of message {message_id} is damaged ({reason}); the message itself "
                         "and the rest of the history still read", message_id=message_id, reason=exc) from None
    return steps, load_pieces(conn, row[0], referenced_tokens(steps))


def _chunks(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
