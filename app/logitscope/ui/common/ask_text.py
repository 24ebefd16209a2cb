"""One line of text asked in a small dialog (a title, a preset's name, a token), with a field wide enough to read
what is in it: QInputDialog.getText's field was 178 px here, about half of a 58-character conversation title."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget

FIELD_CHARS = 64  # the field shows about this many average characters (a title has up to 60)


def ask_text(parent: QWidget | None, title: str, label: str, echo: QLineEdit.EchoMode = QLineEdit.EchoMode.Normal,
             text: str = "") -> tuple[str, bool]:
    """As QInputDialog.getText: (the text, whether it was accepted)."""
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setLabelText(label)
    dialog.setTextEchoMode(echo)
    dialog.setTextValue(text)
    field = dialog.findChild(QLineEdit)   # (the dialog's own minimum width is its layout's: set on the field)
    assert field is not None, "a text input dialog has its line edit"
    field.setMinimumWidth(field.fontMetrics().averageCharWidth() * FIELD_CHARS)
    accepted = dialog.exec() == QInputDialog.DialogCode.Accepted
    value = dialog.textValue()
    dialog.deleteLater()
    return value, accepted
