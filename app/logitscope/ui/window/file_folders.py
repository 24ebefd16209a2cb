"""Where a file dialog opens: the folder last used for the same kind of file (kept in the window's settings, so
also after a restart), else that kind's usual place (the models folder for models, the home folder for the rest);
never the folder the app happened to be started from, as it did before.

A dialog asks `start(kind, name)` for its starting path and tells `chosen(kind, path)` what the user picked."""

from __future__ import annotations

from pathlib import Path

from logitscope.base.errors import LogitscopeError
from logitscope.base.paths import models_dir
from logitscope.ui.window.window_settings import open_window_settings

MODEL = "model"            # GGUF models, drafts, adapters and control vectors to load
DOCUMENT = "document"      # texts to score, prompt files, attachments
EXPORT = "export"          # traces and conversations written, exports read back
_KEY = "folders/"


def _usual(kind: str) -> Path:
    if kind == MODEL:
        try:
            return models_dir()
        except LogitscopeError:   # a models folder that cannot be made: the dialog still opens
            pass
    return Path.home()


def start(kind: str, name: str = "") -> str:
    """The folder to open a dialog for `kind` in (with `name`, the file name it proposes, inside it)."""
    last = str(open_window_settings().value(_KEY + kind, "", str) or "")
    folder = Path(last) if last and Path(last).is_dir() else _usual(kind)
    return str(folder / name) if name else str(folder)


def chosen(kind: str, path: str) -> str:
    """Remember the folder of `path` (a file the user picked for `kind`, if any); returns `path`."""
    if path:
        open_window_settings().setValue(_KEY + kind, str(Path(path).parent))
    return path
