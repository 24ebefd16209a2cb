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
