"""Attached files shown as chips: the file's name, its size and (once the engine has counted them) its
tokens; above the prompt each has an × that removes it before sending, in a sent question they only show
what went with it (the tooltip has the file's first lines)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from logitscope.gguf.memory import format_bytes
from logitscope.protocol.attachments import Attachment

PREVIEW_LINES = 12   # of the file, in a chip's tooltip


class AttachmentChip(QFrame):
    removeRequested = Signal()

    def __init__(self, attachment: Attachment, removable: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentChip")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.attachment = attachment
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 1, 2, 1)
        layout.setSpacing(4)
        self.label = QLabel()
        layout.addWidget(self.label)
        self.remove_button: QToolButton | None = None
        if removable:
            self.remove_button = QToolButton()
            self.remove_button.setText("×")
            self.remove_button.setAutoRaise(True)
            self.remove_button.setToolTip(self.tr("Remove {0} from the message").format(attachment.name))
            self.remove_button.setAccessibleName(self.tr("Remove attachment"))
            self.remove_button.clicked.connect(self.removeRequested)
            layout.addWidget(self.remove_button)
        lines = attachment.text.splitlines()
        preview = "\n".join(lines[:PREVIEW_LINES]) + ("\n…" if len(lines) > PREVIEW_LINES else "")
        self.setToolTip(preview)
        self.show_tokens(None)

    def show_tokens(self, tokens: int | None) -> None:
        """The file's tokens, once counted (None: not known, a remote server may not tell)."""
        self.tokens = tokens
        size = format_bytes(self.attachment.size)
        text = f"📎 {self.attachment.name} · {size}"
        if tokens is not None:
            text += " · " + self.tr("{0} tokens").format(tokens)
        self.label.setText(text)


class AttachmentStrip(QWidget):
    """A row of chips, hidden while it has none."""

    removeRequested = Signal(int)   # index of the chip whose × was clicked

    def __init__(self, removable: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.removable = removable
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(6)
        self._layout.addStretch(1)
        self.chips: list[AttachmentChip] = []
        self.setVisible(False)

    def set_attachments(self, attachments: Sequence[Attachment]) -> None:
        for chip in self.chips:
            self._layout.removeWidget(chip)
            chip.deleteLater()
        self.chips = []
        for index, attachment in enumerate(attachments):
            chip = AttachmentChip(attachment, self.removable, self)
            chip.removeRequested.connect(lambda i=index: self.removeRequested.emit(i))
            self._layout.insertWidget(index, chip)
            self.chips.append(chip)
        self.setVisible(bool(self.chips))
