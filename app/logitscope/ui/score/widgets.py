"""The parts of the Score dialog (ui/score/view.py) that show a ScoreResult: the text with every token
coloured by its GLTR rank bucket, its probability, or (comparing two models) the difference in surprisal or the
KL divergence (kl_widgets.py; tokens whose top-1 differs underlined) — hover: the token's numbers and
alternatives, both models' when comparing —, the colour legend, and the rank histogram."""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from html import escape

from PySide6.QtCore import QCoreApplication, QPoint, QRect, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import QSizePolicy, QTextEdit, QToolTip, QWidget

from logitscope.protocol.kld import KlTokens
from logitscope.protocol.score import RANK_BUCKET_NAMES, RANK_BUCKETS, ScoredToken, ScoreResult, rank_bucket
from logitscope.ui.common.tokens import (
    id_label,
    percent,
    probability_color,
    rank_text,
    run_under,
    token_label,
)
from logitscope.ui.compare.scale import SWATCH_TEXT
from logitscope.ui.score.kl_widgets import KL_LEGEND, KL_ZERO, kl_swatch, kl_tooltip_html

# GLTR's colours (Gehrmann et al. 2019): top 10 green, top 100 yellow, top 1,000 red, beyond purple.
BUCKET_COLORS: tuple[str, ...] = ("#a8e6a1", "#fbe58a", "#f6a6a0", "#d2b0f2")
SWATCH_PADDING = 12   # px around a legend swatch's words
PROBABILITY_STEPS = 20       # shared character formats, one per step (a format per token slows the document)
ALTERNATIVES_SHOWN = 8
COLOR_BY = ("rank", "probability", "difference", "kl")
# The diverging scale of B - A surprisal: blue where model B was less surprised, white where both agree, red
# where B was more surprised; saturated at DIFF_FULL_BITS, in DIFF_STEPS shared formats a side.
DIFF_FULL_BITS = 4.0
DIFF_STEPS = 8
DIFF_LESS, DIFF_SAME, DIFF_MORE = "#4575b4", "#f7f7f7", "#d73027"


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


def difference_color(diff_bits: float) -> QColor:
    """The diverging colour of one token's B - A surprisal (bits), in DIFF_STEPS steps a side."""
    step = max(-DIFF_STEPS, min(DIFF_STEPS, round(diff_bits / DIFF_FULL_BITS * DIFF_STEPS))) / DIFF_STEPS
    same, end = QColor(DIFF_SAME), QColor(DIFF_MORE if step > 0 else DIFF_LESS)
    t = abs(step)
    return QColor(round(same.red() + (end.red() - same.red()) * t), round(same.green() + (end.green() - same.green()) * t),
                  round(same.blue() + (end.blue() - same.blue()) * t))


def compare_tooltip_html(a: ScoredToken, b: ScoredToken, vocab: Sequence[bytes], names: tuple[str, str]) -> str:
    """One token under both models: each one's p, surprisal and rank, and the difference."""
    if not a.scored or not b.scored:
        return tooltip_html(a, vocab)
    head = QCoreApplication.translate(
        "ScoredText", "<p><b>{0}</b> (token {1}): B − A = {2:+.2f} bits</p>").format(
        escape(token_label(a.piece)), a.i, b.bits - a.bits)
    rows = "".join(f"<tr><td>{escape(name)}</td><td align='right'>{percent(t.p)}</td>"
                   f"<td align='right'>{t.bits:.2f}</td><td align='right'>{rank_text(t.rank)}</td></tr>"
                   for name, t in zip(names, (a, b), strict=True))
    header = QCoreApplication.translate("ScoredText", "<tr><th></th><th>p</th><th>bits</th><th>rank</th></tr>")
    return f"{head}<table>{header}{rows}</table>"


