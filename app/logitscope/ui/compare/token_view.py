"""One column's answer as tokens: streamed in, then coloured by KL(A || B) per token once B has read A's tokens,
the tokens whose top-1 differs underlined, the first of them marked; a click on a token says which."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextBrowser, QWidget

from logitscope.protocol.kld import KlTokens
from logitscope.protocol.trace import StepRecord, piece_text
from logitscope.ui.compare.scale import FIRST_COLOR, FIRST_MARK, SWATCH_TEXT, kl_color
from logitscope.ui.window.theme import is_dark

ANCHOR = "token:"


def shown_text(step: StepRecord) -> str:
    """What a token shows: its text; an end-of-generation token (no text, whole bytes) its piece in ⟨ ⟩; a part
    of a character nothing (the character comes with the token that completes it)."""
    if step.text or not step.piece:
        return step.text
    try:
        step.piece.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    return "⟨" + piece_text(step.piece).strip() + "⟩"


class CompareTokenView(QTextBrowser):
    tokenClicked = Signal(int)    # index of the answer's token

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._clicked)
        self.steps: list[StepRecord] = []
        self.kl: KlTokens | None = None
        self.first_divergence = -1
        self.selected = -1

    def clear_answer(self) -> None:
        self.steps, self.kl, self.first_divergence, self.selected = [], None, -1, -1
        self.clear()

    def append_steps(self, steps: Sequence[StepRecord]) -> None:
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        for step in steps:
            self._insert(cursor, len(self.steps), step)
            self.steps.append(step)
        self.ensureCursorVisible()

    def set_kl(self, kl: KlTokens | None, first_divergence: int = -1) -> None:
        """Colour the tokens by `kl` (index = answer token), or take the colours away (None)."""
        self.kl, self.first_divergence = kl, first_divergence
        self._rebuild()

    def select(self, index: int) -> None:
        self.selected = index
        self._rebuild()

    def _rebuild(self) -> None:
        bar = self.verticalScrollBar().value()
        self.clear()
        cursor = QTextCursor(self.document())
        for i, step in enumerate(self.steps):
            self._insert(cursor, i, step)
        self.verticalScrollBar().setValue(bar)

    def token_format(self, i: int) -> QTextCharFormat:
        fmt = QTextCharFormat()
        fmt.setAnchor(True)
        fmt.setAnchorHref(f"{ANCHOR}{i}")
        kl = self.kl
        if kl is not None and i < len(kl.kld) and kl.scored[i]:
            swatch = kl_color(float(kl.kld[i]), is_dark(self.palette()))
            fmt.setBackground(swatch)
            if swatch.alpha():   # dark text on the swatch; none (KL ~0): the theme's own text colour
                fmt.setForeground(QColor(SWATCH_TEXT))
            tip = self.tr("KL {0:.4f} nats · Δp {1:+.3f} · top-1 {2}").format(
                float(kl.kld[i]), float(kl.p_diff[i]), self.tr("same") if kl.same_top[i] else self.tr("differs"))
            fmt.setToolTip(tip)
            if not kl.same_top[i]:   # bold, a wavy underline in the text's colour: red text vanished on red swatches
                fmt.setFontWeight(QFont.Weight.Bold)
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
                fmt.setUnderlineColor(QColor(SWATCH_TEXT))
        if i == self.selected:
            fmt.setFontWeight(700)
            fmt.setFontUnderline(True)
        return fmt

    def _insert(self, cursor: QTextCursor, i: int, step: StepRecord) -> None:
        if i == self.first_divergence:
            mark = QTextCharFormat()
            mark.setForeground(QColor(FIRST_COLOR))
            mark.setFontWeight(700)
            mark.setToolTip(self.tr("The first token where B would have chosen differently"))
            cursor.insertText(FIRST_MARK, mark)
        cursor.insertText(shown_text(step), self.token_format(i))

    def _clicked(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith(ANCHOR):
            index = int(text[len(ANCHOR):])
            self.select(index)
            self.tokenClicked.emit(index)
