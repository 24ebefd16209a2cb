"""Where the window keeps its own state (layout, dock sizes, the steering list): Qt's per-user settings, or,
when LOGITSCOPE_HOME names the data folder, a file inside it, so that one folder holds everything of that
Logitscope (a portable copy, a second profile, a test) and two such folders never share a layout."""

from __future__ import annotations

import os

from PySide6.QtCore import QSettings

from logitscope.base.paths import HOME_ENV, data_dir

WINDOW_FILE = "window.ini"


def open_window_settings() -> QSettings:
    if os.environ.get(HOME_ENV):
        return QSettings(str(data_dir() / WINDOW_FILE), QSettings.Format.IniFormat)
    return QSettings("Logitscope", "Logitscope")
