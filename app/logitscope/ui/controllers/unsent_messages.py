"""Each conversation's unsent message: what is typed in the prompt box, and the files attached to it, stay with the
conversation they were written in and come back when it is shown again (as chat apps keep a draft per chat), for
as long as the window is open. Another conversation starts from its own draft, or an empty box."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject
from PySide6.QtGui import QTextCursor

from logitscope.protocol.attachments import Attachment
from logitscope.ui.chat.prompt_box import PromptBox
from logitscope.ui.controllers.attachments import AttachmentController
from logitscope.ui.controllers.session import SessionController
from logitscope.ui.window.sidebar import ConversationSidebar


@dataclass(frozen=True)
class Unsent:
    text: str
    files: tuple[Attachment, ...]


class UnsentMessages(QObject):
    def __init__(self, prompt: PromptBox, attachments: AttachmentController, session: SessionController,
                 sidebar: ConversationSidebar, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.prompt, self.attachments, self.session = prompt, attachments, session
        self.shown = session.current          # the conversation the box's text belongs to
        self.unsent: dict[int, Unsent] = {}    # by Conversation.id (a deleted one's comes back with its Undo)
        sidebar.switched.connect(self.follow)

    def follow(self) -> None:
        """The session shows another conversation: the box's message stays with the one it was written in."""
        current = self.session.current
        if current is self.shown:
            return
        message = Unsent(self.prompt.toPlainText(), self.attachments.take_pending())
        if message.text.strip() or message.files:
            self.unsent[self.shown.id] = message
        else:
            self.unsent.pop(self.shown.id, None)
        self.shown = current
        mine = self.unsent.pop(current.id, Unsent("", ()))
        self.prompt.setPlainText(mine.text)
        self.prompt.moveCursor(QTextCursor.MoveOperation.End)
        self.attachments.put_pending(mine.files)
