"""Qt housekeeping between window tests."""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication


def free_windows() -> None:
    """Destroy every top-level widget still alive (closed windows, parentless menus and dialogs): the deferred
    deletes run now, then the collector frees what reference cycles kept."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    for widget in app.topLevelWidgets():
        widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
