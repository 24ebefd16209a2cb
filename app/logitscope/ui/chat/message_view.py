"""One assistant answer: tokens streamed in (optionally coloured by probability), Markdown when done.

Each token is inserted at the end of the document; a parallel list of character offsets maps a mouse
position back to its step, so hovering shows that step's alternatives and clicking selects it. Tokens
share a handful of character formats (one per colour bucket): a distinct format per token (an anchor
per token, say) grows Qt's format table and makes every insert slower as the answer grows
(`python -m logitscope.bench.window.chat` measures it).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from html import escape

from PySide6.QtCore import QPoint, QRect, Qt, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QGuiApplication,
    QMouseEvent,
    QTextCharFormat,
    QTextCursor,
    QTextOption,
)
from PySide6.QtWidgets import QMenu, QSizePolicy, QTextBrowser, QTextEdit, QToolTip, QWidget

from logitscope.protocol.trace import StepRecord
from logitscope.ui.chat.code_blocks import COPY_SCHEME, with_copy_links
from logitscope.ui.common.tokens import (
    candidate_piece,
    percent,
    probability_color,
    rank_color,
    rank_text,
    run_under,
    token_label,
)

ALTERNATIVES_SHOWN = 8
COLOR_BUCKETS = 20
HEIGHT_STEP = 240  # px


STREAMING_BLOCK_CHARS = 1_500  # longest paragraph laid out again at each insert while streaming


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
        self.document().setUndoRedoEnabled(False)  # read-only: an undo stack would only grow with every token
        self.document().documentLayout().documentSizeChanged.connect(self._fit_height)
        self.steps: list[StepRecord] = []
        self.vocab: Sequence[bytes] = ()
        self.heatmap = False
        self.color_by = "probability"
        self.dark = False
        self.markdown_text: str | None = None
        self._cursor = QTextCursor(self.document())
        self._hover_step = -1
        self.streaming = False
        self._starts: list[int] = []     # document position where each shown token starts
        self._owners: list[int] = []     # and the index of its step
        self._formats: dict[int, QTextCharFormat] = {}
        self.highlighted_step = -1   # the step marked by highlight_step()
        self.code_blocks: list[str] = []   # the code of each fenced block of the Markdown shown, for its Copy link
        self.anchorClicked.connect(self._anchor_clicked)

    # -- content -----------------------------------------------------------------------------------
    def _format(self, step: StepRecord) -> QTextCharFormat:
        bucket = -1
        if self.heatmap and step.p_raw == step.p_raw and step.rank_raw >= 0:  # NaN / -1: the server did not say
            bucket = round(step.p_raw * COLOR_BUCKETS) if self.color_by == "probability" else min(step.rank_raw, 3)
        key = (bucket << 1) | step.drafted  # an accepted speculative draft is underlined (dotted)
        fmt = self._formats.get(key)
        if fmt is None:
            fmt = QTextCharFormat()
            if bucket >= 0:
                fmt.setBackground(probability_color(bucket / COLOR_BUCKETS, self.dark) if self.color_by == "probability"
                                  else rank_color(bucket, self.dark))
            if step.drafted:
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
            self._formats[key] = fmt
        return fmt

    def append_steps(self, steps: Sequence[StepRecord]) -> None:
        """Add tokens at the end. Only the lines from the last one down are repainted: Qt would repaint the
        whole paragraph that grew (every visible line of a long one, ~2 ms, 20 times a second), though
        text added at its end never moves the lines above (line breaking is first-fit)."""
        if self.markdown_text is not None:
            self.show_tokens()
        layout = self.document().documentLayout()
        top, before = self._last_line_top(), layout.documentSize()
        layout.blockSignals(True)  # its own update() would ask for the whole paragraph
        try:
            self._insert(steps)
        finally:
            layout.blockSignals(False)
        size = layout.documentSize()
        if size != before:
            layout.documentSizeChanged.emit(size)  # the scroll range and this view's height follow it
        offset = self.verticalScrollBar().value()
        self.viewport().update(QRect(0, int(top) - offset, self.viewport().width(),
                                     int(size.height() - top) + 1))

    def _last_line_top(self) -> float:
        """Where the document's last line starts, in document coordinates."""
        document = self.document()
        block = document.lastBlock()
        top = document.documentLayout().blockBoundingRect(block).top()
        lines = block.layout()
        if lines is None or lines.lineCount() == 0:
            return top
        return top + lines.lineAt(lines.lineCount() - 1).y()

    def _insert(self, steps: Sequence[StepRecord]) -> None:
        cursor = self._cursor
        # One edit block: Qt lays the paragraph out once for the batch instead of once per insert (a
        # heatmap gives each run of tokens its own format): half the cost per token with the heatmap on.
        # The cursor moves inside it: outside, a move finds the cursor's x in the laid-out last line.
        cursor.beginEditBlock()
        try:
            cursor.movePosition(QTextCursor.MoveOperation.End)
            if self.streaming and self.document().lastBlock().length() > STREAMING_BLOCK_CHARS:
                # Qt lays a paragraph out whole at every insert: a paragraph that never ends (a repetition
                # loop is one) would make every token cost more. While streaming, it goes on in a new block;
                # the answer is shown again from scratch, without these breaks, when it ends.
                cursor.insertBlock()
            self._insert_runs(cursor, steps)
        finally:
            cursor.endEditBlock()

    def _insert_runs(self, cursor: QTextCursor, steps: Sequence[StepRecord]) -> None:
        position = cursor.position()
        run: list[str] = []  # consecutive tokens with the same format go in with one insert
        run_format = QTextCharFormat()  # (replaced by the first token's)
        for step in steps:
            self.steps.append(step)
            if not step.text:
                continue
            fmt = self._format(step)
            alone = "\r" in step.text  # its length in the document is not its length here: inserted by itself
            if run and (fmt is not run_format or alone):
                cursor.insertText("".join(run), run_format)
                run, position = [], cursor.position()
            self._starts.append(position)
            self._owners.append(len(self.steps) - 1)
            if alone:
                cursor.insertText(step.text, fmt)
                position = cursor.position()
                continue
            run_format = fmt
            run.append(step.text)
            position += _utf16_length(step.text)
        if run:
            cursor.insertText("".join(run), run_format)

    def set_steps(self, steps: Sequence[StepRecord]) -> None:
        self.steps = []
        self._starts, self._owners = [], []
        self._formats = {}
        self.markdown_text = None
        self.document().clear()
        self._cursor = QTextCursor(self.document())
        self.append_steps(steps)

    def show_tokens(self) -> None:
        self.markdown_text = None
        self.set_steps(list(self.steps))

    def show_markdown(self, text: str) -> None:
        """The answer formatted; each fenced code block has a Copy link above it (code_blocks.py)."""
        self.markdown_text = text
        shown, self.code_blocks = with_copy_links(text, self.tr("Copy"))
        self.document().setMarkdown(shown)
        self._monospace_code_blocks()

    def _anchor_clicked(self, url: QUrl) -> None:
        """A code block's Copy link (clicked, or Enter on it after Tab): exactly that block's code."""
        if url.scheme() == COPY_SCHEME and url.path().isdigit() and int(url.path()) < len(self.code_blocks):
            QGuiApplication.clipboard().setText(self.code_blocks[int(url.path())])

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
        """The view is as tall as its text (the chat pane scrolls, not each answer). While tokens stream
        in, the height grows in steps of HEIGHT_STEP: a resize repaints and relayouts the pane, and doing
        it for every new line would make each token cost more as the answer grows."""
        height = max(int(self.document().size().height()) + 4, 24)
        if self.streaming:
            if height <= self.height() and self.height() - height < 2 * HEIGHT_STEP:
                return
            height = -(-height // HEIGHT_STEP) * HEIGHT_STEP
        if self.height() != height:
            self.setFixedHeight(height)

    def set_streaming(self, streaming: bool) -> None:
        self.streaming = streaming
        self._fit_height()

    def resizeEvent(self, event) -> None:  # noqa: ANN001 - Qt signature
        super().resizeEvent(event)
        # Only a new width needs a new layout; the height follows the text (relayout of a long answer on
        # every height change would make each token cost more than the one before)
        if event.size().width() != event.oldSize().width():
            self.document().setTextWidth(self.viewport().width())
            self._fit_height()

    def highlight_step(self, index: int) -> QRect | None:
        """Mark one step's token (found from the Attention dock), or none with -1: an extra selection, so
        the document and its shared formats stay as they are. Returns the token's rectangle in the viewport."""
        self.highlighted_step = -1
        self.setExtraSelections([])
        at = bisect.bisect_left(self._owners, index) if self.markdown_text is None else len(self._owners)
        if index < 0 or at >= len(self._owners) or self._owners[at] != index:
            return None
        selection = QTextEdit.ExtraSelection()
        selection.cursor = QTextCursor(self.document())
        selection.cursor.setPosition(self._starts[at])
        selection.cursor.setPosition(self._starts[at] + len(self.steps[index].text), QTextCursor.MoveMode.KeepAnchor)
        selection.format.setBackground(self.palette().highlight())
        selection.format.setForeground(self.palette().highlightedText())
        self.setExtraSelections([selection])
        self.highlighted_step = index
        return self.cursorRect(selection.cursor)

    def highlight_steps(self, indices: Sequence[int]) -> None:
        """Mark several steps (a diagnosis's evidence) with extra selections; () clears them."""
        selections = []
        for index in indices:
            cursor = self._step_cursor(index)
            if cursor is not None:
                selection = QTextEdit.ExtraSelection()
                selection.cursor = cursor
                selection.format.setBackground(QColor(220, 60, 60, 70))
                selections.append(selection)
        self.highlighted_step = -1
        self.setExtraSelections(selections)

    def step_rect(self, index: int) -> QRect | None:
        cursor = self._step_cursor(index)
        return self.cursorRect(cursor) if cursor is not None else None

    def _step_cursor(self, index: int) -> QTextCursor | None:
        at = bisect.bisect_left(self._owners, index) if self.markdown_text is None else len(self._owners)
        if index < 0 or at >= len(self._owners) or self._owners[at] != index:
            return None
        cursor = QTextCursor(self.document())
        cursor.setPosition(self._starts[at])
        cursor.setPosition(self._starts[at] + len(self.steps[index].text), QTextCursor.MoveMode.KeepAnchor)
        return cursor

    # -- interaction -------------------------------------------------------------------------------
    def step_at(self, pos: QPoint) -> int:
        """The index (into `steps`) of the token under a viewport position, or -1."""
        if self.markdown_text is not None or not self._starts:
            return -1
        hit = run_under(self, pos, self._starts)
        if hit is None:
            return -1
        at, char = hit
        start = self._starts[at]
        owner = self._owners[at]
        return owner if char < start + len(self.steps[owner].text) else -1

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
        self.context_menu(event.pos()).exec(event.globalPos())

    def context_menu(self, pos: QPoint) -> QMenu:
        """Our own menu: Qt's standard one offers link actions ("Copy Link Location") for the tokens'
        internal anchors, which mean nothing to people."""
        menu = QMenu(self)
        copy = menu.addAction(self.tr("Copy"))
        copy.setEnabled(self.textCursor().hasSelection())
        copy.triggered.connect(self.copy)
        menu.addAction(self.tr("Select all")).triggered.connect(self.selectAll)
        index = self.step_at(pos)
        if 0 <= index < len(self.steps):
            menu.addSeparator()
            menu.addAction(self.tr("Inspect this token")).triggered.connect(lambda: self.stepClicked.emit(index))
            self.add_fork_actions(menu, index)
        return menu

    def add_fork_actions(self, menu: QMenu, index: int) -> None:
        step = self.steps[index]
        fork = menu.addMenu(self.tr("Fork here with…"))
        for n, tok in enumerate(step.raw_ids[:ALTERNATIVES_SHOWN].tolist()):
            label = f"{token_label(candidate_piece(step, 'raw', n, self.vocab))}   {percent(float(step.raw_probs[n]))}"
            action = fork.addAction(label)
            action.setEnabled(tok != step.token and tok >= 0)
            action.triggered.connect(lambda _=False, t=tok: self.forkRequested.emit(index, t))
        fork.addSeparator()
        fork.addAction(self.tr("Type a token…")).triggered.connect(lambda: self.forkOtherRequested.emit(index))

    def tooltip_html(self, step: StepRecord) -> str:
        rows = []
        for n, p in enumerate(step.raw_probs[:ALTERNATIVES_SHOWN].tolist()):
            piece = candidate_piece(step, "raw", n, self.vocab)
            mark = "<b>▶</b> " if piece == step.piece else ""
            rows.append(f"<tr><td>{mark}{escape(token_label(piece))}</td><td align='right'>{percent(p)}</td></tr>")
        entropy = "—" if step.entropy_raw != step.entropy_raw else f"{step.entropy_raw:.2f}"
        head = self.tr("step {0}: p = {1} (rank {2}), entropy {3} nats").format(
            step.i, percent(step.p_raw), rank_text(step.rank_raw), entropy)
        if step.drafted:
            head += "<br>" + self.tr("an accepted speculative draft: verified in an earlier step's evaluation")
        return f"<p>{head}</p><table>{''.join(rows)}</table>"



def _utf16_length(text: str) -> int:
    """How many positions `text` takes in a QTextDocument: UTF-16 code units ("\n" becomes a block
    separator, one position too)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2  # a lone surrogate is one unit too
