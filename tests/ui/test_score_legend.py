"""The Score dialog's colour legend: every swatch holds its words (the bold "top-1 differs" of the KL legend was
cut at both ends at 1280x720, where every swatch had the same width), in English and in each colouring."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont, QFontMetrics

from logitscope.ui.score.widgets import ScoreLegend

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("color_by", ["rank", "probability", "difference", "kl"])
def test_every_swatch_holds_its_words_at_the_legends_narrowest(qtbot, color_by):
    legend = ScoreLegend()
    qtbot.addWidget(legend)
    legend.set_color_by(color_by)
    names, colors = legend.names_and_colors()
    assert len(names) == len(colors)
    bold = QFont(legend.font())
    bold.setBold(True)
    advance = QFontMetrics(bold).horizontalAdvance
    width = legend.minimumSizeHint().width()   # the least its layout gives it
    assert width >= sum(advance(n) for n in names)
    rect = legend.rect().adjusted(0, 0, width - legend.width(), 0)
    swatches = legend.swatches(rect, names)
    assert all(swatch.width() >= advance(name) for name, swatch in zip(names, swatches, strict=True))
    assert swatches[-1].right() <= rect.right() + 1 and all(a.right() < b.left() for a, b in zip(swatches, swatches[1:], strict=False))
