"""The Causal tracing heatmaps before any run: empty axes from 0 to 1 without tick labels, never pyqtgraph's
default -500 to 500 scaled "(x0.001)"; with a matrix, whole-number layers and one tick per column."""

from __future__ import annotations

import numpy as np
import pytest

from logitscope.ui.causal.widgets import Heatmap

pytestmark = pytest.mark.gui


def test_an_empty_heatmap_has_plain_empty_axes_and_a_matrix_brings_its_ticks(qtbot):
    heatmap = Heatmap("head", "layer")
    qtbot.addWidget(heatmap)
    heatmap.resize(500, 400)
    heatmap.show()
    qtbot.waitExposed(heatmap)
    plot = heatmap.getPlotItem()
    left, bottom = plot.getAxis("left"), plot.getAxis("bottom")
    (x0, x1), (y0, y1) = plot.vb.viewRange()
    assert (x0, x1, y0, y1) == (0, 1, 0, 1)
    assert "x0.001" not in left.labelString() and "x0.001" not in bottom.labelString()
    assert left._tickLevels == [[]] and bottom._tickLevels == [[]]       # no tick labels yet
    heatmap.set_matrix(np.arange(30 * 9, dtype=float).reshape(30, 9) - 100)
    assert plot.vb.viewRange()[1][1] >= 30 and left._tickLevels is None
    assert [label for _pos, label in bottom._tickLevels[0]] == [str(i) for i in range(9)]
    assert "x0.001" not in left.labelString()
