"""The compare widgets read right: the steering KL chart before and after its data arrives (a running comparison showed
an axis from -400 to 400 labelled "(x0.001)", the y label clipped), the distribution tables' token column."""

from __future__ import annotations

import numpy as np
import pytest

from logitscope.ui.steering.compare_widgets import KlPlot

pytestmark = pytest.mark.gui


def test_the_kl_chart_is_empty_and_plain_before_data_and_fits_it_after(qtbot) -> None:
    chart = KlPlot()
    qtbot.addWidget(chart)
    chart.resize(500, 200)
    chart.show()
    plot = chart.getPlotItem()
    (x0, x1), (y0, y1) = plot.viewRange()
    assert -1 <= x0 and x1 <= 1 and y0 == 0 and y1 <= 0.2
    chart.show_kl(np.array([0.001, 0.004, 0.002]), parted=1)   # small values: no SI prefix on either axis
    qtbot.wait(50)
    for side in ("left", "bottom"):
        assert "x0.001" not in plot.getAxis(side).labelString() and "(x" not in plot.getAxis(side).labelString()
    (x0, x1), _ = plot.viewRange()
    assert x0 < 0 < 2 < x1 < 3


def test_a_distribution_table_gives_the_token_the_room(qtbot) -> None:
    from logitscope.ui.steering.compare_widgets import DistributionTable

    table = DistributionTable()
    qtbot.addWidget(table)
    table.resize(330, 200)   # a third of the Causal tracing dialog
    table.show()
    vocab = [b"<|im_end|>", b" Paris"]
    table.show_top(np.array([0, 1]), np.log(np.array([0.6, 0.3])), vocab, {1})
    qtbot.wait(50)
    token = table.item(0, 1).text()
    room = table.columnWidth(1) - 2 * table.style().pixelMetric(table.style().PixelMetric.PM_FocusFrameHMargin) - 8
    assert table.fontMetrics().horizontalAdvance(token) <= room, (token, table.columnWidth(1))
    assert table.columnWidth(2) < table.columnWidth(1)   # p, as wide as its figures


def test_the_two_columns_distribution_tables_stay_level(qtbot) -> None:
    from PySide6.QtWidgets import QHBoxLayout, QWidget

    from logitscope.ui.compare.inspector import TwoDistributions

    holder = QWidget()
    qtbot.addWidget(holder)
    row = QHBoxLayout(holder)
    a, b = TwoDistributions("A (its trace)", "B, reading A's tokens"), TwoDistributions("B (its trace)", None)
    row.addWidget(a)
    row.addWidget(b)
    holder.resize(1200, 300)
    holder.show()
    a.right_note.setText("B's top-1 differs from A's here.")   # B's sat ~20 px lower then
    qtbot.wait(50)
    assert a.left.geometry().top() == b.left.geometry().top()
    assert a.left.geometry().height() == b.left.geometry().height()


def _contrast(a, b) -> float:  # noqa: ANN001 - QColor
    """WCAG's contrast ratio of two opaque colours."""
    def lum(c) -> float:  # noqa: ANN001
        def ch(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_kl_coloured_tokens_read_in_the_dark_theme_too(qtbot) -> None:
    """Dark grey text on a half-transparent orange over the dark window read poorly, and a token of ~0 KL (no
    swatch) had dark grey text on the dark window itself."""
    from PySide6.QtGui import QColor, QTextFormat

    from logitscope.protocol.kld import KlTokens
    from logitscope.ui.compare.token_view import CompareTokenView
    from logitscope.ui.window.theme import dark_palette

    Prop = QTextFormat.Property  # noqa: N806 - Qt's enum
    for palette in (dark_palette(), None):
        view = CompareTokenView()
        qtbot.addWidget(view)
        if palette is not None:
            view.setPalette(palette)
        base = view.palette().color(view.backgroundRole() if palette is None else palette.ColorRole.Base)
        kl = KlTokens.empty(5)
        kl.kld[:] = [0.0, 0.002, 0.05, 0.5, 5.0]
        kl.scored[:] = True
        kl.same_top[:] = True
        view.kl = kl
        for i in range(5):
            fmt = view.token_format(i)
            swatch = fmt.background().color() if fmt.hasProperty(Prop.BackgroundBrush) else QColor(0, 0, 0, 0)
            a = swatch.alphaF()
            shown = QColor.fromRgbF(*(a * s + (1 - a) * b for s, b in zip(swatch.getRgbF()[:3], base.getRgbF()[:3],
                                                                          strict=True)))
            text = fmt.foreground().color() if fmt.hasProperty(Prop.ForegroundBrush) else view.palette().color(
                view.foregroundRole())
            assert _contrast(text, shown) >= 4.5, (palette is not None, i, text.name(), shown.name())
