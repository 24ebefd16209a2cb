"""Starting the window: the QApplication, a palette that follows the system, the first model."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, Qt, QTimer, QTranslator
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from logitscope.engine.api import LoadSettings
from logitscope.paths import resources_dir


def system_is_dark() -> bool:
    scheme = QGuiApplication.styleHints().colorScheme()
    if scheme == Qt.ColorScheme.Dark:
        return True
    if scheme == Qt.ColorScheme.Light:
        return False
    window = QGuiApplication.palette().color(QPalette.ColorRole.Window)
    return window.lightness() < 128


def dark_palette() -> QPalette:
    p = QPalette()
    base, alt, text = QColor(30, 31, 34), QColor(43, 45, 48), QColor(225, 225, 228)
    for role, color in ((QPalette.ColorRole.Window, alt), (QPalette.ColorRole.WindowText, text),
                        (QPalette.ColorRole.Base, base), (QPalette.ColorRole.AlternateBase, alt),
                        (QPalette.ColorRole.Text, text), (QPalette.ColorRole.Button, alt),
                        (QPalette.ColorRole.ButtonText, text), (QPalette.ColorRole.ToolTipBase, base),
                        (QPalette.ColorRole.ToolTipText, text), (QPalette.ColorRole.Highlight, QColor(60, 110, 200)),
                        (QPalette.ColorRole.HighlightedText, QColor(255, 255, 255)),
                        (QPalette.ColorRole.PlaceholderText, QColor(140, 140, 145)),
                        (QPalette.ColorRole.Link, QColor(110, 160, 250))):
        p.setColor(role, color)
    return p


STYLE = """
#userBubble { background: palette(alternate-base); border-radius: 8px; }
#answerBubble { border: 1px solid palette(mid); border-radius: 8px; }
#speaker { font-weight: bold; }
#answerStatus, #placeholder { color: palette(placeholder-text); }
"""


def apply_theme(app: QApplication, theme: str = "system") -> bool:
    """Fusion style with a light or dark palette; returns whether dark."""
    app.setStyle("Fusion")
    dark = system_is_dark() if theme == "system" else theme == "dark"
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    app.setStyleSheet(STYLE)
    pg.setConfigOptions(antialias=True, background=(30, 31, 34) if dark else "w", foreground=(220, 220, 220) if dark else "k")
    return dark


def create_app(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv)
    app.setApplicationName("Logitscope")
    app.setOrganizationName("Logitscope")
    return app  # type: ignore[return-value]


def install_translator(app: QApplication, language: str) -> str:
    """Load the interface language ("system", "en" or "zh_CN"); returns the one in use."""
    name = QLocale.system().name() if language == "system" else language
    if not name.startswith("zh"):
        return "en"
    folder = resources_dir() / "translations"
    ours = QTranslator(app)
    if ours.load(str(folder / "logitscope_zh_CN.qm")):
        app.installTranslator(ours)
    qt = QTranslator(app)  # Qt's own strings: standard buttons, file dialogs
    if qt.load("qtbase_zh_CN", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
    app._translators = [ours, qt]  # type: ignore[attr-defined]  # keep them alive
    return "zh_CN"


AUTOSEND_ENV = "LOGITSCOPE_AUTOSEND"  # tests: send this message once the model is loaded


def run_window(model: str | None = None) -> int:
    from logitscope.library.demo import demo_model_path
    from logitscope.store.settings import SettingsStore
    from logitscope.ui.main_window import MainWindow

    app = create_app()
    settings = SettingsStore()
    install_translator(app, settings.app.language)
    dark = apply_theme(app, settings.app.theme)
    window = MainWindow(dark=dark, app_settings=settings)
    window.show()
    last = settings.app.last_model_path
    path = model or (last if last and Path(last).exists() else None) or (
        str(demo_model_path()) if demo_model_path().exists() else None)
    if path:
        window.open_model(path, settings.load_settings_for(path) or LoadSettings(n_ctx=4096), ask=False)
    else:
        window.statusMessage.emit(QCoreApplication.translate(
            "MainWindow", "No model yet: File ▸ Open model… (or run `logitscope models fetch-demo`)"))
    autosend = os.environ.get(AUTOSEND_ENV)
    if autosend:
        def send_once(_info: object) -> None:
            window.bridge.loaded.disconnect(send_once)
            QTimer.singleShot(200, lambda: window.send(autosend))

        window.bridge.loaded.connect(send_once)
    return app.exec()
