"""The Score dialog's summary (ui/score_view.py): the text's perplexity and bits per token, and how the text was
read — one window, a sliding window, or llama-perplexity's chunks (with its estimate's ±, as the CLI prints it)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from logitscope.engine.score_api import ScoreResult
from logitscope.ui.messages import translate_message


def _tr(text: str) -> str:
    return QCoreApplication.translate("ScoreDialog", text)


def summary_html(r: ScoreResult) -> str:
    lines = [_tr("<b>Tokens</b>: {0:,} ({1:,} scored)").format(len(r.tokens), r.n_scored)]
    if r.mode == "chunks":  # llama-perplexity's "Final estimate: PPL = X +/- Y", same digits as the CLI
        lines.append(_tr("<b>Perplexity</b>: {0:.4f} ± {1:.5f} (llama-perplexity's final estimate)").format(
            r.perplexity, r.perplexity_error))
    else:
        lines.append(_tr("<b>Perplexity</b>: {0:.3f}").format(r.perplexity))
    lines.append(_tr("<b>Bits per token</b>: {0:.3f}").format(r.bits_per_token))
    lines.append(how_it_was_read(r))
    lines.extend(translate_message(n) for n in r.notices)
    return "<br>".join(lines)


def how_it_was_read(r: ScoreResult) -> str:
    contexts = [t.n_context for t in r.tokens if t.scored]
    if r.mode == "chunks":
        dropped = len(r.tokens) - r.n_passes * r.n_ctx
        return _tr("Split as llama.cpp's llama-perplexity splits it: {0:,} chunks of {1:,} tokens ({2}); only the "
                   "second half of each chunk is scored, each token predicted from {3:,} to {4:,} tokens before it. "
                   "The last {5:,} tokens do not fill a chunk and are not read.").format(
            r.n_passes, r.n_ctx, _tr("each starts with BOS") if r.bos else _tr("no BOS"),
            min(contexts, default=0), max(contexts, default=0), max(dropped, 0))
    if r.n_passes <= 1:
        return _tr("The text fits in one window of {0:,} positions: every token is predicted from all "
                   "the tokens before it.").format(r.n_ctx)
    later = [t.n_context for t in r.tokens if t.scored and t.n_context < t.i] or contexts
    return _tr("Too long for one window of {0:,} positions: read in {1:,} windows sliding by {2:,} "
               "tokens ({3}). Past the first window, each token is predicted from {4:,} to {5:,} "
               "tokens before it.").format(
        r.n_ctx, r.n_passes, r.stride, _tr("each starts with BOS") if r.bos else _tr("no BOS"),
        min(later), max(later))
