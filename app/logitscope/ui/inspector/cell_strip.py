"""A wrapped strip of KV cells that its subclasses colour (the KV cache map, the beam search's cells): the
geometry, the free cells' background, a tooltip per cell, and legend swatches in the same style."""

from __future__ import annotations

from math import ceil

from PySide6.QtCore import QEvent, QPoint, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from logitscope.ui.inspector.cell_tooltip import cell_tooltip

MIN_CELL_PX = 4      # the narrowest a cell is drawn; a context too long for that shares a pixel column
ROW_PX, GAP_PX = 6, 2
MAX_ROWS = 16        # past this, rows hold more cells instead of growing the dock
SWATCH_PX = 12
HATCH_COLOR = QColor(255, 255, 255, 170)
FREE_TINT = 0.15


class CellStrip(QWidget):
    """n_ctx cells, row after row, left to right; subclasses paint the cells in use over the free ones."""

    painted = Signal()  # it is on screen: a tab raised, a dock shown, scrolled into view

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.n_ctx = 0
        self.setMinimumHeight(ROW_PX)

    # -- geometry: cell i sits in row i // per_row --------------------------------------------------------
    def _per_row(self, width: int) -> int:
        if self.n_ctx <= 0:
            return 1
        rows = min(MAX_ROWS, max(1, ceil(self.n_ctx * MIN_CELL_PX / max(width, 1))))
        return ceil(self.n_ctx / rows)

    def _rows(self, width: int) -> int:
        return ceil(self.n_ctx / self._per_row(width)) if self.n_ctx else 1

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self._rows(width) * (ROW_PX + GAP_PX)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(400, self.heightForWidth(400))

    def _rects(self, start: int, count: int) -> list[QRectF]:
        """The rectangles cells [start, start + count) cover, one per row they touch."""
        per_row = self._per_row(self.width())
        cell_w = self.width() / per_row
        rects = []
        position, end = start, start + count
        while position < end:
            row, column = divmod(position, per_row)
            take = min(end - position, per_row - column)
            rects.append(QRectF(column * cell_w, row * (ROW_PX + GAP_PX), take * cell_w, ROW_PX))
            position += take
        return rects

    def paint_free(self, painter: QPainter) -> None:
        """Every cell in the free colour; the cells in use are painted over it."""
        color = free_color(self.palette())
        for rect in self._rects(0, self.n_ctx):
            painter.fillRect(rect, color)

    # -- what a cell holds, on hover ----------------------------------------------------------------------
    def cell_at(self, point: QPoint) -> int | None:
        per_row = self._per_row(self.width())
        row = int(point.y() // (ROW_PX + GAP_PX))
        cell = row * per_row + int(point.x() * per_row / max(self.width(), 1))
        return cell if 0 <= cell < self.n_ctx and point.x() >= 0 else None

    def tooltip_at(self, cell: int) -> str:
        raise NotImplementedError

    def event(self, event: QEvent) -> bool:
        return cell_tooltip(self, event, self.cell_at, self.tooltip_at) or super().event(event)


def free_color(palette: QPalette) -> QColor:
    """A free cell: the dock's background with FREE_TINT of its text colour mixed in (the alternate base
    colour the cells had is the dark theme's window colour itself: free cells vanished there)."""
    back, text = palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.WindowText)
    mix = [round(b + (t - b) * FREE_TINT) for b, t in
           ((back.red(), text.red()), (back.green(), text.green()), (back.blue(), text.blue()))]
    return QColor(*mix)


def swatch(color: str, hatched: bool = False) -> QPixmap:
    pixmap = QPixmap(SWATCH_PX, SWATCH_PX)
    pixmap.fill(QColor(color))
    if hatched:
        painter = QPainter(pixmap)
        painter.fillRect(pixmap.rect(), QBrush(HATCH_COLOR, Qt.BrushStyle.BDiagPattern))
        painter.end()
    return pixmap


def legend_entry(color: str, text: str, hatched: bool = False) -> QWidget:
    entry = QWidget()
    row = QHBoxLayout(entry)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(4)
    label = QLabel()
    label.setPixmap(swatch(color, hatched))
    row.addWidget(label)
    row.addWidget(QLabel(text), 1)
    return entry
