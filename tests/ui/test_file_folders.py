"""Where the window's file dialogs open: the folder last used for the same kind of file (also after a restart:
it is kept in the window's settings), else the models folder for models and the home folder for the rest;
never the folder the app was started from."""

from __future__ import annotations

from pathlib import Path

import pytest

from logitscope.ui.window import file_folders

pytestmark = pytest.mark.gui


@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LOGITSCOPE_HOME", str(tmp_path / "logitscope"))
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    (tmp_path / "user").mkdir()
    monkeypatch.chdir(tmp_path)   # where the app was started: never a dialog's folder
    return tmp_path


def test_each_kind_starts_in_its_usual_place_then_where_it_was_last_used(homes: Path) -> None:
    assert file_folders.start(file_folders.MODEL) == str(homes / "logitscope" / "models")
    assert file_folders.start(file_folders.EXPORT, "chat.md") == str(homes / "user" / "chat.md")
    assert file_folders.start(file_folders.DOCUMENT) == str(homes / "user")
    exports = homes / "user" / "exports"
    exports.mkdir()
    assert file_folders.chosen(file_folders.EXPORT, str(exports / "chat.md")) == str(exports / "chat.md")
    assert file_folders.start(file_folders.EXPORT, "trace.jsonl") == str(exports / "trace.jsonl")
    assert file_folders.start(file_folders.DOCUMENT) == str(homes / "user")   # each kind its own
    file_folders.chosen(file_folders.DOCUMENT, "")   # a cancelled dialog changes nothing
    assert file_folders.start(file_folders.DOCUMENT) == str(homes / "user")
    exports.rmdir()   # a remembered folder that is gone: the usual place again
    assert file_folders.start(file_folders.EXPORT) == str(homes / "user")


def test_the_window_opens_the_next_dialog_where_the_last_one_picked(qtbot, scripted_window, homes, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    asked: list[str] = []
    models = homes / "elsewhere"
    models.mkdir()

    def pick(_parent, _title, folder, _filters):  # noqa: ANN001, ANN202
        asked.append(folder)
        return str(models / "not-there.gguf"), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", pick)
    scripted_window.open_model()   # the file is not there: an error box, the folder remembered all the same
    scripted_window.open_model()
    assert asked == [str(homes / "logitscope" / "models"), str(models)]
