"""The speculative-decoding row (inspector/draft_controls.py) wired to the window: it learns which model is
loaded (flash attention or not), its draft model is remembered in the settings and offered again at start-up
(while the file is there), and its "Reload with flash attention" reloads the model through the model
controller with the same settings but flash attention on (remembered for that model too)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.api import ModelInfo
from logitscope.store.settings import SettingsStore
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.controllers.model import ModelController
from logitscope.ui.inspector.draft_controls import DraftControls


def install(row: DraftControls, models: ModelController, app_settings: SettingsStore, bridge: EngineBridge,
            notice: Callable[[str], None]) -> None:
    """`notice`: where a settings file that cannot be written is said (the status bar)."""
    models.model_panels.append(row)
    row.set_model(models.info)
    saved = app_settings.app.draft_model_path
    if saved and Path(saved).is_file():
        row.set_draft_model(saved)
        row.mode.setCurrentIndex(0)  # offered, not chosen: a draft model costs memory and a load
    row.draftModelChosen.connect(lambda path: _remember(app_settings, path, notice))
    row.reloadRequested.connect(lambda: reload_with_flash_attention(models, app_settings, notice))
    bridge.busyChanged.connect(lambda busy: row.reload_button.setEnabled(not busy))


def _remember(app_settings: SettingsStore, path: str, notice: Callable[[str], None]) -> None:
    try:
        app_settings.update_app(draft_model_path=path)
    except (InvalidSettingsError, OSError) as exc:  # the settings file cannot be written: the choice still holds
        notice(str(exc))


def reload_with_flash_attention(models: ModelController, app_settings: SettingsStore,
                                notice: Callable[[str], None]) -> bool:
    """Reload the local model as it is loaded, flash attention on; False when no local model is loaded."""
    info = models.info
    if not isinstance(info, ModelInfo):
        return False
    settings = replace(info.load, flash_attn=True)
    try:
        app_settings.remember_load_settings(info.card.path, settings)
    except OSError as exc:
        notice(str(exc))
    return models.open_model(info.card.path, settings, ask=False)
