"""The main window's message boxes: an error (non-modal, with Reload model when that may help), About, and a
preset that cannot be saved."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from logitscope import __version__
from logitscope.base.errors import LogitscopeError
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.store.settings import SettingsStore
from logitscope.ui.common.messages import translate_sentence


def error_status_line(title: str, message: str) -> str:
    """An error box's line for the status bar: its title and the message's first line, once ("The engine process
    crashed: The engine process crashed (SIGKILL: killed)" said it twice)."""
    first = message.splitlines()[0] if message else ""
    return first if first.lower().startswith(title.lower()) else f"{title}: {first}"


def show_error_box(parent: QWidget, title: str, message: str, reload: Callable[[], None] | None = None) -> str:
    """Opens the box without waiting for it; returns the message as shown (translated)."""
    message = translate_sentence(message)  # the engine's, library's and store's English, translated
    box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("errorBox")
    if reload is not None:
        button = box.addButton(QCoreApplication.translate("MainWindow", "Reload model"),
                               QMessageBox.ButtonRole.AcceptRole)
        button.clicked.connect(reload)
    box.setModal(False)
    box.open()
    return message


def show_about(parent: QWidget, capabilities: dict[str, object]) -> None:
    QMessageBox.about(parent, QCoreApplication.translate("MainWindow", "About Logitscope"),
                      QCoreApplication.translate(
        "MainWindow", "<h3>Logitscope {0}</h3><p>Chat with a local LLM and see inside it.</p>"
        "<p>llama.cpp backend in this build: <b>{1}</b> (GPU offload: {2}).</p>").format(
        __version__, capabilities.get("backend"),
        QCoreApplication.translate("MainWindow", "yes") if capabilities.get("gpu_offload")
        else QCoreApplication.translate("MainWindow", "no")))


def save_preset(app_settings: SettingsStore, show_error: Callable[[str, str], None], name: str,
                settings: SamplerSettings) -> None:
    """The sampler panel's Save preset: a preset that cannot be saved is one message."""
    try:
        app_settings.save_preset(name, settings)
    except LogitscopeError as exc:
        show_error(QCoreApplication.translate("MainWindow", "Preset"), str(exc))