def tooltip_html(token: ScoredToken, vocab: Sequence[bytes]) -> str:
    """The token, p, surprisal, rank, entropy and the best alternatives (the chat heatmap's popup layout)."""
    label = escape(token_label(token.piece))
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
        rows.append(f"<tr><td>{mark}{escape(id_label(tok, vocab))}</td>"
                    f"<td align='right'>{percent(math.exp(lp))}</td></tr>")
    return f"{head}<table>{''.join(rows)}</table>"


class ScoredText(QTextEdit):
    """The scored text, read-only; a parallel list of character offsets maps the mouse back to its token."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setMouseTracking(True)
        self.result: ScoreResult | None = None
        self.other: ScoreResult | None = None   # the second model's scores of the same tokens (a comparison)
        self.kl: KlTokens | None = None         # a KL comparison's numbers, by token (B's, against A)
        self.names: tuple[str, str] = ("A", "B")
        self.vocab: Sequence[bytes] = []
        self.color_by = "rank"
        self._starts: list[int] = []   # document position of each shown token
        self._owners: list[int] = []   # its index in result.tokens
        self._hover = -1

    def show_result(self, result: ScoreResult | None, vocab: Sequence[bytes], other: ScoreResult | None = None,
                    names: tuple[str, str] = ("A", "B"), kl: KlTokens | None = None) -> None:
        """`other`: B's scores of the same tokens (of the chunks' tokens only, in a KL comparison: it may be
        shorter); `kl`: B's KL numbers against A."""
        self.result, self.vocab, self.other, self.names, self.kl = result, vocab, other, names, kl
        self.repaint_tokens()

    def other_token(self, index: int) -> ScoredToken | None:
        other = self.other
        return other.tokens[index] if other is not None and index < len(other.tokens) else None

    def kl_scored(self, index: int) -> bool:
        kl = self.kl
        return kl is not None and index < len(kl.scored) and bool(kl.scored[index])

    def color_of(self, index: int) -> QColor | None:
        assert self.result is not None
        token = self.result.tokens[index]
        if self.color_by == "kl":
            return kl_swatch(float(self.kl.kld[index])) if self.kl is not None and self.kl_scored(index) else None
        if self.color_by == "difference":
            other = self.other_token(index)
            if other is None or not token.scored or not other.scored:
                return None
            return difference_color(other.bits - token.bits)
        return token_color(token, self.color_by)

    def top_differs(self, index: int) -> bool:
        """Underlined in the KL colouring: B's top-1 is not A's."""
        return self.color_by == "kl" and self.kl is not None and self.kl_scored(index) and not self.kl.same_top[index]

    def tooltip(self, index: int) -> str:
        assert self.result is not None
        token, other = self.result.tokens[index], self.other_token(index)
        if self.kl is not None:
            return kl_tooltip_html(token, other, self.kl, self.vocab, self.names)
        if other is not None:
            return compare_tooltip_html(token, other, self.vocab, self.names)
        return tooltip_html(token, self.vocab)

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
            color = self.color_of(index)
            differs = self.top_differs(index)
            key = (color.name(QColor.NameFormat.HexArgb) if color is not None else "") + ("~" if differs else "")
            fmt = formats.get(key)
            if fmt is None:
                fmt = QTextCharFormat()
                if color is not None:  # dark text on the light swatches, in a dark theme too
                    fmt.setBackground(color)
                    fmt.setForeground(QColor(SWATCH_TEXT))
                if differs:   # bold, a wavy underline in the text's colour: red text vanished on the red swatches
                    fmt.setFontWeight(QFont.Weight.Bold)
                    fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
                    fmt.setUnderlineColor(QColor(SWATCH_TEXT))
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

    def select_token(self, index: int) -> bool:
        """Select a token's text (the first shown one from `index` on: a token in mid-character shows with the
        next) and scroll to it; False when it is not in the text."""
        if self.result is None:
            return False
        at = bisect.bisect_left(self._owners, index)
        if at >= len(self._owners):
            return False
        owner = self._owners[at]
        length = len(self.result.tokens[owner].text.encode("utf-16-le", "surrogatepass")) // 2
        cursor = QTextCursor(self.document())
        cursor.setPosition(self._starts[at])
        cursor.setPosition(self._starts[at] + length, QTextCursor.MoveMode.KeepAnchor)
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
        return True

    def selected_token(self) -> int:
        """The token the selection starts in (-1 without one)."""
        cursor = self.textCursor()
        if not cursor.hasSelection() or not self._starts:
            return -1
        at = bisect.bisect_right(self._starts, cursor.selectionStart()) - 1
        return self._owners[at] if at >= 0 else -1

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
                QToolTip.showText(event.globalPosition().toPoint(), self.tooltip(index), self)
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
        self.updateGeometry()   # another set of words: another least width
        self.update()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        names = self.names_and_colors()[0]
        return QSize(max(self.minimumWidth(), sum(r.width() + 4 for r in self.swatches(QRect(), names))), 18)

    def names_and_colors(self) -> tuple[list[str], list[QColor]]:
        if self.color_by == "probability":
            names = [f"p {lo}–{hi} %" for lo, hi in ((0, 20), (20, 40), (40, 60), (60, 80), (80, 100))]
            return names, [probability_color(0.2 * n + 0.1, False, 150) for n in range(len(names))]
        if self.color_by == "difference":
            full = DIFF_FULL_BITS
            steps = (-full, -full / 2, 0.0, full / 2, full)
            names = [QCoreApplication.translate("ScoredText", "B − A ≤ {0:+g} bits").format(-full),
                     f"{-full / 2:+g}", QCoreApplication.translate("ScoredText", "same"), f"{full / 2:+g}",
                     QCoreApplication.translate("ScoredText", "≥ {0:+g} bits").format(full)]
            return names, [difference_color(d) for d in steps]
        if self.color_by == "kl":
            names = [QCoreApplication.translate("ScoredText", "KL ≤ {0:g}").format(KL_LEGEND[0]),
                     *(f"{v:g}" for v in KL_LEGEND[1:-1]),
                     QCoreApplication.translate("ScoredText", "≥ {0:g} nats").format(KL_LEGEND[-1]),
                     QCoreApplication.translate("ScoredText", "top-1 differs")]
            return names, [kl_swatch(v) for v in KL_LEGEND] + [QColor(KL_ZERO)]
        return bucket_names(), [QColor(c) for c in BUCKET_COLORS]

    def swatches(self, rect: QRect, names: list[str]) -> list[QRect]:
        """Each name's swatch: as wide as its words need (in bold, as "top-1 differs" is drawn), the room left
        shared out. Where every swatch had the same width, "top-1 differs" was cut at both ends."""
        bold = QFont(self.font())
        bold.setBold(True)
        needs = [QFontMetrics(bold).horizontalAdvance(name) + SWATCH_PADDING for name in names]
        extra = max(rect.width() - sum(needs), 0) / len(names)
        out, left = [], float(rect.left())
        for need in needs:
            out.append(QRect(round(left), rect.top(), round(need + extra) - 4, rect.height()))
            left += need + extra
        return out

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        rect = self.rect().adjusted(0, 1, -1, -1)
        names, colors = self.names_and_colors()
        for n, (name, color, swatch) in enumerate(zip(names, colors, self.swatches(rect, names), strict=True)):
            painter.fillRect(swatch, color)
            differs = self.color_by == "kl" and n == len(names) - 1   # as such a token is drawn: bold, wavy
            painter.setPen(QColor(SWATCH_TEXT))
            font = painter.font()
            font.setBold(differs)
            painter.setFont(font)
            painter.drawText(swatch, Qt.AlignmentFlag.AlignCenter, name)
            if differs:
                half = painter.fontMetrics().horizontalAdvance(name) // 2
                x, y = swatch.center().x() - half, swatch.bottom()
                painter.setPen(QPen(QColor(SWATCH_TEXT), 1))
                while x < swatch.center().x() + half:
                    painter.drawLine(x, y, x + 2, y - 2)
                    painter.drawLine(x + 2, y - 2, x + 4, y)
                    x += 4


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

