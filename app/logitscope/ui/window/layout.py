"""The default dock layout, sized from the window it is applied to (1280x720 up to full HD and beyond).

Right: the next-token distribution above the sampler controls that change it (the Steering dock a tab
behind them), the whole height of the window. Bottom (under the chat only): the timeline beside the
waterfall, with the tokenizer and Layers, and Diagnosis, memory, model card and Attention as tabs behind
them (the forward-pass docks compute only when shown). Sizes are shares of the window, so Reset layout fits whatever size the window has now
instead of replaying the pixel sizes it had when it was built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QByteArray, QCoreApplication, QRect, QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QFrame, QMainWindow, QScrollArea, QWidget

from logitscope.ui.common.wheel_guard import guard_wheel
from logitscope.ui.window.dock_shares import DockShares
from logitscope.ui.window.screen_fit import fill_screen, fits_a_screen

LAYOUT_VERSION = 5  # 2: the right column spans the height, scrolled sampler controls; 3: Layers and Attention;
# 4: Diagnosis (a tab behind the waterfall, beside the timeline where its evidence is marked); 5: Steering (a tab
# behind the sampler controls: both change the next answer)

RIGHT_SHARE = 0.30        # of the window's width, for the distribution and the sampler controls
RIGHT_MIN_WIDTH = 340
DISTRIBUTION_SHARE = 0.55  # of the right column's height
BOTTOM_SHARE = 0.32        # of the window's height, for the timeline and the waterfall
BOTTOM_MIN_HEIGHT = 250  # the timeline's two plots and the waterfall's caption and two plots
# docks whose content may be taller than their share
SCROLLED = ("sampler", "model_card", "memory", "diagnosis", "steering")


def full_names() -> dict[str, str]:
    """The docks whose tab shows a short title (four long ones were cut to "Sampler waterf…", "Memory and cont…"
    at 1280x720): their full names, in the View menu."""
    return {"waterfall": QCoreApplication.translate("MainWindow", "Sampler waterfall"),
            "memory": QCoreApplication.translate("MainWindow", "Memory and context")}


def scrollable(dock: QDockWidget) -> None:
    """Put the dock's content in a scroll area: at 720 px it scrolls instead of pushing other docks away;
    the wheel scrolls it past its unfocused sliders and boxes."""
    content = dock.widget()
    guard_wheel(content)
    if isinstance(content, QScrollArea):
        return
    dock.setWidget(scroll_area(content))


def scroll_area(content: QWidget) -> QScrollArea:
    """`content` in a frameless area that scrolls vertically only (its width follows the area's)."""
    area = QScrollArea()
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(content)
    return area


def arrange_docks(window: QMainWindow, docks: dict[str, QDockWidget]) -> None:
    """Place, show and size every dock for the window's current size."""
    size = window.size()
    window.setCorner(Qt.Corner.TopRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
    window.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
    for key in SCROLLED:
        scrollable(docks[key])
    right, bottom = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
    for key, area in (("distribution", right), ("sampler", right), ("steering", right), ("timeline", bottom),
                      ("waterfall", bottom), ("tokenizer", bottom), ("memory", bottom), ("model_card", bottom), ("layers", bottom),
                      ("attention", bottom), ("diagnosis", bottom)):
        docks[key].setFloating(False)
        window.addDockWidget(area, docks[key])
        docks[key].show()
    window.splitDockWidget(docks["distribution"], docks["sampler"], Qt.Orientation.Vertical)
    window.tabifyDockWidget(docks["sampler"], docks["steering"])
    window.splitDockWidget(docks["timeline"], docks["waterfall"], Qt.Orientation.Horizontal)
    window.tabifyDockWidget(docks["timeline"], docks["tokenizer"])
    window.tabifyDockWidget(docks["waterfall"], docks["memory"])
    window.tabifyDockWidget(docks["memory"], docks["model_card"])
    window.tabifyDockWidget(docks["tokenizer"], docks["layers"])
    window.tabifyDockWidget(docks["model_card"], docks["attention"])
    window.tabifyDockWidget(docks["layers"], docks["diagnosis"])  # four tabs a side: five did not fit at 1280
    docks["waterfall"].raise_()
    docks["sampler"].raise_()
    docks["timeline"].raise_()
    if window.size() != size:   # the docks side by side before they became tabs grew it (1282 px on a 1280 screen)
        window.resize(size)
    size_docks(window, docks)


def size_docks(window: QMainWindow, docks: dict[str, QDockWidget]) -> None:
    """Share the window between the chat and the docks."""
    width, height = window.width(), window.height()
    right_width = max(RIGHT_MIN_WIDTH, round(width * RIGHT_SHARE))
    window.resizeDocks([docks["distribution"]], [right_width], Qt.Orientation.Horizontal)
    column = height - window.menuBar().sizeHint().height() - _status_height(window)
    share = round(column * DISTRIBUTION_SHARE)
    window.resizeDocks([docks["distribution"], docks["sampler"]], [share, column - share], Qt.Orientation.Vertical)
    window.resizeDocks([docks["timeline"]], [max(BOTTOM_MIN_HEIGHT, round(height * BOTTOM_SHARE))],
                       Qt.Orientation.Vertical)
    chat_width = width - right_width
    window.resizeDocks([docks["timeline"], docks["waterfall"]], [chat_width // 2, chat_width - chat_width // 2],
                       Qt.Orientation.Horizontal)


def _status_height(window: QMainWindow) -> int:
    bar: QWidget | None = window.statusBar() if window.statusBar().isVisible() else None
    return bar.sizeHint().height() if bar is not None else 0


def add_docks(window: QMainWindow, specs: Sequence[tuple[str, str, QWidget, Qt.DockWidgetArea]],
              shown: Callable[[bool], None]) -> dict[str, QDockWidget]:
    """A dock per (key, title, widget, area), named for the saved layout, then arranged, keeping their share of
    the window through its resizes (dock_shares.py); `shown` hears every dock's visibilityChanged (panels skip
    updates while nobody sees them and catch up when shown)."""
    docks: dict[str, QDockWidget] = {}
    for key, title, widget, area in specs:
        dock = QDockWidget(title, window)
        dock.setObjectName(f"dock_{key}")
        dock.setWidget(widget)
        window.addDockWidget(area, dock)
        dock.visibilityChanged.connect(shown)
        docks[key] = dock
    for key, name in full_names().items():
        if key in docks:
            docks[key].toggleViewAction().setText(name)
    arrange_docks(window, docks)
    DockShares(window, docks["distribution"], docks["timeline"])
    return docks


def restore_layout(window: QMainWindow, settings: QSettings, arrange: Callable[[], None]) -> None:
    """The window's size and docks as the user left them (a layout of another version is ignored); on first
    start, or when the window as saved does not fit the screen it would open on, the screen's available area
    with the docks laid out for it (`arrange`: docks laid out for another size would be crammed)."""
    geometry, state, frame = (settings.value(f"window/{key}") for key in ("geometry", "state", "frame"))
    if (isinstance(geometry, QByteArray) and (not isinstance(frame, QRect) or fits_a_screen(frame))
            and window.restoreGeometry(geometry) and (isinstance(frame, QRect) or fits_a_screen(window.frameGeometry()))):
        if isinstance(state, QByteArray):
            window.restoreState(state, LAYOUT_VERSION)
        return
    fill_screen(window, arrange)


def save_layout(window: QMainWindow, settings: QSettings) -> None:
    settings.setValue("window/geometry", window.saveGeometry())
    settings.setValue("window/frame", window.frameGeometry())   # where it was, frame included: does it still fit?
    settings.setValue("window/state", window.saveState(LAYOUT_VERSION))
    settings.sync()
