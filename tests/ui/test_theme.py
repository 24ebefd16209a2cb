"""Themes apply at once: plots already drawn change colour, disabled widgets look disabled."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QPalette

pytestmark = pytest.mark.gui


def _plots(window) -> list[pg.GraphicsView]:
    return window.findChildren(pg.GraphicsView)


@pytest.mark.model
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_switching_theme_repaints_plots_and_dims_disabled_widgets(qtbot, bare_window, theme):
    window = bare_window
    other = "light" if theme == "dark" else "dark"
    window.app_settings.update_app(theme=other)
    window.open_settings(accept=True)
    before = {id(v): v.backgroundBrush().color().lightness() for v in _plots(window)}
    window.app_settings.update_app(theme=theme)
    window.open_settings(accept=True)
    assert window.dark == (theme == "dark")
    plots = _plots(window)
    assert len(plots) >= 3  # the waterfall's two plots and the timeline
    for view in plots:
        lightness = view.backgroundBrush().color().lightness()
        assert (lightness < 80) if theme == "dark" else (lightness > 200), (theme, lightness)
        assert lightness != before[id(view)]
        for item in view.scene().items():
            if isinstance(item, pg.AxisItem):  # axis text readable on the new background
                assert abs(item.textPen().color().lightness() - lightness) > 100
    assert window.chat.dark == (theme == "dark")
    # a disabled button's text differs from an enabled one's (no model: Send is disabled, New is not)
    assert not window.send_button.isEnabled() and window.sidebar.new_button.isEnabled()
    enabled = window.sidebar.new_button.palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.ButtonText)
    disabled = window.send_button.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText)
    assert abs(enabled.lightness() - disabled.lightness()) > 40, (enabled.name(), disabled.name())
    field = window.search_box.palette()
    assert field.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text) != field.color(
        QPalette.ColorGroup.Active, QPalette.ColorRole.Text)
    window.app_settings.update_app(theme="light")
    window.open_settings(accept=True)


@pytest.mark.model
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_free_kv_cells_stand_out_from_the_dock_in_either_theme(qtbot, bare_window, theme):
    """The KV map's free cells were the alternate base colour: the dark theme's window colour itself."""
    from logitscope.ui.inspector.cell_strip import free_color

    window = bare_window
    window.app_settings.update_app(theme=theme)
    window.open_settings(accept=True)
    palette = window.palette()
    back = palette.color(QPalette.ColorRole.Window)
    assert abs(free_color(palette).lightness() - back.lightness()) >= 20, (theme, free_color(palette).name(), back.name())


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_an_unchecked_box_and_radio_button_show_in_either_theme(qtbot, qapp, theme):
    """Fusion edges a check box in the window colour darkened: on the dark palette that was the box's own fill, so
    an unchecked box (Flash attention in the load dialog, the View menu's toggles) could not be seen."""
    from PySide6.QtWidgets import QCheckBox, QRadioButton, QStyle, QStyleOptionButton

    from logitscope.ui.window.theme import apply_theme

    apply_theme(qapp, theme)
    try:
        for button, element in ((QCheckBox("Flash attention"), QStyle.SubElement.SE_CheckBoxIndicator),
                                (QRadioButton("One"), QStyle.SubElement.SE_RadioButtonIndicator)):
            qtbot.addWidget(button)
            button.show()
            option = QStyleOptionButton()
            button.initStyleOption(option)
            box = button.style().subElementRect(element, option, button)
            image = button.grab().toImage()
            ratio = image.width() / button.width()   # device pixels
            background = image.pixelColor(image.width() - 2, image.height() // 2).lightness()
            edge = [image.pixelColor(round((box.left() + dx) * ratio), round((box.top() + k) * ratio)).lightness()
                    for k in range(3, box.height() - 3) for dx in (0, 1, 2)]   # its left edge, where it is drawn
            assert max(abs(v - background) for v in edge) >= 40, (theme, edge, background)
    finally:
        apply_theme(qapp, "light")


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_models_pages_verdicts_read_in_either_theme(qtbot, qapp, isolated_home, theme):
    """'Fits' and 'does not fit' are coloured words: at least 4.5:1 against the table in either theme (the light
    theme's green read at ~3:1 on the dark one)."""
    from PySide6.QtGui import QColor

    from logitscope.ui.models.models_window import ModelsWindow
    from logitscope.ui.window.theme import apply_theme

    def luminance(color: QColor) -> float:
        def channel(c: float) -> float:
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF())

    apply_theme(qapp, theme)
    try:
        window = ModelsWindow(())
        qtbot.addWidget(window)
        base = luminance(window.local_table.palette().color(QPalette.ColorRole.Base))
        for verdict in ("fits", "tight", "does not fit"):
            text = luminance(QColor(window.verdict_color(verdict)))
            contrast = (max(text, base) + 0.05) / (min(text, base) + 0.05)
            assert contrast >= 4.5 if verdict != "tight" else contrast >= 3.0, (theme, verdict, contrast)
    finally:
        apply_theme(qapp, "light")
