"""The main window, as assembly: the sidebar and the chat in the centre, inspector docks around them,
menus, the status bar and the layout. Each job lives in its own room:

- ui/session_controller.py    send / regenerate / edit / fork / versions / streaming / history writes
- ui/model_controller.py      load, connect to a server, reload, capabilities pushed to the panels
- ui/sidebar.py               the conversation list: search, new, rename, delete with undo
- ui/inspector_coordinator.py the selected step and what every step panel shows (empty states too)
- ui/forward_inspector.py     the Layers and Attention docks: what to ask the engine for the selected step
- ui/file_actions.py          export a trace or a conversation, import conversations
- session/                    the conversation tree and its history mapping, without Qt
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from logitscope import __version__
from logitscope.base.errors import LogitscopeError
from logitscope.protocol.api import DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.session.conversation import Conversation, Turn
from logitscope.session.history import RETRY_INTERVAL_MS, ChatHistory
from logitscope.store.history import HistoryStore
from logitscope.store.settings import SettingsStore
from logitscope.ui import beams_view, drafting, score_view, state_probe
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.chat.chat_view import ChatView
from logitscope.ui.chat.prompt_box import PromptBox
from logitscope.ui.diagnosis_controller import DiagnosisController
from logitscope.ui.dialogs.edit_message import EditMessageDialog
from logitscope.ui.file_actions import FileActions
from logitscope.ui.forward_inspector import ForwardInspector
from logitscope.ui.inspector.attention import AttentionPanel
from logitscope.ui.inspector.distribution import DistributionPanel
from logitscope.ui.inspector.forward_page import ForwardPage
from logitscope.ui.inspector.kv_map import KvMapFeed
from logitscope.ui.inspector.layers import LayersPanel
from logitscope.ui.inspector.memory import MemoryPanel
from logitscope.ui.inspector.model_card import ModelCardPanel
from logitscope.ui.inspector.sampler_controls import SamplerPanel
from logitscope.ui.inspector.state import StepView
from logitscope.ui.inspector.timeline import TimelinePanel
from logitscope.ui.inspector.tokenizer import TokenizerPanel
from logitscope.ui.inspector.waterfall import WaterfallPanel
from logitscope.ui.inspector_coordinator import InspectorCoordinator
from logitscope.ui.layout import add_docks, arrange_docks, restore_layout, save_layout
from logitscope.ui.menu_focus import MenuFocusKeeper
from logitscope.ui.messages import translate_message
from logitscope.ui.model_controller import ModelBox, ModelController
from logitscope.ui.session_controller import SessionController, SessionServices
from logitscope.ui.sidebar import ConversationSidebar
from logitscope.ui.status_line import StatusLine
from logitscope.ui.theme import apply_theme


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
        # Saves the history refused (another process writing to it) are tried again; a lasting refusal is shown.
        self._save_timer = QTimer(self)
        self._save_timer.setInterval(RETRY_INTERVAL_MS)
        self._save_timer.timeout.connect(self._retry_saving)
        self._save_timer.start()
        self.setObjectName("MainWindow")
        self.resize(1400, 860)
        self._build_panels()
        self._build_controllers()
        self._build_central()
        self._build_docks()
        self._build_actions()
        self._menu_focus = MenuFocusKeeper(self)
        self._build_status_bar()
        self._connect_controllers()
        self._show_conversation()
        self._model_changed()
        self.restore_layout()
        for hook in (state_probe, beams_view, score_view, drafting):  # state_probe: for the e2e tests only
            hook.install(self)
        self.prompt.setFocus()
        if notices := self.history.notices + self.app_settings.notices:
            QTimer.singleShot(0, lambda: self.show_error(self.tr("Notice"), "\n".join(notices)))

    # -- construction ----------------------------------------------------------------------------------
    def _build_panels(self) -> None:
        self.chat = ChatView()
        self.chat.dark = self.dark
        self.prompt = PromptBox()
        self.distribution = DistributionPanel()
        self.waterfall = WaterfallPanel()
        self.sampler = SamplerPanel(self.app_settings.user_presets(), engine=self.bridge)
        self.sampler.select_preset(self.app_settings.app.sampler_preset)
        self.timeline = TimelinePanel()
        self.memory = MemoryPanel()
        self.model_card = ModelCardPanel()
        self.tokenizer = TokenizerPanel()
        self.layers = LayersPanel()
        self.attention = AttentionPanel()
        self.model_box = ModelBox()

    def _build_controllers(self) -> None:
        self.models = ModelController(
            self.bridge, self.app_settings, self.model_box, self,
            capable=[self.sampler, self.tokenizer, self.memory], model_panels=[self.memory, self.model_card],
            vocab_users=[self.chat.set_vocab, partial(setattr, self.distribution, "vocab"),
                         partial(setattr, self.tokenizer, "vocab"), partial(setattr, self.layers, "vocab"),
                         partial(setattr, self.attention, "vocab")])
        services = SessionServices(sampler_settings=self.sampler.settings_to_send, decode_options=self._decode_options,
                                   model_name=self.models.name, model_identity=self.models.identity,
                                   can_fork=self.models.can_fork)
        self.session = SessionController(self.bridge, self.history, services, parent=self)
        self.sidebar = ConversationSidebar(self.history, self.session)
        self.kv_map_feed = KvMapFeed(self.bridge, self.memory.kv_map, parent=self)
        self.inspector = InspectorCoordinator(self.distribution, self.waterfall, self.timeline, self.sampler.settings,
                                              parent=self)
        self.files = FileActions(self, self.history, lambda: self.current, self._inspected_answer,
                                 lambda: self.bridge.vocab, self.sidebar.add_imported)

    def _build_central(self) -> None:
        splitter = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(6, 6, 6, 6)
        left_layout.addWidget(self.sidebar, 1)
        left_layout.addWidget(self.model_box)
        splitter.addWidget(left)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 6)
        centre_layout.addWidget(self.chat, 1)
        centre_layout.addWidget(self.chat.legend)
        input_row = QHBoxLayout()
        input_row.setContentsMargins(8, 0, 8, 0)
        self.send_button = QPushButton(self.tr("Send"))
        self.stop_button = QPushButton(self.tr("Stop"))
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

    def _build_docks(self) -> None:
        pages = self.inspector.pages  # the step panels, each with its "nothing selected" state
        forward = {"layers": ForwardPage(self.layers), "attention": ForwardPage(self.attention)}
        self.diagnosis = DiagnosisController.for_window(self)  # the badges, the Diagnosis dock, the one-click fix
        specs = [
            ("distribution", self.tr("Next-token distribution"), pages["distribution"], Qt.DockWidgetArea.RightDockWidgetArea),
            ("waterfall", self.tr("Waterfall"), pages["waterfall"], Qt.DockWidgetArea.BottomDockWidgetArea),
            ("sampler", self.tr("Sampler controls"), self.sampler, Qt.DockWidgetArea.RightDockWidgetArea),
            ("timeline", self.tr("Timeline"), pages["timeline"], Qt.DockWidgetArea.BottomDockWidgetArea),
            ("memory", self.tr("Memory"), self.memory, Qt.DockWidgetArea.BottomDockWidgetArea),
            ("model_card", self.tr("Model card"), self.model_card, Qt.DockWidgetArea.BottomDockWidgetArea),
            ("tokenizer", self.tr("Tokenizer"), self.tokenizer, Qt.DockWidgetArea.BottomDockWidgetArea),
            ("layers", self.tr("Layers"), forward["layers"], Qt.DockWidgetArea.BottomDockWidgetArea),
            ("attention", self.tr("Attention"), forward["attention"], Qt.DockWidgetArea.BottomDockWidgetArea),
            ("diagnosis", self.tr("Diagnosis"), self.diagnosis.panel, Qt.DockWidgetArea.BottomDockWidgetArea),
        ]
        self.docks = add_docks(self, specs, self._dock_visibility)
        self.forward = ForwardInspector(self.bridge, self.inspector,
                                        {key: (self.docks[key], page) for key, page in forward.items()}, parent=self)
        self.models.capable.append(self.forward)

    def _action(self, text: str, slot, shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,  # noqa: ANN001
                tip: str = "") -> QAction:
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
        self.export_action = self._action(self.tr("&Export trace…"), lambda: self.files.export_trace(), "Ctrl+Shift+E",
                                          self.tr("Save the selected answer's trace as JSON Lines"))
        self.quit_action = self._action(self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit)
        self.stop_action = self._action(self.tr("&Stop generating"), self.session.stop, "Esc")
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
        self.reload_action = self._action(self.tr("&Reload model"), self.models.reload_model, "Ctrl+Shift+R")
        self.models_action = self._action(self.tr("&Models…"), lambda: self.show_models(), "Ctrl+M",
                                          self.tr("Models on this computer and on Hugging Face"))
        self.connect_action = self._action(self.tr("&Connect to a server…"), lambda: self.models.connect_server(),
                                           tip=self.tr("llama-server, vLLM or any OpenAI-compatible server"))
        self.about_action = self._action(self.tr("&About Logitscope"), self.about)
        self.settings_action = self._action(self.tr("&Settings…"), lambda: self.open_settings(), "Ctrl+,")
        self.export_chat_action = self._action(self.tr("Export conversation…"), lambda: self.files.export_conversation())
        self.import_action = self._action(self.tr("Import conversations…"), lambda: self.files.import_conversations())
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
        for a in (self.models_action, self.open_action, self.connect_action, self.reload_action):
            model_menu.addAction(a)
        help_menu = menus.addMenu(self.tr("&Help"))
        help_menu.addAction(self.about_action)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.status = StatusLine(bar)
        self.status_model, self.status_backend = self.status.model, self.status.backend
        self.status_context, self.status_speed = self.status.context, self.status.speed
        self.statusMessage.connect(lambda text: bar.showMessage(text, 8000))

    def _connect_controllers(self) -> None:
        chat, session, inspector, sidebar, models = self.chat, self.session, self.inspector, self.sidebar, self.models
        self.prompt.submitted.connect(self.send)
        self.send_button.clicked.connect(lambda: self.send(self.prompt.toPlainText().strip()))
        self.stop_button.clicked.connect(session.stop)
        chat.stepSelected.connect(inspector.select_step)
        chat.forkRequested.connect(self.fork)
        chat.forkOtherRequested.connect(self.fork_other)
        chat.regenerateRequested.connect(self.regenerate)
        chat.editRequested.connect(self.edit_turn)
        chat.branchRequested.connect(self.switch_branch)
        chat.questionBranchRequested.connect(self.switch_question)
        session.pathChanged.connect(self._show_path)
        session.turnAdded.connect(lambda index: chat.add_turn(self.current.turns[index]))
        session.answerStarted.connect(self._on_answer_started)
        session.stepsArrived.connect(self._on_steps)
        session.answerEnded.connect(self._on_answer_ended)
        session.failed.connect(lambda message: self.show_error(self.tr("Generation failed"), message))
        session.notice.connect(self.statusMessage)
        session.titleChanged.connect(self._update_title)
        sidebar.switched.connect(self._show_conversation)
        sidebar.deleted.connect(self._offer_undo)
        sidebar.notice.connect(self.statusMessage)
        models.changed.connect(self._model_changed)
        models.error.connect(self.show_error)
        models.notice.connect(self.statusMessage)
        self.model_box.models_button.clicked.connect(lambda: self.show_models())
        self.files.error.connect(self.show_error)
        self.files.notice.connect(self.statusMessage)
        self.sampler.settingsChanged.connect(lambda _settings: inspector.refresh())
        self.sampler.presetSaved.connect(self._save_preset)
        self.tokenizer.tokenizeRequested.connect(self._tokenize_for_panel)
        self.tokenizer.chatPromptRequested.connect(self.show_chat_prompt)
        self.bridge.busyChanged.connect(lambda _busy: self._update_actions())
        self.forward.positionClicked.connect(chat.highlight_step)
        self.forward.notice.connect(self.statusMessage)

    # -- what the window shows --------------------------------------------------------------------------
    @property
    def current(self) -> Conversation:
        return self.session.current

    @property
    def streaming(self) -> tuple[Turn, object] | None:
        return self.session.streaming

    @property
    def conversations(self) -> list[Conversation]:
        return self.sidebar.conversations

    @property
    def conversation_list(self):  # noqa: ANN201 - the sidebar's QListWidget
        return self.sidebar.conversation_list

    @property
    def search_box(self):  # noqa: ANN201 - the sidebar's QLineEdit
        return self.sidebar.search_box

    @property
    def model_label(self) -> QLabel:
        return self.model_box.model_label

    @property
    def capabilities(self) -> dict[str, object]:
        return self.models.capabilities

    def _show_conversation(self) -> None:
        """Another conversation on screen: the chat shows it, the inspector forgets the old one's step."""
        self.chat.show_conversation(self.current)
        self.inspector.show_conversation(self.current)
        self._update_title()
        self._update_actions()
        self.prompt.setFocus()

    def _show_path(self) -> None:
        """The same conversation on another branch: the chat redraws, a selection there follows the last turn."""
        self.chat.show_conversation(self.current)
        self.inspector.show_conversation(self.current)
        if self.current.turns:
            self.inspector.follow(len(self.current.turns) - 1)
        self._update_actions()

    def _on_answer_started(self, turn_index: int) -> None:
        self.chat.answers[turn_index].refresh()
        self.inspector.follow(turn_index)
        self._update_actions()

    def _on_steps(self, turn_index: int, steps: list[StepRecord]) -> None:
        self.chat.answers[turn_index].append(steps)
        used = steps[-1].kv_used + 1 if steps[-1].kv_used >= 0 else -1
        if used >= 0:
            self.memory.set_used(used)
        self.status.show_context_soon(used)
        self.inspector.steps_arrived(turn_index)

    def _on_answer_ended(self, turn_index: int, result: GenerationResult | None) -> None:
        if turn_index >= 0:
            self.chat.answers[turn_index].refresh()
        self.inspector.refresh()
        self._update_actions()
        if result is not None:
            self.status.show_speed(result.timings, result.speculative)
            self.status.show_context(result.kv.used_cells)
            if result.kv.used_cells >= 0:
                self.memory.set_used(result.kv.used_cells)

    def _dock_visibility(self, visible: bool) -> None:
        if visible:
            QTimer.singleShot(0, self._catch_up)

    def _catch_up(self) -> None:
        for panel in (self.inspector, self.memory, self.diagnosis):
            panel.catch_up()

    def _model_changed(self) -> None:
        self._update_title()
        self._update_status_bar()
        self._update_actions()

    # -- the chat (what the menus, the chat view and the tests call) -----------------------------------
    def send(self, text: str) -> None:
        if self.session.send(text):
            self.prompt.clear()

    def stop(self) -> None:
        self.session.stop()

    def regenerate(self, turn_index: int) -> None:
        self.session.regenerate(turn_index)

    def edit_turn(self, turn_index: int) -> None:
        """Edit and resend a question: the old version stays, with its answers and the turns after it."""
        if self.session.busy or not 0 <= turn_index < len(self.current.turns):
            return
        old = self.current.turns[turn_index]
        text, ok = EditMessageDialog.ask(self, old.user)
        if ok and text.strip() and text.strip() != old.user:
            self.resend_edited(turn_index, text.strip())

    def resend_edited(self, turn_index: int, text: str) -> None:
        self.session.edit(turn_index, text)

    def switch_branch(self, turn_index: int, version: int) -> None:
        self.session.switch_answer(turn_index, version)

    def switch_question(self, turn_index: int, version: int) -> None:
        self.session.switch_question(turn_index, version)

    def fork(self, turn_index: int, step_index: int, token: int) -> None:
        self.session.fork(turn_index, step_index, token)

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
        answer = self.current.turns[-1].answer if self.current.turns else None
        if answer is not None:
            QApplication.clipboard().setText(answer.text)

    def _decode_options(self, forced: tuple[int, ...]) -> DecodeOptions:
        return DecodeOptions(max_tokens=self.sampler.max_tokens.value(), stop=self.sampler.stop_sequences(),
                             forced=forced, **self.sampler.drafting.options())

    def _retry_saving(self) -> None:
        for problem in self.history.retry_saving():
            self.show_error(self.tr("The answer is not saved yet"),
                            self.tr("The history database refused to save this answer ({0}). It stays in this "
                                    "window, and Logitscope keeps trying to save it: another program may be "
                                    "writing to the history.").format(problem))

    # -- conversations (the sidebar's) -------------------------------------------------------------------
    def new_chat(self) -> None:
        self.sidebar.new_chat()

    def rename_conversation(self, title: str | None = None) -> None:
        self.sidebar.rename(title)

    def delete_conversation(self, confirm: bool = True) -> None:
        self.sidebar.delete(confirm)

    def undo_delete(self) -> None:
        self.sidebar.undo_delete()

    def _offer_undo(self, text: str) -> None:
        self.status.offer_undo(text, self.undo_delete)

    # -- models (the model controller's) ----------------------------------------------------------------
    def open_model(self, path: str | None = None, settings: LoadSettings | None = None, ask: bool = True) -> bool:
        return self.models.open_model(path, settings, ask)

    def connect_server(self, engine: object | None = None) -> None:
        self.models.connect_server(engine)  # type: ignore[arg-type]

    def reload_model(self) -> None:
        self.models.reload_model()

    def show_models(self) -> object:
        from logitscope.ui.models.models_window import ModelsWindow

        if getattr(self, "models_window", None) is None:
            self.models_window = ModelsWindow(self.app_settings.app.models_folders, self)
            self.models_window.loadRequested.connect(lambda path: self.open_model(path))
        self.models_window.show()
        self.models_window.raise_()
        return self.models_window

    # -- inspector (the coordinator's) ------------------------------------------------------------------
    def select_step(self, turn_index: int, step_index: int) -> None:
        self.inspector.select_step(turn_index, step_index)

    def current_step_view(self) -> StepView | None:
        return self.inspector.current_step_view()

    def _inspected_answer(self):  # noqa: ANN202 - Answer | None
        index = self.inspector.inspected_turn()
        turns = self.current.turns
        return turns[index].answer if 0 <= index < len(turns) else None

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

    # -- files and settings ------------------------------------------------------------------------------
    def export_trace(self, path: str | None = None) -> bool:
        return self.files.export_trace(path)

    def export_conversation(self, path: str | None = None) -> bool:
        return self.files.export_conversation(path)

    def import_conversations(self, path: str | None = None) -> int:
        return self.files.import_conversations(path)

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
        restore_layout(self, self.qsettings)

    def save_layout(self) -> None:
        save_layout(self, self.qsettings)

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About Logitscope"), self.tr(
            "<h3>Logitscope {0}</h3><p>Chat with a local LLM and see inside it.</p>"
            "<p>llama.cpp backend in this build: <b>{1}</b> (GPU offload: {2}).</p>").format(
            __version__, self.capabilities.get("backend"), self.tr("yes") if self.capabilities.get("gpu_offload")
            else self.tr("no")))

    def show_error(self, title: str, message: str, offer_reload: bool = False) -> None:
        message = translate_message(message)  # the engine's, library's and store's English, translated
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("errorBox")
        if offer_reload:
            reload = box.addButton(self.tr("Reload model"), QMessageBox.ButtonRole.AcceptRole)
            reload.clicked.connect(self.reload_model)
        box.setModal(False)
        box.open()
        self.last_error = (title, message)
        self.statusMessage.emit(f"{title}: {message.splitlines()[0]}")

    # -- title, status bar, actions ------------------------------------------------------------------------
    def _update_title(self) -> None:
        name = self.models.name()
        self.setWindowTitle(f"Logitscope — {name}" if name else "Logitscope")

    def _update_status_bar(self) -> None:
        self.status.show_model(self.models.name(), self.bridge.info, self.capabilities)

    def _update_actions(self) -> None:
        busy = self.session.busy
        has_model = self.bridge.info is not None
        self.send_button.setEnabled(has_model and not busy)
        self.stop_button.setEnabled(busy)  # the answer's Stop: other jobs have their own Cancel
        self.stop_action.setEnabled(busy)
        has_turns = bool(self.current.turns)
        self.regenerate_action.setEnabled(has_model and not busy and has_turns)
        self.edit_action.setEnabled(has_model and not busy and has_turns)
        self.model_box.reload_button.setEnabled(not busy)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_layout()
        self.forward.stop()
        self.bridge.shutdown()
        self._save_timer.stop()
        if self.session.streaming is not None:  # the answer so far is kept, marked as stopped
            self.history.finish(self.session.streaming[1], None, "the app was closed while answering")
        self.history.close()
        super().closeEvent(event)
