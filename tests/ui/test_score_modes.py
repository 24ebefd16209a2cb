"""The Score dialog's modes: llama.cpp's perplexity protocol in the window gives the same
figures as `logitscope score --chunks` (which reproduces llama-perplexity) on the same text, model and settings,
and the summary says how the text was split. Real window, real engine, demo model."""

from __future__ import annotations

import json

import pytest

from tests.helpers.cli import run
from tests.helpers.data import score_text_start
from tests.helpers.score_dialog import SCORE_TIMEOUT_MS, open_score_dialog

CHUNK = 256


def test_chunks_mode_gives_the_clis_llama_perplexity_figures(qtbot, real_window, demo_model, tmp_path) -> None:
    # four chunks: the window's figures against the CLI's on the same text (the whole text's against
    # llama-perplexity's are tests/cli/test_score_cli.py's)
    text = score_text_start(tmp_path)
    dialog = open_score_dialog(qtbot, real_window)
    assert dialog.open_file(str(text))
    dialog.mode.setCurrentIndex(dialog.mode.findData("chunks"))
    assert dialog.ctx_label.text() == "Chunk"
    dialog.n_ctx.setValue(CHUNK)
    dialog.score_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=4 * SCORE_TIMEOUT_MS)
    result = dialog.scored
    assert result is not None, dialog.status.text()

    # the same engine settings as the window's model: flash attention off, all cores (the CLI's defaults)
    assert not real_window.bridge.info.load.flash_attn
    proc = run("score", "--model", str(demo_model), str(text), "--chunks", "--n-ctx", str(CHUNK), "--json",
               timeout=900)
    assert proc.returncode == 0, proc.stderr
    cli = json.loads(proc.stdout.splitlines()[-1])
    n_chunks = cli["n_passes"]
    assert result.mode == "chunks" and result.n_passes == n_chunks >= 3
    assert result.n_scored == cli["n_scored"] and len(result.tokens) == cli["n_tokens"]
    assert result.perplexity == pytest.approx(cli["perplexity"], abs=2e-6)
    assert result.perplexity_error == pytest.approx(cli["perplexity_error"], abs=2e-6)

    summary = dialog.summary.text()
    assert f"{result.perplexity:.4f} ± {result.perplexity_error:.5f} (llama-perplexity's final estimate)" in summary
    dropped = len(result.tokens) - n_chunks * CHUNK
    assert f"{n_chunks} chunks of {CHUNK} tokens (each starts with BOS)" in summary or \
        f"{n_chunks} chunks of {CHUNK} tokens (no BOS)" in summary
    assert "only the second half of each chunk is scored" in summary
    assert f"The last {dropped:,} tokens do not fill a chunk" in summary
    # every scored token is in a chunk's second half: predicted from at least half a chunk
    assert min(t.n_context for t in result.tokens if t.scored) >= CHUNK // 2


def test_chunks_mode_on_a_short_text_says_why_in_one_line(qtbot, real_window) -> None:
    dialog = open_score_dialog(qtbot, real_window)
    dialog.text.setPlainText("A short text: far fewer tokens than two chunks.")
    dialog.mode.setCurrentIndex(dialog.mode.findData("chunks"))
    dialog.n_ctx.setValue(CHUNK)
    dialog.score_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=SCORE_TIMEOUT_MS)
    status = dialog.status.text()
    assert dialog.scored is None and "needs at least 512 tokens" in status and "\n" not in status
    assert "--" not in status   # the window's words, not a command line flag
    dialog.mode.setCurrentIndex(dialog.mode.findData("window"))
    assert dialog.ctx_label.text() == "Window"
