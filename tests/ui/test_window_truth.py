"""The window tells the truth about what is on screen: the Memory dock and the status bar show the context of
the conversation and version shown, never another's; Score a text does not ask for a model that is loaded.
Scripted engine (fast); the KV map, which needs the real engine, is in test_kv_map_in_window.py."""

from __future__ import annotations

import pytest

from tests.helpers.window import ask

pytestmark = pytest.mark.gui


def test_score_a_text_does_not_ask_for_the_model_that_is_loaded(qtbot, scripted_window):
    dialog = scripted_window.score_dialog
    assert scripted_window.score_action.isEnabled()
    dialog.show()
    assert dialog.status.text() == dialog.ready_text() and dialog.score_button.isEnabled()
    dialog.close()
