"""The Tokenizer dock's requests answered by the engine, off the GUI thread: a text's tokens, or the last
turn's prompt as the model received it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject

from logitscope.protocol.api import GenerateRequest
from logitscope.session.conversation import Conversation
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.inspector.tokenizer import TokenizerPanel


class TokenizerFeed(QObject):
    def __init__(self, bridge: EngineBridge, panel: TokenizerPanel, current: Callable[[], Conversation],
                 notice: Callable[[str], None], error: Callable[[str, str], None],
                 parent: QObject | None = None) -> None:
        """`current`: the conversation on screen; `notice` and `error`: the window's status bar and error box."""
        super().__init__(parent)
        self.bridge, self.panel, self.current, self.notice, self.error = bridge, panel, current, notice, error
        panel.tokenizeRequested.connect(self.tokenize)
        panel.chatPromptRequested.connect(self.show_chat_prompt)

    def tokenize(self, text: str) -> None:
        if self.bridge.info is None or not text:
            self.panel.show_tokens([])
            return
        self.bridge.call(lambda c: c.tokenize(text, False, True), lambda toks: self.panel.show_tokens(toks))

    def show_chat_prompt(self) -> None:
        current = self.current()
        if self.bridge.info is None or not current.turns:
            self.notice(QCoreApplication.translate("MainWindow", "Start a chat first: the prompt is built from it"))
            return
        request = GenerateRequest(messages=current.messages_for(len(current.turns) - 1), system=current.system)

        def show(tokens: list[int]) -> None:
            self.panel.show_tokens(tokens, QCoreApplication.translate(
                "MainWindow", "the prompt of the last turn, as the model received it"))

        self.bridge.call(lambda c: c.prompt_tokens(request), show,
                         lambda m: self.error(QCoreApplication.translate("MainWindow", "Tokenizer"), m))
