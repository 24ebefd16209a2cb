"""A damaged model file in the window: marked on the Models page, refused by the load dialog with the reasons."""

from __future__ import annotations

import pytest

from tests.helpers import gguf_corpus

pytestmark = pytest.mark.gui


@pytest.fixture
def damaged(tmp_path, demo_model):
    return gguf_corpus.with_metadata_patched(demo_model, tmp_path / "no-kv-heads.gguf", "llama.attention.head_count_kv", 0)


def test_the_models_page_marks_a_damaged_file(qtbot, isolated_home, demo_model):
    from logitscope.ui.models.models_window import ModelsWindow

    gguf_corpus.header_copy(demo_model, isolated_home / "models" / "cut.gguf", demo_model.stat().st_size * 99 // 100)
    w = ModelsWindow(())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: len(w.local) >= 2, timeout=20_000)
    row = next(r for r, m in enumerate(w.local) if m.name == "cut.gguf")
    cell = w.local_table.item(row, 1)
    assert cell.text() == "damaged" and "past the end of the file" in cell.toolTip()
    reason = w.local_table.item(row, 6)   # short in the cell (the reason widened the column off-screen), whole
    assert reason.text() == "cannot load" and "past the end of the file" in reason.toolTip()
    w.local_table.selectRow(row)
    assert "past the end of the file" in w.status.text()   # and said below the table for the selected row
    with qtbot.assertNotEmitted(w.loadRequested):
        w.load_selected()
    assert "past the end of the file" in w.last_error


def test_the_load_dialog_refuses_a_damaged_card(qtbot, damaged):
    from PySide6.QtWidgets import QDialog, QDialogButtonBox

    from logitscope.gguf.card import read_model_card_with_problems
    from logitscope.ui.dialogs.load_model import LoadModelDialog

    dialog = LoadModelDialog(read_model_card_with_problems(damaged), gpu_offload=False, backend="CPU")
    qtbot.addWidget(dialog)
    assert "damaged" in dialog.refusal.text() and "head_count_kv is 0" in dialog.refusal.text()
    buttons = dialog.findChild(QDialogButtonBox)
    assert buttons.button(QDialogButtonBox.StandardButton.Ok) is None  # no Load button
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted


def test_the_window_refuses_a_damaged_file_before_loading(qtbot, real_window, damaged, demo_model, monkeypatch):
    from PySide6.QtWidgets import QDialog

    from logitscope.ui.dialogs.load_model import LoadModelDialog

    assert not real_window.open_model(str(damaged), ask=False)
    assert "head_count_kv is 0" in real_window.last_error[1]
    shown = []
    monkeypatch.setattr(LoadModelDialog, "exec", lambda self: shown.append(self) or QDialog.DialogCode.Rejected)
    assert not real_window.open_model(str(damaged))
    assert shown and shown[0].card.problems  # the dialog showed the card as read, with its problems
    assert real_window.bridge.info.card.path == str(demo_model) and not real_window.bridge.busy  # nothing was loaded
