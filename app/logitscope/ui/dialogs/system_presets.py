"""Manage presets…: the system prompts the user saved, to rename or delete (the built-in ones are not listed:
they can be neither). Each change is saved at once; a refused one (a name taken) is one message."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import LogitscopeError
from logitscope.store.settings import SettingsStore
from logitscope.ui.common.ask_text import ask_text
from logitscope.ui.common.messages import translate_sentence


class SystemPresetsDialog(QDialog):
    def __init__(self, store: SettingsStore, show_error: Callable[[str, str], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store, self.show_error = store, show_error
        self.setObjectName("systemPresetsDialog")
        self.setWindowTitle(self.tr("System prompt presets"))
        self.setSizeGripEnabled(True)
        layout = QVBoxLayout(self)
        label = QLabel(self.tr("Your &presets (the built-in ones cannot be changed):"))
        self.names = QListWidget()
        label.setBuddy(self.names)
        layout.addWidget(label)
        row = QHBoxLayout()
        row.addWidget(self.names, 1)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setToolTip(self.tr("The preset's text"))
        # what an empty list means, where the list would be
        self.text.setPlaceholderText(self.tr("No presets of your own yet. To make one, write a system prompt above "
                                             "a chat and press “Save as preset…”."))
        row.addWidget(self.text, 2)
        layout.addLayout(row, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.rename_button = QPushButton(self.tr("&Rename…"))
        self.rename_button.setToolTip(self.tr("Give the selected preset another name (F2)"))
        self.delete_button = QPushButton(self.tr("&Delete"))
        self.delete_button.setToolTip(self.tr("Delete the selected preset (Del); chats that use its text keep it"))
        buttons.addButton(self.rename_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.delete_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.rename_button.clicked.connect(lambda: self.rename())
        self.delete_button.clicked.connect(self.delete)
        QShortcut(QKeySequence(Qt.Key.Key_F2), self.names, lambda: self.rename())
        QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.names, self.delete)
        self.names.currentTextChanged.connect(self._show_text)
        self.resize(560, 320)
        self._fill()

    def selected(self) -> str | None:
        item = self.names.currentItem()
        return item.text() if item is not None else None

    def rename(self, new: str | None = None) -> None:
        old = self.selected()
        if old is None:
            return
        if new is None:
            new, ok = ask_text(self, self.tr("Rename preset"), self.tr("New name:"), text=old)
            if not ok:
                return
        try:
            new = self.store.rename_system_prompt(old, new)
        except LogitscopeError as exc:
            self.show_error(self.tr("Preset"), translate_sentence(exc))
            return
        self._fill(new)

    def delete(self) -> None:
        name = self.selected()
        if name is None:
            return
        try:
            self.store.delete_system_prompt(name)
        except LogitscopeError as exc:
            self.show_error(self.tr("Preset"), translate_sentence(exc))
            return
        self._fill()

    def _fill(self, current: str | None = None) -> None:
        names = list(self.store.user_system_prompts())
        self.names.clear()
        self.names.addItems(names)
        if names:
            self.names.setCurrentRow(names.index(current) if current in names else 0)
        else:
            self.text.setPlainText("")
        for button in (self.rename_button, self.delete_button):
            button.setEnabled(bool(names))

    def _show_text(self, name: str) -> None:
        self.text.setPlainText(self.store.user_system_prompts().get(name, ""))
