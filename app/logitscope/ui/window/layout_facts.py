"""What the window's layout leaves readable, as plain numbers, for the tests that start the real window on
screens of several sizes (through the state probe) and the offscreen layout tests: where the window, its
screen and each shown dock are, and what is cut: distribution columns scrolled away, sampler values clipped,
a horizontal scroll bar in the chat, dock tabs elided, Layers grid columns."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QDockWidget,
    QMainWindow,
    QScrollArea,
    QTabBar,
    QTableView,
    QWidget,
)

from logitscope.ui.inspector.layers import LENS_GRID


def _rect(rect: QRect) -> list[int]:
    return [rect.x(), rect.y(), rect.width(), rect.height()]


def in_window(window: QWidget, widget: QWidget) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def shown(dock: QDockWidget) -> bool:
    """Shown and not a tab behind another dock."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def cut_tabs(window: QWidget) -> list[str]:
    """The visible tabs narrower than their title needs (Qt elides their text)."""
    return [bar.tabText(i) for bar in window.findChildren(QTabBar) if bar.isVisible()
            for i in range(bar.count()) if bar.tabRect(i).width() < bar.tabSizeHint(i).width()]


def columns_cut(table: QTableView) -> bool:
    """Whether the table's columns are wider than what shows of them (some scrolled out of sight)."""
    return table.horizontalHeader().length() > table.viewport().width()


def clipped_boxes(root: QWidget) -> list[str]:
    """The spin boxes under `root` (shown ones) whose value is cut: narrower than they ask to be, or running
    past the right edge of the scroll area they are in."""
    cut = []
    for box in root.findChildren(QAbstractSpinBox):
        if not box.isVisibleTo(root) or not box.isVisible():
            continue
        area = _scroll_area_of(box)
        right = box.mapTo(area.viewport(), QPoint(box.width(), 0)).x() if area is not None else 0
        if box.width() < box.minimumSizeHint().width() or (area is not None and right > area.viewport().width()):
            cut.append(box.toolTip() or box.objectName() or type(box).__name__)
    return cut


def _scroll_area_of(widget: QWidget) -> QScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QScrollArea):
        parent = parent.parentWidget()
    return parent


def _table(dock: QDockWidget, name: str = "") -> QTableView:
    table = dock.widget().findChild(QTableView, name) if name else dock.widget().findChild(QTableView)
    if table is None:
        raise LookupError(f"no table in {dock.objectName()}")
    return table


def layout_facts(window: QMainWindow, docks: dict[str, QDockWidget], chat: QAbstractScrollArea) -> dict[str, object]:
    screen = window.screen()
    distribution, layers_grid = _table(docks["distribution"]), _table(docks["layers"], LENS_GRID)
    central = window.centralWidget()
    header = layers_grid.horizontalHeader()
    return {
        "screen": _rect(screen.availableGeometry()),
        "dpr": screen.devicePixelRatio(),
        "frame": _rect(window.frameGeometry()),
        "geometry": _rect(window.geometry()),
        "docks": {key: _rect(in_window(window, dock)) for key, dock in docks.items() if shown(dock)},
        "contents": {key: [dock.widget().width(), dock.widget().height()] for key, dock in docks.items() if shown(dock)},
        "status_bar": _rect(in_window(window, window.statusBar())) if window.statusBar().isVisible() else None,
        "central": _rect(in_window(window, central)) if central is not None else None,
        "distribution_columns_cut": columns_cut(distribution),
        "sampler_values_cut": clipped_boxes(docks["sampler"].widget()) if shown(docks["sampler"]) else [],
        "chat_hscroll": chat.horizontalScrollBar().isVisible(),
        "cut_tabs": cut_tabs(window),
        # how many of the Layers grid's token columns fit beside its chosen and entropy columns (all at the
        # default width: the grid is empty until a step is inspected)
        "layers_token_columns": layers_grid.viewport().width() // header.defaultSectionSize() - 2
        if shown(docks["layers"]) else None,
    }
