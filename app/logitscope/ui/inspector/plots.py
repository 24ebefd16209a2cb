"""Shared settings for the inspector's pyqtgraph plots."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem


def cache_axes(plot: pg.PlotItem) -> None:
    """Keep each axis as a pixmap. An axis draws its grid across the whole plot, so without this it is
    painted again (tick labels included: text is the costly part) whenever anything in the plot changes,
    ten times a second while an answer streams. The pixmap is redrawn only when the axis itself changes."""
    for name in ("left", "bottom", "right", "top"):
        plot.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)


_NICE = (1.0, 2.0, 5.0)
_LINE = 1.3   # a value's height in lines of its font: the room one label needs on a vertical axis


class SpacedAxis(pg.AxisItem):
    """A vertical axis whose values are only as close as their text allows. pyqtgraph spaces the major ticks for
    at least 2.25 intervals however short the axis, so a plot ~60 px tall (the Timeline dock at 1280x720) wrote
    "200 400 600 800" over one another; here the spacing grows (1, 2, 5 × 10ⁿ) until the labels fit."""

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:  # noqa: N802, N803
        levels: list[tuple[float, float]] = list(super().tickSpacing(minVal, maxVal, size))
        span = abs(maxVal - minVal)
        if not levels or size <= 0 or self.orientation not in ("left", "right") or self._tickSpacing is not None:
            return levels
        room = pg.QtGui.QFontMetricsF(self.style["tickFont"] or self.font()).height() * _LINE
        major = levels[0][0]
        while span / major * room > size:   # more labels than there is room for
            exponent = math.floor(math.log10(major))
            mantissa = round(major / 10 ** exponent, 6)
            bigger = [n for n in _NICE if n > mantissa]
            major = (bigger[0] if bigger else 10.0) * 10 ** exponent
        return [(major, 0.0)] + [level for level in levels[1:] if level[0] < major]
