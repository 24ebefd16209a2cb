"""Two file operations the store relies on: replace a file atomically, and move a broken one aside."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a crash at any moment leaves the old file or the new one, never a mix.

    A temporary file in the same folder (so `os.replace` is a rename on one file system), flushed and
    fsynced before the rename; then the folder is fsynced so the rename itself survives a power cut."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_folder(path.parent)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def _fsync_folder(folder: Path) -> None:
    if os.name != "posix":  # Windows cannot open a folder for fsync; NTFS journals the rename
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def move_aside(path: Path, tag: str, siblings: Sequence[str] = ()) -> Path:
    """Rename `path` (a file or a folder) to `<name>.<tag>-<YYYYmmdd-HHMMSS>` next to it, never deleting
    anything; `siblings` are suffixes of companion files (SQLite's "-wal", "-shm") renamed along, so the
    moved database still opens with its journal. Returns the new path."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = path.with_name(f"{path.name}.{tag}-{stamp}")
    target, n = base, 2
    while any(os.path.lexists(f"{target}{s}") for s in ("", *siblings)):
        target, n = base.with_name(f"{base.name}-{n}"), n + 1
    os.rename(path, target)
    for suffix in siblings:
        if os.path.lexists(f"{path}{suffix}"):
            os.rename(f"{path}{suffix}", f"{target}{suffix}")
    return target
