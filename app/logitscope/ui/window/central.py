"""The main window's centre: the conversation list and the model box on the left, the chat, its legend,
the files attached to the next message and the prompt with the paperclip, Send and Stop on the right, in a
splitter."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QSplitter, QToolButton, QVBoxLayout, QWidget

from logitscope.ui.chat.attachment_chips import AttachmentStrip
from logitscope.ui.chat.chat_view import ChatView
from logitscope.ui.chat.prompt_box import PromptBox


@dataclass
class Central:
    splitter: QSplitter
    send_button: QPushButton
    stop_button: QPushButton
    attach_button: QToolButton
    attachments: AttachmentStrip    # the files attached to the next message, above the prompt


def build_central(sidebar: QWidget, model_box: QWidget, chat: ChatView, prompt: PromptBox,
                  system_bar: QWidget) -> Central:
    """`system_bar`: the chat's system prompt, one row above the chat."""
    splitter = QSplitter(Qt.Orientation.Horizontal)
    left = QWidget()
    left_layout = QVBoxLayout(left)
    left_layout.setContentsMargins(6, 6, 6, 6)
    left_layout.addWidget(sidebar, 1)
    left_layout.addWidget(model_box)
    splitter.addWidget(left)
    centre = QWidget()
    centre_layout = QVBoxLayout(centre)
    centre_layout.setContentsMargins(0, 0, 0, 6)
    centre_layout.addWidget(system_bar)
    centre_layout.addWidget(chat, 1)
    centre_layout.addWidget(chat.legend)
    attachments = AttachmentStrip(removable=True)
    attachments.setContentsMargins(8, 0, 8, 0)
    centre_layout.addWidget(attachments)
    input_row = QHBoxLayout()
    input_row.setContentsMargins(8, 0, 8, 0)
    send_button = QPushButton(QCoreApplication.translate("MainWindow", "Send"))
    stop_button = QPushButton(QCoreApplication.translate("MainWindow", "Stop"))
    attach_button = QToolButton()
    attach_button.setObjectName("attachButton")
    attach_button.setText("📎")
    attach_button.setToolTip(QCoreApplication.translate(
        "MainWindow", "Attach text files to the message (or drop them on the message box)"))
    attach_button.setAccessibleName(QCoreApplication.translate("MainWindow", "Attach files"))
    input_row.addWidget(attach_button, 0, Qt.AlignmentFlag.AlignTop)
    input_row.addWidget(prompt, 1)
    side = QVBoxLayout()
    side.addWidget(send_button)
    side.addWidget(stop_button)
    input_row.addLayout(side)
    centre_layout.addLayout(input_row)
    splitter.addWidget(centre)
    splitter.setStretchFactor(0, 0)
    splitter.setStretchFactor(1, 1)
    splitter.setSizes([230, 700])
    return Central(splitter, send_button, stop_button, attach_button, attachments)
