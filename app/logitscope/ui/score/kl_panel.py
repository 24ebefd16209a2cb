"""The Score dialog's KL divergence results (ui/score/view.py shows them in tabs beside the text):
llama-perplexity's statistics block exactly as the tool prints it (KldStats.statistics_block, monospace, to copy
into a table), the histogram of per-token KL, and the tokens where the two models' top-1 differs — a click on
one selects it in the text."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.protocol.kld import MIN_STATISTICS, KldStats, KlTokens
from logitscope.protocol.score import ScoreResult
from logitscope.ui.common.tokens import id_label
from logitscope.ui.score.kl_widgets import KlHistogram


def main_figures(stats: KldStats) -> list[str]:
    """The figures without the tool's block (below MIN_STATISTICS tokens it prints none), in its layout."""
    if not stats.count:
        return []
    ppl, dppl = stats.ppl
    base, dbase = stats.ppl_base
    kld, dkld = stats.mean_kld
    rms, drms = stats.rms_p_diff
    top, dtop = stats.same_top
    return [f"Scored tokens : {stats.count}",
            f"Mean PPL(Q)   : {ppl:10.6f} ± {dppl:10.6f}",
            f"Mean PPL(base): {base:10.6f} ± {dbase:10.6f}",
            f"Mean    KLD   : {kld:10.6f} ± {dkld:10.6f}",
            f"Maximum KLD   : {float(stats.kld_sorted[-1]):10.6f}",
            f"Median  KLD   : {stats.kld_median:10.6f}",
            f"RMS Δp        : {100.0 * rms:6.3f} ± {100.0 * drms:5.3f} %",
            f"Same top p    : {100.0 * top:6.3f} ± {100.0 * dtop:5.3f} %"]


def statistics_text(stats: KldStats) -> str:
    """The tool's block line for line; below MIN_STATISTICS tokens the main figures and why there is no block."""
    block = stats.statistics_block()
    if block:
        return "\n".join(block)
    note = QCoreApplication.translate(
        "KlStatistics", "{0} tokens scored: llama-perplexity prints no statistics block below {1} scored tokens. "
        "The main figures:").format(stats.count, MIN_STATISTICS)
    return note + "\n\n" + "\n".join(main_figures(stats))


class KlStatistics(QWidget):
    """The headline in words, the histogram, the statistics block and a button that copies it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        self.headline.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.headline)
        layout.addWidget(QLabel(self.tr("<b>Per-token KL divergence</b> (tokens per bin, log scale, nats)")))
        self.histogram = KlHistogram()
        layout.addWidget(self.histogram)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("<b>llama-perplexity's statistics</b>")))
        row.addStretch(1)
        self.copy_button = QPushButton(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy the statistics as llama-perplexity prints them"))
        self.copy_button.clicked.connect(lambda: self.copy())
        row.addWidget(self.copy_button)
        layout.addLayout(row)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        layout.addWidget(self.text, 1)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text.toPlainText())

    def set_kl(self, kl: KlTokens, names: tuple[str, str]) -> KldStats:
        stats = KldStats.of(kl)
        self.histogram.set_kl(kl)
        self.text.setPlainText(statistics_text(stats))
        if stats.count:
            kld, _ = stats.mean_kld
            top, _ = stats.same_top
            self.headline.setText(self.tr(
                "Base (A): {0}<br>Compared (B): {1}<br>Mean KL divergence <b>{2:.6f}</b> nats over {3:,} tokens; "
                "the same top-1 for {4:.2%} of them.").format(escape(names[0]), escape(names[1]), kld, stats.count, top))
        else:
            self.headline.setText(self.tr("No token was scored."))
        return stats


class TopDifferences(QWidget):
    """The tokens where B's top-1 is not A's, in the text's order; a click selects one in the text."""

    tokenClicked = Signal(int)   # the token's index in the result

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        layout.addWidget(self.caption)
        self.list = QListWidget()
        self.list.itemClicked.connect(self._clicked)
        self.list.currentItemChanged.connect(lambda item, _old: self._clicked(item))
        layout.addWidget(self.list, 1)
        self.details = QLabel()   # the picked token's numbers and both models' best tokens
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.details)

    def set_kl(self, kl: KlTokens, result: ScoreResult, other: ScoreResult, vocab: Sequence[bytes]) -> list[int]:
        """Fill the list; the tokens listed."""
        self.list.clear()
        differ = [i for i in range(len(kl.scored)) if kl.scored[i] and not kl.same_top[i]]
        for i in differ:
            token = result.tokens[i]
            a = int(kl.base_top_ids[i][0])
            b = int(other.tokens[i].top_ids[0]) if len(other.tokens[i].top_ids) else -1
            text = self.tr("#{0} {1}: A {2}, B {3} · KL {4:.4f}").format(
                i, id_label(token.token, vocab), id_label(a, vocab), id_label(b, vocab), float(kl.kld[i]))
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, i)
            self.list.addItem(item)
        scored = int(kl.scored.sum())
        self.caption.setText(self.tr(
            "{0:,} of {1:,} scored tokens: the two models' top-1 differs (A's best guess, then B's). Click one to "
            "find it in the text.").format(len(differ), scored) if differ else
            self.tr("The two models' top-1 agrees on all {0:,} scored tokens.").format(scored))
        return differ

    def _clicked(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            self.tokenClicked.emit(int(item.data(Qt.ItemDataRole.UserRole)))
