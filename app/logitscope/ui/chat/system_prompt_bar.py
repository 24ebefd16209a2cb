"""The system prompt above the chat: one row (a preset picker, Save as preset…, Manage presets…, and a
toggle that unfolds the editor, three lines tall) so that it costs the chat a single line at 1280x720.

The presets are the app's (store/settings.py); the text is the chat's own (ChatSettingsController keeps it
with the conversation). Picking a preset puts its text in the editor; editing the text shows the preset it
matches, or "Custom". `changed` is emitted for what the user does only, never for `set_prompt`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import LogitscopeError
from logitscope.store.settings import SYSTEM_PROMPTS, SettingsStore
from logitscope.ui.common.ask_text import ask_text
from logitscope.ui.common.messages import translate_sentence, translate_template
from logitscope.ui.dialogs.system_presets import SystemPresetsDialog

NONE = ""          # the picker's data for "None": no system prompt (a preset name is never empty)
CUSTOM = "\x00"    # its data for "Custom": a text that matches no preset
EDITOR_LINES = 3
MIN_PICKER_CHARS = 14


class SystemPromptBar(QWidget):
    changed = Signal()   # the user picked a preset or edited the text

    def __init__(self, store: SettingsStore, show_error: Callable[[str, str], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store, self.show_error = store, show_error
        self._quiet = False
        self.template_default: str | None = None   # what the model's chat template writes when the chat has none
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 2, 8, 2)
        outer.setSpacing(2)
        row = QHBoxLayout()
        label = QLabel(self.tr("S&ystem prompt:"))
        self.presets = QComboBox()
        self.presets.setObjectName("systemPresets")
        label.setBuddy(self.presets)
        self.presets.setMinimumContentsLength(MIN_PICKER_CHARS)
        self.presets.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.edit_button = QToolButton()
        self.edit_button.setText(self.tr("Edit"))
        self.edit_button.setCheckable(True)
        self.edit_button.setToolTip(self.tr("Show or hide the system prompt of this chat, to read or change it"))
        self.save_button = QToolButton()
        self.save_button.setText(self.tr("Save as preset…"))
        self.save_button.setToolTip(self.tr("Keep this system prompt as a preset of your own, for other chats"))
        self.manage_button = QToolButton()
        self.manage_button.setText(self.tr("Manage presets…"))
        self.manage_button.setToolTip(self.tr("Rename or delete the system prompt presets you saved"))
        for widget in (label, self.presets, self.edit_button, self.save_button, self.manage_button):
            row.addWidget(widget)
        row.addStretch(1)
        outer.addLayout(row)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("systemPrompt")
        self.editor.setPlaceholderText(self.tr("No system prompt: type one, or pick a preset"))
        self.editor.setTabChangesFocus(True)
        self.editor.setMaximumHeight(self.editor.fontMetrics().lineSpacing() * EDITOR_LINES
                                     + 2 * round(self.editor.document().documentMargin()) + 4)
        self.editor.setVisible(False)
        outer.addWidget(self.editor)
        self.edit_button.toggled.connect(self._show_editor)
        self.save_button.clicked.connect(lambda: self.ask_save())
        self.manage_button.clicked.connect(lambda: self.manage())
        self.editor.textChanged.connect(self._edited)
        self._refill()
        self.presets.currentIndexChanged.connect(self._picked)
        self._show_match()

    # -- what the chat has ---------------------------------------------------------------------------------
    def prompt(self) -> str:
        return self.editor.toPlainText()

    def preset_name(self) -> str | None:
        """The preset shown (None: no preset, "Custom" or "None")."""
        data = self.presets.currentData()
        return data if data not in (NONE, CUSTOM) else None

    def set_prompt(self, text: str | None, preset: str | None = None) -> None:
        """Show a chat's system prompt (`preset`: the one it picked, shown when its text still matches)."""
        self._quiet = True
        self.editor.setPlainText(text or "")
        self._quiet = False
        self._show_match(preset)

    # -- the user's actions --------------------------------------------------------------------------------
    def ask_save(self, ask: Callable[..., tuple[str, bool]] | None = None) -> str | None:
        """Save the text as a preset under a name the user gives; returns the name saved."""
        name, ok = (ask or ask_text)(self, self.tr("Save system prompt"), self.tr("Preset name:"))
        if not ok:
            return None
        try:
            saved = self.store.save_system_prompt(name, self.prompt())
        except LogitscopeError as exc:
            self.show_error(self.tr("Preset"), translate_sentence(exc))
            return None
        self._refill()
        self._show_match(saved)
        self.changed.emit()   # the chat's preset is now the one saved
        return saved

    def manage(self, dialog: SystemPresetsDialog | None = None) -> SystemPresetsDialog:
        """The dialog that renames and deletes the user's presets (modal; `dialog` given: not run, tests)."""
        if dialog is None:
            dialog = SystemPresetsDialog(self.store, self.show_error, self)
            dialog.exec()
        self._refill()
        self._show_match(self.preset_name())
        return dialog

    def _show_editor(self, shown: bool) -> None:
        self.editor.setVisible(shown)
        if shown:
            self.editor.setFocus()

    def _picked(self) -> None:
        data = self.presets.currentData()
        if data == CUSTOM:
            return
        self._quiet = True
        self.editor.setPlainText(self.store.system_prompts().get(data, "") if data != NONE else "")
        self._quiet = False
        self._show_match(data)
        self.changed.emit()

    def _edited(self) -> None:
        if not self._quiet:
            self._show_match(self.preset_name())
            self.changed.emit()

    # -- the picker ----------------------------------------------------------------------------------------
    def _refill(self) -> None:
        self.presets.blockSignals(True)
        self.presets.clear()
        self.presets.addItem(self._none_text(), NONE)
        for name in SYSTEM_PROMPTS:
            self.presets.addItem(translate_template(name), name)
        for name in self.store.user_system_prompts():
            self.presets.addItem(name, name)
        self.presets.blockSignals(False)

    def _show_match(self, preferred: str | None = None) -> None:
        """Select `preferred` when its text is the editor's, else the first preset that matches, else None
        (empty) or Custom; the tooltip shows the text, the editor being folded away."""
        text, prompts = self.prompt(), self.store.system_prompts()
        if preferred in prompts and prompts[preferred] == text and text:
            data: str = preferred
        elif not text:
            data = NONE
        else:
            data = next((name for name, value in prompts.items() if value == text), CUSTOM)
        self.presets.blockSignals(True)
        custom = self.presets.findData(CUSTOM)
        if data == CUSTOM and custom < 0:
            self.presets.addItem(self.tr("Custom"), CUSTOM)
        elif data != CUSTOM and custom >= 0:
            self.presets.removeItem(custom)
        self.presets.setCurrentIndex(self.presets.findData(data))
        self.presets.blockSignals(False)
        tip = self.tr("The system prompt of this chat: the instructions the model reads before the conversation")
        if text:
            tip += f"\n\n{text}"
        elif self.template_default:
            tip += "\n\n" + self.tr("None of yours: this model's chat template then writes its own, which the model "
                                    "reads:") + f"\n{self.template_default}"
        self.presets.setToolTip(tip)

    # -- the model's template ------------------------------------------------------------------------------
    def set_template_default(self, text: str | None) -> None:
        """The loaded model's template writes `text` as the system prompt of a chat that has none (None: nothing):
        "None" then says so, and its tooltip shows the text."""
        self.template_default = text
        self.presets.setItemText(self.presets.findData(NONE), self._none_text())
        self.presets.setMinimumContentsLength(max(MIN_PICKER_CHARS, len(self._none_text())))   # read whole
        self._show_match(self.preset_name())

    def _none_text(self) -> str:
        return self.tr("None (the template's own)") if self.template_default else self.tr("None")
