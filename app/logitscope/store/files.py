"""File operations the store relies on: replace a file atomically, write an export where the user asked
without destroying what is there, and keep a file aside (moved or copied) instead of deleting it."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from logitscope.base.errors import StoreError
from logitscope.base.reading import file_kind

PRIVATE_MODE = 0o600   # the app's own files (settings): for this user only
PUBLIC_MODE = 0o666    # an export, like any file a program writes: the umask applies


def atomic_write_bytes(path: Path, data: bytes, new_mode: int = PRIVATE_MODE) -> None:
    """Write `data` to `path` so that a crash at any moment leaves the old file or the new one, never a mix.

    A temporary file in the same folder (so `os.replace` is a rename on one file system), flushed and
    fsynced before the rename; then the folder is fsynced so the rename itself survives a power cut.
    A symbolic link is followed (the link stays, the file it points to is replaced); an existing file
    keeps its permissions, a new one gets `new_mode` (less the umask). Anything but a regular file
    (a folder, a pipe, a device) is refused with an OSError, never replaced."""
    target = Path(os.path.realpath(path))
    mode = _existing_file_mode(target)
    tmp, fd = _create_temp(target, new_mode if mode is None else PRIVATE_MODE)
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None and hasattr(os, "fchmod"):  # POSIX: the new file takes the old one's mode
                os.fchmod(fh.fileno(), mode)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_folder(target.parent)


def atomic_write_text(path: Path, text: str, new_mode: int = PRIVATE_MODE) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), new_mode)


def write_export(path: Path, data: bytes, wait_for_reader: bool = True) -> None:
    """Write an export (history, trace) to the file the user named, the way `cp` writes, never
    destroying what is there. Raises StoreError with one line saying why it could not.

    - nothing there, or a regular file: replaced atomically (an existing file keeps its permissions);
    - a symbolic link: followed, the link stays;
    - a named pipe or a character device (`/dev/stdout`, `/dev/null`, a shell's `>(...)`): written
      through, never replaced. `wait_for_reader`: wait for a program to open a pipe for reading, as `cp`
      does; without it (the window, which must not hang) a pipe that nobody reads is an error;
    - a folder, a block device (a disk), a socket: refused."""
    path = Path(path)
    try:
        info: os.stat_result | None = path.stat()
    except FileNotFoundError:
        info = None  # a new file (or a link to one not there yet)
    except OSError as exc:
        raise StoreError("cannot write {path}: {exc}", path=path, exc=exc.strerror or exc) from exc
    try:
        if info is None or stat.S_ISREG(info.st_mode):
            atomic_write_bytes(path, data, PUBLIC_MODE)
        elif stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode):
            _write_through(path, data, wait_for_reader)
        else:
            raise StoreError("cannot write {path}: it is {st_mode}, not a file", path=path, st_mode=file_kind(info.st_mode))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise StoreError("cannot write {path}: it is a named pipe and no program is reading "
                             "from it", path=path) from exc
        raise StoreError("cannot write {path}: {exc}", path=path, exc=exc.strerror or exc) from exc


def _existing_file_mode(target: Path) -> int | None:
    """The permission bits of the regular file at `target`; None if there is none; OSError if something
    else is there."""
    try:
        info = target.stat()
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        code = errno.EISDIR if stat.S_ISDIR(info.st_mode) else errno.EINVAL
        raise OSError(code, f"it is {file_kind(info.st_mode)}, not a file", str(target))
    return stat.S_IMODE(info.st_mode)


def _create_temp(target: Path, mode: int) -> tuple[Path, int]:
    """A new, empty, hidden file next to `target`, created with `mode` (the umask applies)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    while True:
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return tmp, os.open(tmp, flags, mode)
        except FileExistsError:
            continue


def _write_through(path: Path, data: bytes, wait_for_reader: bool) -> None:
    nonblock = getattr(os, "O_NONBLOCK", 0)
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | (0 if wait_for_reader else nonblock)
    fd = os.open(path, flags)  # ENXIO: a pipe without a reader, when not waiting
    if nonblock and not wait_for_reader:
        import fcntl  # POSIX only, as are O_NONBLOCK and named pipes

        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~nonblock)  # then write normally
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


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
    target = _free_name(path, tag, siblings)
    os.rename(path, target)
    for suffix in siblings:
        if os.path.lexists(f"{path}{suffix}"):
            os.rename(f"{path}{suffix}", f"{target}{suffix}")
    return target


def copy_aside(path: Path, tag: str) -> Path:
    """Copy the file at `path` to `<name>.<tag>-<YYYYmmdd-HHMMSS>` next to it (a backup before the app
    rewrites it), never overwriting an earlier copy. Returns the copy's path."""
    data = Path(path).read_bytes()
    while True:
        target = _free_name(path, tag)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), PRIVATE_MODE)
        except FileExistsError:  # another process took the name meanwhile
            continue
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        return target


def _free_name(path: Path, tag: str, siblings: Sequence[str] = ()) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = path.with_name(f"{path.name}.{tag}-{stamp}")
    target, n = base, 2
    while any(os.path.lexists(f"{target}{s}") for s in ("", *siblings)):
        target, n = base.with_name(f"{base.name}-{n}"), n + 1
    return target
