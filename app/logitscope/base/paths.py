"""Where Logitscope keeps its data: one folder, overridable with LOGITSCOPE_HOME."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import platformdirs

from logitscope.base.errors import StoreError
from logitscope.base.messages import Message

HOME_ENV = "LOGITSCOPE_HOME"

_checked_folders: set[Path] = set()  # folders already proven usable in this process


class DataFolderError(StoreError):
    """The data folder (or a folder inside it) cannot be created or written to."""


def data_dir() -> Path:
    """The data folder (created on first use); DataFolderError when it cannot be used."""
    path, what = _data_folder()
    return _usable_folder(path, what)


def data_dir_to_read() -> Path:
    """The data folder for what only reads it (`history list`, `history export`): an existing folder need
    not take files, so a read-only folder or disk can still be read; else as data_dir()."""
    path, _what = _data_folder()
    return path if path.is_dir() else data_dir()


def _data_folder() -> tuple[Path, Message]:
    override = os.environ.get(HOME_ENV)
    path = Path(override).expanduser() if override else Path(platformdirs.user_data_dir("logitscope", False))
    what = (Message("the data folder {path} (from ${env})", path=str(path), env=HOME_ENV) if override else
            Message("the data folder {path}", path=str(path)))
    return path, what


def models_dir() -> Path:
    path = data_dir() / "models"
    return _usable_folder(path, Message("the models folder {path}", path=str(path)))


def _usable_folder(path: Path, what: Message) -> Path:
    """`path`, created if missing and (once per process) checked to take a file: else one clear error.

    A real probe file, not os.access(): for root, os.access says yes to read-only places (under /proc,
    a read-only mount)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DataFolderError("{what} cannot be used: it is a file, not a folder", what=what) from None
    except NotADirectoryError:
        raise DataFolderError("{what} cannot be created: a part of its path is a file", what=what) from None
    except OSError as exc:
        raise DataFolderError("{what} cannot be created: {reason}", what=what, reason=exc.strerror or str(exc)) from None
    if path in _checked_folders:
        return path
    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise DataFolderError("{what} cannot be written to: {reason}", what=what, reason=exc.strerror or str(exc)) from None
    _checked_folders.add(path)
    return path


def resources_dir() -> Path:
    """The app's resources (translations, icons, the recommended models list): next to the frozen app
    when bundled, else the source tree's resources/ folder."""
    import sys

    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parents[3] / "resources"  # app/logitscope/base/paths.py -> the root
