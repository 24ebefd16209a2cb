"""Opening the history database: checks, migrations, crash recovery, and what to do with a broken file.

A database that cannot be used (damaged, not a database at all, a folder, written by a newer
Logitscope, another program's SQLite file) is never deleted: it is renamed aside with its -wal/-shm
companions, a fresh one is created, and the caller gets a one-line notice to show the user. Problems of
the surroundings (locked by another program, read-only folder, disk full) are not the file's fault:
those raise StoreError and move nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from logitscope.errors import StoreError
from logitscope.store.files import move_aside
from logitscope.store.schema import LATEST_VERSION, migrate

SQLITE_SIBLINGS = ("-wal", "-shm", "-journal")
BUSY_TIMEOUT_S = 5.0

# Primary result codes that say "the environment", not "the file": never a reason to move a file aside.
_ENVIRONMENT_ERRORS = {sqlite3.SQLITE_PERM, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM,
                       sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN}


class _Unusable(Exception):
    """This file cannot be our database; `tag` names the renamed copy (history.sqlite3.<tag>-<time>)."""

    def __init__(self, reason: str, tag: str = "broken") -> None:
        super().__init__(reason)
        self.reason, self.tag = reason, tag


def open_database(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """A ready connection (WAL, foreign keys on, latest schema, no message left `streaming`) and a notice
    for the user when the file had to be replaced, else None."""
    try:
        return _open(path), None
    except _Unusable as bad:
        try:
            aside = move_aside(path, bad.tag, SQLITE_SIBLINGS)
        except OSError as exc:
            raise StoreError(f"the history database {path} cannot be used ({bad.reason}) "
                             f"and could not be moved aside: {exc}") from exc
        notice = (f"The history database could not be used ({bad.reason}); it was kept as {aside.name} "
                  f"and a new, empty history was started.")
        try:
            return _open(path), notice
        except _Unusable as again:  # a fresh file failing our checks: nothing sensible left to try
            raise StoreError(f"could not create a new history database at {path}: {again.reason}") from again


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
        raise StoreError(f"cannot open the history database {path}: {exc}") from exc
    try:
        _prepare(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if _is_environment(exc):
            raise StoreError(f"cannot use the history database {path}: {exc}") from exc
        raise _Unusable(str(exc)) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def _check(path: Path) -> None:
    """Is this file a healthy Logitscope history we can read? Checked through a read-only connection:
    closing a read-write one would checkpoint and delete a -wal file we are about to keep aside."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the history database {path}: {exc}") from exc
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]  # ~0.25 s for 400 MB
        if problems != ["ok"]:
            raise _Unusable(f"it is damaged: {problems[0]}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > LATEST_VERSION:
            raise _Unusable(f"it was written by a newer Logitscope: schema {version}, this version reads up to "
                            f"{LATEST_VERSION}", tag="newer")
        if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise _Unusable("it is an SQLite file, but not a Logitscope history", tag="foreign")
    except sqlite3.DatabaseError as exc:
        if _is_environment(exc):
            raise StoreError(f"cannot use the history database {path}: {exc}") from exc
        raise _Unusable(f"it is damaged: {exc}") from exc
    finally:
        conn.close()


def _is_environment(exc: sqlite3.DatabaseError) -> bool:
    return (getattr(exc, "sqlite_errorcode", sqlite3.SQLITE_ERROR) & 0xFF) in _ENVIRONMENT_ERRORS


def _prepare(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: a killed process loses no committed write
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    try:
        migrate(conn, version)
    except sqlite3.DatabaseError as exc:
        if _is_environment(exc):
            raise
        raise _Unusable(f"upgrading it from schema {version} to {LATEST_VERSION} failed: {exc}") from exc
    # Nothing streams before we open, so an answer still `streaming` was cut off (crash, kill, power loss).
    # Its text and trace up to the last commit stay. A live writer in another process (the GUI while the
    # `history` command runs) sets `streaming` again with its next commit.
    conn.execute("UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'")


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
