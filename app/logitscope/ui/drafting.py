"""The speculative-decoding row (inspector/draft_controls.py) wired to the window: it learns which model is
loaded (flash attention or not), its draft model is remembered in the settings and offered again at start-up
(while the file is there), and its "Reload with flash attention" reloads the model through the model
controller with the same settings but flash attention on (remembered for that model too)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.api import ModelInfo

if TYPE_CHECKING:
    from logitscope.ui.main_window import MainWindow


def install(window: MainWindow) -> None:
    row = window.sampler.drafting
    window.models.model_panels.append(row)
    row.set_model(window.models.info)
    saved = window.app_settings.app.draft_model_path
    if saved and Path(saved).is_file():
        row.set_draft_model(saved)
        row.mode.setCurrentIndex(0)  # offered, not chosen: a draft model costs memory and a load
    row.draftModelChosen.connect(lambda path: _remember(window, path))
    row.reloadRequested.connect(lambda: reload_with_flash_attention(window))
    window.bridge.busyChanged.connect(lambda busy: row.reload_button.setEnabled(not busy))


def _remember(window: MainWindow, path: str) -> None:
    try:
        window.app_settings.update_app(draft_model_path=path)
    except (InvalidSettingsError, OSError) as exc:  # the settings file cannot be written: the choice still holds
        window.statusMessage.emit(str(exc))


def reload_with_flash_attention(window: MainWindow) -> bool:
    """Reload the local model as it is loaded, flash attention on; False when no local model is loaded."""
    info = window.models.info
    if not isinstance(info, ModelInfo):
        return False
    settings = replace(info.load, flash_attn=True)
    try:
        window.app_settings.remember_load_settings(info.card.path, settings)
    except OSError as exc:
        window.statusMessage.emit(str(exc))
    return window.models.open_model(info.card.path, settings, ask=False)
