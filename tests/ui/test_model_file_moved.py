"""The model file moved or deleted while it is loaded (llama.cpp keeps it mapped): the answers go on and are saved
with the identity the file had when it loaded. Sending used to fail inside the history's bookkeeping (an uncaught
StoreError), leaving an empty bubble, an answerless question and, after a reload, a broken message tree."""

from __future__ import annotations

import pytest

from logitscope.base.errors import StoreError
from logitscope.session.history import ChatHistory
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity

pytestmark = pytest.mark.gui


def test_an_answer_after_the_model_file_went_is_saved_as_the_file_loaded(qtbot, scripted_window, monkeypatch):
    window = scripted_window
    loaded = window.models.identity()
    assert loaded is not None and loaded.head_sha256

    def gone(cls, path):  # noqa: ANN001, ANN202
        raise StoreError("cannot read the model file {path}: {exc}", path=path, exc="No such file or directory")

    monkeypatch.setattr(ModelIdentity, "of_file", classmethod(gone))
    session = window.session
    with qtbot.waitSignal(session.answerEnded, timeout=10_000):
        assert session.send("Hello after the file went")
    answer = session.current.turns[0].answer
    assert answer is not None and answer.status == "done" and answer.text
    again = ChatHistory(HistoryStore(session.history.store.path))
    try:
        (saved,) = again.conversations()
        again.fill(saved)
        assert [a.text for a in saved.turns[0].answers] == [answer.text]
    finally:
        again.close()
    assert window.models.identity() == loaded

