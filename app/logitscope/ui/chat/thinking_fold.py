"""A reasoning model's thinking, folded away above its answer (ui/chat/chat_view.py's AnswerBubble): *Thinking… ·
42 tokens* while it streams, *Thought for 12.4 s · 850 tokens* once the answer begins; a click unfolds the
block's tokens, which hover, click-to-inspect and fork as the answer's do (the steps the engine marked
`thinking`, protocol/reasoning.py)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton, QVBoxLayout, QWidget

from logitscope.protocol.reasoning import BY_BUDGET, UNCLOSED
from logitscope.protocol.trace import StepRecord
from logitscope.ui.chat.message_view import TokenTextView


def thinking_prefix(steps: Sequence[StepRecord]) -> int:
    """How many of the answer's first steps are its thinking block (it comes first, whole)."""
    n = 0
    while n < len(steps) and steps[n].thinking:
        n += 1
    return n


class ThinkingFold(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.toggle = QToolButton()
        self.toggle.setObjectName("thinkingToggle")
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setToolTip(self.tr("Show or hide what the model thought before it answered"))
        self.toggle.toggled.connect(self._unfold)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.view = TokenTextView(self)
        self.view.setObjectName("thinkingView")
        font = self.view.font()
        font.setItalic(True)   # set apart from the answer below it, as other chat apps show thinking
        self.view.setFont(font)
        self.view.setVisible(False)
        layout.addWidget(self.view)
        self.setVisible(False)

    @property
    def n_steps(self) -> int:
        return len(self.view.steps)

    def _unfold(self, on: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.view.setVisible(on)

    def unfold(self) -> None:
        self.toggle.setChecked(True)

    def set_steps(self, steps: Sequence[StepRecord]) -> None:
        self.view.set_steps(steps)
        self.setVisible(bool(steps))

    def append(self, steps: Sequence[StepRecord]) -> None:
        self.view.append_steps(steps)
        self.setVisible(True)

    def show_state(self, thinking_now: bool, reasoning: dict[str, object] | None) -> None:
        """The header: still thinking, or how long it thought and how the block ended."""
        n = self.n_steps
        seconds = sum(s.latency_s for s in self.view.steps)
        if thinking_now:
            text = self.tr("Thinking… · {0:,} tokens").format(n)
        else:
            text = self.tr("Thought for {0:.1f} s · {1:,} tokens").format(seconds, n)
            record = reasoning or {}
            ended = record.get("ended")
            if ended == BY_BUDGET:
                text += " · " + self.tr("closed by the budget ({0})").format(record.get("budget"))
            elif ended == UNCLOSED:
                text += " · " + self.tr("never closed")
        self.toggle.setText(text)
