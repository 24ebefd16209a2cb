"""Saves the history refused (another process writing to it) are tried again; a lasting refusal is shown."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer

from logitscope.session.history import RETRY_INTERVAL_MS, ChatHistory


class SaveRetry(QObject):
    def __init__(self, history: ChatHistory, error: Callable[[str, str], None], parent: QObject | None = None) -> None:
        """`error`: the window's error box."""
        super().__init__(parent)
        self.history, self.error = history, error
        self.timer = QTimer(self)
        self.timer.setInterval(RETRY_INTERVAL_MS)
        self.timer.timeout.connect(self.retry)
        self.timer.start()

    def retry(self) -> None:
        for problem in self.history.retry_saving():
            self.error(QCoreApplication.translate("MainWindow", "The answer is not saved yet"),
                       QCoreApplication.translate(
                           "MainWindow", "The history database refused to save this answer ({0}). It stays in this "
                           "window, and Logitscope keeps trying to save it: another program may be "
                           "writing to the history.").format(problem))

    def stop(self) -> None:
        self.timer.stop()
