"""The parts of the Score dialog (ui/score_view.py) that show a ScoreResult: the text with every token
coloured by its GLTR rank bucket or its probability (hover: the token's numbers and alternatives), the
colour legend, and the rank histogram."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QPoint, QRect, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QSizePolicy, QTextEdit, QToolTip, QWidget

from logitscope.engine.score_api import RANK_BUCKET_NAMES, RANK_BUCKETS, ScoredToken, ScoreResult, rank_bucket
from logitscope.ui.tokens import id_label, percent, probability_color, rank_text, run_under, token_label

# GLTR's colours (Gehrmann et al. 2019): top 10 green, top 100 yellow, top 1,000 red, beyond purple.
BUCKET_COLORS: tuple[str, ...] = ("#a8e6a1", "#fbe58a", "#f6a6a0", "#d2b0f2")
SWATCH_TEXT = "#202020"      # text drawn on a colour swatch (tokens, legend)
PROBABILITY_STEPS = 20       # shared character formats, one per step (a format per token slows the document)
ALTERNATIVES_SHOWN = 8
COLOR_BY = ("rank", "probability")


def bucket_names() -> list[str]:
    """The buckets as people read them (the legend, the histogram)."""
    low = [QCoreApplication.translate("ScoredText", "top {0}").format(f"{b:,}") for b in RANK_BUCKETS]
    return [*low, QCoreApplication.translate("ScoredText", "beyond")]


def token_color(token: ScoredToken, color_by: str) -> QColor | None:
    """The background of a token; None when it was not scored (BOS, the first token without one). Light
    swatches under dark text in either theme, as GLTR draws them."""
    if not token.scored:
        return None
    if color_by == "probability":
        step = round(token.p * PROBABILITY_STEPS) / PROBABILITY_STEPS
        return probability_color(step, False, 150)
    return QColor(BUCKET_COLORS[rank_bucket(token.rank)])


def tooltip_html(token: ScoredToken, vocab: Sequence[bytes]) -> str:
    """The token, p, surprisal, rank, entropy and the best alternatives (the chat heatmap's popup layout)."""
    label = _html(token_label(token.piece))
    if not token.scored:
        return QCoreApplication.translate(
            "ScoredText", "<p><b>{0}</b>: not scored (nothing before it to predict it from)</p>").format(label)
    head = QCoreApplication.translate(
        "ScoredText", "<p><b>{0}</b> (token {1}): p = {2}, surprisal {3:.2f} bits, rank {4}, entropy {5:.2f} nats; "
        "predicted from {6} tokens</p>").format(
        label, token.i, percent(token.p), token.bits, rank_text(token.rank), token.entropy, token.n_context)
    rows = []
    for tok, lp in zip(token.top_ids[:ALTERNATIVES_SHOWN].tolist(), token.top_logprobs[:ALTERNATIVES_SHOWN].tolist(),
                       strict=True):
        mark = "<b>▶</b> " if tok == token.token else ""
        rows.append(f"<tr><td>{mark}{_html(id_label(tok, vocab))}</td>"
                    f"<td align='right'>{percent(math.exp(lp))}</td></tr>")
    return f"{head}<table>{''.join(rows)}</table>"


class ScoredText(QTextEdit):
    """The scored text, read-only; a parallel list of character offsets maps the mouse back to its token."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setMouseTracking(True)
        self.result: ScoreResult | None = None
        self.vocab: Sequence[bytes] = []
        self.color_by = "rank"
        self._starts: list[int] = []   # document position of each shown token
        self._owners: list[int] = []   # its index in result.tokens
        self._hover = -1

    def show_result(self, result: ScoreResult | None, vocab: Sequence[bytes]) -> None:
        self.result, self.vocab = result, vocab
        self.repaint_tokens()

    def set_color_by(self, color_by: str) -> None:
        self.color_by = color_by
        self.repaint_tokens()

    def repaint_tokens(self) -> None:
        self.clear()
        self._starts, self._owners = [], []
        if self.result is None:
            return
        formats: dict[str, QTextCharFormat] = {}
        cursor = QTextCursor(self.document())
        for index, token in enumerate(self.result.tokens):
            if not token.text:
                continue  # BOS, or a byte that is only part of a character (the next token shows it)
            color = token_color(token, self.color_by)
            key = color.name(QColor.NameFormat.HexArgb) if color is not None else ""
            fmt = formats.get(key)
            if fmt is None:
                fmt = QTextCharFormat()
                if color is not None:  # dark text on the light swatches, in a dark theme too
                    fmt.setBackground(color)
                    fmt.setForeground(QColor(SWATCH_TEXT))
                formats[key] = fmt
            self._starts.append(cursor.position())
            self._owners.append(index)
            cursor.insertText(token.text, fmt)
        self.moveCursor(QTextCursor.MoveOperation.Start)

    def token_at(self, pos: QPoint) -> int:
        """The index (into result.tokens) of the token under a viewport position, or -1."""
        if self.result is None or not self._starts:
            return -1
        hit = run_under(self, pos, self._starts)
        if hit is None:
            return -1
        at, char = hit
        owner = self._owners[at]
        length = len(self.result.tokens[owner].text.encode("utf-16-le", "surrogatepass")) // 2
        return owner if char < self._starts[at] + length else -1

    def token_rect(self, index: int) -> QRect:
        """Where a token is drawn (viewport coordinates): for tests and for pointing at it."""
        at = self._owners.index(index)
        cursor = QTextCursor(self.document())
        cursor.setPosition(self._starts[at] + 1)
        return self.cursorRect(cursor)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        index = self.token_at(event.position().toPoint())
        if index != self._hover:
            self._hover = index
            if index >= 0 and self.result is not None:
                QToolTip.showText(event.globalPosition().toPoint(),
                                  tooltip_html(self.result.tokens[index], self.vocab), self)
            else:
                QToolTip.hideText()


class ScoreLegend(QWidget):
    """What the colours mean: the four GLTR buckets, or the probability scale."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.color_by = "rank"
        self.setMinimumSize(420, 18)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_color_by(self, color_by: str) -> None:
        self.color_by = color_by
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        rect = self.rect().adjusted(0, 1, -1, -1)
        if self.color_by == "probability":
            names = [f"p {lo}–{hi} %" for lo, hi in ((0, 20), (20, 40), (40, 60), (60, 80), (80, 100))]
            colors = [probability_color(0.2 * n + 0.1, False, 150) for n in range(len(names))]
        else:
            names, colors = bucket_names(), [QColor(c) for c in BUCKET_COLORS]
        width = rect.width() // len(names)
        for n, (name, color) in enumerate(zip(names, colors, strict=True)):
            swatch = QRect(rect.left() + n * width, rect.top(), width - 4, rect.height())
            painter.fillRect(swatch, color)
            painter.setPen(QColor(SWATCH_TEXT))
            painter.drawText(swatch, Qt.AlignmentFlag.AlignCenter, name)


class RankHistogram(QWidget):
    """How many tokens fell in each GLTR bucket: four painted bars with their counts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.counts: dict[str, int] = dict.fromkeys(RANK_BUCKET_NAMES, 0)
        self.setMinimumSize(220, 160)

    def set_counts(self, counts: dict[str, int]) -> None:
        self.counts = {name: counts.get(name, 0) for name in RANK_BUCKET_NAMES}
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        fg = self.palette().color(self.foregroundRole())
        metrics = painter.fontMetrics()
        line = metrics.height()
        area = self.rect().adjusted(6, line + 4, -6, -line - 6)  # counts above, names below
        total = sum(self.counts.values())
        top = max(self.counts.values()) or 1
        width = area.width() // len(RANK_BUCKET_NAMES)
        for n, (name, label) in enumerate(zip(RANK_BUCKET_NAMES, bucket_names(), strict=True)):
            count = self.counts[name]
            height = round(area.height() * count / top)
            bar = QRect(area.left() + n * width + 4, area.bottom() - height, width - 8, height)
            painter.fillRect(bar, QColor(BUCKET_COLORS[n]))
            painter.setPen(fg)
            share = f" ({count / total:.0%})" if total else ""
            painter.drawText(QRect(bar.left() - 4, bar.top() - line - 2, width, line),
                             Qt.AlignmentFlag.AlignCenter, f"{count}{share}")
            painter.drawText(QRect(area.left() + n * width, area.bottom() + 4, width, line),
                             Qt.AlignmentFlag.AlignCenter, label)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
