"""Shared settings for the inspector's pyqtgraph plots."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem


def cache_axes(plot: pg.PlotItem) -> None:
    """Keep each axis as a pixmap. An axis draws its grid across the whole plot, so without this it is
    painted again (tick labels included: text is the costly part) whenever anything in the plot changes,
    ten times a second while an answer streams. The pixmap is redrawn only when the axis itself changes."""
    for name in ("left", "bottom", "right", "top"):
        plot.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
