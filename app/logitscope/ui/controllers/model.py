"""The model: open (with the load dialog), load with progress and cancel, connect to a server, reload,
and what the engine can do, pushed to each panel through its one `set_capabilities` / `set_model`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import LoadCancelledError, LogitscopeError, StoreError
from logitscope.gguf.card import damaged_error, read_model_card_with_problems
from logitscope.host.remote import RemoteEngine
from logitscope.library.display_name import model_display_name
from logitscope.protocol.api import LoadSettings, ModelInfo
from logitscope.protocol.engine_like import LOCAL_CAPABILITIES, RemoteModelInfo
from logitscope.store.records import ModelIdentity
from logitscope.store.settings import SettingsStore
from logitscope.ui.bridge import JOB_LOAD, EngineBridge
from logitscope.ui.dialogs.load_model import LoadModelDialog
from logitscope.ui.window import file_folders

if TYPE_CHECKING:
    from logitscope.ui.models.models_window import ModelsWindow


class CapablePanel(Protocol):
    def set_capabilities(self, caps: dict[str, object]) -> None: ...


class ModelPanel(Protocol):
    def set_model(self, info: Any) -> None: ...   # ModelInfo, RemoteModelInfo or None


class ModelBox(QWidget):
    """The model's place in the sidebar: its name, the load progress, open / reload / models buttons."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(self.tr("<b>Model</b>")))
        self.model_label = QLabel(self.tr("No model loaded"))
        self.model_label.setWordWrap(True)
        layout.addWidget(self.model_label)
        self.load_progress = QProgressBar()
        self.load_progress.setRange(0, 100)
        self.load_progress.hide()
        self.cancel_load_button = QPushButton(self.tr("Cancel loading"))
        self.cancel_load_button.hide()
        load_row = QHBoxLayout()
        load_row.addWidget(self.load_progress, 1)
        load_row.addWidget(self.cancel_load_button)
        layout.addLayout(load_row)
        buttons = QHBoxLayout()
        self.models_button = QPushButton(self.tr("Models…"))
        self.open_button = QPushButton(self.tr("Open model…"))
        self.reload_button = QPushButton(self.tr("Reload"))
        for button in (self.models_button, self.open_button, self.reload_button):
            buttons.addWidget(button)
        layout.addLayout(buttons)

    def show_loading(self, loading: bool) -> None:
        self.load_progress.setValue(0)
        self.load_progress.setVisible(loading)
        self.cancel_load_button.setVisible(loading)


