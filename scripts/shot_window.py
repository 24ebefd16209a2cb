"""The real window for a screenshot script: the app in `language` (en or zh_CN), light theme, a window of
`size` over a throw-away data folder (LOGITSCOPE_HOME, set by the script before Qt loads). Imported after
QT_QPA_PLATFORM is set; the older scripts still start theirs by hand."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from logitscope.ui.app import create_app, install_translator
from logitscope.ui.main_window import MainWindow
from logitscope.ui.window.theme import apply_theme


def open_window(language: str, size: tuple[int, int]) -> tuple[QApplication, MainWindow, str]:
    """The app, its shown window, and the language's short tag for file names ("en" or "zh")."""
    app = create_app([])
    install_translator(app, language)
    dark = apply_theme(app, "light")
    window = MainWindow(settings=QSettings(str(Path(os.environ["LOGITSCOPE_HOME"]) / "ui.ini"),
                                           QSettings.Format.IniFormat), dark=dark)
    window.resize(*size)
    window.show()
    return app, window, "zh" if language == "zh_CN" else "en"
