"""The window's own state (layout, the steering list) lives in the data folder LOGITSCOPE_HOME names: another
home's control vectors showed up in a window started under a second home (both used ~/.config/Logitscope)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.gui, pytest.mark.model,   # the window starts its engine process
              pytest.mark.qt_log_ignore("does not support")]


def test_the_windows_state_is_kept_in_the_home_folder(qtbot, isolated_home):
    from logitscope.ui.main_window import MainWindow
    from logitscope.ui.window.window_settings import WINDOW_FILE, open_window_settings

    window = MainWindow()
    qtbot.addWidget(window)
    assert window.qsettings.fileName() == str(isolated_home / WINDOW_FILE)
    window.save_layout()
    window.qsettings.sync()
    assert (isolated_home / WINDOW_FILE).stat().st_size > 0
    window.close()
    assert open_window_settings().fileName() == str(isolated_home / WINDOW_FILE)


def test_without_a_home_folder_the_window_keeps_qts_per_user_settings(monkeypatch):
    from logitscope.ui.window.window_settings import open_window_settings

    monkeypatch.delenv("LOGITSCOPE_HOME", raising=False)
    settings = open_window_settings()
    assert (settings.organizationName(), settings.applicationName()) == ("Logitscope", "Logitscope")
