"""The chat pane: the conversation's turns, each a question and its answer (with its versions)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QTextDocument
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.diagnosis import Diagnosis
from logitscope.protocol.attachments import Attachment
from logitscope.protocol.batched import BATCH_CHOICES
from logitscope.protocol.trace import StepRecord
from logitscope.session.conversation import Answer, Conversation, Turn
from logitscope.ui.chat.attachment_chips import AttachmentStrip
from logitscope.ui.chat.heatmap_legend import HeatmapLegend
from logitscope.ui.chat.message_view import TokenTextView
from logitscope.ui.chat.output_check import Verdict, check_output
from logitscope.ui.chat.thinking_fold import ThinkingFold, thinking_prefix
from logitscope.ui.common.messages import translate_message
from logitscope.ui.inspector.diagnosis import DiagnosisBadge
from logitscope.ui.steering.summary import SteeringSummary


class UserBubble(QFrame):
    editRequested = Signal()
    branchRequested = Signal(int)           # version index of this question

    def __init__(self, text: str, version: int = 0, versions: int = 1, parent: QWidget | None = None,
                 attachments: Sequence[Attachment] = ()) -> None:
        super().__init__(parent)
        self.setObjectName("userBubble")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        header = QHBoxLayout()
        who = QLabel(self.tr("You"))
        who.setObjectName("speaker")
        header.addWidget(who)
        # the versions of this question (edits), like an answer's: each keeps its answers and later turns
        self.prev_button = _tool("‹", self.tr("Previous version of this message"))
        self.branch_label = QLabel(f"{version + 1} / {versions}" if versions > 1 else "")
        self.next_button = _tool("›", self.tr("Next version of this message"))
        self.prev_button.clicked.connect(lambda: self.branchRequested.emit(version - 1))
        self.next_button.clicked.connect(lambda: self.branchRequested.emit(version + 1))
        for w in (self.prev_button, self.branch_label, self.next_button):
            w.setVisible(versions > 1)
            header.addWidget(w)
        self.prev_button.setEnabled(version > 0)
        self.next_button.setEnabled(version < versions - 1)
        header.addStretch(1)
        self.edit_button = _tool(self.tr("Edit"), self.tr("Edit and resend this message"))
        self.edit_button.clicked.connect(self.editRequested)
        self.copy_button = _tool(self.tr("Copy"), self.tr("Copy this message"))
        self.copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(text))
        header.addWidget(self.edit_button)
        header.addWidget(self.copy_button)
        layout.addLayout(header)
        self.label = QLabel(text)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.label)
        self.label.setVisible(bool(text) or not attachments)   # (once in the bubble: not a window of its own)
        self.attachments = AttachmentStrip(parent=self)   # the files sent with it
        self.attachments.set_attachments(attachments)
        layout.addWidget(self.attachments)


class AnswerBubble(QFrame):
    stepClicked = Signal(int)
    forkRequested = Signal(int, int)
    forkOtherRequested = Signal(int)
    regenerateRequested = Signal()
    branchRequested = Signal(int)           # version index
    diagnosisRequested = Signal()
    withoutThinkingRequested = Signal()
    regenerateManyRequested = Signal(int)   # answers at once

    def __init__(self, turn: Turn, vocab_for: Callable[[Answer | None], Sequence[bytes]], heatmap: bool, color_by: str,
                 dark: bool, parent: QWidget | None = None,
                 diagnose: Callable[[Answer], Diagnosis | None] | None = None) -> None:
        """`vocab_for`: the bytes of an answer's token ids (its own model's: ui/controllers/answer_vocab.py)."""
        super().__init__(parent)
        self.setObjectName("answerBubble")
        self.turn, self.vocab_for = turn, vocab_for
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        header = QHBoxLayout()
        self.speaker = QLabel(self.tr("Assistant"))
        self.speaker.setObjectName("speaker")
        header.addWidget(self.speaker)
        self.prev_button = _tool("‹", self.tr("Previous version"))
        self.branch_label = QLabel()
        self.next_button = _tool("›", self.tr("Next version"))
        self.prev_button.clicked.connect(lambda: self.branchRequested.emit(turn.active - 1))
        self.next_button.clicked.connect(lambda: self.branchRequested.emit(turn.active + 1))
        for w in (self.prev_button, self.branch_label, self.next_button):
            header.addWidget(w)
        header.addStretch(1)
        self.format_button = _tool(self.tr("Tokens"), self.tr("Switch between formatted Markdown and the raw tokens "
                                                              "(hover a token for its alternatives, click to inspect it)"))
        self.format_button.setCheckable(True)
        self.format_button.toggled.connect(lambda _on: self.refresh())
        header.addWidget(self.format_button)
        self.regenerate_button = _tool(self.tr("Regenerate"), self.tr("Generate this answer again (a new version; the "
                                                                      "arrow: several at once)"))
        self.regenerate_button.clicked.connect(self.regenerateRequested)
        # the arrow: several versions at once (decoded together in one batch); for a reasoning model's finished
        # answer, the same answer again with the thinking closed at once
        self.regenerate_menu = QMenu(self.regenerate_button)
        for n in BATCH_CHOICES:
            many = self.regenerate_menu.addAction(self.tr("{0} versions at once").format(n))
            many.setToolTip(self.tr("Generate {0} new versions of this answer together, in one batch: the question is "
                                    "read once, each version has its own seed; flip through them with ‹ ›").format(n))
            many.triggered.connect(lambda _checked=False, n=n: self.regenerateManyRequested.emit(n))
        self.regenerate_menu.addSeparator()
        self.without_thinking = self.regenerate_menu.addAction(self.tr("Answer without thinking"))
        self.without_thinking.triggered.connect(self.withoutThinkingRequested)
        self.without_thinking.setToolTip(self.tr(
            "Generate this answer again with the thinking block closed at once (the same seed and settings), as a "
            "new version, and show both answers side by side from the first token where they part"))
        self.regenerate_menu.setToolTipsVisible(True)
        self.regenerate_button.setMenu(self.regenerate_menu)
        self.regenerate_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.without_thinking.setVisible(False)
        self.copy_button = _tool(self.tr("Copy"), self.tr("Copy this answer (its Markdown; the arrow: as plain text)"))
        self.copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.answer_text()))
        copy_menu = QMenu(self.copy_button)
        copy_menu.addAction(self.tr("Copy as Markdown"), lambda: QGuiApplication.clipboard().setText(self.answer_text()))
        copy_menu.addAction(self.tr("Copy as plain text"), lambda: QGuiApplication.clipboard().setText(self.plain_text()))
        self.copy_button.setMenu(copy_menu)
        self.copy_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        header.addWidget(self.regenerate_button)
        header.addWidget(self.copy_button)
        layout.addLayout(header)
        self.fold = ThinkingFold(self)   # a reasoning model's thinking; its steps come first, the answer's after
        self.fold.view.stepClicked.connect(self.stepClicked)
        self.fold.view.forkRequested.connect(self.forkRequested)
        self.fold.view.forkOtherRequested.connect(self.forkOtherRequested)
        layout.addWidget(self.fold)
        self.view = TokenTextView(self)
        self.view.vocab = vocab_for(turn.answer)
        self.view.heatmap, self.view.color_by, self.view.dark = heatmap, color_by, dark
        self.view.stepClicked.connect(lambda i: self.stepClicked.emit(i + self.fold.n_steps))
        self.view.forkRequested.connect(lambda i, token: self.forkRequested.emit(i + self.fold.n_steps, token))
        self.view.forkOtherRequested.connect(lambda i: self.forkOtherRequested.emit(i + self.fold.n_steps))
        layout.addWidget(self.view)
        self.status = QLabel()
        self.status.setObjectName("answerStatus")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.diagnose = diagnose
        self.badge = DiagnosisBadge()   # the answer's diagnosis, once it has ended
        self.badge.clicked.connect(self.diagnosisRequested)
        layout.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignLeft)
        self.refresh()

    @property
    def answer(self) -> Answer | None:
        return self.turn.answer

    def refresh(self) -> None:
        """Show the active version from scratch (after a branch switch, a heatmap toggle, the end)."""
        n = len(self.turn.answers)
        self.branch_label.setText(f"{self.turn.active + 1} / {n}" if n > 1 else "")
        for w in (self.prev_button, self.next_button, self.branch_label):
            w.setVisible(n > 1)
        self.prev_button.setEnabled(self.turn.active > 0)
        self.next_button.setEnabled(self.turn.active < n - 1)
        answer = self.answer
        if answer is None:
            return
        self.view.vocab = self.vocab_for(answer)   # versions may come from different models
        self.view.set_streaming(answer.status == "streaming")
        self._mirror_view()
        n_thinking = thinking_prefix(answer.steps)
        self.fold.set_steps(answer.steps[:n_thinking])
        steps = answer.steps[n_thinking:]
        text = self.answer_text()
        formatted = answer.status == "done" and has_markdown(text)
        self.format_button.setVisible(formatted and not self.view.heatmap)
        if formatted and not self.view.heatmap and not self.format_button.isChecked():
            self.view.steps = list(steps)
            self.view.show_markdown(text)
        else:
            self.view.set_steps(steps)
        self.update_status()

    def answer_text(self) -> str:
        """The answer without its thinking block (what Copy copies and Markdown formats)."""
        answer = self.answer
        if answer is None:
            return ""
        n_thinking = thinking_prefix(answer.steps)
        return "".join(s.text for s in answer.steps[n_thinking:]).lstrip() if n_thinking else answer.text

    def plain_text(self) -> str:
        """The answer as it reads formatted: Markdown's marks taken off (the text itself when it has none)."""
        text = self.answer_text()
        document = QTextDocument()
        document.setMarkdown(text)
        return document.toPlainText().strip() if has_markdown(text) else text

    def _mirror_view(self) -> None:
        fold = self.fold.view
        fold.vocab, fold.heatmap, fold.color_by, fold.dark = self.view.vocab, self.view.heatmap, self.view.color_by, self.view.dark

    def append(self, steps: Sequence[StepRecord]) -> None:
        n_answer = len(self.view.steps)
        thinking = [s for s in steps if s.thinking and not n_answer]   # the block comes first, whole
        if thinking:
            self._mirror_view()
            self.fold.append(thinking)
        rest = steps[len(thinking):]
        if rest:
            self.view.append_steps(rest)

    def mark_steps(self, steps: Sequence[int]) -> None:
        n_thinking = self.fold.n_steps
        self.fold.view.highlight_steps([i for i in steps if i < n_thinking])
        self.view.highlight_steps([i - n_thinking for i in steps if i >= n_thinking])

    def token_view(self, index: int) -> tuple[TokenTextView, int]:
        """The view that shows the answer's step `index` (the thinking unfolded for one of its steps), and its
        index there."""
        n_thinking = self.fold.n_steps
        if index < n_thinking:
            self.fold.unfold()
            return self.fold.view, index
        return self.view, index - n_thinking

    def update_status(self) -> None:
        answer = self.answer
        if answer is None:
            return
        parts = []
        tip = ""
        if self.fold.n_steps:
            self.fold.show_state(answer.status == "streaming" and not self.view.steps,
                                 answer.result.reasoning if answer.result is not None else None)
        self._offer_without_thinking(answer.status == "done" and answer.result is not None
                                     and answer.result.reasoning is not None)
        if answer.status == "streaming":
            parts.append(self.tr("generating…"))
        elif answer.status == "stopped":
            parts.append(self.tr("stopped"))
        elif answer.status == "interrupted":
            parts.append(self.tr("interrupted"))
        elif answer.status == "error":
            parts.append(self.tr("failed: {0}").format(translate_message(answer.error or "")))
        if answer.forked_at is not None:
            parts.append(self.tr("forked at token {0}").format(answer.forked_at))
        if answer.result is not None:
            t = answer.result.timings
            parts.append(self.tr("{0} tokens, {1:.1f} tok/s").format(t.n_gen, t.gen_tps)
                         if t.n_gen >= 2 and t.gen_tps > 0 else
                         self.tr("{0} tokens").format(t.n_gen))   # none or one: no rate to say
            parts.extend(map(translate_message, answer.result.notices))
            steered = SteeringSummary.line(answer.result.steering)   # as the trace records it
            if steered:
                parts.append(steered)
                tip = SteeringSummary.tip(answer.result.steering)
            verdict = check_output(answer.settings, answer.text, answer.result.finish_reason)
            if verdict is not None:
                parts.insert(0, self.verdict_text(verdict))
        self.status.setText(" · ".join(parts))
        self.status.setToolTip(tip)
        self.status.setVisible(bool(parts))
        self.badge.show_diagnosis(self.diagnose(answer) if self.diagnose is not None else None)


    def _offer_without_thinking(self, on: bool) -> None:
        if on == self.without_thinking.isVisible():
            return
        self.without_thinking.setVisible(on)
        self.regenerate_button.setToolTip(self.tr("Generate this answer again (a new version; the arrow: several at "
                                                  "once, or without its thinking)") if on
                                          else self.tr("Generate this answer again (a new version; the arrow: several "
                                                       "at once)"))

    def verdict_text(self, verdict: Verdict) -> str:
        """The answer checked against its grammar or schema, marked ✓ or ✗."""
        texts = {
            "valid_json": self.tr("✓ valid JSON"),
            "valid_schema": self.tr("✓ valid JSON, matches the schema"),
            "complete": self.tr("✓ complete under the grammar"),
            "invalid_json": self.tr("✗ not valid JSON: {0}"),
            "invalid_schema": self.tr("✗ does not match the schema: {0}"),
            "bad_schema": self.tr("✗ the schema itself is not valid: {0}"),
            "cut": self.tr("✗ cut off before the grammar was complete (max tokens or stopped)"),
        }
        return texts[verdict.kind].format(verdict.detail)


