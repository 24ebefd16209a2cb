"""Who is writing a streaming answer, and whether that process still lives.

A store that streams answers takes an owner id and holds an exclusive lock on `<database>-owners/<id>.lock`
for as long as it is open; its answers carry that id while they stream. The operating system drops the
lock when the process ends in any way (kill -9 and power loss included), so another process that *can*
take the lock knows the owner is gone and may mark its answers `interrupted`; one that cannot leaves them
alone. Nothing else is trusted: a missing lock file, or an id that is not ours in form, means "gone".
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import uuid
from pathlib import Path

log = logging.getLogger(__name__)

OWNERS_SUFFIX = "-owners"        # <database>-owners/, next to the -wal and -shm files
LOCK_EXT = ".lock"
_OWNER_ID = re.compile(r"[0-9a-f]{32}")

if sys.platform == "win32":  # pragma: no cover  (byte-range locks; the lock file is created under its final name)
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # per open file: even this process's other fds conflict
            return True
        except BlockingIOError:
            return False


def owners_folder(database: Path) -> Path:
    return database.with_name(database.name + OWNERS_SUFFIX)


class OwnerLock:
    """This store's owner id, proven alive by the lock it holds until `release()` (or the process's end)."""

    def __init__(self, database: Path) -> None:
        folder = owners_folder(database)
        folder.mkdir(exist_ok=True)
        self.id = uuid.uuid4().hex
        self._path = folder / f"{self.id}{LOCK_EXT}"
        # Created under another name and renamed once locked: a `.lock` file is never seen unlocked while
        # its owner lives, so a process sweeping stale ones cannot take a live owner's file for a dead one's.
        staging = self._path if os.name == "nt" else folder / f"{self.id}.new"
        self._fd = os.open(staging, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            if not _try_lock(self._fd):
                raise OSError(f"could not lock {staging}")
            if staging != self._path:
                os.rename(staging, self._path)
        except BaseException:
            os.close(self._fd)
            with contextlib.suppress(OSError):
                os.unlink(staging)
            raise

    def release(self) -> None:
        """Give the id up: answers still marked with it count as interrupted from now on."""
        if self._fd < 0:
            return
        with contextlib.suppress(OSError):
            os.unlink(self._path)
        os.close(self._fd)
        self._fd = -1


def owner_is_alive(database: Path, owner: str | None) -> bool:
    """Whether the process that took `owner` still holds its lock. A dead owner's lock file is removed."""
    if owner is None or not _OWNER_ID.fullmatch(owner):
        return False
    path = owners_folder(database) / f"{owner}{LOCK_EXT}"
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return False
    except OSError as exc:  # unreadable: we cannot know, so we do not touch its answers
        log.warning("cannot check the owner lock %s: %s", path, exc)
        return True
    try:
        if not _try_lock(fd):
            return True
        with contextlib.suppress(OSError):
            os.unlink(path)  # while we hold its lock: nobody can mistake it for a live owner meanwhile
        return False
    finally:
        os.close(fd)


def sweep_dead_owners(database: Path) -> None:
    """Remove the lock files of owners that are gone (a process killed before it cleaned up)."""
    folder = owners_folder(database)
    if not folder.is_dir():
        return
    for path in folder.glob(f"*{LOCK_EXT}"):
        owner_is_alive(database, path.stem)
