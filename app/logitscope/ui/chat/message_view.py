"""One assistant answer: tokens streamed in (optionally coloured by probability), Markdown when done.

Each token is inserted at the end of the document with an anchor `step:N`, so hovering shows that
step's alternatives and clicking selects it; inserting at the end costs the same at token 10,000 as at
token 10 (measured by `python -m logitscope.ui.bench_chat`).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QTextCharFormat, QTextCursor, QTextOption
from PySide6.QtWidgets import QMenu, QSizePolicy, QTextBrowser, QToolTip, QWidget

from logitscope.engine.trace import StepRecord
from logitscope.ui.tokens import probability_color, rank_color, token_label

ALTERNATIVES_SHOWN = 8


class TokenTextView(QTextBrowser):
    stepClicked = Signal(int)
    forkRequested = Signal(int, int)       # step index, token id
    forkOtherRequested = Signal(int)        # step index: ask the user for a token

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setOpenLinks(False)
        self.setMouseTracking(True)
        self.setFrameShape(QTextBrowser.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.document().setDocumentMargin(6)
        self.document().documentLayout().documentSizeChanged.connect(self._fit_height)
        self.steps: list[StepRecord] = []
        self.vocab: Sequence[bytes] = ()
        self.heatmap = False
        self.color_by = "probability"
        self.dark = False
        self.markdown_text: str | None = None
        self._cursor = QTextCursor(self.document())
        self._hover_step = -1

    # -- content -----------------------------------------------------------------------------------
    def _format(self, step: StepRecord) -> QTextCharFormat:
        fmt = QTextCharFormat()
        fmt.setAnchor(True)
        fmt.setAnchorHref(f"step:{step.i}")
        fmt.setForeground(self.palette().text())
        if self.heatmap:
            color = (probability_color(step.p_raw, self.dark) if self.color_by == "probability"
                     else rank_color(step.rank_raw, self.dark))
            fmt.setBackground(color)
        return fmt

    def append_steps(self, steps: Sequence[StepRecord]) -> None:
        if self.markdown_text is not None:
            self.show_tokens()
        cursor = self._cursor
        cursor.movePosition(QTextCursor.MoveOperation.End)
        for step in steps:
            self.steps.append(step)
            if step.text:
                cursor.insertText(step.text, self._format(step))

    def set_steps(self, steps: Sequence[StepRecord]) -> None:
        self.steps = []
        self.markdown_text = None
        self.document().clear()
        self._cursor = QTextCursor(self.document())
        self.append_steps(steps)

    def show_tokens(self) -> None:
        self.markdown_text = None
        self.set_steps(list(self.steps))

    def show_markdown(self, text: str) -> None:
        self.markdown_text = text
        self.document().setMarkdown(text)
        self._monospace_code_blocks()

    def _monospace_code_blocks(self) -> None:
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.Monospace)
        block = self.document().begin()
        while block.isValid():
            fmt = block.blockFormat()
            if fmt.nonBreakableLines() or block.charFormat().fontFixedPitch():
                cursor = QTextCursor(block)
                cursor.select(QTextCursor.SelectionType.BlockUnderCursor)
                char = QTextCharFormat()
                char.setFont(mono)
                cursor.mergeCharFormat(char)
            block = block.next()

    def _fit_height(self) -> None:
        height = int(self.document().size().height()) + 4
        if self.height() != height:
            self.setFixedHeight(max(height, 24))

    def resizeEvent(self, event) -> None:  # noqa: ANN001 - Qt signature
        super().resizeEvent(event)
        self.document().setTextWidth(self.viewport().width())
        self._fit_height()

    # -- interaction -------------------------------------------------------------------------------
    def step_at(self, pos: QPoint) -> int:
        href = self.anchorAt(pos)
        if href.startswith("step:"):
            return int(href[5:])
        return -1

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        index = self.step_at(event.position().toPoint())
        if index != self._hover_step:
            self._hover_step = index
            if 0 <= index < len(self.steps):
                QToolTip.showText(event.globalPosition().toPoint(), self.tooltip_html(self.steps[index]), self)
            else:
                QToolTip.hideText()
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if index >= 0 else Qt.CursorShape.IBeamCursor)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            index = self.step_at(event.position().toPoint())
            if index >= 0:
                self.stepClicked.emit(index)

    def contextMenuEvent(self, event) -> None:  # noqa: ANN001 - Qt signature
        index = self.step_at(event.pos())
        menu = self.createStandardContextMenu(event.pos())
        if 0 <= index < len(self.steps):
            menu.addSeparator()
            self.add_fork_actions(menu, index)
        menu.exec(event.globalPos())

    def add_fork_actions(self, menu: QMenu, index: int) -> None:
        step = self.steps[index]
        fork = menu.addMenu(self.tr("Fork here with…"))
        probs = dict(zip(step.raw_ids.tolist(), step.raw_probs.tolist(), strict=True))
        for tok in step.raw_ids[:ALTERNATIVES_SHOWN].tolist():
            label = f"{token_label(self.vocab[tok]) if tok < len(self.vocab) else tok}   {probs[tok]:.1%}"
            action = fork.addAction(label)
            action.setEnabled(tok != step.token)
            action.triggered.connect(lambda _=False, t=tok: self.forkRequested.emit(index, t))
        fork.addSeparator()
        fork.addAction(self.tr("Type a token…")).triggered.connect(lambda: self.forkOtherRequested.emit(index))

    def tooltip_html(self, step: StepRecord) -> str:
        rows = []
        for tok, p in zip(step.raw_ids[:ALTERNATIVES_SHOWN].tolist(), step.raw_probs.tolist(), strict=False):
            label = token_label(self.vocab[tok]) if tok < len(self.vocab) else str(tok)
            mark = "<b>▶</b> " if tok == step.token else ""
            rows.append(f"<tr><td>{mark}{_html(label)}</td><td align='right'>{p:.1%}</td></tr>")
        head = self.tr("step {0}: p = {1:.1%} (rank {2}), entropy {3:.2f} nats").format(
            step.i, step.p_raw, step.rank_raw, step.entropy_raw)
        return f"<p>{head}</p><table>{''.join(rows)}</table>"


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


__all__ = ["TokenTextView", "QColor"]
