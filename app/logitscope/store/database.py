"""Opening the history database: checks, migrations, crash recovery, and what to do with a broken file.

A database that cannot be used (damaged, not a database at all, a folder, written by a newer
Logitscope, another program's SQLite file) is never deleted: it is renamed aside with its -wal/-shm
companions, a fresh one is created, and the caller gets a one-line notice to show the user. Problems of
the surroundings (locked by another program, read-only folder, disk full) are not the file's fault:
those raise StoreError and move nothing.

Read-only opens (`history list`, `history export`) write nothing and never wait for a writer: they read
a WAL snapshot, show an unusable file as an empty history with a notice (or refuse it: an export must not
look like an empty history), and leave the file as it is. A read-only folder or disk can be read too.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from logitscope.base.errors import StoreError
from logitscope.store.files import move_aside
from logitscope.store.owners import owner_is_alive, sweep_dead_owners
from logitscope.store.schema import LATEST_VERSION, migrate

log = logging.getLogger(__name__)

SQLITE_SIBLINGS = ("-wal", "-shm", "-journal")
BUSY_TIMEOUT_S = 5.0            # how long a write waits for another process's transaction before it fails
CHUNK_HOLD_S = 0.15             # a long write (an import) commits after about this long holding the lock,
CHUNK_PAUSE_S = 0.04            # then leaves the lock free this long, so the window's saves get their turn

# Primary result codes that say "the environment", not "the file": never a reason to move a file aside.
_ENVIRONMENT_ERRORS = {sqlite3.SQLITE_PERM, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM,
                       sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN}


class _Unusable(Exception):
    """This file cannot be our database; `tag` names the renamed copy (history.sqlite3.<tag>-<time>)."""

    def __init__(self, reason: str, tag: str = "broken") -> None:
        super().__init__(reason)
        self.reason, self.tag = reason, tag


def open_database(path: Path, *, read_only: bool = False,
                  empty_if_unusable: bool = True) -> tuple[sqlite3.Connection, str | None]:
    """A ready connection (WAL, foreign keys on, latest schema, the answers of dead writers marked
    `interrupted`) and a notice for the user when the file had to be replaced, else None.
    `read_only`, `empty_if_unusable`: see open_read_only."""
    if read_only:
        return open_read_only(path, empty_if_unusable=empty_if_unusable)
    try:
        return _open(path), None
    except _Unusable as bad:
        try:
            aside = move_aside(path, bad.tag, SQLITE_SIBLINGS)
        except OSError as exc:
            raise StoreError("the history database {path} cannot be used ({reason}) and could "
                             "not be moved aside: {exc}", path=path, reason=bad.reason, exc=exc) from exc
        notice = (f"The history database could not be used ({bad.reason}); it was kept as {aside.name} "
                  f"and a new, empty history was started.")
        try:
            return _open(path), notice
        except _Unusable as again:  # a fresh file failing our checks: nothing sensible left to try
            raise StoreError("could not create a new history database at {path}: {reason}", path=path, reason=again.reason) from again


def open_read_only(path: Path, *, empty_if_unusable: bool = True) -> tuple[sqlite3.Connection, str | None]:
    """A connection that cannot write (`mode=ro`, `query_only`), inside one read transaction: one
    consistent snapshot, which WAL gives without waiting for a writer. No file yet: an empty history, and
    none is created. An unusable file: an empty history and a notice, or with `empty_if_unusable=False`
    StoreError; the file is left as it is (the next read-write open sets it aside). An older schema is
    upgraded first (a write, once per upgrade)."""
    if not path.exists():
        return _empty(), None
    try:
        if path.is_dir():
            raise _Unusable("it is a folder, not a file")
        if _check(path) < LATEST_VERSION:
            _open(path).close()
        conn = _connect_read_only(path)
    except _Unusable as bad:
        if not empty_if_unusable:
            raise StoreError("the history database {path} cannot be read ({reason}); it was left as it is",
                             path=path, reason=bad.reason) from bad
        return _empty(), (f"The history database could not be used ({bad.reason}); it was left as it is "
                          f"(Logitscope sets it aside the next time it saves a conversation).")
    except sqlite3.Error as exc:
        raise StoreError("cannot open the history database {path}: {exc}", path=path, exc=exc) from exc
    try:
        conn.execute("PRAGMA query_only = ON")
        conn.execute("BEGIN")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the snapshot starts here
    except sqlite3.Error as exc:
        conn.close()
        raise StoreError("cannot read the history database {path}: {exc}", path=path, exc=exc) from exc
    return conn, None


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """`mode=ro`. A WAL database needs its -shm file, which a read-only folder or disk cannot take: there,
    with no -wal file to read either (closed cleanly), the file is opened `immutable` (nothing can be
    writing it there). Errors come as they are: _check sorts them."""
    uri = f"{path.resolve().as_uri()}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        cannot_open = getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_CANTOPEN
        if cannot_open and not Path(f"{path}-wal").exists():
            conn.close()
            return sqlite3.connect(uri + "&immutable=1", uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        # anything else (not a database, damaged, locked): the caller's checks meet it and say what it is
    return conn


def _empty() -> sqlite3.Connection:
    """An empty history in memory, for reading when there is no usable file."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn, 0)
    conn.execute("PRAGMA query_only = ON")
    return conn


