"""Starting the window: the QApplication, a palette that follows the system, the first model."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTimer, QTranslator
from PySide6.QtWidgets import QApplication

from logitscope.base.paths import resources_dir
from logitscope.protocol.api import LoadSettings
from logitscope.ui.common.gui_collector import collect_on_gui_thread
from logitscope.ui.common.qt_text_gaps import ZH_CN as QT_GAPS_ZH_CN
from logitscope.ui.common.qt_text_gaps import QtTextGaps
from logitscope.ui.window.theme import apply_theme  # noqa: F401  (also imported from here by the entry points)

if TYPE_CHECKING:
    from logitscope.ui.bridge import EngineBridge
    from logitscope.ui.main_window import MainWindow

# Qt's raster engine hands a translucent fill of 96 rows or more, and every large image conversion, to a
# thread pool of its own and waits for it. On two cores each hand-off wakes a thread that preempts one of
# llama.cpp's, which then stalls its partner at the next barrier: with the pool, the window made 4-7 % fewer
# tokens a second and spent 10-20 % more CPU per token (real engine, runs alternated, 2026-12-02), and its
# GUI thread was switched out ~4,000 times in a 5 s answer instead of ~500. Qt reads this once, at the first
# such paint; a value the user set is kept.
NO_GUI_THREAD_POOL_ENV = "QT_NO_GUI_THREADPOOL"


def create_app(argv: list[str] | None = None) -> QApplication:
    os.environ.setdefault(NO_GUI_THREAD_POOL_ENV, "1")
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv)
    app.setApplicationName("Logitscope")
    app.setOrganizationName("Logitscope")
    collect_on_gui_thread(app)  # widgets are never freed on the engine's threads
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
    gaps = QtTextGaps(QT_GAPS_ZH_CN, app)   # what that catalogue lacks for this Qt
    app.installTranslator(gaps)
    app._translators = [ours, qt, gaps]  # type: ignore[attr-defined]  # keep them alive
    return "zh_CN"


def build_window(bridge: EngineBridge, settings: QSettings, dark: bool) -> MainWindow:
    """The main window for a caller that drives it itself (the self-test): ui/ reaches the window only here."""
    from logitscope.ui.main_window import MainWindow

    return MainWindow(bridge=bridge, settings=settings, dark=dark)


AUTOSEND_ENV = "LOGITSCOPE_AUTOSEND"  # tests: send this message once the model is loaded


def start_model(named: str | None, last: str, demo: Callable[[], str | None]) -> str | None:
    """The model the window opens with: the one named on the command line, else the one used last (while its file
    is there), else the demo model (`demo`: its path, fetched if need be; None when there is none)."""
    if named:
        return named
    if last and Path(last).is_file():
        return last
    return demo()


def run_window(model: str | None = None, demo: Callable[[], str | None] | None = None) -> int:
    """`model`: named on the command line; `demo`: the demo model's path, fetched if need be (default: the file
    when it is there)."""
    from logitscope.library.demo import demo_model_path
    from logitscope.store.settings import SettingsStore
    from logitscope.ui.main_window import MainWindow

    settings = SettingsStore()
    path = start_model(model, settings.app.last_model_path or "",
                       demo or (lambda: str(demo_model_path()) if demo_model_path().exists() else None))
    app = create_app()
    install_translator(app, settings.app.language)
    dark = apply_theme(app, settings.app.theme)
    window = MainWindow(dark=dark, app_settings=settings)
    window.show()
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
