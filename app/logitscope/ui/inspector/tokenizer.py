"""Tokenizer: type text and see its tokens, with ids and byte pieces; or the exact prompt the model got."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from logitscope.protocol.trace import piece_text

COLORS = ["#fde2a7", "#c9e7f9", "#d8f5c8", "#f7cfe0", "#e3d9fb", "#fbd8c2"]


class TokenizerPanel(QWidget):
    tokenizeRequested = Signal(str)        # the window answers with show_tokens
    chatPromptRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.input = QPlainTextEdit()
        self.input.setPlaceholderText(self.tr("Type any text to see how the model splits it into tokens"))
        self.input.setMaximumHeight(90)
        layout.addWidget(self.input)
        row = QHBoxLayout()
        self.summary = QLabel()
        self.prompt_button = QPushButton(self.tr("Show this chat's prompt"))
        self.prompt_button.setToolTip(self.tr("The exact text the model received, chat template and special tokens included"))
        self.prompt_button.clicked.connect(self.chatPromptRequested)
        row.addWidget(self.summary, 1)
        row.addWidget(self.prompt_button)
        layout.addLayout(row)
        self.output = QTextBrowser()
        layout.addWidget(self.output, 1)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(150)
        self._debounce.timeout.connect(lambda: self.tokenizeRequested.emit(self.input.toPlainText()))
        self.input.textChanged.connect(self._debounce.start)
        self.vocab: Sequence[bytes] = ()
        self.is_special: Callable[[int], bool] = lambda _t: False

    def set_capabilities(self, caps: dict[str, object]) -> None:
        """Usable only where the engine can tokenize."""
        self.setEnabled(bool(caps.get("tokenize", True)))

    def show_tokens(self, tokens: Sequence[int], title: str = "") -> None:
        chips = []
        for n, tok in enumerate(tokens):
            piece = self.vocab[tok] if tok < len(self.vocab) else b""
            text = escape(piece_text(piece)).replace("\n", "↵<br>").replace(" ", "&nbsp;")
            special = self.is_special(tok)
            style = "border:1px solid #c33;" if special else ""
            chips.append(f"<span style='background:{COLORS[n % len(COLORS)]};color:#111;{style}' "
                         f"title='id {tok}, bytes {piece.hex(' ')}'>{text}<sub>{tok}</sub></span>")
        self.summary.setText(self.tr("{0} tokens{1}").format(len(tokens), f" — {title}" if title else ""))
        self.output.setHtml("<div style='line-height:170%'>" + "&#8203;".join(chips) + "</div>")