def _open(path: Path) -> sqlite3.Connection:
    if path.is_dir():
        raise _Unusable("it is a folder, not a file")
    if path.exists():
        _check(path)
    try:
        # isolation_level=None: no implicit transactions; `transaction()` says where each one begins and ends.
        # check_same_thread (the default, True): the connection belongs to the thread that opened it.
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError("cannot open the history database {path}: {exc}", path=path, exc=exc) from exc
    try:
        _prepare(conn, path)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if _is_environment(exc):
            raise StoreError("cannot use the history database {path}: {exc}", path=path, exc=exc) from exc
        raise _Unusable(str(exc)) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def _check(path: Path) -> int:
    """Is this file a healthy Logitscope history we can read? Returns its schema version. Checked through
    a read-only connection: closing a read-write one would checkpoint and delete a -wal file we are about
    to keep aside."""
    try:
        conn = _connect_read_only(path)
    except sqlite3.Error as exc:
        raise StoreError("cannot open the history database {path}: {exc}", path=path, exc=exc) from exc
    try:
        # One read transaction: every answer below from one snapshot. Read one by one, the version (0) and
        # the tables (there) of a history another process was creating meanwhile looked like a foreign file.
        conn.execute("BEGIN")
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]  # ~0.25 s for 400 MB
        if problems != ["ok"]:  # its first finding, on one line (a row may hold several, under a "***" header)
            lines = [line for row in problems for line in row.splitlines() if line and not line.startswith("***")]
            raise _Unusable(f"it is damaged: {lines[0] if lines else problems[0]}")
        version: int = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > LATEST_VERSION:
            raise _Unusable(f"it was written by a newer Logitscope: schema {version}, this version reads up to "
                            f"{LATEST_VERSION}", tag="newer")
        if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise _Unusable("it is an SQLite file, but not a Logitscope history", tag="foreign")
        return version
    except sqlite3.DatabaseError as exc:
        if _is_environment(exc):
            raise StoreError("cannot use the history database {path}: {exc}", path=path, exc=exc) from exc
        raise _Unusable(f"it is damaged: {exc}") from exc
    finally:
        conn.close()


def _is_environment(exc: sqlite3.DatabaseError) -> bool:
    return (getattr(exc, "sqlite_errorcode", sqlite3.SQLITE_ERROR) & 0xFF) in _ENVIRONMENT_ERRORS


def _prepare(conn: sqlite3.Connection, path: Path) -> None:
    conn.execute("PRAGMA foreign_keys = ON")
    _use_wal(conn)
    conn.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: a killed process loses no committed write
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    try:
        migrate(conn, version)
    except sqlite3.DatabaseError as exc:
        if _is_environment(exc):
            raise
        raise _Unusable(f"upgrading it from schema {version} to {LATEST_VERSION} failed: {exc}") from exc
    interrupt_orphaned_answers(conn, path)


def _use_wal(conn: sqlite3.Connection) -> None:
    """Switch to WAL (a no-op once the file is in WAL). A new file opened by two processes at once: the
    switch meets the other's lock, and SQLite fails it at once rather than wait: try again a while."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def interrupt_orphaned_answers(conn: sqlite3.Connection, path: Path) -> None:
    """Mark `interrupted` the answers still `streaming` whose writer is gone (crash, kill -9, power loss);
    their text and trace up to the last commit stay. Answers another live process is writing are left
    alone (store/owners.py). Best effort: a database busy with another writer is tried at the next open."""
    sweep_dead_owners(path)
    owners = [row[0] for row in conn.execute("SELECT DISTINCT owner FROM messages WHERE status = 'streaming'")]
    dead = [owner for owner in owners if not owner_is_alive(path, owner)]
    if not dead:
        return
    marks = ",".join("?" * len(dead))
    try:
        conn.execute(f"UPDATE messages SET status = 'interrupted' WHERE status = 'streaming' "
                     f"AND coalesce(owner, '') IN ({marks})", [owner or "" for owner in dead])
    except sqlite3.OperationalError as exc:
        if not _is_environment(exc):
            raise
        log.info("answers of gone writers stay `streaming` until the next open: %s", exc)


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE .. COMMIT, ROLLBACK on any error. Inside a transaction it joins the outer one."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:  # SQLite has already rolled back after some errors (a full disk): keep that error
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


class ChunkedTransaction:
    """A long write (an import) as a series of short transactions, so that another process's writer (the
    window saving an answer) is never kept waiting for long. Use as a context manager and call
    `checkpoint()` where the data is consistent: it commits when the lock has been held CHUNK_HOLD_S, then
    leaves it free for CHUNK_PAUSE_S. An error rolls back the open chunk only: undoing committed chunks is
    the caller's job. Inside an outer transaction it simply joins it (one transaction, no chunks)."""

    def __init__(self, conn: sqlite3.Connection, hold_s: float | None = None, pause_s: float | None = None) -> None:
        self._conn = conn
        self._hold_s = CHUNK_HOLD_S if hold_s is None else hold_s
        self._pause_s = CHUNK_PAUSE_S if pause_s is None else pause_s
        self._joined = False
        self._began = 0.0
        self.commits = 0

    def __enter__(self) -> ChunkedTransaction:
        self._joined = self._conn.in_transaction
        if not self._joined:
            self._begin()
        return self

    def checkpoint(self) -> None:
        if self._joined or time.monotonic() - self._began < self._hold_s:
            return
        self._conn.execute("COMMIT")
        self.commits += 1
        time.sleep(self._pause_s)
        self._begin()

    def __exit__(self, exc_type: type[BaseException] | None, *rest: object) -> None:
        if self._joined:
            return
        if exc_type is not None:
            if self._conn.in_transaction:  # not after a full disk: SQLite has rolled back already
                self._conn.execute("ROLLBACK")
        else:
            self._conn.execute("COMMIT")
            self.commits += 1

    def _begin(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")
        self._began = time.monotonic()
