"""The Score dialog in the real window, on the real engine (demo model): opened from its menu action, the text
is scored on the bridge's worker with a progress bar, and what it shows (token count, perplexity, each token's
rank on hover, the histogram) is what EngineClient.score returns for the same text. Bad input says so in one
line and nothing crashes; without a model the action is disabled with the reason."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from logitscope.protocol.score import ScoreRequest, ScoreResult, rank_bucket
from logitscope.ui.common.tokens import rank_text
from logitscope.ui.score.view import SHORTCUT
from logitscope.ui.score.widgets import BUCKET_COLORS, token_color, tooltip_html
from tests.helpers.score_dialog import SCORE_TIMEOUT_MS, SCORED_TEXT, open_score_dialog, token_background


def _reference(qtbot, window, request: ScoreRequest) -> ScoreResult:
    """The same text scored by EngineClient.score, through the bridge's worker (the engine is not thread-safe)."""
    got: list[ScoreResult] = []
    window.bridge.call(lambda client: client.score(request), done=got.append)
    qtbot.waitUntil(lambda: bool(got), timeout=SCORE_TIMEOUT_MS)
    return got[0]


def test_score_a_text_in_the_real_window(qtbot, real_window) -> None:
    assert real_window.score_action.shortcut().toString() == SHORTCUT
    assert real_window.score_action.isEnabled()
    dialog = open_score_dialog(qtbot, real_window)
    progress: list[float] = []
    dialog.progressed.connect(progress.append)
    dialog.text.setPlainText(SCORED_TEXT)
    dialog.score_button.click()
    assert dialog.running and dialog.progress.isVisible()  # on the worker: the GUI is free meanwhile
    qtbot.waitUntil(lambda: not dialog.running, timeout=SCORE_TIMEOUT_MS)
    result = dialog.scored
    assert result is not None, dialog.status.text()
    assert progress and progress[-1] == 1.0

    expected = _reference(qtbot, real_window, ScoreRequest(text=SCORED_TEXT, n_ctx=dialog.n_ctx.value()))
    assert len(result.tokens) == len(expected.tokens) and result.n_scored == expected.n_scored
    summary = dialog.summary.text()
    assert f"{len(expected.tokens):,} ({expected.n_scored:,} scored)" in summary
    assert f"{expected.perplexity:.3f}" in summary and f"{expected.bits_per_token:.3f}" in summary
    assert "fits in one window" in summary

    # hovering a token: its rank, its p and its alternatives
    token = next(t for t in result.tokens if t.scored and t.text.strip() and t.rank > 0)
    tip = tooltip_html(token, real_window.bridge.vocab)
    assert f"rank {rank_text(token.rank)}" in tip and "<table>" in tip
    rect = dialog.view.token_rect(token.i)
    assert dialog.view.token_at(rect.center()) == token.i  # the mouse finds the token it is on

    counts = dialog.histogram.counts
    assert sum(counts.values()) == expected.n_scored and counts == expected.rank_buckets()

    # every scored token wears its GLTR bucket's colour
    shown = [t for t in result.tokens if t.scored and t.text]
    assert {t.i: token_background(dialog.view, t.i) for t in shown} == {
        t.i: QColor(BUCKET_COLORS[rank_bucket(t.rank)]) for t in shown}
    # colour by probability instead, then back to ranks: the same tokens, other colours
    first = dialog.view.document().toPlainText()
    dialog.by_probability.setChecked(True)
    assert dialog.view.color_by == "probability" and dialog.legend.color_by == "probability"
    assert dialog.view.document().toPlainText() == first
    assert token_background(dialog.view, token.i) == token_color(token, "probability")
    dialog.by_rank.setChecked(True)
    assert dialog.view.color_by == "rank"


def test_a_long_text_is_windowed_and_says_how(qtbot, real_window) -> None:
    dialog = open_score_dialog(qtbot, real_window)
    dialog.text.setPlainText(SCORED_TEXT * 4)
    dialog.n_ctx.setValue(32)
    dialog.score_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=SCORE_TIMEOUT_MS)
    result = dialog.scored
    assert result is not None and result.n_passes > 1, dialog.status.text()
    assert f"read in {result.n_passes:,} windows sliding by {result.stride:,} tokens" in dialog.summary.text()


def test_bad_input_says_so_in_one_line(qtbot, real_window, tmp_path) -> None:
    dialog = open_score_dialog(qtbot, real_window)
    dialog.text.setPlainText("   \n ")
    dialog.score_button.click()
    assert not dialog.running and dialog.status.text() == "The text to score is empty"
    assert dialog.scored is None

    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("café crème".encode("latin-1"))
    dialog.text.setPlainText("kept")
    assert not dialog.open_file(str(latin1))
    assert "is not UTF-8 text" in dialog.status.text() and "\n" not in dialog.status.text()
    assert dialog.text.toPlainText() == "kept"  # the box is left as it was

    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert not dialog.open_file(str(empty))
    assert dialog.status.text() == "empty.txt holds no text to score."

    good = tmp_path / "good.txt"
    good.write_text("Un texte en français.", encoding="utf-8")
    assert dialog.open_file(str(good)) and dialog.text.toPlainText() == "Un texte en français."


@pytest.mark.model
def test_without_a_model_the_action_says_why(qtbot, bare_window) -> None:
    action = bare_window.score_action
    assert not action.isEnabled()
    assert action.statusTip() == "Load a model to score a text."
    assert not bare_window.score_dialog.score_button.isEnabled()


def test_cancel_stops_scoring_and_the_dialog_scores_again(qtbot, real_window) -> None:
    dialog = open_score_dialog(qtbot, real_window)
    progress: list[float] = []
    dialog.progressed.connect(progress.append)
    dialog.text.setPlainText(SCORED_TEXT * 40)  # about 1,500 tokens in 32-position windows: many passes to stop between
    dialog.n_ctx.setValue(32)
    dialog.score_button.click()
    qtbot.waitUntil(lambda: bool(progress) or not dialog.running, timeout=SCORE_TIMEOUT_MS)
    dialog.cancel_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=SCORE_TIMEOUT_MS)
    assert dialog.scored is None and dialog.status.text().startswith("Scoring stopped:")
    assert "\n" not in dialog.status.text() and progress[-1] < 1.0
    assert dialog.score_button.isEnabled() and not dialog.progress.isVisible()
    dialog.text.setPlainText(SCORED_TEXT)
    dialog.score_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=SCORE_TIMEOUT_MS)
    assert dialog.scored is not None, dialog.status.text()


def test_a_remote_engine_cannot_score_and_says_why(qtbot, real_window, real_server) -> None:
    from logitscope.host.remote import RemoteEngine

    assert real_window.score_action.isEnabled()
    with qtbot.waitSignal(real_window.bridge.remoteConnected, timeout=30_000):
        real_window.connect_server(RemoteEngine(real_server.url, api_key=real_server.api_key))
    qtbot.waitUntil(lambda: not real_window.bridge.busy, timeout=10_000)
    assert not real_window.score_action.isEnabled()
    assert real_window.score_action.statusTip().startswith("Scoring needs a local model")
    assert not real_window.score_dialog.score_button.isEnabled()
    assert real_window.score_dialog.status.text().startswith("Scoring needs a local model")
