"""The Score dialog's summary (ui/score/view.py): the text's perplexity and bits per token, and how the text was
read — one window, a sliding window, or llama-perplexity's chunks (with its estimate's ±, as the CLI prints it);
comparing two models, both side by side (and, by KL divergence, its main figures)."""

from __future__ import annotations

import math
from html import escape

import numpy as np
from PySide6.QtCore import QCoreApplication

from logitscope.protocol.kld import KldStats
from logitscope.protocol.score import ScoreResult
from logitscope.ui.common.messages import translate_sentence

translate = QCoreApplication.translate  # under this name the translation scanner finds the strings


def summary_html(r: ScoreResult) -> str:
    lines = [translate("ScoreDialog", "<b>Tokens</b>: {0:,} ({1:,} scored)").format(len(r.tokens), r.n_scored)]
    if r.mode == "chunks":  # llama-perplexity's "Final estimate: PPL = X +/- Y", same digits as the CLI
        lines.append(translate("ScoreDialog", "<b>Perplexity</b>: {0:.4f} ± {1:.5f} (llama-perplexity's final estimate)").format(
            r.perplexity, r.perplexity_error))
    else:
        lines.append(translate("ScoreDialog", "<b>Perplexity</b>: {0:.3f}").format(r.perplexity))
    lines.append(translate("ScoreDialog", "<b>Bits per token</b>: {0:.3f}").format(r.bits_per_token))
    lines.append(how_it_was_read(r))
    lines.extend(translate_sentence(n) for n in r.notices)
    return "<br>".join(lines)


def how_it_was_read(r: ScoreResult) -> str:
    contexts = [t.n_context for t in r.tokens if t.scored]
    if r.mode == "chunks":
        dropped = len(r.tokens) - r.n_passes * r.n_ctx
        return translate("ScoreDialog", "Split as llama.cpp's llama-perplexity splits it: {0:,} chunks of {1:,} tokens ({2}); only the "
                   "second half of each chunk is scored, each token predicted from {3:,} to {4:,} tokens before it. "
                   "The last {5:,} tokens do not fill a chunk and are not read.").format(
            r.n_passes, r.n_ctx, translate("ScoreDialog", "each starts with BOS") if r.bos else translate("ScoreDialog", "no BOS"),
            min(contexts, default=0), max(contexts, default=0), max(dropped, 0))
    if r.n_passes <= 1:
        return translate("ScoreDialog", "The text fits in one window of {0:,} positions: every token is predicted from all "
                   "the tokens before it.").format(r.n_ctx)
    later = [t.n_context for t in r.tokens if t.scored and t.n_context < t.i] or contexts
    return translate("ScoreDialog", "Too long for one window of {0:,} positions: read in {1:,} windows sliding by {2:,} "
               "tokens ({3}). Past the first window, each token is predicted from {4:,} to {5:,} "
               "tokens before it.").format(
        r.n_ctx, r.n_passes, r.stride, translate("ScoreDialog", "each starts with BOS") if r.bos else translate("ScoreDialog", "no BOS"),
        min(later), max(later))


def _side_by_side(a: ScoreResult, b: ScoreResult, names: tuple[str, str]) -> list[str]:
    def ppl(r: ScoreResult) -> str:
        return (f"{r.perplexity:.4f} ± {r.perplexity_error:.5f}" if r.mode == "chunks" else f"{r.perplexity:.3f}")

    # the file names above the table, not as its column heads: long names that break only at "-" took the width
    # and squeezed the row names into one (Chinese) character a line
    rows = [("", "<b>A</b>", "<b>B</b>"),
            (translate("ScoreDialog", "Perplexity"), ppl(a), ppl(b)),
            (translate("ScoreDialog", "Bits per token"), f"{a.bits_per_token:.3f}", f"{b.bits_per_token:.3f}"),
            (translate("ScoreDialog", "Tokens scored"), f"{a.n_scored:,}", f"{b.n_scored:,}")]
    table = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    ratio = b.perplexity / a.perplexity if a.perplexity > 0 else math.nan
    return [f"<b>A</b> {escape(names[0])}<br><b>B</b> {escape(names[1])}", f"<table cellspacing='6'>{table}</table>",
            translate("ScoreDialog", "B / A perplexity: {0:.3f}; B − A bits per token: {1:+.4f}").format(
                ratio, b.bits_per_token - a.bits_per_token)]


def kl_summary_html(a: ScoreResult, b: ScoreResult, stats: KldStats, names: tuple[str, str]) -> str:
    """A KL comparison: A is the base, B the compared model (scored on the chunks' tokens, against A's
    distributions); each one's perplexity as it alone scores the chunks, then the KL figures."""
    lines = _side_by_side(a, b, names)
    if stats.count:
        kld, dkld = stats.mean_kld
        top, dtop = stats.same_top
        rms, _ = stats.rms_p_diff
        lines.append(translate("ScoreDialog", "<b>KL divergence</b> of B from A: mean {0:.6f} ± {1:.6f} nats, median "
                               "{2:.6f}, largest {3:.4f}; the same top-1 for {4:.3%} ± {5:.3%} of the tokens; RMS Δp "
                               "{6:.3%}.").format(kld, dkld, stats.kld_median, float(stats.kld_sorted[-1]), top, dtop,
                                                  rms))
    lines.append(how_it_was_read(a))
    lines.extend(translate_sentence(n) for n in a.notices + b.notices)
    return "<br>".join(lines)


def compare_html(a: ScoreResult, b: ScoreResult, names: tuple[str, str]) -> str:
    """Both models' figures side by side, and how their surprisal differs token by token."""
    diffs = np.array([tb.bits - ta.bits for ta, tb in zip(a.tokens, b.tokens, strict=True) if ta.scored and tb.scored])
    lines = _side_by_side(a, b, names)
    if diffs.size:
        lines.append(translate("ScoreDialog", "Per token, B − A surprisal: mean |difference| {0:.3f} bits, largest {1:+.2f} / {2:+.2f} bits; "
                         "B was less surprised by {3:,} tokens, more by {4:,}.").format(
            float(np.mean(np.abs(diffs))), float(diffs.min()), float(diffs.max()), int((diffs < 0).sum()),
            int((diffs > 0).sum())))
    lines.append(how_it_was_read(a))
    lines.extend(translate_sentence(n) for n in a.notices + b.notices)
    return "<br>".join(lines)