_MARKDOWN = re.compile(r"(^|\n)\s*(#{1,6} |[-*+] |\d+\. |> |```)|\*\*[^*]+\*\*|`[^`]+`|\[[^]]+\]\(")


def has_markdown(text: str) -> bool:
    """Whether formatting would change how the text looks (else the clickable token view is kept)."""
    return bool(_MARKDOWN.search(text))


def _tool(text: str, tip: str) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    button.setAutoRaise(True)
    return button


class ChatView(QScrollArea):
    stepSelected = Signal(int, int)          # turn, step
    forkRequested = Signal(int, int, int)    # turn, step, token
    forkOtherRequested = Signal(int, int)    # turn, step
    regenerateRequested = Signal(int)        # turn
    editRequested = Signal(int)              # turn
    branchRequested = Signal(int, int)       # turn, answer version
    questionBranchRequested = Signal(int, int)   # turn, question version
    diagnosisRequested = Signal(int)         # turn: its answer's badge was clicked
    withoutThinkingRequested = Signal(int)   # turn: make its answer again with the thinking closed at once
    regenerateManyRequested = Signal(int, int)   # turn, versions decoded together

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._inner = QWidget()
        self._layout = QVBoxLayout(self._inner)
        self._layout.setContentsMargins(12, 12, 12, 12)
        self._layout.setSpacing(10)
        self._layout.addStretch(1)
        self.setWidget(self._inner)
        self.conversation: Conversation | None = None
        self.vocab: Sequence[bytes] = ()   # the loaded model's
        # an answer's vocabulary (ui/controllers/answer_vocab.py): the loaded one unless the window says otherwise
        self.vocab_for: Callable[[Answer | None], Sequence[bytes]] = lambda _answer: self.vocab
        self.heatmap = False
        self.color_by = "probability"
        self.dark = False
        self.answers: list[AnswerBubble] = []
        self.questions: list[UserBubble] = []
        self.diagnose: Callable[[Answer], Diagnosis | None] | None = None   # set by the diagnosis controller
        self.legend = HeatmapLegend()  # placed by the window under the chat, shown with the heatmap
        self._follow = True
        self.verticalScrollBar().rangeChanged.connect(self._scroll_to_end_if_following)
        self.verticalScrollBar().valueChanged.connect(self._track_follow)
        self.placeholder = QLabel(self.tr("Ask anything. Every token of the answer can be inspected on the right."))
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.placeholder.setObjectName("placeholder")
        self._layout.insertWidget(0, self.placeholder)

    def _track_follow(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._follow = value >= bar.maximum() - 8

    def _scroll_to_end_if_following(self, _min: int, maximum: int) -> None:
        if self._follow:
            self.verticalScrollBar().setValue(maximum)

    def show_conversation(self, conversation: Conversation) -> None:
        self.conversation = conversation
        while self._layout.count() > 2:
            item = self._layout.takeAt(1)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.answers, self.questions = [], []
        for index, turn in enumerate(conversation.turns):
            self._add_turn_widgets(index, turn)
        self.placeholder.setVisible(not conversation.turns)
        self._follow = True

    def _add_turn_widgets(self, index: int, turn: Turn) -> None:
        assert self.conversation is not None
        user = UserBubble(turn.user, *self.conversation.question_versions(index), attachments=turn.attachments)
        user.editRequested.connect(lambda i=index: self.editRequested.emit(i))
        user.branchRequested.connect(lambda v, i=index: self.questionBranchRequested.emit(i, v))
        answer = AnswerBubble(turn, lambda shown: self.vocab_for(shown), self.heatmap, self.color_by, self.dark,
                              diagnose=self.diagnose)
        answer.diagnosisRequested.connect(lambda i=index: self.diagnosisRequested.emit(i))
        answer.stepClicked.connect(lambda step, i=index: self.stepSelected.emit(i, step))
        answer.forkRequested.connect(lambda step, tok, i=index: self.forkRequested.emit(i, step, tok))
        answer.forkOtherRequested.connect(lambda step, i=index: self.forkOtherRequested.emit(i, step))
        answer.regenerateRequested.connect(lambda i=index: self.regenerateRequested.emit(i))
        answer.withoutThinkingRequested.connect(lambda i=index: self.withoutThinkingRequested.emit(i))
        answer.regenerateManyRequested.connect(lambda n, i=index: self.regenerateManyRequested.emit(i, n))
        answer.branchRequested.connect(lambda v, i=index: self.branchRequested.emit(i, v))
        at = self._layout.count() - 1
        self._layout.insertWidget(at, user)
        self._layout.insertWidget(at + 1, answer)
        self.answers.append(answer)
        self.questions.append(user)
        self.placeholder.hide()

    def add_turn(self, turn: Turn) -> None:
        assert self.conversation is not None
        self._follow = True
        self._add_turn_widgets(len(self.answers), turn)

    def set_heatmap(self, on: bool, color_by: str = "probability") -> None:
        self.heatmap, self.color_by = on, color_by
        self.legend.show_mode(on, color_by, self.dark)
        for bubble in self.answers:
            bubble.view.heatmap, bubble.view.color_by = on, color_by
            bubble.refresh()

    def set_dark(self, dark: bool) -> None:
        """Heatmap colours for the new theme, at once."""
        self.dark = dark
        self.legend.show_mode(self.heatmap, self.color_by, dark)
        for bubble in self.answers:
            bubble.view.dark = dark
            bubble.refresh()

    def set_vocab(self, vocab: Sequence[bytes]) -> None:
        """Another model loaded: each answer is named by its own model's vocabulary again (`vocab_for`)."""
        self.vocab = vocab
        for bubble in self.answers:
            bubble.view.vocab = self.vocab_for(bubble.answer)

    def highlight_step(self, turn_index: int, step_index: int) -> bool:
        """Mark one answer token and scroll to it (a Markdown answer shows its tokens first)."""
        for bubble in self.answers:
            bubble.view.highlight_step(-1)
            bubble.fold.view.highlight_step(-1)
        if not 0 <= turn_index < len(self.answers):
            return False
        bubble = self.answers[turn_index]
        if bubble.view.markdown_text is not None:
            bubble.format_button.setChecked(True)   # the raw tokens: the only view where a token has a place
        view, index = bubble.token_view(step_index)
        rect = view.highlight_step(index)
        if rect is None:
            return False
        centre = view.viewport().mapTo(self._inner, rect.center())
        self.ensureVisible(centre.x(), centre.y(), 20, 60)
        return True

    def highlight_steps(self, turn_index: int, steps: Sequence[int]) -> None:
        """Mark a finding's evidence in one answer (none: clear every mark) and scroll to its first token."""
        for k, bubble in enumerate(self.answers):
            bubble.mark_steps(steps if k == turn_index else ())
        if steps and 0 <= turn_index < len(self.answers):
            bubble = self.answers[turn_index]
            if bubble.view.markdown_text is not None:
                bubble.format_button.setChecked(True)
                bubble.mark_steps(steps)
            view, index = bubble.token_view(steps[0])
            rect = view.step_rect(index)
            if rect is not None:
                centre = view.viewport().mapTo(self._inner, rect.center())
                self.ensureVisible(centre.x(), centre.y(), 20, 60)

    def scroll_to_end(self) -> None:
        QTimer.singleShot(0, lambda: self.verticalScrollBar().setValue(self.verticalScrollBar().maximum()))
