"""The chat's commands that ask the user first or leave the window: edit a question in a dialog, fork with
a token the user types (tokenized by the engine, off the GUI thread), copy the last answer, show what the thinking
did once an answer has been made again without it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QWidget

from logitscope.protocol.thinking_effect import thinking_effect
from logitscope.session.conversation import Answer
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.chat.chat_view import ChatView
from logitscope.ui.chat.thinking_effect import ThinkingEffectDialog
from logitscope.ui.common.ask_text import ask_text
from logitscope.ui.controllers.session import SessionController
from logitscope.ui.dialogs.edit_message import EditMessageDialog


class ChatCommands:
    def __init__(self, session: SessionController, bridge: EngineBridge, parent: QWidget,
                 error: Callable[[str, str], None]) -> None:
        """`parent`: the dialogs' window; `error`: the window's error box."""
        self.session, self.bridge, self.parent, self.error = session, bridge, parent, error
        self.effect_dialog: ThinkingEffectDialog | None = None
        session.withoutThinkingEnded.connect(self.show_thinking_effect)

    def connect_chat(self, chat: ChatView) -> None:
        chat.forkOtherRequested.connect(self.fork_other)
        chat.withoutThinkingRequested.connect(self.session.answer_without_thinking)
        chat.regenerateManyRequested.connect(self.session.regenerate_many)

    def show_thinking_effect(self, source: Answer, without: Answer) -> None:
        """Both answers side by side (not modal: the chat stays usable; a new comparison replaces the last)."""
        if self.effect_dialog is not None:
            self.effect_dialog.close()
        self.effect_dialog = ThinkingEffectDialog(thinking_effect(source.steps, without.steps), self.bridge.vocab,
                                                  self.parent)
        self.effect_dialog.show()

    def edit_turn(self, turn_index: int) -> None:
        """Edit and resend a question: the old version stays, with its answers and the turns after it."""
        turns = self.session.current.turns
        if self.session.busy or not 0 <= turn_index < len(turns):
            return
        old = turns[turn_index]
        text, ok = EditMessageDialog.ask(self.parent, old.user)
        if ok and text.strip() and text.strip() != old.user:
            self.session.edit(turn_index, text.strip())

    def fork_other(self, turn_index: int, step_index: int) -> None:
        text, ok = ask_text(
            self.parent, QCoreApplication.translate("MainWindow", "Fork with your own token"),
            QCoreApplication.translate("MainWindow", "Text of the token to force (its first token is used):"))
        if not ok or not text:
            return

        def done(tokens: list[int]) -> None:
            if tokens:
                self.session.fork(turn_index, step_index, tokens[0])

        self.bridge.call(lambda c: c.tokenize(text), done,
                         lambda msg: self.error(QCoreApplication.translate("MainWindow", "Tokenizer"), msg))

    def copy_last_answer(self) -> None:
        turns = self.session.current.turns
        answer = turns[-1].answer if turns else None
        if answer is not None:
            QApplication.clipboard().setText(answer.text)
