"""Reading a user's file whole, bounded: the one way every command reads a text, a grammar, a schema, a
prompt file, an export or the settings.

`Path.read_bytes()` on /dev/zero reads until memory runs out (ignoring Ctrl+C, which Python only sees
between reads), and on a named pipe it waits for a writer forever. So: open without waiting (O_NONBLOCK:
a pipe opens at once), refuse anything but a regular file before reading a byte, and read at most one
byte past the limit (a file that grows while read is refused too).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from logitscope.base.messages import Message

_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_BINARY", 0))


def file_kind(mode: int) -> Message:
    """What a non-regular file is, in words, from its st_mode."""
    kinds = ((stat.S_ISDIR, Message("a folder")), (stat.S_ISFIFO, Message("a named pipe")),
             (stat.S_ISCHR, Message("a character device")), (stat.S_ISBLK, Message("a block device (a disk)")),
             (stat.S_ISSOCK, Message("a socket")))
    return next((name for test, name in kinds if test(mode)), Message("not a regular file"))


class NotAFileError(OSError):
    """The path names a folder, a pipe, a device...: `kind` says which, `is_folder` whether a folder."""

    def __init__(self, path: Path, mode: int) -> None:
        self.kind, self.is_folder = file_kind(mode), stat.S_ISDIR(mode)
        super().__init__(errno.EISDIR if self.is_folder else errno.EINVAL, f"it is {self.kind}, not a file", str(path))


class TooLargeError(OSError):
    """The file holds more than `limit` bytes."""

    def __init__(self, path: Path, limit: int) -> None:
        self.limit = limit
        super().__init__(errno.EFBIG, f"it is larger than {limit} bytes", str(path))


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at `path` if it holds at most `limit` bytes. NotAFileError,
    TooLargeError, or the OSError of opening or reading it, otherwise; never waits, never reads more
    than `limit` + 1 bytes."""
    fd = os.open(path, _READ_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotAFileError(path, info.st_mode)
        if info.st_size > limit:
            raise TooLargeError(path, limit)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise TooLargeError(path, limit)
    return data


def require_regular(path: Path) -> None:
    """NotAFileError unless `path` is a regular file (checked before a file read by structure is opened:
    opening a named pipe waits for a writer); the OSError of a missing or unreadable path passes through."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotAFileError(path, mode)
