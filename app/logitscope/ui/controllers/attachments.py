"""The files attached to the message being written, and sending it: the paperclip button and files dropped on
the prompt attach them (each shown as a chip, its × removes it), each file's tokens are counted by the engine
(off the GUI thread), and a message with files is sent only once the engine has counted that it fits in the
context with room for the answer. A refusal (a file that cannot be attached, a message that cannot fit) is
one message; the typed text and the files stay where they were."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QPushButton, QToolButton, QWidget

from logitscope.base.errors import AttachmentError
from logitscope.protocol.attachments import Attachment
from logitscope.session.attachments import attachment_tokens, fit_problem, message_tokens, read_attachment
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.chat.attachment_chips import AttachmentStrip
from logitscope.ui.chat.prompt_box import PromptBox
from logitscope.ui.common.messages import translate_message, translate_sentence
from logitscope.ui.controllers.session import SessionController
from logitscope.ui.window import file_folders


class AttachmentController(QObject):
    def __init__(self, bridge: EngineBridge, session: SessionController, prompt: PromptBox, strip: AttachmentStrip,
                 attach_button: QToolButton, send_button: QPushButton, window: QWidget,
                 error: Callable[[str, str], None]) -> None:
        """`window`: the file dialog's parent; `error`: the window's error box (and status line)."""
        super().__init__(window)
        self.bridge, self.session, self.prompt, self.strip, self.window = bridge, session, prompt, strip, window
        self.error = error
        self.pending: list[Attachment] = []
        self.tokens: dict[Attachment, int] = {}   # each file's tokens, once the engine has counted them
        self.checking = False                     # a message with files waits for its count
        self._sending = 0                         # the send a count coming back belongs to, if it is this one
        attach_button.clicked.connect(lambda: self.choose())
        prompt.filesDropped.connect(self.attach)
        prompt.submitted.connect(self.send)
        send_button.clicked.connect(lambda: self.send(prompt.toPlainText().strip()))
        strip.removeRequested.connect(self.remove)

    # -- attaching ----------------------------------------------------------------------------------------
    def choose(self, paths: Sequence[str] | None = None) -> None:
        """Ask for files to attach (or attach `paths`)."""
        if paths is None:
            paths, _filter = QFileDialog.getOpenFileNames(
                self.window, self.tr("Attach text files"), file_folders.start(file_folders.DOCUMENT),
                self.tr("Text files (*.txt *.md *.markdown *.rst *.csv *.json *.yaml *.yml *.toml *.xml *.html "
                        "*.py *.js *.ts *.c *.h *.cpp *.rs *.go *.java *.sh *.sql *.log);;All files (*)"))
            file_folders.chosen(file_folders.DOCUMENT, paths[0] if paths else "")
        self.attach(list(paths))

    def attach(self, paths: Sequence[str]) -> bool:
        """Attach each file that can be; one message lists those refused (and why). True: all were attached."""
        problems = []
        for path in paths:
            try:
                attachment = read_attachment(path)
            except AttachmentError as exc:
                problems.append(translate_sentence(exc))
                continue
            self.pending.append(attachment)
            self._count(attachment)
        self._show()
        if problems:
            self.error(self.tr("Not attached"), "\n".join(problems))
        return not problems

    def remove(self, index: int) -> None:
        if 0 <= index < len(self.pending) and not self.checking:
            del self.pending[index]
            self._show()

    def take_pending(self) -> tuple[Attachment, ...]:
        """The attached files, detached (the draft of a conversation no longer shown). A message being counted
        to be sent is not sent then: it stays, typed and attached, with the conversation it was written in."""
        self.checking = False
        self._sending += 1   # a count on its way belongs to no send now
        files, self.pending = tuple(self.pending), []
        self._show()
        return files

    def put_pending(self, files: tuple[Attachment, ...]) -> None:
        """Attach `files` again (a draft coming back), after any attached meanwhile."""
        self.pending += [a for a in files if a not in self.pending]
        for attachment in files:
            self._count(attachment)
        self._show()

    def _count(self, attachment: Attachment) -> None:
        if self.bridge.info is None or attachment in self.tokens:
            return

        def counted(n: int) -> None:
            self.tokens[attachment] = n
            self._show_tokens()

        self.bridge.call(lambda c: attachment_tokens(c, attachment), counted, lambda _message: None)

    def _show(self) -> None:
        self.strip.set_attachments(self.pending)
        self._show_tokens()

    def _show_tokens(self) -> None:
        for chip in self.strip.chips:
            chip.show_tokens(self.tokens.get(chip.attachment))

    # -- sending ------------------------------------------------------------------------------------------
    def send(self, text: str) -> None:
        """Send the typed text with the attached files (a message with files once the engine has counted it)."""
        if self.checking:
            return
        files = tuple(self.pending)
        n_ctx = getattr(self.bridge.info, "n_ctx", None)   # a remote server may not say
        if not files or not n_ctx or self.session.busy:
            self._send_now(text, files)   # without a model or while answering the session says why
            return
        system, max_tokens = self.session.current.system, self.session.services.decode_options(()).max_tokens
        self.checking = True
        self._sending += 1
        sending = self._sending

        def counted(needed: int) -> None:
            if sending != self._sending:   # the conversation was left meanwhile: the message stays its draft
                return
            self.checking = False
            problem = fit_problem(needed, n_ctx, max_tokens)
            if problem is not None:
                self.error(self.tr("Not sent"), translate_message(problem))
            else:
                self._send_now(text, files)

        def not_counted(_message: str) -> None:   # the engine cannot count (a remote server): it checks itself
            if sending != self._sending:
                return
            self.checking = False
            self._send_now(text, files)

        self.bridge.call(lambda c: message_tokens(c, text, files, system), counted, not_counted)

    def _send_now(self, text: str, files: tuple[Attachment, ...]) -> None:
        if not self.session.send(text, files):
            return
        if self.prompt.toPlainText().strip() == text:   # what was typed while it was counted stays
            self.prompt.clear()
        self.pending = [a for a in self.pending if a not in files]
        self._show()
