"""Where a command writes a file the user named: refused before any work when writing it would destroy
something. A file written by rename (a model, a control vector) or truncated before it is written (a base
file of distributions) replaces whatever had that name: one of the command's own inputs by any of its names
(a model that llama.cpp maps: a bus error), a device or a named pipe (replaced by a regular file), the
history database. Another regular file is replaced, as llama.cpp's tools do."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.reading import file_kind


def check_output(output: str | Path, inputs: Iterable[str | Path | None] = ()) -> Path:
    """`output` as a Path, checked: not one of `inputs` (the same file by any name or link), not a folder, a
    device, a named pipe or a socket, and in a folder that exists. InvalidSettingsError saying which."""
    path = Path(output).expanduser()
    try:
        info: os.stat_result | None = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise InvalidSettingsError("cannot write {path}: {reason}", path=str(path),
                                   reason=exc.strerror or str(exc)) from None
    if info is None:
        if not path.parent.is_dir():
            raise InvalidSettingsError("cannot write {path}: its folder does not exist", path=str(path))
        return path
    if not stat.S_ISREG(info.st_mode):
        raise InvalidSettingsError("cannot write {path}: it is {st_mode}, not a file", path=str(path),
                                   st_mode=file_kind(info.st_mode))
    check_not_input(path, inputs)
    return path


def check_not_input(output: Path, inputs: Iterable[str | Path | None]) -> None:
    """InvalidSettingsError when `output` is one of `inputs`, by any name or link (for a writer that may write
    through a pipe or a device, as an export does)."""
    try:
        info = output.stat()
    except OSError:
        return   # nothing there yet (or nothing that can be read: the writer says why)
    for source in inputs:
        if source is not None and _same_file(info, Path(source).expanduser()):
            raise InvalidSettingsError("cannot write {path}: it is {source}, which this command reads; give "
                                       "another file name", path=str(output), source=str(source))


def _same_file(info: os.stat_result, other: Path) -> bool:
    try:
        theirs = other.stat()
    except OSError:
        return False
    return (info.st_dev, info.st_ino) == (theirs.st_dev, theirs.st_ino)
