"""Where Logitscope keeps its data: one folder, overridable with LOGITSCOPE_HOME."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

HOME_ENV = "LOGITSCOPE_HOME"


def data_dir() -> Path:
    """The data folder (created on first use)."""
    override = os.environ.get(HOME_ENV)
    path = Path(override).expanduser() if override else Path(platformdirs.user_data_dir("logitscope", False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def models_dir() -> Path:
    path = data_dir() / "models"
    path.mkdir(parents=True, exist_ok=True)
    return path


def logs_dir() -> Path:
    path = data_dir() / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def resources_dir() -> Path:
    """The app's resources (translations, icons, the recommended models list): next to the frozen app
    when bundled, else the source tree's resources/ folder."""
    import sys

    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"
