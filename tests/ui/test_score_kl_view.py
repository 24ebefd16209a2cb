"""The Score dialog's KL divergence view without a model (a comparison made by hand, tests/helpers/kl_results.py;
the window over the scripted engine): the tokens coloured by their KL on the compare window's scale, unscored
ones not at all, a top-1 that differs red and underlined; both models' five best on hover; the statistics
(llama-perplexity's block line for line from 100 tokens, the main figures and why there is no block below); the
histogram; the list of top-1 differences, a click selecting the token. And the way there: "KL divergence
with…", start_kl_comparison (the Quantize dialog's button), chunks mode, progress for both runs, Cancel."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QTextCharFormat, QTextCursor

from logitscope.base.errors import InvalidSettingsError
from logitscope.host.kl_job import LOAD_BASE, LOAD_OTHER, SCORE_BASE, SCORE_OTHER, KlJob
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.kld import MIN_STATISTICS, KldStats
from logitscope.ui.score.kl_target import KlTarget
from logitscope.ui.score.kl_widgets import kl_bins, kl_swatch
from logitscope.ui.score.view import KL_TAB, TOP_TAB
from tests.helpers.kl_results import VOCAB, kl_outcome
from tests.helpers.score_dialog import open_score_dialog, token_background

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("does not support")]  # offscreen: raise()


def _format(view, index: int) -> QTextCharFormat:
    cursor = QTextCursor(view.document())
    cursor.setPosition(view._starts[view._owners.index(index)] + 1)
    return cursor.charFormat()


def _show(dialog, outcome) -> None:
    dialog.show_result(outcome.base, outcome.other, "q8.gguf", names=("base.gguf", "q8.gguf"), vocab=outcome.vocab)


def test_the_tokens_are_coloured_by_their_kl(qtbot, scripted_window) -> None:
    dialog = open_score_dialog(qtbot, scripted_window)
    outcome = kl_outcome()
    kl = outcome.other.kl
    _show(dialog, outcome)
    assert dialog.by_kl.isEnabled() and dialog.by_kl.isChecked() and dialog.by_difference.isEnabled()
    assert dialog.view.color_by == "kl" and dialog.legend.color_by == "kl"
    shown = [t for t in outcome.base.tokens if t.text and t.i in dialog.view._owners]
    scored = [t.i for t in shown if t.i < len(kl.scored) and kl.scored[t.i]]
    unscored = [t.i for t in shown if t.i not in scored]
    assert len(scored) == int(kl.scored.sum()) and unscored   # the tokens past the last chunk too
    for i in scored:
        assert token_background(dialog.view, i) == kl_swatch(float(kl.kld[i])), i
        fmt = _format(dialog.view, i)
        differs = not kl.same_top[i]
        assert (fmt.underlineStyle() == QTextCharFormat.UnderlineStyle.WaveUnderline) == differs, i
        assert (fmt.fontWeight() == QFont.Weight.Bold) == differs, i   # red text vanished on red swatches
    for i in unscored:
        assert _format(dialog.view, i).background().style() == Qt.BrushStyle.NoBrush, i
    # the scale is log-scaled and saturates: deeper colours for more KL
    assert kl_swatch(1e-5) == kl_swatch(1e-4) != kl_swatch(1e-2) and kl_swatch(1.0) == kl_swatch(5.0)
    assert kl_swatch(1e-2).saturation() > kl_swatch(1e-3).saturation()

    # hover: KL, Δp, top-1, and both models' five best, A's from the base file, B's from its own scores
    i = next(int(i) for i in np.flatnonzero(kl.scored & ~kl.same_top))
    tip = dialog.view.tooltip(i)
    assert f"KL {kl.kld[i]:.5f} nats" in tip and f"Δp {kl.p_diff[i]:+.2%}" in tip and "top-1 differs" in tip
    assert "A: base.gguf" in tip and "B: q8.gguf" in tip and tip.count("<tr>") == 6
    first_row = tip.split("<tr>")[2]   # after the heads: A's best, then B's best
    a_best = VOCAB[int(kl.base_top_ids[i][0])].decode().replace(" ", "·")
    b_best = VOCAB[int(outcome.other.tokens[i].top_ids[0])].decode().replace(" ", "·")
    assert a_best != b_best and first_row.index(a_best) < first_row.index(b_best)
    assert f"<b>▶</b> {b_best}" in first_row   # ▶: the text's token (B's best guess here)
    same = next(int(i) for i in np.flatnonzero(kl.same_top))
    assert "same top-1" in dialog.view.tooltip(same)
    assert "not scored" in dialog.view.tooltip(unscored[0])

    # another colouring and back; a plain score takes the KL view away
    dialog.by_rank.setChecked(True)
    assert dialog.view.color_by == "rank" and dialog.legend.color_by == "rank"
    dialog.show_result(outcome.base)
    assert not dialog.by_kl.isEnabled() and dialog.view.color_by == "rank"
    assert not dialog.side_tabs.isTabVisible(KL_TAB) and not dialog.side_tabs.isTabVisible(TOP_TAB)


def test_the_statistics_histogram_and_top1_list(qtbot, scripted_window) -> None:
    dialog = open_score_dialog(qtbot, scripted_window)
    few = kl_outcome()   # 21 tokens: llama-perplexity prints no block
    _show(dialog, few)
    assert dialog.side_tabs.isTabVisible(KL_TAB) and dialog.side_tabs.currentIndex() == KL_TAB
    text = dialog.kl_stats.text.toPlainText()
    stats = KldStats.of(few.other.kl)
    assert stats.count < MIN_STATISTICS and not stats.statistics_block()
    assert f"{stats.count} tokens scored: llama-perplexity prints no statistics block below 100" in text
    assert f"Mean    KLD   : {stats.mean_kld[0]:10.6f} ± {stats.mean_kld[1]:10.6f}" in text
    assert f"Same top p    : {100 * stats.same_top[0]:6.3f}" in text

    many = kl_outcome(n_ctx=64, n_chunk=4, seed=3)   # 124 tokens: the block, exactly
    _show(dialog, many)
    kl = many.other.kl
    stats = KldStats.of(kl)
    assert stats.count >= MIN_STATISTICS
    assert dialog.kl_stats.text.toPlainText() == "\n".join(stats.statistics_block())
    assert f"{stats.mean_kld[0]:.6f}" in dialog.kl_stats.headline.text()
    assert f"{stats.mean_kld[0]:.6f} ± {stats.mean_kld[1]:.6f}" in dialog.summary.text()

    counts = dialog.kl_stats.histogram.counts
    assert counts.tolist() == kl_bins(kl).tolist() and counts.sum() == stats.count and (counts > 0).sum() >= 5
    assert dialog.kl_stats.histogram.mean == pytest.approx(stats.mean_kld[0])

    differ = [int(i) for i in np.flatnonzero(kl.scored & ~kl.same_top)]
    items = dialog.top_diffs.list
    assert [items.item(n).data(Qt.ItemDataRole.UserRole) for n in range(items.count())] == differ
    assert dialog.side_tabs.tabText(TOP_TAB) == f"Top-1 differs ({len(differ)})"
    assert f"{len(differ)} of {stats.count} scored tokens" in dialog.top_diffs.caption.text()
    pick = differ[len(differ) // 2]
    row = differ.index(pick)
    items.scrollToItem(items.item(row))
    rect = items.visualItemRect(items.item(row))
    qtbot.mouseClick(items.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert dialog.view.selected_token() == pick
    assert dialog.view.textCursor().selectedText() == many.base.tokens[pick].text
    assert dialog.top_diffs.details.text() == dialog.view.tooltip(pick) and "top-1 differs" in dialog.top_diffs.details.text()


def test_start_kl_comparison_runs_both_models_in_chunks(qtbot, scripted_window, monkeypatch) -> None:
    window = scripted_window
    dialog = window.score_dialog
    # the Quantize dialog's "Compare with the original" is this method
    assert window.quantize_dialog.compare == dialog.start_kl_comparison
    jobs: list[KlJob] = []
    monkeypatch.setattr(dialog.compare, "kl", jobs.append)
    cancels: list[bool] = []
    monkeypatch.setattr(dialog.compare, "cancel", lambda: cancels.append(True))

    dialog.start_kl_comparison("/models/base-F16.gguf", "/models/base-Q8_0.gguf")   # no text yet: it asks for one
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    assert not jobs and "then press Score" in dialog.status.text() and "at least 1,024 tokens" in dialog.status.text()
    assert dialog.picker.kl == KlTarget(other="/models/base-Q8_0.gguf", base="/models/base-F16.gguf")
    assert "base-Q8_0.gguf from base-F16.gguf" in dialog.picker.label.text()
    assert dialog.mode.currentData() == "chunks"   # switched to llama-perplexity's chunks

    dialog.mode.setCurrentIndex(dialog.mode.findData("window"))
    dialog.text.setPlainText("Some text to compare. " * 50)
    dialog.n_ctx.setValue(128)
    dialog.start_kl_comparison("/models/base-F16.gguf", "/models/base-Q8_0.gguf")
    assert dialog.mode.currentData() == "chunks" and "the mode is now llama.cpp perplexity" in dialog.status.text()
    (job,) = jobs
    assert (job.base, job.other, job.n_ctx) == ("/models/base-F16.gguf", "/models/base-Q8_0.gguf", 128)
    assert job.text == dialog.text.toPlainText() and job.other_settings == job.base_settings
    assert dialog.running and dialog.cancel_button.isEnabled() and not dialog.score_button.isEnabled()

    # progress for both runs, on one bar
    seen: list[int] = []
    for phase in (LOAD_BASE, SCORE_BASE, LOAD_OTHER, SCORE_OTHER):
        for fraction in (0.0, 0.5, 1.0):
            dialog.compare.kl_progress.emit(phase, fraction)
            seen.append(dialog.progress.value())
    assert seen == sorted(seen) and seen[0] == 0 and seen[-1] == dialog.progress.maximum()
    dialog.compare.kl_size.emit(29_540_000)
    dialog.compare.kl_progress.emit(SCORE_BASE, 0.5)
    assert dialog.status.text().startswith("1/2: scoring with base-F16.gguf") and "28.17 MiB" in dialog.status.text()
    dialog.compare.kl_progress.emit(SCORE_OTHER, 0.25)
    assert dialog.status.text() == "2/2: scoring with base-Q8_0.gguf against base-F16.gguf's distributions… 25 %"

    dialog.cancel_button.click()   # Cancel stops the comparison's engine
    assert cancels == [True]
    dialog.compare.failed.emit("cancelled")
    assert not dialog.running and dialog.status.text() == "Scoring stopped: cancelled"

    dialog.score_button.click()   # again, to the end
    assert len(jobs) == 2 and dialog.running
    dialog.compare.kl_done.emit(kl_outcome())
    assert not dialog.running and dialog.by_kl.isChecked() and dialog.view.names == ("base-F16.gguf", "base-Q8_0.gguf")
    assert "compared by KL divergence" in dialog.status.text() and "11.77 MiB" in dialog.status.text()


def test_the_kl_menu_offers_files_and_other_configurations(qtbot, scripted_window, monkeypatch) -> None:
    dialog = open_score_dialog(qtbot, scripted_window)
    jobs: list[KlJob] = []
    monkeypatch.setattr(dialog.compare, "kl", jobs.append)
    info = scripted_window.bridge.info
    assert dialog.picker.base_flash == info.load.flash_attn is False
    dialog.picker.fill_kl_menu()
    actions = {a.text(): a for a in dialog.picker.kl_menu.actions() if a.text()}
    assert "Other GGUF file…" in actions and "This model, flash attention on" in actions
    kv = actions["This model, KV cache q8_0"]
    assert not kv.isEnabled() and "needs flash attention" in kv.toolTip()   # llama.cpp would refuse it
    actions["This model, flash attention on"].trigger()
    assert dialog.picker.kl == KlTarget(flash_attn=True) and dialog.picker.path is None
    assert dialog.mode.currentData() == "chunks"
    dialog.text.setPlainText("Some text to compare. " * 50)
    dialog.score_button.click()
    (job,) = jobs
    assert job.base == job.other == info.card.path
    assert job.other_settings.flash_attn and not job.base_settings.flash_attn
    dialog.compare.failed.emit("cancelled")

    # a surprisal comparison and a KL one exclude each other; "No comparison" clears either
    dialog.picker.set_path(info.card.path)
    assert dialog.picker.kl is None
    dialog.picker.clear_button.click()
    assert dialog.picker.path is None and dialog.picker.kl is None and not dialog.picker.clear_button.isEnabled()
    with pytest.raises(InvalidSettingsError, match="needs flash attention"):
        KlTarget(kv_type="q4_0").other_settings(LoadSettings())
