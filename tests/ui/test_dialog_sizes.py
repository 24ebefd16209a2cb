"""Dialogs open at the size they were designed at, or less where the screen is smaller: the Compare two models
window (1300x820) hid its Load B button, question box and Send on a 1280x720 screen."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget

from logitscope.ui.window.screen_fit import FRAME_ROOM, resize_within_screen

pytestmark = pytest.mark.gui


def test_a_dialog_larger_than_the_screen_takes_its_available_area_less_a_frame(qtbot):
    widget = QWidget()
    qtbot.addWidget(widget)
    area = widget.screen().availableGeometry()
    resize_within_screen(widget, area.width() + 500, area.height() + 300)
    assert (widget.width(), widget.height()) == (area.width() - FRAME_ROOM.width(), area.height() - FRAME_ROOM.height())
    resize_within_screen(widget, 640, 480)
    assert (widget.width(), widget.height()) == (640, 480)   # a size that fits stands


def test_settings_show_a_long_data_folder_whole(qtbot, tmp_path, monkeypatch):
    """A long data folder's path was a word-wrapped label in a form row, given half the height of its second line."""
    from logitscope.store.settings import SettingsStore
    from logitscope.ui.dialogs.settings import SettingsDialog

    home = tmp_path / "a-rather-long-folder_name_with_underscores" / "logitscope-profile_gy"
    monkeypatch.setenv("LOGITSCOPE_HOME", str(home))
    dialog = SettingsDialog(SettingsStore())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    field = dialog.data_folder
    needed = field.heightForWidth(field.width()) if field.hasHeightForWidth() else field.sizeHint().height()
    assert field.height() >= needed and field.text() == str(home)
