"""Light and dark themes, applied at once to every open window: the Qt palette (disabled roles
included), the style sheet and every pyqtgraph plot already on screen."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption, QWidget

ColorRole, ColorGroup = QPalette.ColorRole, QPalette.ColorGroup

# (background, foreground) of the plots
PLOT_COLORS = {False: ((255, 255, 255), (40, 40, 40)), True: ((30, 31, 34), (220, 220, 220))}

STYLE = """
#userBubble { background: palette(alternate-base); border-radius: 8px; }
#answerBubble { border: 1px solid palette(mid); border-radius: 8px; }
#speaker { font-weight: bold; }
#answerStatus, #placeholder { color: palette(placeholder-text); }
#settingProblem { color: #d0453a; }
#settingNote { font-style: italic; }
#steeringBadge, #knockoutBadge { background: #c8641e; color: white; font-weight: bold; border: none; border-radius: 4px;
                 padding: 1px 8px; }
"""


def system_is_dark() -> bool:
    scheme = QGuiApplication.styleHints().colorScheme()
    if scheme == Qt.ColorScheme.Dark:
        return True
    if scheme == Qt.ColorScheme.Light:
        return False
    return is_dark(QGuiApplication.palette())


def is_dark(palette: QPalette) -> bool:
    """Whether `palette` draws light on dark (its window colour below half lightness)."""
    return palette.color(ColorRole.Window).lightness() < 128


def dark_palette() -> QPalette:
    p = QPalette()
    base, alt, text = QColor(30, 31, 34), QColor(43, 45, 48), QColor(225, 225, 228)
    for role, color in ((ColorRole.Window, alt), (ColorRole.WindowText, text),
                        (ColorRole.Base, base), (ColorRole.AlternateBase, alt),
                        (ColorRole.Text, text), (ColorRole.Button, alt),
                        (ColorRole.ButtonText, text), (ColorRole.ToolTipBase, base),
                        (ColorRole.ToolTipText, text), (ColorRole.Highlight, QColor(60, 110, 200)),
                        (ColorRole.HighlightedText, QColor(255, 255, 255)),
                        (ColorRole.PlaceholderText, QColor(140, 140, 145)),
                        (ColorRole.Link, QColor(110, 160, 250)),
                        (ColorRole.Light, QColor(70, 72, 76)), (ColorRole.Midlight, QColor(58, 60, 64)),
                        (ColorRole.Mid, QColor(80, 82, 86)), (ColorRole.Dark, QColor(20, 20, 22)),
                        (ColorRole.Shadow, QColor(10, 10, 10))):
        p.setColor(role, color)
    # disabled widgets must look disabled: dimmed text, flat buttons and fields
    dimmed = QColor(115, 116, 120)
    for role, color in ((ColorRole.WindowText, dimmed), (ColorRole.Text, dimmed), (ColorRole.ButtonText, dimmed),
                        (ColorRole.Button, QColor(38, 39, 42)), (ColorRole.Base, QColor(38, 39, 42)),
                        (ColorRole.Highlight, QColor(70, 72, 76)), (ColorRole.HighlightedText, dimmed),
                        (ColorRole.PlaceholderText, QColor(90, 91, 95))):
        p.setColor(ColorGroup.Disabled, role, color)
    return p


INDICATOR_EDGE = QColor(128, 130, 136)   # a check box's or radio button's edge on a dark palette
_INDICATORS = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorRadioButton)


class FusionStyle(QProxyStyle):
    """Fusion, with check boxes and radio buttons that show on a dark palette. Fusion draws their edge in the
    window colour darkened, which on a dark window is the field's own colour: an unchecked box (Flash attention in
    the load dialog, the View menu's toggles) was invisible."""

    def __init__(self) -> None:
        super().__init__("Fusion")

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter,  # noqa: N802
                      widget: QWidget | None = None) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element not in _INDICATORS or not is_dark(option.palette):
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(INDICATOR_EDGE)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        edge = option.rect.adjusted(1, 1, -1, -1).toRectF().adjusted(0.5, 0.5, -0.5, -0.5)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(edge)
        else:
            painter.drawRoundedRect(edge, 1.0, 1.0)
        painter.restore()


def apply_theme(app: QApplication, theme: str = "system") -> bool:
    """Fusion style with a light or dark palette, for new and already open widgets; returns whether dark."""
    if not isinstance(app.style(), FusionStyle):
        app.setStyle(FusionStyle())
    dark = system_is_dark() if theme == "system" else theme == "dark"
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    app.setStyleSheet(STYLE)
    background, foreground = PLOT_COLORS[dark]
    pg.setConfigOptions(antialias=True, background=background, foreground=foreground)  # plots made later
    restyle_plots(app, dark)
    return dark


def restyle_plots(app: QApplication, dark: bool) -> None:
    """pyqtgraph reads its colours when a plot is made: repaint those already made in the new colours."""
    background, foreground = PLOT_COLORS[dark]
    for top in app.topLevelWidgets():
        for view in top.findChildren(pg.GraphicsView):
            view.setBackground(background)
            for item in view.scene().items():
                if isinstance(item, pg.AxisItem):
                    item.setPen(foreground)
                    item.setTextPen(foreground)
