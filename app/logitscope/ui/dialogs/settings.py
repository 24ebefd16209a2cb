"""Settings: theme, language, default sampler preset, the data folder, extra models folders."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import LogitscopeError
from logitscope.base.paths import data_dir
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.store.settings import AppSettings, SettingsStore
from logitscope.ui.common.messages import translate_template


class SettingsDialog(QDialog):
    def __init__(self, store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.setWindowTitle(self.tr("Settings"))
        layout = QVBoxLayout(self)
        form = QFormLayout()
        app = store.app
        self.theme = QComboBox()
        for value, label in (("system", self.tr("Follow the system")), ("light", self.tr("Light")),
                             ("dark", self.tr("Dark"))):
            self.theme.addItem(label, value)
        self.theme.setCurrentIndex(max(0, self.theme.findData(app.theme)))
        form.addRow(self.tr("Theme"), self.theme)
        self.language = QComboBox()
        for value, label in (("system", self.tr("Follow the system")), ("en", "English"), ("zh_CN", "简体中文")):
            self.language.addItem(label, value)
        self.language.setCurrentIndex(max(0, self.language.findData(app.language)))
        form.addRow(self.tr("Language"), self.language)
        self.language_note = QLabel(self.tr("A new language applies the next time Logitscope starts."))
        self.language_note.setWordWrap(True)
        form.addRow("", self.language_note)
        self.preset = QComboBox()
        for name in store.presets():  # shown translated (built-in ones), stored by name
            self.preset.addItem(translate_template(name) if name in PRESETS else name, name)
        self.preset.setCurrentIndex(max(0, self.preset.findData(app.sampler_preset)))
        form.addRow(self.tr("Default sampler preset"), self.preset)
        folder_row = QHBoxLayout()
        # a field, not a wrapped label: a form row gave the label's second line half its height (a path's "_" and
        # "g" cut off); here the whole path scrolls, and can be selected and copied
        self.data_folder = QLineEdit(str(data_dir()))
        self.data_folder.setReadOnly(True)
        self.data_folder.setCursorPosition(0)
        self.data_folder.setToolTip(str(data_dir()))
        open_folder = QPushButton(self.tr("Open"))
        open_folder.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(data_dir()))))
        folder_row.addWidget(self.data_folder, 1)
        folder_row.addWidget(open_folder)
        form.addRow(self.tr("Data folder"), folder_row)
        layout.addLayout(form)
        layout.addWidget(QLabel(self.tr("Also look for models in these folders:")))
        self.folders = QListWidget()
        self.folders.addItems(list(app.models_folders))
        layout.addWidget(self.folders)
        folder_buttons = QHBoxLayout()
        add = QPushButton(self.tr("Add folder…"))
        remove = QPushButton(self.tr("Remove"))
        add.clicked.connect(self._add_folder)
        remove.clicked.connect(lambda: self.folders.takeItem(self.folders.currentRow()))
        folder_buttons.addWidget(add)
        folder_buttons.addWidget(remove)
        folder_buttons.addStretch(1)
        layout.addLayout(folder_buttons)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _add_folder(self, folder: str | None = None) -> None:
        folder = folder or QFileDialog.getExistingDirectory(self, self.tr("Models folder"))
        if folder and not self.folders.findItems(folder, Qt.MatchFlag.MatchExactly):
            self.folders.addItem(folder)

    def values(self) -> dict[str, object]:
        return {"theme": self.theme.currentData(), "language": self.language.currentData(),
                "sampler_preset": self.preset.currentData(),
                "models_folders": tuple(self.folders.item(i).text() for i in range(self.folders.count()))}

    def apply(self) -> AppSettings:
        return self.store.update_app(**self.values())


def ask_settings(store: SettingsStore, parent: QWidget, accept: bool | None,
                 error: Callable[[str, str], None]) -> tuple[SettingsDialog, AppSettings | None]:
    """The dialog, run (`accept` None) or settled without showing it (tests); the settings saved, or None when
    cancelled or refused (the reason given to `error`, the window's error box)."""
    dialog = SettingsDialog(store, parent)
    if accept is None:
        accept = dialog.exec() == SettingsDialog.DialogCode.Accepted
    if not accept:
        return dialog, None
    try:
        return dialog, dialog.apply()
    except LogitscopeError as exc:
        error(QCoreApplication.translate("MainWindow", "Settings"), str(exc))
        return dialog, None
