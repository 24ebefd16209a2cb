"""*What the thinking did*: a reasoning model's answer after thinking beside the answer it gives with the block
closed at once (SessionController.answer_without_thinking: same question, seed and settings), the first token where
they part marked in both, with the model's likeliest tokens at that point on each side (protocol/thinking_effect.py)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from logitscope.protocol.thinking_effect import ThinkingEffect
from logitscope.protocol.trace import StepRecord
from logitscope.ui.common.messages import sentences
from logitscope.ui.common.tokens import candidate_piece, percent, rank_text, token_label

N_CANDIDATES = 5   # the likeliest tokens shown at the parting point


class ThinkingEffectDialog(QDialog):
    def __init__(self, effect: ThinkingEffect, vocab: Sequence[bytes], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("thinkingEffect")
        self.setWindowTitle(self.tr("What the thinking did"))
        self.effect, self.vocab = effect, vocab
        self.resize(900, 520)
        layout = QVBoxLayout(self)
        self.summary = QLabel(self._summary())
        self.summary.setObjectName("thinkingEffectSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        font = self.summary.font()
        font.setBold(True)
        self.summary.setFont(font)
        layout.addWidget(self.summary)
        grid = QGridLayout()
        sides = ((self.tr("With thinking ({0:,} thinking tokens, {1:.1f} s)").format(
                      effect.n_thinking, effect.thinking_s), effect.with_thinking),
                 (self.tr("Without thinking (the block closed at once)"), effect.without_thinking))
        self.texts: list[QTextBrowser] = []
        self.candidates: list[QLabel] = []
        for column, (title, steps) in enumerate(sides):
            heading = QLabel(title)
            heading.setTextFormat(Qt.TextFormat.PlainText)
            grid.addWidget(heading, 0, column)
            text = QTextBrowser()
            text.setHtml(self._html(steps))
            grid.addWidget(text, 1, column)
            candidates = QLabel(self._candidates(steps))
            candidates.setTextFormat(Qt.TextFormat.PlainText)
            candidates.setWordWrap(True)
            grid.addWidget(candidates, 2, column)
            self.texts.append(text)
            self.candidates.append(candidates)
        grid.setRowStretch(1, 1)
        layout.addLayout(grid, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _summary(self) -> str:
        e = self.effect
        if e.same:
            return self.tr("The same answer, token for token ({0:,} tokens): the thinking did not change it.").format(
                len(e.with_thinking))
        k = e.parting
        assert k is not None
        after, without = self._token_at(e.with_thinking, k), self._token_at(e.without_thinking, k)
        if k == 0:
            return self.tr("The answers differ from their first token: {0} after thinking, {1} without.").format(
                after, without)
        return self.tr("The answers part at answer token {0}: {1} after thinking, {2} without. The {3:,} tokens "
                       "before it are the same.").format(k + 1, after, without, k)

    def _token_at(self, steps: Sequence[StepRecord], k: int) -> str:
        return f"«{token_label(steps[k].piece)}»" if k < len(steps) else self.tr("the end")

    def _html(self, steps: Sequence[StepRecord]) -> str:
        """The answer's text; from the parting token on, marked (the token itself bold on a highlight)."""
        k = self.effect.parting
        parts = []
        for n, step in enumerate(steps):
            text = html.escape(step.text).replace("\n", "<br>")
            if k is not None and n == k:
                text = f'<b style="background-color: #f4c542; color: #000">{text or "∅"}</b>'
            elif k is not None and n > k:
                text = f'<span style="color: #7a7a7a">{text}</span>'
            parts.append(text)
        if k is not None and k >= len(steps):   # this answer ended where the other went on
            end = html.escape(self.tr("[end]"))
            parts.append(f'<b style="background-color: #f4c542; color: #000">{end}</b>')
        return "".join(parts)

    def _candidates(self, steps: Sequence[StepRecord]) -> str:
        """The model's likeliest tokens (before the samplers) at the parting point, on this side."""
        k = self.effect.parting
        if k is None or k >= len(steps):
            return ""
        step = steps[k]
        probs = step.raw_probs
        shown = " · ".join(f"{token_label(candidate_piece(step, 'raw', i, self.vocab))} {percent(float(probs[i]))}"
                           for i in range(min(N_CANDIDATES, len(step.raw_ids))))
        drawn = self.tr("Drawn there: «{0}» ({1}, rank {2}).").format(
            token_label(step.piece), percent(step.p_raw), rank_text(step.rank_raw))
        return sentences(drawn, self.tr("The model's likeliest tokens: {0}").format(shown))
