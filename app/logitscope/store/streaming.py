"""Saving an answer while it streams, so that a crash or a kill loses at most the last ~250 ms of it.

Steps are buffered in memory and written in one short transaction (steps, their token pieces, the
text so far) when `append` finds the last attempt COMMIT_INTERVAL_S old, and on `flush()`. No
transaction stays open between commits, so the rest of the store stays usable while an answer streams.
The owner should also call `flush_if_due()` from a timer if steps may pause for long.

Another process may hold the database's write lock (an import): a save then waits at most SAVE_WAIT_S
(the caller is the window's thread) and, refused, keeps everything for the next try. Nothing is ever
dropped: the committed steps are always the first n, and the answer's ending (`done`, `error`) is
committed together with its last steps, so an answer is never `done` with holes in its trace.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import asdict

from logitscope.protocol.reasoning import split_by_steps
from logitscope.protocol.trace import GenerationResult, StepRecord, pack_step
from logitscope.store.database import BUSY_TIMEOUT_S, transaction
from logitscope.store.records import to_json
from logitscope.store.traces import referenced_tokens, save_pieces, save_steps

COMMIT_INTERVAL_S = 0.25
SAVE_WAIT_S = 0.05   # a save's wait for another process's write: short, the window's thread waits with it

# A conversation that gets a message is in use, so it leaves the trash: another window (another process on the same
# history) may have deleted it meanwhile, and what this one writes there would otherwise be in no list.
_TOUCH = "UPDATE conversations SET updated_at = ?, deleted_at = NULL WHERE id = "


def touch_conversation(conn: sqlite3.Connection, conversation_id: int) -> None:
    conn.execute(_TOUCH + "?", (time.time(), conversation_id))


def touch_conversation_of(conn: sqlite3.Connection, message_id: int) -> None:
    conn.execute(_TOUCH + "(SELECT conversation_id FROM messages WHERE id = ?)", (time.time(), message_id))


class StreamingWriter:
    """Writes one assistant message (created by HistoryStore.start_answer) step by step.

    Same thread rule as the store it came from. `finish` or `fail` ends it; after that it refuses steps,
    but keeps trying to save what it holds on `flush()` until `saved`. `problem` says why the last save
    was refused, in SQLite's words ("database is locked"); None once one succeeds."""

    def __init__(self, conn: sqlite3.Connection, message_id: int, model_id: int, vocab: Sequence[bytes],
                 interval_s: float = COMMIT_INTERVAL_S, wait_s: float = SAVE_WAIT_S) -> None:
        self.message_id = message_id
        self._conn = conn
        self._model_id = model_id
        self._vocab = vocab
        self._interval_s = interval_s
        self._wait_s = wait_s
        self._pending: list[StepRecord] = []
        self._parts: list[str] = []
        self._thinking: list[bool] = []
        self._known_pieces: set[int] = set()
        self._ending: tuple[str, tuple[object, ...]] | None = None   # finish/fail's update, until committed
        self._last_attempt = time.monotonic()
        self._failing_since: float | None = None
        self.problem: str | None = None
        self.closed = False

    @property
    def text(self) -> str:
        """The answer so far (committed or not)."""
        return "".join(self._parts)

    @property
    def saved(self) -> bool:
        """Whether the database holds everything this writer was given (and its ending, once ended)."""
        return not self._pending and self._ending is None

    @property
    def unsaved_steps(self) -> int:
        return len(self._pending)

    @property
    def unsaved_for_s(self) -> float:
        """How long saves have been refused without a success in between (0 when the last one worked)."""
        return 0.0 if self._failing_since is None else time.monotonic() - self._failing_since

    def append(self, step: StepRecord) -> None:
        """Take the next step; saves when the interval has passed. Never fails for a busy database."""
        self._check_open()
        self._pending.append(step)
        self._parts.append(step.text)
        self._thinking.append(step.thinking)
        if time.monotonic() - self._last_attempt >= self._interval_s:
            self.flush()

    def flush(self, wait_s: float | None = None) -> bool:
        """Save the buffered steps and the text so far now (with the ending, once `finish` or `fail`
        staged it); returns `saved`. A refused save keeps everything for the next call. Cheap when there
        is nothing to save, so a periodic timer may keep calling it. `wait_s`: how long to wait for
        another writer's lock (default: this writer's short wait)."""
        if self.saved:
            return True
        try:
            self._commit(self._wait_s if wait_s is None else wait_s)
        except sqlite3.Error as exc:  # busy, locked, disk full...: everything stays buffered
            self.problem = str(exc)
            if self._failing_since is None:
                self._failing_since = time.monotonic()
            return False
        self.problem = None
        self._failing_since = None
        return True

    def flush_if_due(self) -> bool:
        """`flush()` once the last attempt is an interval old (the steps paused, or a save was refused);
        else `saved` as it is. For a timer: while steps keep coming, `append` commits them, in step with the
        caller's other work, and a timer's own commits would only add wake-ups and transactions."""
        if time.monotonic() - self._last_attempt < self._interval_s:
            return self.saved
        return self.flush()

    def parts(self, whole: str | None = None) -> tuple[str, str | None]:
        """(answer, thinking) as stored: the thinking block apart (None: no block). `whole`: the final text, for
        an answer without a block (the steps may lack what a stop sequence held back)."""
        split = split_by_steps(self._parts, self._thinking)
        if not split.has_block:
            return (self.text if whole is None else whole), None
        return split.answer, split.thinking

    def finish(self, result: GenerationResult) -> bool:
        """The answer is complete (finish_reason stop, length or cancelled): status `done`, committed
        with the steps not saved yet. Returns `saved` (False: `flush()` later)."""
        self._check_open()
        answer, thinking = self.parts(result.text) if result.reasoning is not None else (result.text, None)
        self._end(
            "UPDATE messages SET content = ?, thinking = ?, status = 'done', finish_reason = ?, sampler_json = ?, "
            "seed = ?, timings_json = ?, kv_json = ?, notices_json = ?, steering_json = ?, reasoning_json = ?, "
            "threads_json = ? WHERE id = ?",
            (answer, thinking, result.finish_reason, to_json(result.settings), result.settings.get("seed"),
             to_json(asdict(result.timings)), to_json(asdict(result.kv)), to_json(list(result.notices)),
             to_json(result.steering), to_json(result.reasoning), to_json(result.threads), self.message_id))
        return self.flush()

    def fail(self, error: str) -> bool:
        """The generation failed (e.g. the engine crashed): status `error`, the partial answer kept.
        Returns `saved` (False: `flush()` later)."""
        self._check_open()
        self._end("UPDATE messages SET content = ?, thinking = ?, status = 'error', error = ? WHERE id = ?",
                  (*self.parts(), error, self.message_id))
        return self.flush()

    def _end(self, update_sql: str, params: tuple[object, ...]) -> None:
        self._ending = (update_sql, params)
        self.closed = True

    def _commit(self, wait_s: float) -> None:
        self._last_attempt = time.monotonic()
        steps = self._pending
        chosen = {step.token: step.piece for step in steps}
        pieces = {token: chosen[token] if token in chosen else bytes(self._vocab[token])
                  for token in referenced_tokens(steps) - self._known_pieces}
        update_sql, params = self._ending or (
            "UPDATE messages SET content = ?, thinking = ?, status = 'streaming' WHERE id = ?",
            (*self.parts(), self.message_id))
        self._conn.execute(f"PRAGMA busy_timeout = {round(wait_s * 1000)}")
        try:
            with transaction(self._conn):
                save_pieces(self._conn, self._model_id, pieces)
                save_steps(self._conn, self.message_id, ((s.i, pack_step(s)) for s in steps))
                self._conn.execute(update_sql, params)
                if self._ending is not None:
                    touch_conversation_of(self._conn, self.message_id)
        finally:
            self._conn.execute(f"PRAGMA busy_timeout = {round(BUSY_TIMEOUT_S * 1000)}")
        self._known_pieces |= pieces.keys()
        self._pending = []
        self._ending = None

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError(f"the answer {self.message_id} is already finished")
