"""Saving an answer while it streams, so that a crash or a kill loses at most the last ~250 ms of it.

Steps are buffered in memory and written in one short transaction (steps, their token pieces, the
text so far) when `append` finds the last commit COMMIT_INTERVAL_S old, and on `flush()`. No
transaction stays open between commits, so the rest of the store stays usable while an answer streams.
The owner should also call `flush()` from a timer (e.g. every 250 ms) if steps may pause for long.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import asdict

from logitscope.engine.trace import GenerationResult, StepRecord, pack_step
from logitscope.errors import StoreError
from logitscope.store.database import transaction
from logitscope.store.records import to_json
from logitscope.store.traces import referenced_tokens, save_pieces, save_steps

COMMIT_INTERVAL_S = 0.25


class StreamingWriter:
    """Writes one assistant message (created by HistoryStore.start_answer) step by step.

    Same thread rule as the store it came from. `finish` or `fail` ends it; after that it refuses steps."""

    def __init__(self, conn: sqlite3.Connection, message_id: int, model_id: int, vocab: Sequence[bytes],
                 interval_s: float = COMMIT_INTERVAL_S) -> None:
        self.message_id = message_id
        self._conn = conn
        self._model_id = model_id
        self._vocab = vocab
        self._interval_s = interval_s
        self._pending: list[StepRecord] = []
        self._parts: list[str] = []
        self._known_pieces: set[int] = set()
        self._last_commit = time.monotonic()
        self.closed = False

    @property
    def text(self) -> str:
        """The answer so far (committed or not)."""
        return "".join(self._parts)

    def append(self, step: StepRecord) -> None:
        self._check_open()
        self._pending.append(step)
        self._parts.append(step.text)
        if time.monotonic() - self._last_commit >= self._interval_s:
            self.flush()

    def flush(self) -> None:
        """Commit the buffered steps and the text so far now. Nothing to do when none are buffered, or
        once the answer is finished (so a periodic timer may keep calling it)."""
        if self.closed or not self._pending:
            return
        self._commit("UPDATE messages SET content = ?, status = 'streaming' WHERE id = ?",
                     (self.text, self.message_id))

    def finish(self, result: GenerationResult) -> None:
        """The answer is complete (finish_reason stop, length or cancelled): status `done`."""
        self._check_open()
        self._commit(
            "UPDATE messages SET content = ?, status = 'done', finish_reason = ?, sampler_json = ?, seed = ?, "
            "timings_json = ?, kv_json = ?, notices_json = ? WHERE id = ?",
            (result.text, result.finish_reason, to_json(result.settings), result.settings.get("seed"),
             to_json(asdict(result.timings)), to_json(asdict(result.kv)), to_json(list(result.notices)),
             self.message_id), touch=True)
        self.closed = True

    def fail(self, error: str) -> None:
        """The generation failed (e.g. the engine crashed): status `error`, the partial answer kept."""
        self._check_open()
        self._commit("UPDATE messages SET content = ?, status = 'error', error = ? WHERE id = ?",
                     (self.text, error, self.message_id), touch=True)
        self.closed = True

    def _commit(self, update_sql: str, params: tuple[object, ...], touch: bool = False) -> None:
        steps = self._pending
        pieces: dict[int, bytes] = {}
        for step in steps:
            for token in referenced_tokens(step) - self._known_pieces - pieces.keys():
                pieces[token] = step.piece if token == step.token else bytes(self._vocab[token])
        try:
            with transaction(self._conn):
                save_pieces(self._conn, self._model_id, pieces)
                save_steps(self._conn, self.message_id, ((s.i, pack_step(s)) for s in steps))
                self._conn.execute(update_sql, params)
                if touch:
                    self._conn.execute("UPDATE conversations SET updated_at = ? WHERE id = "
                                       "(SELECT conversation_id FROM messages WHERE id = ?)",
                                       (time.time(), self.message_id))
        except sqlite3.Error as exc:  # the buffer is kept: a later flush can still save it
            raise StoreError(f"could not save the answer being written: {exc}") from exc
        self._known_pieces |= pieces.keys()
        self._pending = []
        self._last_commit = time.monotonic()

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError(f"the answer {self.message_id} is already finished")
