"""The Edit message dialog: an emptied message cannot be sent (its button and Ctrl+Enter do nothing; before, the
dialog closed and nothing was sent, without a word)."""

from __future__ import annotations

import pytest

from logitscope.ui.dialogs.edit_message import EditMessageDialog

pytestmark = pytest.mark.gui


def test_an_emptied_message_cannot_be_sent(qtbot):
    dialog = EditMessageDialog("What is the capital of France?")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.send_button.isEnabled()
    dialog.editor.setPlainText("  \n ")
    assert not dialog.send_button.isEnabled() and dialog.send_button.toolTip()
    dialog.send()                                               # what Ctrl+Enter and the button run
    assert dialog.isVisible() and dialog.result() == 0          # still open: nothing sent, nothing lost
    dialog.editor.setPlainText("What is the capital of Italy?")
    assert dialog.send_button.isEnabled()
    dialog.send_button.click()
    assert not dialog.isVisible() and dialog.result() == 1 and dialog.text() == "What is the capital of Italy?"