class ModelController(QObject):
    changed = Signal()                     # model, capabilities or engine state changed: title, status, actions
    error = Signal(str, str, bool)         # title, message, offer to reload
    notice = Signal(str)

    def __init__(self, bridge: EngineBridge, app_settings: SettingsStore, box: ModelBox, parent_widget: QWidget,
                 capable: Sequence[CapablePanel] = (), model_panels: Sequence[ModelPanel] = (),
                 vocab_users: Sequence[Callable[[Sequence[bytes]], None]] = ()) -> None:
        """`capable`: panels told what the engine can do; `model_panels`: told which model is loaded;
        `vocab_users`: given every token's bytes (empty for a remote model)."""
        super().__init__(parent_widget)
        self.bridge, self.app_settings, self.box = bridge, app_settings, box
        self.capable, self.model_panels, self.vocab_users = list(capable), list(model_panels), list(vocab_users)
        self.parent_widget = parent_widget
        self.models_window: ModelsWindow | None = None
        self.capabilities: dict[str, object] = {"backend": "…", "gpu_offload": False}
        self._identity: tuple[ModelInfo, ModelIdentity] | None = None   # the loaded file's, read at its load
        box.cancel_load_button.clicked.connect(lambda: bridge.cancel(JOB_LOAD))
        box.open_button.clicked.connect(lambda: self.open_model())
        box.reload_button.clicked.connect(self.reload_model)
        b = bridge
        b.loadStarted.connect(self._on_load_started)
        b.loadProgress.connect(lambda f: box.load_progress.setValue(int(f * 100)))
        b.loaded.connect(self._on_loaded)
        b.loadFailed.connect(self._on_load_failed)
        b.engineCrashed.connect(lambda message: self._engine_gone(self.tr("The engine process crashed"), message))
        b.engineUnresponsive.connect(self._on_unresponsive)
        b.capabilities.connect(self._on_capabilities)
        b.remoteConnected.connect(self._on_remote_connected)
        b.probe()

    def show_models(self) -> QWidget:
        """The Models window (this computer's and Hugging Face's), made once; its Load opens the model."""
        from logitscope.ui.models.models_window import ModelsWindow

        if self.models_window is None:
            self.models_window = ModelsWindow(self.app_settings.app.models_folders, self.parent_widget)
            self.models_window.loadRequested.connect(lambda path: self.open_model(path))
        self.models_window.show()
        self.models_window.raise_()
        return self.models_window

    # -- what is loaded ---------------------------------------------------------------------------------
    @property
    def info(self) -> ModelInfo | RemoteModelInfo | None:
        return self.bridge.info

    def name(self) -> str:
        info = self.info
        if info is None:
            return ""
        return model_display_name(info.card.path) if isinstance(info, ModelInfo) else f"{info.name} @ {info.base_url}"

    def recorded_name(self) -> str:
        """The name the history records an answer's model by (ModelIdentity.file_name), without reading the file:
        what tells an answer of this model from another's (ui/controllers/answer_vocab.py)."""
        info = self.info
        if isinstance(info, RemoteModelInfo):
            return f"{info.model} @ {info.base_url}"
        last = self.bridge.local.last_load
        return Path(last[0]).name if info is not None and last is not None else ""

    def identity(self) -> ModelIdentity | None:
        """What the history records as the producer of an answer: the model file as it was loaded (read once, at
        the load: the file may be moved or deleted while llama.cpp keeps it mapped, and the answers go on), or the
        server and model."""
        info = self.info
        if isinstance(info, RemoteModelInfo):
            return ModelIdentity(f"{info.model} @ {info.base_url}", 0, "")
        if not isinstance(info, ModelInfo):
            return None
        if self._identity is None or self._identity[0] is not info:
            self._identity = (info, self._read_identity(info))
        return self._identity[1]

    def _read_identity(self, info: ModelInfo) -> ModelIdentity:
        last = self.bridge.local.last_load
        path = last[0] if last is not None else info.card.path
        try:
            return ModelIdentity.of_file(path)
        except StoreError:   # gone since it loaded: its name and size as loaded (no head to hash)
            return ModelIdentity(Path(path).name, info.card.file_size, "")

    def can_fork(self) -> bool:
        return self.capabilities.get("fork") is not False

    def _push(self, info: ModelInfo | RemoteModelInfo | None, caps: dict[str, object]) -> None:
        for panel in self.model_panels:
            panel.set_model(info)
        for capable in self.capable:
            capable.set_capabilities(caps)
        for use in self.vocab_users:
            use(self.bridge.vocab if info is not None else [])

    # -- actions ----------------------------------------------------------------------------------------
    def open_model(self, path: str | None = None, settings: LoadSettings | None = None, ask: bool = True) -> bool:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.parent_widget, self.tr("Open a GGUF model"),
                                                  file_folders.start(file_folders.MODEL), self.tr("GGUF models (*.gguf)"))
            file_folders.chosen(file_folders.MODEL, path)
            if not path:
                return False
        try:
            card = read_model_card_with_problems(path)  # a damaged file: the load dialog shows what was read and why it cannot load
            if card.problems and not ask:
                raise damaged_error(card)
        except LogitscopeError as exc:
            self.error.emit(self.tr("This file cannot be loaded"), str(exc), False)
            return False
        settings = settings or self.app_settings.load_settings_for(path)
        if ask:
            dialog = LoadModelDialog(card, bool(self.capabilities.get("gpu_offload")),
                                     str(self.capabilities.get("backend")), settings, self.parent_widget)
            if dialog.exec() != LoadModelDialog.DialogCode.Accepted:
                return False
            settings = dialog.settings()
            self.app_settings.remember_load_settings(path, settings)
        self.bridge.load(path, settings or LoadSettings())
        return True

    def connect_server(self, engine: RemoteEngine | None = None) -> None:
        from logitscope.ui.dialogs.connect import ConnectDialog

        if engine is None:
            dialog = ConnectDialog(parent=self.parent_widget)
            if dialog.exec() != ConnectDialog.DialogCode.Accepted:
                return
            engine = dialog.engine()
        self.box.model_label.setText(self.tr("Connecting…"))
        self.bridge.connect_remote(engine)

    def reload_model(self) -> None:
        if self.bridge.reload() is None:
            self.open_model()

    # -- what the bridge says ---------------------------------------------------------------------------
    def _on_load_started(self, path: str) -> None:
        self.box.model_label.setText(self.tr("Loading {0}…").format(Path(path).name))
        self.box.show_loading(True)

    def _on_loaded(self, info: ModelInfo) -> None:
        self.box.show_loading(False)
        self.box.model_label.setText(self.tr("{0}<br><small>{1}, {2:,} tokens of context</small>").format(
            model_display_name(info.card.path), info.card.file_type, info.n_ctx))
        was_remote = self.capabilities.get("remote") is True
        self.capabilities = {**self.capabilities, **LOCAL_CAPABILITIES}  # a local engine supports it all
        self._identity = (info, self._read_identity(info))   # the file as loaded, before anything can move it
        self._push(info, self.capabilities)
        if was_remote:   # after a server: its backend and GPU offload were shown; the local engine's replace them
            self.bridge.probe()
        self.changed.emit()
        self.notice.emit(self.tr("Model loaded in {0:.2f} s").format(info.load_s))
        if self.app_settings.app.last_model_path != info.card.path:
            self.app_settings.update_app(last_model_path=info.card.path)

    def _on_load_failed(self, error: LogitscopeError) -> None:
        self.box.show_loading(False)
        self.box.model_label.setText(self.tr("No model loaded"))
        self.changed.emit()
        if not isinstance(error, LoadCancelledError):
            self.error.emit(self.tr("The model could not be loaded"), str(error), False)

    def _on_remote_connected(self, info: RemoteModelInfo, caps: dict[str, object]) -> None:
        self.capabilities = caps
        self.box.model_label.setText(self.tr("{0}<br><small>on {1} ({2})</small>").format(
            info.name, info.base_url, info.server))
        self._push(info, caps)
        self.changed.emit()
        self.notice.emit(self.tr("Connected to {0}").format(info.base_url))

    def _on_capabilities(self, caps: dict[str, object]) -> None:
        if isinstance(self.info, RemoteModelInfo):
            return  # the local engine's probe: not what is in use
        self.capabilities = caps
        self.changed.emit()

    def _on_unresponsive(self, silent_s: float) -> None:
        self._engine_gone(self.tr("The engine stopped responding"), self.tr(
            "The engine gave no sign of life for {0:g} s, so it was ended. The answer so far is kept.").format(silent_s))

    def _engine_gone(self, title: str, message: str) -> None:
        self.box.model_label.setText(self.tr("The engine stopped. Use Model ▸ Reload model."))
        for panel in self.model_panels:
            panel.set_model(None)
        self.changed.emit()
        self.error.emit(title, message + "\n\n" + self.tr("Your conversation is safe. Reload the model to continue."),
                        True)
