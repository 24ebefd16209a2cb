"""The Steering dock at work: opening and checking files, building vectors, measuring the residual stream the
sliders are sized to, remembering the dock across restarts, marking a file the engine refused, and the status
line's badge while answers are steered.

- `steering()` is what the session puts in every GenerateRequest (SessionServices.steering): the dock's state,
  or None when it is off, nothing applies, or the engine is a remote server (which cannot be steered). The
  engine applies it before the request runs and hot-swaps it between requests: a moved slider counts from
  the next answer on, without a reload. The beams view and the forward-pass inspector do not pass it yet
  (their contexts are not steered in the engine either); when they do, they call this same `steering()`.
- The sliders' reach comes from the residual stream's norm per layer: the logit lens's last inspection (the
  Layers dock, `ForwardInspector.inspected`), or, until there is one, a one-off inspection of a short text.
- A file the engine refuses (an adapter for another base model: llama.cpp's reason; a vector of another
  width; a file gone) fails that answer once, with the engine's message; the dock marks the file and leaves
  it out of the next requests (ticking it again tries it again).
- `adaptersChanged` carries the adapters as the Model card lists them, at every change of the dock: (file name,
  its header's LoraMetadata or why it cannot be read, scale, applied), the header read once per file version
  (path, size, modification time), never on a slider's move.
- The files, scales, on/off and the range are remembered (QSettings "steering/state"); the master switch
  never is: every start is unsteered. A remembered file that is gone is dropped with a notice.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, QSettings, Signal, SignalInstance
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QPushButton, QStatusBar, QWidget

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.gguf.control_vector import read_control_vector
from logitscope.gguf.lora import LoraMetadata, read_lora_metadata, require_architecture
from logitscope.protocol.api import ModelInfo
from logitscope.protocol.engine_like import EngineLike
from logitscope.protocol.forward import InspectRequest
from logitscope.protocol.steering import Steering
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.common.messages import translate_message, translate_sentence
from logitscope.ui.steering.build_dialog import BuildDialog
from logitscope.ui.steering.model import SteeringFile, absolute, from_settings, to_settings
from logitscope.ui.steering.panel import SteeringPanel
from logitscope.ui.steering.summary import SteeringSummary
from logitscope.ui.window import file_folders

SETTINGS_KEY = "steering/state"
SHORTCUT = "Ctrl+Shift+S"
# what the residual stream is measured on before the Layers dock has inspected anything
MEASURE_TEXT = "The weather today is mild, and the streets are quiet."


class SteeringController(QObject):
    notice = Signal(str)          # a short line for the status bar
    error = Signal(str, str)      # title, message: for a message box
    adaptersChanged = Signal(list)  # [(file name, LoraMetadata | why it cannot be read, scale, applied)]

    def __init__(self, bridge: EngineBridge, settings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge, self.settings = bridge, settings
        self.panel = SteeringPanel()
        self.dialog: BuildDialog | None = None
        self.badge: QPushButton | None = None
        self.measured_for: str | None = None   # the model whose residual stream the sliders are sized to
        self._measuring = False
        self.restore_notice = ""                # remembered files that were gone, said once the window listens
        self._lora_headers: dict[str, tuple[tuple[int, int] | None, LoraMetadata | str]] = {}
        self.panel.loadRequested.connect(lambda: self.load_vector())
        self.panel.buildRequested.connect(lambda: self.open_build())
        self.panel.addAdapterRequested.connect(lambda: self.add_adapter())
        self.panel.changed.connect(self._changed)
        bridge.generationFailed.connect(self._generation_failed)
        self.restore()

    def install(self, dock: QDockWidget, bar: QStatusBar, inspected: SignalInstance, model_changed: SignalInstance,
                owner: QWidget) -> QAction:
        """The dock's View-menu entry gets its shortcut (window-wide, shown and raised), the status line its
        badge; the lens's inspections and the model's changes reach the dock. Returns the View entry."""
        action = dock.toggleViewAction()
        action.setShortcut(QKeySequence(SHORTCUT))
        action.setStatusTip(self.tr("The Steering dock: control vectors and LoRA adapters for the next answers"))
        action.triggered.disconnect()   # the shortcut brings a dock behind a tab forward, never hides it there
        action.triggered.connect(lambda _checked=False: self.show_dock(dock, action))
        owner.addAction(action)
        self.badge = QPushButton()
        self.badge.setObjectName("steeringBadge")
        self.badge.setFlat(True)
        self.badge.setToolTip(self.tr("The next answers are steered (the Steering dock). Click to turn steering "
                                      "off."))
        self.badge.clicked.connect(lambda: self.panel.set_on(False))
        bar.insertPermanentWidget(0, self.badge)
        inspected.connect(self._inspected)
        model_changed.connect(self.model_changed)
        self.model_changed()
        return action

    @staticmethod
    def show_dock(dock: QDockWidget, action: QAction) -> None:
        """The View entry and its shortcut: a dock on screen is closed (as every dock's entry does), one
        closed or behind another tab is shown in front."""
        if dock.isVisible() and not dock.visibleRegion().isEmpty():
            dock.close()
        else:
            dock.show()
            dock.raise_()
        action.setChecked(not dock.isHidden())

    # -- what every request gets ---------------------------------------------------------------------------
    def steering(self) -> Steering | None:
        if not isinstance(self.bridge.info, ModelInfo):
            return None  # a remote server cannot be steered (nor can there be steering without a model)
        return self.panel.steering()

    def _changed(self) -> None:
        self.save()
        if self.badge is not None:
            text = SteeringSummary.badge(self.steering())
            self.badge.setText(text)
            self.badge.setVisible(bool(text))
        self.adaptersChanged.emit(self.adapter_lines())

    def adapter_lines(self) -> list[tuple[str, LoraMetadata | str, float, bool]]:
        """The dock's adapters as the Model card lists them (model_card.AdapterLine), in the dock's order."""
        steering = self.steering()
        applied = {f.path for f in steering.loras} if steering is not None else set()
        return [(item.name, self.lora_metadata(item.path), item.scale, item.path in applied)
                for item in self.panel.state.adapters]

    def lora_metadata(self, path: str) -> LoraMetadata | str:
        """The adapter's header (or why it cannot be read), read again only when the file changed."""
        try:
            st = os.stat(path)
            stamp: tuple[int, int] | None = (st.st_size, st.st_mtime_ns)
        except OSError:
            stamp = None
        cached = self._lora_headers.get(path)
        if cached is not None and stamp is not None and cached[0] == stamp:
            return cached[1]
        try:
            found: LoraMetadata | str = read_lora_metadata(path)
        except InvalidSettingsError as exc:
            found = translate_sentence(exc)
        self._lora_headers[path] = (stamp, found)
        return found

    # -- the model -----------------------------------------------------------------------------------------
    def model_changed(self) -> None:
        info = self.bridge.info
        if isinstance(info, ModelInfo):
            self.panel.set_model(info.card.n_layer)
            for item in self.panel.state.vectors:   # a vector of another width would fail every answer
                self._check_width(item, info)
            if self.measured_for != info.card.path:
                self.measured_for = None
                self.panel.set_residual(None, "")
                self.measure()
        elif info is None:
            self.panel.set_model(None, self.tr("Load a model to steer it."))
        else:
            self.panel.set_model(None, self.tr("A server cannot be steered: control vectors and adapters need a "
                                               "local model. Answers are sent unsteered."))
        if self.dialog is not None:
            self.dialog.set_model(info)
        self._changed()

    def _check_width(self, item: SteeringFile, info: ModelInfo) -> None:
        try:
            read_control_vector(item.path).require_n_embd(info.card.n_embd)
        except InvalidSettingsError as exc:
            self.panel.mark_problem(item.path, translate_sentence(exc))

    # -- the residual stream the sliders are sized to ------------------------------------------------------
    def _inspected(self, found: object) -> None:
        """The Layers dock inspected a step: its residual norms size the sliders from now on."""
        lens = getattr(getattr(found, "inspection", None), "lens", None)
        info = self.bridge.info
        if lens is None or not isinstance(info, ModelInfo):
            return
        self.measured_for = info.card.path
        self.panel.set_residual(np.asarray(lens.resid_norm), self.tr("the step shown in the Layers dock"))

    def measure(self) -> None:
        """Measure the residual stream once on a short text, when a vector needs it and nothing did yet."""
        info = self.bridge.info
        if (self._measuring or self.measured_for is not None or not self.panel.state.vectors
                or not isinstance(info, ModelInfo)):
            return
        self._measuring = True
        path = info.card.path

        def job(client: EngineLike) -> np.ndarray | None:   # the worker thread
            inspect, tokenize = getattr(client, "inspect", None), getattr(client, "tokenize", None)
            if inspect is None or tokenize is None:
                return None
            tokens = tuple(tokenize(MEASURE_TEXT, True, False))
            if not tokens:
                return None
            lens = inspect(InspectRequest(tokens, lens=True, attention=False)).lens
            return None if lens is None else np.asarray(lens.resid_norm)

        def done(norms: np.ndarray | None) -> None:
            self._measuring = False
            current = self.bridge.info
            if norms is not None and isinstance(current, ModelInfo) and current.card.path == path \
                    and self.measured_for is None:
                self.measured_for = path
                self.panel.set_residual(norms, self.tr("a short text ({0!r})").format(MEASURE_TEXT))

        def failed(_message: str) -> None:
            self._measuring = False   # the sliders keep their default reach

        self.bridge.call(job, done, failed)

    # -- files ---------------------------------------------------------------------------------------------
    def _new_file(self, path: str | None, title: str, filters: str,
                  check: Callable[[str], str | None] | None = None) -> str | None:
        """`path` (or one the user picks) as an absolute path, unless `check` refuses it (it returns why, shown
        under `title`) or it is in the dock already (a notice)."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.panel.window(), title, file_folders.start(file_folders.MODEL),
                                                  filters)
            file_folders.chosen(file_folders.MODEL, path)
            if not path:
                return None
        path = absolute(path)
        refused = check(path) if check is not None else None
        if refused is not None:
            self.error.emit(title, refused)
            return None
        if self.panel.state.find(path) is not None:
            self.notice.emit(self.tr("{0} is in the Steering dock already").format(Path(path).name))
            return None
        return path

    def load_vector(self, path: str | None = None) -> bool:
        """Add a control-vector file (one clear message when it is not one, or not for this model)."""
        path = self._new_file(path, self.tr("Load a control vector"),
                              self.tr("Control vectors (*.gguf);;All files (*)"))
        if path is None:
            return False
        try:
            vector = read_control_vector(path)
            info = self.bridge.info
            if isinstance(info, ModelInfo):
                vector.require_n_embd(info.card.n_embd)
        except InvalidSettingsError as exc:
            self.error.emit(self.tr("Control vector"), translate_sentence(exc))
            return False
        self.panel.add_vector(SteeringFile(path, 1.0, True, directions=vector.directions))
        self.measure()
        return True

    def add_adapter(self, path: str | None = None) -> bool:
        """Add a LoRA adapter; llama.cpp checks it against the model at the next answer (the engine loads it
        then, once, and says why when it cannot)."""
        path = self._new_file(path, self.tr("Add a LoRA adapter"),
                              self.tr("GGUF LoRA adapters (*.gguf);;All files (*)"), self._check_adapter)
        if path is None:
            return False
        self.panel.add_adapter(SteeringFile(path, 1.0, True))
        return True

    def _check_adapter(self, path: str) -> str | None:
        """Why a file that is no LoRA adapter (a model, a control vector), or one for another architecture, is
        refused when it is added, not at the next answer; None when it is one."""
        if not Path(path).is_file():
            return translate_message(Message("the LoRA adapter {path} does not exist", path=path))
        adapter = self.lora_metadata(path)   # (read once: the Model card shows it next)
        if isinstance(adapter, str):
            return adapter
        info = self.bridge.info
        try:
            if isinstance(info, ModelInfo):
                require_architecture(adapter, info.card.architecture)
        except InvalidSettingsError as exc:
            return translate_sentence(exc)
        return None

    def open_build(self) -> BuildDialog:
        if self.dialog is None:
            self.dialog = BuildDialog(self.bridge, self.panel.window())
            self.dialog.built.connect(self._built)
        self.dialog.set_model(self.bridge.info)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def _built(self, path: str) -> None:
        if self.load_vector(path):
            self.notice.emit(self.tr("Control vector {0} built and added to the Steering dock").format(
                Path(path).name))

    # -- what the engine refused ---------------------------------------------------------------------------
    def _generation_failed(self, error: object) -> None:
        """An answer failed because of one of the dock's files: that file is marked and left out from now on
        (the session shows the engine's message once)."""
        if not isinstance(error, InvalidSettingsError):
            return
        carried = getattr(error, "message", None)
        named = carried.params.get("path") if isinstance(carried, Message) else None
        text = str(error)
        for item in (*self.panel.state.vectors, *self.panel.state.adapters):
            if item.applies and (named in (item.path, item.name) or item.path in text
                                 or (isinstance(named, str) and absolute(named) == item.path)):
                self.panel.mark_problem(item.path, translate_sentence(error))
                self.notice.emit(self.tr("{0} is left out of the next answers: {1}").format(
                    item.name, translate_message(error)))
                return

    # -- remembered --------------------------------------------------------------------------------------
    def save(self) -> None:
        self.settings.setValue(SETTINGS_KEY, json.dumps(to_settings(self.panel.state)))

    def restore(self) -> None:
        raw = self.settings.value(SETTINGS_KEY)
        try:
            saved = json.loads(raw) if isinstance(raw, str) else None
        except ValueError:
            saved = None
        state, gone = from_settings(saved)
        for item in state.vectors:
            try:
                item.directions = read_control_vector(item.path).directions
            except InvalidSettingsError as exc:
                item.problem = translate_sentence(exc)
        self.panel.load_state(state)
        if gone:
            text = QCoreApplication.translate(
                "SteeringController", "Removed from the Steering dock, the file is gone: {0}").format(
                ", ".join(Path(p).name for p in gone))
            self.panel.show_notice(text)
            self.restore_notice = text
            self.save()


def install_steering(controller: SteeringController, dock: QDockWidget, bar: QStatusBar,
                     inspected: SignalInstance, model_changed: SignalInstance, owner: QWidget,
                     show_error: Callable[[str, str], None], notice: Callable[[str], None],
                     adapters: Callable[[list[tuple[str, LoraMetadata | str, float, bool]]], None] | None = None,
                     ) -> QAction:
    """The window's one call: the controller's install plus where its messages go; `adapters` (the Model
    card's set_adapters) gets the dock's adapters at every change, from the start."""
    controller.error.connect(show_error)
    controller.notice.connect(notice)
    if adapters is not None:
        controller.adaptersChanged.connect(adapters)
    action = controller.install(dock, bar, inspected, model_changed, owner)
    if controller.restore_notice:
        notice(controller.restore_notice)
    return action
