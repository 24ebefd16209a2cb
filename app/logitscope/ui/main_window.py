"""The main window: conversations on the left, the chat in the centre, inspector docks on the right."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from logitscope import __version__
from logitscope.engine.api import DecodeOptions, GenerateRequest, LoadSettings, ModelInfo
from logitscope.engine.gguf_info import damaged_error, inspect_model
from logitscope.engine.sampler import SamplerSettings
from logitscope.engine.trace import GenerationResult, StepRecord, dumps, result_to_json, step_to_json
from logitscope.errors import LogitscopeError
from logitscope.host.engine_api import RemoteModelInfo
from logitscope.library.display_name import model_display_name
from logitscope.store.files import write_export
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity
from logitscope.store.settings import SettingsStore
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.chat.chat_view import ChatView
from logitscope.ui.chat.prompt_box import PromptBox
from logitscope.ui.conversation import Answer, Conversation, Turn
from logitscope.ui.dialogs.edit_message import EditMessageDialog
from logitscope.ui.dialogs.load_model import LoadModelDialog
from logitscope.ui.inspector.distribution import DistributionPanel
from logitscope.ui.inspector.memory import MemoryPanel
from logitscope.ui.inspector.model_card import ModelCardPanel
from logitscope.ui.inspector.sampler_controls import SamplerPanel
from logitscope.ui.inspector.state import StepView, differs
from logitscope.ui.inspector.timeline import TimelinePanel
from logitscope.ui.inspector.tokenizer import TokenizerPanel
from logitscope.ui.inspector.waterfall import WaterfallPanel
from logitscope.ui.layout import arrange_docks
from logitscope.ui.list_notice import notice_item
from logitscope.ui.menu_focus import MenuFocusKeeper
from logitscope.ui.persistence import ChatHistory

LAYOUT_VERSION = 2  # 2: the right column spans the height, scrolled sampler controls


class MainWindow(QMainWindow):
    statusMessage = Signal(str)

    def __init__(self, bridge: EngineBridge | None = None, settings: QSettings | None = None,
                 dark: bool = False, history: ChatHistory | None = None,
                 app_settings: SettingsStore | None = None) -> None:
        super().__init__()
        self.bridge = bridge or EngineBridge(parent=self)
        self.qsettings = settings or QSettings("Logitscope", "Logitscope")
        self.history = history or ChatHistory(HistoryStore())
        self.app_settings = app_settings or SettingsStore()
        self.app_settings.repair()  # ignored parts: the file is backed up and rewritten, its notices shown once
        self.dark = dark
        self.capabilities: dict[str, object] = {"backend": "…", "gpu_offload": False}
        self.conversations: list[Conversation] = self.history.conversations() or [Conversation()]
        self.current = self.conversations[0]
        self.history.fill(self.current)
        self._deleted: list[tuple[int, Conversation]] = []
        self.streaming: tuple[Turn, Answer] | None = None
        self.selected: tuple[int, int | None] | None = None   # (turn, step or None = follow the latest)
        self.sampler_settings = SamplerSettings()
        # While tokens stream, plots repaint at most ~8 times a second: on a small machine the GUI shares
        # the cores with llama.cpp, and every millisecond painting is a millisecond not decoding.
        self._inspector_timer = QTimer(self)
        self._inspector_timer.setSingleShot(True)
        self._inspector_timer.setInterval(120)
        self._inspector_timer.timeout.connect(self._refresh_inspector)
        # Saves the history refused (another process writing to it) are tried again; a lasting refusal is shown.
        self._save_timer = QTimer(self)
        self._save_timer.setInterval(500)
        self._save_timer.timeout.connect(self._retry_saving)
        self._save_timer.start()
        self.setObjectName("MainWindow")
        self.resize(1400, 860)
        self._build_central()
        self._build_docks()
        self._build_actions()
        self._menu_focus = MenuFocusKeeper(self)
        self._build_status_bar()
        self._connect_bridge()
        self._refresh_conversation_list()
        self.chat.show_conversation(self.current)
        self._update_title()
        self._update_actions()
        self.restore_layout()
        self.prompt.setFocus()
        notices = self.history.notices + self.app_settings.notices
        if notices:
            QTimer.singleShot(0, lambda: self.show_error(self.tr("Notice"), "\n".join(notices)))

    # -- construction ----------------------------------------------------------------------------------
    def _build_central(self) -> None:
        splitter = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(6, 6, 6, 6)
        left_layout.addWidget(QLabel(self.tr("<b>Conversations</b>")))
        self.search_box = QLineEdit()
        self.search_box.setPlaceholderText(self.tr("Search conversations"))
        self.search_box.setClearButtonEnabled(True)
        self.search_box.textChanged.connect(self._filter_conversations)
        left_layout.addWidget(self.search_box)
        self.conversation_list = QListWidget()
        self.conversation_list.currentRowChanged.connect(self._switch_conversation)
        self.conversation_list.itemDoubleClicked.connect(lambda _item: self.rename_conversation())
        left_layout.addWidget(self.conversation_list, 1)
        buttons = QHBoxLayout()
        self.new_button = QPushButton(self.tr("New"))
        self.rename_button = QPushButton(self.tr("Rename"))
        self.delete_button = QPushButton(self.tr("Delete"))
        self.new_button.clicked.connect(self.new_chat)
        self.rename_button.clicked.connect(lambda: self.rename_conversation())
        self.delete_button.clicked.connect(lambda: self.delete_conversation())
        for b in (self.new_button, self.rename_button, self.delete_button):
            buttons.addWidget(b)
        left_layout.addLayout(buttons)
        left_layout.addWidget(QLabel(self.tr("<b>Model</b>")))
        self.model_label = QLabel(self.tr("No model loaded"))
        self.model_label.setWordWrap(True)
        left_layout.addWidget(self.model_label)
        self.load_progress = QProgressBar()
        self.load_progress.setRange(0, 100)
        self.load_progress.hide()
        self.cancel_load_button = QPushButton(self.tr("Cancel loading"))
        self.cancel_load_button.clicked.connect(self.bridge_cancel)
        self.cancel_load_button.hide()
        load_row = QHBoxLayout()
        load_row.addWidget(self.load_progress, 1)
        load_row.addWidget(self.cancel_load_button)
        left_layout.addLayout(load_row)
        model_buttons = QHBoxLayout()
        self.open_button = QPushButton(self.tr("Open model…"))
        self.open_button.clicked.connect(lambda: self.open_model())
        self.reload_button = QPushButton(self.tr("Reload"))
        self.reload_button.clicked.connect(self.reload_model)
        self.models_button = QPushButton(self.tr("Models…"))
        self.models_button.clicked.connect(lambda: self.show_models())
        model_buttons.addWidget(self.models_button)
        model_buttons.addWidget(self.open_button)
        model_buttons.addWidget(self.reload_button)
        left_layout.addLayout(model_buttons)
        splitter.addWidget(left)

        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 6)
        self.chat = ChatView()
        self.chat.dark = self.dark
        centre_layout.addWidget(self.chat, 1)
        centre_layout.addWidget(self.chat.legend)
        input_row = QHBoxLayout()
        input_row.setContentsMargins(8, 0, 8, 0)
        self.prompt = PromptBox()
        self.prompt.submitted.connect(self.send)
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.clicked.connect(lambda: self.send(self.prompt.toPlainText().strip()))
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.clicked.connect(self.stop)
        input_row.addWidget(self.prompt, 1)
        side = QVBoxLayout()
        side.addWidget(self.send_button)
        side.addWidget(self.stop_button)
        input_row.addLayout(side)
        centre_layout.addLayout(input_row)
        splitter.addWidget(centre)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([230, 700])
        self.setCentralWidget(splitter)

        self.chat.stepSelected.connect(self.select_step)
        self.chat.forkRequested.connect(self.fork)
        self.chat.forkOtherRequested.connect(self.fork_other)
        self.chat.regenerateRequested.connect(self.regenerate)
        self.chat.editRequested.connect(self.edit_turn)
        self.chat.branchRequested.connect(self.switch_branch)

    def _build_docks(self) -> None:
        self.distribution = DistributionPanel()
        self.waterfall = WaterfallPanel()
        self.sampler = SamplerPanel(self.app_settings.user_presets())
        self.sampler.presets.setCurrentText(self.app_settings.app.sampler_preset)
        self.sampler.presetSaved.connect(self._save_preset)
        self.timeline = TimelinePanel()
        self.memory = MemoryPanel()
        self.model_card = ModelCardPanel()
        self.tokenizer = TokenizerPanel()
        self.sampler.settingsChanged.connect(self._on_sampler_changed)
        self.timeline.stepClicked.connect(lambda i: self.select_step(self._inspected_turn(), i))
        self.tokenizer.tokenizeRequested.connect(self._tokenize_for_panel)
        self.tokenizer.chatPromptRequested.connect(self.show_chat_prompt)
        self.docks: dict[str, QDockWidget] = {}
        specs = [
            ("distribution", self.tr("Next-token distribution"), self.distribution, Qt.DockWidgetArea.RightDockWidgetArea),
            ("waterfall", self.tr("Sampler waterfall"), self.waterfall, Qt.DockWidgetArea.BottomDockWidgetArea),
            ("sampler", self.tr("Sampler controls"), self.sampler, Qt.DockWidgetArea.RightDockWidgetArea),
            ("timeline", self.tr("Timeline"), self.timeline, Qt.DockWidgetArea.BottomDockWidgetArea),
            ("memory", self.tr("Memory and context"), self.memory, Qt.DockWidgetArea.BottomDockWidgetArea),
            ("model_card", self.tr("Model card"), self.model_card, Qt.DockWidgetArea.BottomDockWidgetArea),
            ("tokenizer", self.tr("Tokenizer"), self.tokenizer, Qt.DockWidgetArea.BottomDockWidgetArea),
        ]
        for key, title, widget, area in specs:
            dock = QDockWidget(title, self)
            dock.setObjectName(f"dock_{key}")
            dock.setWidget(widget)
            self.addDockWidget(area, dock)
            self.docks[key] = dock
        arrange_docks(self, self.docks)

    def _action(self, text: str, slot, shortcut: QKeySequence | str | None = None, tip: str = "") -> QAction:  # noqa: ANN001
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        self.new_action = self._action(self.tr("&New chat"), self.new_chat, "Ctrl+N")
        self.open_action = self._action(self.tr("&Open model…"), lambda: self.open_model(), "Ctrl+O")
        self.export_action = self._action(self.tr("&Export trace…"), lambda: self.export_trace(), "Ctrl+Shift+E",
                                          self.tr("Save the selected answer's trace as JSON Lines"))
        self.quit_action = self._action(self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit)
        self.stop_action = self._action(self.tr("&Stop generating"), self.stop, "Esc")
        self.regenerate_action = self._action(self.tr("&Regenerate"), lambda: self.regenerate(len(self.current.turns) - 1),
                                              "Ctrl+R")
        self.edit_action = self._action(self.tr("&Edit last message"), lambda: self.edit_turn(len(self.current.turns) - 1),
                                        "Ctrl+E")
        self.copy_action = self._action(self.tr("&Copy last answer"), self.copy_last_answer, "Ctrl+Shift+C")
        self.heatmap_action = self._action(self.tr("Probability &heatmap"), self.toggle_heatmap, "Ctrl+H")
        self.heatmap_action.setCheckable(True)
        self.rank_action = self._action(self.tr("Colour by &rank instead"), self.toggle_heatmap)
        self.rank_action.setCheckable(True)
        self.reset_layout_action = self._action(self.tr("Reset &layout"), self.reset_layout)
        self.reload_action = self._action(self.tr("&Reload model"), self.reload_model, "Ctrl+Shift+R")
        self.models_action = self._action(self.tr("&Models…"), lambda: self.show_models(), "Ctrl+M",
                                          self.tr("Models on this computer and on Hugging Face"))
        self.connect_action = self._action(self.tr("&Connect to a server…"), lambda: self.connect_server(),
                                           tip=self.tr("llama-server, vLLM or any OpenAI-compatible server"))
        self.about_action = self._action(self.tr("&About Logitscope"), self.about)
        self.settings_action = self._action(self.tr("&Settings…"), lambda: self.open_settings(), "Ctrl+,")
        self.export_chat_action = self._action(self.tr("Export conversation…"), lambda: self.export_conversation())
        self.import_action = self._action(self.tr("Import conversations…"), lambda: self.import_conversations())
        menus = self.menuBar()
        file_menu = menus.addMenu(self.tr("&File"))
        for a in (self.new_action, self.open_action, self.export_action, self.export_chat_action, self.import_action):
            file_menu.addAction(a)
        file_menu.addSeparator()
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = menus.addMenu(self.tr("&Edit"))
        for a in (self.stop_action, self.regenerate_action, self.edit_action, self.copy_action):
            edit_menu.addAction(a)
        view_menu = menus.addMenu(self.tr("&View"))
        view_menu.addAction(self.heatmap_action)
        view_menu.addAction(self.rank_action)
        view_menu.addSeparator()
        for dock in self.docks.values():
            view_menu.addAction(dock.toggleViewAction())
        view_menu.addSeparator()
        view_menu.addAction(self.reset_layout_action)
        model_menu = menus.addMenu(self.tr("&Model"))
        model_menu.addAction(self.models_action)
        model_menu.addAction(self.open_action)
        model_menu.addAction(self.connect_action)
        model_menu.addAction(self.reload_action)
        help_menu = menus.addMenu(self.tr("&Help"))
        help_menu.addAction(self.about_action)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.status_model = QLabel()
        self.status_backend = QLabel()
        self.status_context = QLabel()
        self.status_speed = QLabel()
        for label in (self.status_model, self.status_backend, self.status_context, self.status_speed):
            bar.addPermanentWidget(label)
        self.statusMessage.connect(lambda text: bar.showMessage(text, 8000))
        self._update_status_bar()

    def _connect_bridge(self) -> None:
        b = self.bridge
        b.loadStarted.connect(self._on_load_started)
        b.loadProgress.connect(lambda f: self.load_progress.setValue(int(f * 100)))
        b.loaded.connect(self._on_loaded)
        b.loadFailed.connect(self._on_load_failed)
        b.steps.connect(self._on_steps)
        b.generationFinished.connect(self._on_finished)
        b.generationFailed.connect(self._on_failed)
        b.engineCrashed.connect(self._on_crashed)
        b.engineUnresponsive.connect(self._on_unresponsive)
        b.capabilities.connect(self._on_capabilities)
        b.remoteConnected.connect(self._on_remote_connected)
        b.busyChanged.connect(lambda _busy: self._update_actions())
        b.probe()

    # -- models ---------------------------------------------------------------------------------------
    def open_model(self, path: str | None = None, settings: LoadSettings | None = None, ask: bool = True) -> bool:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a GGUF model"), "", self.tr("GGUF models (*.gguf)"))
            if not path:
                return False
        try:
            card = inspect_model(path)  # a damaged file: the load dialog shows what was read and why it cannot load
            if card.problems and not ask:
                raise damaged_error(card)
        except LogitscopeError as exc:
            self.show_error(self.tr("This file cannot be loaded"), str(exc))
            return False
        settings = settings or self.app_settings.load_settings_for(path)
        if ask:
            dialog = LoadModelDialog(card, bool(self.capabilities.get("gpu_offload")),
                                     str(self.capabilities.get("backend")), settings, self)
            if dialog.exec() != LoadModelDialog.DialogCode.Accepted:
                return False
            settings = dialog.settings()
            self.app_settings.remember_load_settings(path, settings)
        self.bridge.load(path, settings or LoadSettings())
        return True

    def show_models(self) -> object:
        from logitscope.ui.models.models_window import ModelsWindow

        if getattr(self, "models_window", None) is None:
            self.models_window = ModelsWindow(self.app_settings.app.models_folders, self)
            self.models_window.loadRequested.connect(lambda path: self.open_model(path))
        self.models_window.show()
        self.models_window.raise_()
        return self.models_window

    def connect_server(self, engine: object | None = None) -> None:
        from logitscope.ui.dialogs.connect import ConnectDialog

        if engine is None:
            dialog = ConnectDialog(parent=self)
            if dialog.exec() != ConnectDialog.DialogCode.Accepted:
                return
            engine = dialog.engine()
        self.model_label.setText(self.tr("Connecting…"))
        self.bridge.connect_remote(engine)  # type: ignore[arg-type]

    def _on_remote_connected(self, info: RemoteModelInfo, caps: dict) -> None:
        self.capabilities = caps
        self.model_label.setText(self.tr("{0}<br><small>on {1} ({2})</small>").format(info.name, info.base_url,
                                                                                        info.server))
        self.chat.set_vocab([])
        self.distribution.vocab = []
        self.tokenizer.vocab = []
        self.memory.set_model(None)
        self.memory.formula.setText(self.tr("A remote server does not report its KV cache."))
        self.model_card.text.setHtml(self.tr("<p>Remote model <b>{0}</b> on {1} ({2}). No GGUF header to read: "
                                             "the server does not share it.</p>").format(info.model, info.base_url,
                                                                                         info.server))
        unsupported = dict(caps.get("unsupported_settings") or {})
        for name, row in self.sampler.rows.items():
            row.setEnabled(name not in unsupported)
            row.setToolTip(str(unsupported.get(name, "")))
        self.sampler.order.setEnabled("order" not in unsupported)
        self.tokenizer.setEnabled(bool(caps.get("tokenize")))
        self._update_title()
        self._update_status_bar()
        self._update_actions()
        self.statusMessage.emit(self.tr("Connected to {0}").format(info.base_url))

    def reload_model(self) -> None:
        if self.bridge.reload() is None:
            self.open_model()

    def _on_load_started(self, path: str) -> None:
        self.model_label.setText(self.tr("Loading {0}…").format(Path(path).name))
        self.load_progress.setValue(0)
        self.load_progress.show()
        self.cancel_load_button.show()

    def bridge_cancel(self) -> None:
        self.bridge.cancel()

    def _on_loaded(self, info: ModelInfo) -> None:
        self.load_progress.hide()
        self.cancel_load_button.hide()
        for row in self.sampler.rows.values():  # a local engine supports every setting
            row.setEnabled(True)
            row.setToolTip("")
        self.sampler.order.setEnabled(True)
        self.tokenizer.setEnabled(True)
        self.model_label.setText(self.tr("{0}<br><small>{1}, {2:,} tokens of context</small>").format(
            model_display_name(info.card.path), info.card.file_type, info.n_ctx))
        vocab = self.bridge.vocab
        self.chat.set_vocab(vocab)
        self.distribution.vocab = vocab
        self.tokenizer.vocab = vocab
        self.memory.set_model(info)
        self.model_card.set_model(info)
        self._update_title()
        self._update_status_bar()
        self._update_actions()
        self.statusMessage.emit(self.tr("Model loaded in {0:.2f} s").format(info.load_s))
        if self.app_settings.app.last_model_path != info.card.path:
            self.app_settings.update_app(last_model_path=info.card.path)

    def _on_load_failed(self, message: str) -> None:
        self.load_progress.hide()
        self.cancel_load_button.hide()
        self.model_label.setText(self.tr("No model loaded"))
        self._update_title()
        self._update_actions()
        if message != "model load cancelled":
            self.show_error(self.tr("The model could not be loaded"), message)

    def _on_capabilities(self, caps: dict) -> None:
        if isinstance(self.bridge.info, RemoteModelInfo):
            return  # the local engine's probe: not what is in use
        self.capabilities = caps
        self._update_status_bar()

    def _on_crashed(self, message: str) -> None:
        self._engine_gone(self.tr("The engine process crashed"), message)

    def _on_unresponsive(self, silent_s: float) -> None:
        self._engine_gone(self.tr("The engine stopped responding"), self.tr(
            "The engine gave no sign of life for {0:g} s, so it was ended. The answer so far is kept.").format(silent_s))

    def _engine_gone(self, title: str, message: str) -> None:
        self.memory.set_model(None)
        self.model_label.setText(self.tr("The engine stopped. Use Model ▸ Reload model."))
        self._update_title()
        self._update_status_bar()
        self._update_actions()
        self.show_error(title, message + "\n\n" + self.tr("Your conversation is safe. Reload the model to continue."),
                        offer_reload=True)

    # -- chat -----------------------------------------------------------------------------------------
    def send(self, text: str) -> None:
        if not text or self.streaming is not None or self.bridge.info is None:
            if self.bridge.info is None:
                self.statusMessage.emit(self.tr("Load a model first (File ▸ Open model…)"))
            return
        self.prompt.clear()
        turn = Turn(user=text)
        self.current.turns.append(turn)
        if self.current.title == "New chat":
            self.current.title = text[:40]
        self.history.save_question(self.current, len(self.current.turns) - 1)
        self._refresh_conversation_list()
        self.chat.add_turn(turn)
        self._start_answer(len(self.current.turns) - 1, Answer())

    def _start_answer(self, turn_index: int, answer: Answer, prefix: tuple[int, ...] = (),
                      forced: tuple[int, ...] = ()) -> None:
        turn = self.current.turns[turn_index]
        settings = self.sampler.settings()
        answer.settings = settings.to_dict()
        answer.model_name = self._model_name()
        turn.answers.append(answer)
        turn.active = len(turn.answers) - 1
        identity = self._model_identity()
        if identity is not None:
            self.history.start_answer(self.current, turn, answer, identity, self.bridge.vocab)
        self.streaming = (turn, answer)
        self.selected = (turn_index, None)
        self.chat.answers[turn_index].refresh()
        options = DecodeOptions(max_tokens=self.sampler.max_tokens.value(), stop=self.sampler.stop_sequences(),
                                forced=forced)
        request = GenerateRequest(messages=self.current.messages_for(turn_index), system=self.current.system,
                                  settings=settings, options=options, assistant_prefix=prefix)
        self.bridge.generate(request)
        self._update_actions()
        self._refresh_inspector()

    def _on_steps(self, steps: list[StepRecord]) -> None:
        if self.streaming is None:
            return
        turn, answer = self.streaming
        offset = answer.prefix_steps
        for step in steps:
            step.i += offset
        answer.steps.extend(steps)
        self.history.append(answer, steps)
        index = self.current.turns.index(turn) if turn in self.current.turns else -1
        if index >= 0 and turn.answer is answer:
            self.chat.answers[index].append(steps)
            if steps[-1].kv_used >= 0:
                self.memory.set_used(steps[-1].kv_used + 1)
            if self.selected == (index, None) and not self._inspector_timer.isActive():
                self._inspector_timer.start()
        self.status_context.setText(self._context_text(steps[-1].kv_used + 1 if steps[-1].kv_used >= 0 else -1))

    def _on_finished(self, result: GenerationResult) -> None:
        if self.streaming is None:
            return
        turn, answer = self.streaming
        self.streaming = None
        answer.result = result
        answer.status = "stopped" if result.finish_reason == "cancelled" else "done"
        self.history.finish(answer, result)
        self._after_answer(turn)
        t = result.timings
        self.status_speed.setText(self.tr("first token {0:.0f} ms · {1:.1f} tok/s").format(t.ttft_s * 1000, t.gen_tps))
        self.status_context.setText(self._context_text(result.kv.used_cells))
        if result.kv.used_cells >= 0:
            self.memory.set_used(result.kv.used_cells)

    def _on_failed(self, message: str) -> None:
        if self.streaming is None:
            return
        turn, answer = self.streaming
        self.streaming = None
        answer.status = "stopped" if message == "stopped" else "error"
        answer.error = "" if message == "stopped" else message
        self.history.finish(answer, None, message)
        self._after_answer(turn)
        if message != "stopped" and self.bridge.info is not None:
            self.show_error(self.tr("Generation failed"), message)

    def _retry_saving(self) -> None:
        for problem in self.history.retry_saving():
            self.show_error(self.tr("The answer is not saved yet"),
                            self.tr("The history database refused to save this answer ({0}). It stays in this "
                                    "window, and Logitscope keeps trying to save it: another program may be "
                                    "writing to the history.").format(problem))

    def _after_answer(self, turn: Turn) -> None:
        self._inspector_timer.stop()
        if turn in self.current.turns:
            self.chat.answers[self.current.turns.index(turn)].refresh()
        self._refresh_inspector()
        self._update_actions()

    def stop(self) -> None:
        if self.streaming is not None or self.bridge.busy:
            self.bridge.cancel()

    def regenerate(self, turn_index: int) -> None:
        if self.streaming is not None or not (0 <= turn_index < len(self.current.turns)):
            return
        if turn_index != len(self.current.turns) - 1:
            self.statusMessage.emit(self.tr("Only the last answer can be regenerated"))
            return
        self._start_answer(turn_index, Answer())

    def edit_turn(self, turn_index: int) -> None:
        """Edit and resend the last question: the old turn stays reachable as an earlier version."""
        if self.streaming is not None or turn_index != len(self.current.turns) - 1 or turn_index < 0:
            if turn_index >= 0 and turn_index != len(self.current.turns) - 1:
                self.statusMessage.emit(self.tr("Only the last message can be edited"))
            return
        old = self.current.turns[turn_index]
        text, ok = EditMessageDialog.ask(self, old.user)
        if ok and text.strip() and text.strip() != old.user:
            self.resend_edited(turn_index, text.strip())

    def resend_edited(self, turn_index: int, text: str) -> None:
        old = self.current.turns[turn_index]
        new = Turn(user=text, earlier=[*old.earlier, old])
        self.current.turns[turn_index] = new
        self.history.save_edit(self.current, turn_index)
        self.chat.show_conversation(self.current)
        self._start_answer(turn_index, Answer())

    def switch_branch(self, turn_index: int, version: int) -> None:
        turn = self.current.turns[turn_index]
        if self.streaming is not None or not (0 <= version < len(turn.answers)):
            return
        turn.active = version
        if turn.answer is not None:
            self.history.switch_branch(turn.answer)
        self.chat.answers[turn_index].refresh()
        self.selected = (turn_index, None)
        self._refresh_inspector()

    def fork(self, turn_index: int, step_index: int, token: int) -> None:
        """Regenerate the answer from `step_index`, with `token` forced there; the old one stays a version."""
        if self.capabilities.get("fork") is False:
            self.statusMessage.emit(self.tr("Forking needs token ids: use a local model"))
            return
        if self.streaming is not None or turn_index != len(self.current.turns) - 1:
            self.statusMessage.emit(self.tr("Forking works on the last answer, when nothing is generating"))
            return
        turn = self.current.turns[turn_index]
        source = turn.answer
        if source is None or step_index > len(source.steps):
            return
        prefix_steps = [replace(s) for s in source.steps[:step_index]]
        answer = Answer(steps=prefix_steps, forked_at=step_index, prefix_steps=step_index)
        self._start_answer(turn_index, answer, prefix=tuple(s.token for s in prefix_steps), forced=(token,))

    def fork_other(self, turn_index: int, step_index: int) -> None:
        text, ok = QInputDialog.getText(self, self.tr("Fork with your own token"),
                                        self.tr("Text of the token to force (its first token is used):"))
        if not ok or not text:
            return

        def done(tokens: list[int]) -> None:
            if tokens:
                self.fork(turn_index, step_index, tokens[0])

        self.bridge.call(lambda c: c.tokenize(text), done, lambda msg: self.show_error(self.tr("Tokenizer"), msg))

    def copy_last_answer(self) -> None:
        from PySide6.QtGui import QGuiApplication

        if self.current.turns and self.current.turns[-1].answer:
            QGuiApplication.clipboard().setText(self.current.turns[-1].answer.text)

    # -- conversations ----------------------------------------------------------------------------------
    def new_chat(self) -> None:
        if self.current.turns:
            self.current = Conversation()
            self.conversations.insert(0, self.current)
        self._refresh_conversation_list()
        self.chat.show_conversation(self.current)
        self.selected = None
        self._refresh_inspector()
        self.prompt.setFocus()

    def _refresh_conversation_list(self) -> None:
        query = self.search_box.text().strip()
        matches = set(self.history.search(query)) if query else None
        self.conversation_list.blockSignals(True)
        self.conversation_list.clear()
        self._listed = [c for c in self.conversations if matches is None or c.store_id in matches]
        for conv in self._listed:
            item = QListWidgetItem(conv.title)
            item.setData(Qt.ItemDataRole.UserRole, conv.id)
            self.conversation_list.addItem(item)
        if not self._listed:
            self.conversation_list.addItem(notice_item(self.tr("No conversations match")))
        self.conversation_list.setCurrentRow(self._listed.index(self.current) if self.current in self._listed else -1)
        self.conversation_list.blockSignals(False)

    def _filter_conversations(self, _text: str) -> None:
        self._refresh_conversation_list()

    def _switch_conversation(self, row: int) -> None:
        if not (0 <= row < len(self._listed)) or self._listed[row] is self.current:
            return
        if self.streaming is not None:
            self.statusMessage.emit(self.tr("Wait for the answer to finish (or press Esc)"))
            self._refresh_conversation_list()
            return
        self.current = self._listed[row]
        self.history.fill(self.current)
        self.chat.show_conversation(self.current)
        self.selected = None
        self._refresh_inspector()

    def rename_conversation(self, title: str | None = None) -> None:
        if title is None:
            title, ok = QInputDialog.getText(self, self.tr("Rename"), self.tr("Title:"), text=self.current.title)
            if not ok:
                return
        if title.strip():
            self.current.title = title.strip()
            self.history.rename(self.current)
            self._refresh_conversation_list()

    def delete_conversation(self, confirm: bool = True) -> None:
        if self.streaming is not None:
            return
        if confirm and self.current.turns:
            answer = QMessageBox.question(self, self.tr("Delete conversation"),
                                          self.tr("Delete “{0}”?").format(self.current.title))
            if answer != QMessageBox.StandardButton.Yes:
                return
        index = self.conversations.index(self.current)
        self.history.delete(self.current)
        self._deleted.append((index, self.current))
        self.conversations.remove(self.current)
        if not self.conversations:
            self.conversations.append(Conversation())
        self.current = self.conversations[0]
        self.history.fill(self.current)
        self._offer_undo(self.tr("Conversation deleted."))
        self._refresh_conversation_list()
        self.chat.show_conversation(self.current)
        self.selected = None
        self._refresh_inspector()

    def _offer_undo(self, text: str) -> None:
        button = QPushButton(self.tr("Undo"))
        button.setObjectName("undoDelete")
        label = QLabel(text)
        self.statusBar().addWidget(label)
        self.statusBar().addWidget(button)

        def remove() -> None:
            for w in (label, button):
                self.statusBar().removeWidget(w)
                w.deleteLater()

        button.clicked.connect(lambda: (self.undo_delete(), remove()))
        QTimer.singleShot(15_000, label, remove)  # bound to the label: dropped if the window goes first

    def undo_delete(self) -> None:
        if not self._deleted:
            return
        index, conversation = self._deleted.pop()
        self.history.restore(conversation)
        if len(self.conversations) == 1 and not self.conversations[0].turns and self.conversations[0].store_id is None:
            self.conversations.clear()
        self.conversations.insert(min(index, len(self.conversations)), conversation)
        self.current = conversation
        self._refresh_conversation_list()
        self.chat.show_conversation(conversation)

    # -- inspector --------------------------------------------------------------------------------------
    def _inspected_turn(self) -> int:
        if self.selected is not None:
            return self.selected[0]
        return len(self.current.turns) - 1

    def select_step(self, turn_index: int, step_index: int) -> None:
        self.selected = (turn_index, step_index)
        self._refresh_inspector()

    def _on_sampler_changed(self, settings: SamplerSettings) -> None:
        self.sampler_settings = settings
        self._refresh_inspector()

    def current_step_view(self) -> StepView | None:
        if self.selected is None or not (0 <= self.selected[0] < len(self.current.turns)):
            return None
        turn_index, step_index = self.selected
        answer = self.current.turns[turn_index].answer
        if answer is None or not answer.steps:
            return None
        index = len(answer.steps) - 1 if step_index is None else min(step_index, len(answer.steps) - 1)
        step = answer.steps[index]
        settings = self.sampler.settings()
        preview = settings if differs(settings, answer.settings) else None
        recent = [s.token for s in answer.steps[max(0, index - settings.repeat_last_n):index]]
        return StepView(step, answer.settings, preview, recent)

    def _refresh_inspector(self) -> None:
        view = self.current_step_view()
        if view is None:
            self.timeline.set_steps([])
            return
        self.distribution.show_step(view)
        self.waterfall.show_step(view)
        answer = self.current.turns[self.selected[0]].answer if self.selected else None
        if answer is not None:
            self.timeline.set_steps(answer.steps)
            self.timeline.mark(view.step.i)

    def _tokenize_for_panel(self, text: str) -> None:
        if self.bridge.info is None or not text:
            self.tokenizer.show_tokens([])
            return
        self.bridge.call(lambda c: c.tokenize(text, False, True), lambda toks: self.tokenizer.show_tokens(toks))

    def show_chat_prompt(self) -> None:
        if self.bridge.info is None or not self.current.turns:
            self.statusMessage.emit(self.tr("Start a chat first: the prompt is built from it"))
            return
        messages = self.current.messages_for(len(self.current.turns) - 1)
        request = GenerateRequest(messages=messages, system=self.current.system)

        def show(tokens: list[int]) -> None:
            self.tokenizer.show_tokens(tokens, self.tr("the prompt of the last turn, as the model received it"))

        self.bridge.call(lambda c: c.prompt_tokens(request), show, lambda m: self.show_error(self.tr("Tokenizer"), m))

    # -- files ------------------------------------------------------------------------------------------
    def export_trace(self, path: str | None = None) -> bool:
        view_turn = self.selected[0] if self.selected else len(self.current.turns) - 1
        if not (0 <= view_turn < len(self.current.turns)) or self.current.turns[view_turn].answer is None:
            self.statusMessage.emit(self.tr("No answer to export yet"))
            return False
        answer = self.current.turns[view_turn].answer
        assert answer is not None
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Export trace"), "trace.jsonl",
                                                  self.tr("JSON Lines (*.jsonl)"))
            if not path:
                return False
        lines = [dumps(step_to_json(s, self.bridge.vocab)) for s in answer.steps]
        if answer.result is not None:
            lines.append(dumps(result_to_json(answer.result)))
        try:  # never replaces a pipe, a device or a link; a pipe nobody reads is an error, not a hang
            write_export(Path(path), ("\n".join(lines) + "\n").encode("utf-8"), wait_for_reader=False)
        except LogitscopeError as exc:
            self.show_error(self.tr("Export failed"), str(exc))
            return False
        self.statusMessage.emit(self.tr("Trace saved to {0}").format(path))
        return True

    def export_conversation(self, path: str | None = None) -> bool:
        from logitscope.store.exchange import export_json, export_markdown

        if self.current.store_id is None:
            self.statusMessage.emit(self.tr("Nothing to export yet"))
            return False
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Export conversation"), f"{self.current.title}.md",
                                                  self.tr("Markdown (*.md);;JSON, lossless with traces (*.json)"))
            if not path:
                return False
        ids = [self.current.store_id]
        try:
            if path.endswith(".json"):
                text = json.dumps(export_json(self.history.store, ids), ensure_ascii=False, indent=1)
            else:
                text = export_markdown(self.history.store, ids)
            write_export(Path(path), text.encode("utf-8"), wait_for_reader=False)
        except LogitscopeError as exc:
            self.show_error(self.tr("Export failed"), str(exc))
            return False
        self.statusMessage.emit(self.tr("Conversation saved to {0}").format(path))
        return True

    def import_conversations(self, path: str | None = None) -> int:
        from logitscope.store.exchange import import_json
        from logitscope.store.import_check import load_export

        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Import conversations"), "", self.tr("JSON (*.json)"))
            if not path:
                return 0
        try:  # the same bounded reading and checks as `history import`
            checked = load_export(path)
            ids = import_json(self.history.store, checked)
        except LogitscopeError as exc:
            self.show_error(self.tr("Import failed"), str(exc))
            return 0
        if checked.notices:  # what was incomplete, imported as it is
            self.show_error(self.tr("Notice"), "\n".join(checked.notices))
        known = {c.store_id for c in self.conversations}
        fresh = [c for c in self.history.conversations() if c.store_id in ids and c.store_id not in known]
        self.conversations[0:0] = fresh
        self._refresh_conversation_list()
        self.statusMessage.emit(self.tr("{0} conversation(s) imported").format(len(fresh)))
        return len(fresh)

    def open_settings(self, accept: bool | None = None) -> None:
        from logitscope.ui.dialogs.settings import SettingsDialog

        dialog = SettingsDialog(self.app_settings, self)
        if accept is None:
            accept = dialog.exec() == SettingsDialog.DialogCode.Accepted
        if accept:
            try:
                app = dialog.apply()
            except LogitscopeError as exc:
                self.show_error(self.tr("Settings"), str(exc))
                return
            from PySide6.QtWidgets import QApplication

            from logitscope.ui.theme import apply_theme

            self.dark = apply_theme(QApplication.instance(), app.theme)  # type: ignore[arg-type]
            self.chat.set_dark(self.dark)
        self.settings_dialog = dialog

    def _save_preset(self, name: str, settings: SamplerSettings) -> None:
        try:
            self.app_settings.save_preset(name, settings)
        except LogitscopeError as exc:
            self.show_error(self.tr("Preset"), str(exc))

    # -- view -------------------------------------------------------------------------------------------
    def toggle_heatmap(self) -> None:
        self.chat.set_heatmap(self.heatmap_action.isChecked(), "rank" if self.rank_action.isChecked() else "probability")

    def reset_layout(self) -> None:
        arrange_docks(self, self.docks)

    def restore_layout(self) -> None:
        geometry = self.qsettings.value("window/geometry")
        state = self.qsettings.value("window/state")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        if isinstance(state, QByteArray):
            self.restoreState(state, LAYOUT_VERSION)

    def save_layout(self) -> None:
        self.qsettings.setValue("window/geometry", self.saveGeometry())
        self.qsettings.setValue("window/state", self.saveState(LAYOUT_VERSION))
        self.qsettings.sync()

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About Logitscope"), self.tr(
            "<h3>Logitscope {0}</h3><p>Chat with a local LLM and see inside it.</p>"
            "<p>llama.cpp backend in this build: <b>{1}</b> (GPU offload: {2}).</p>").format(
            __version__, self.capabilities.get("backend"), self.tr("yes") if self.capabilities.get("gpu_offload")
            else self.tr("no")))

    def show_error(self, title: str, message: str, offer_reload: bool = False) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("errorBox")
        if offer_reload:
            reload = box.addButton(self.tr("Reload model"), QMessageBox.ButtonRole.AcceptRole)
            reload.clicked.connect(self.reload_model)
        box.setModal(False)
        box.open()
        self.last_error = (title, message)
        self.statusMessage.emit(f"{title}: {message.splitlines()[0]}")

    # -- state ------------------------------------------------------------------------------------------
    def _model_name(self) -> str:
        info = self.bridge.info
        if info is None:
            return ""
        return model_display_name(info.card.path) if isinstance(info, ModelInfo) else f"{info.name} @ {info.base_url}"

    def _model_identity(self) -> ModelIdentity | None:
        """What the history records as the producer of an answer: the model file, or the server and model."""
        info = self.bridge.info
        if isinstance(info, RemoteModelInfo):
            return ModelIdentity(f"{info.model} @ {info.base_url}", 0, "")
        last = self.bridge.local.last_load
        return ModelIdentity.of_file(last[0]) if last is not None else None

    def _update_title(self) -> None:
        name = self._model_name()
        self.setWindowTitle(f"Logitscope — {name}" if name else "Logitscope")

    def _context_text(self, used: int) -> str:
        info = self.bridge.info
        if info is None or used < 0:
            return ""
        return self.tr("context {0} / {1}").format(used, info.n_ctx or "?")

    def _update_status_bar(self) -> None:
        info = self.bridge.info
        self.status_model.setText(self._model_name() or self.tr("no model"))
        backend = str(self.capabilities.get("backend", "…"))
        if isinstance(info, RemoteModelInfo):
            self.status_backend.setText(self.tr("remote: {0}").format(info.server))
        elif info:
            self.status_backend.setText(self.tr("{0} · {1} of {2} layers offloaded").format(
                backend, info.n_gpu_layers, info.card.n_offloadable))
        else:
            self.status_backend.setText(backend)
        self.status_context.setText(self._context_text(0))

    def _update_actions(self) -> None:
        busy = self.streaming is not None
        has_model = self.bridge.info is not None
        self.send_button.setEnabled(has_model and not busy)
        self.stop_button.setEnabled(busy or self.bridge.busy)
        self.stop_action.setEnabled(busy or self.bridge.busy)
        has_turns = bool(self.current.turns)
        self.regenerate_action.setEnabled(has_model and not busy and has_turns)
        self.edit_action.setEnabled(has_model and not busy and has_turns)
        self.reload_button.setEnabled(not busy)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_layout()
        self.bridge.shutdown()
        self._save_timer.stop()
        if self.streaming is not None:  # the answer so far is kept, marked as stopped
            self.history.finish(self.streaming[1], None, "the app was closed while answering")
        self.history.close()
        super().closeEvent(event)


