"""Light and dark palettes for the whole application, pyqtgraph's plots included.

Its own module so that both the start-up code (ui/app.py) and the window (settings dialog) use it
without importing each other.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


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
