"""The main window, as assembly: the sidebar and the chat in the centre, inspector docks around them,
menus, the status bar and the layout. Each job lives in its own room (session/, without Qt, keeps the tree):

- controllers/: session.py send, regenerate, edit, fork, versions, streaming; session_display.py what it
  shows; model.py load, connect, reload, capabilities; inspector_coordinator.py the selected step and the
  step panels; forward_inspector.py Layers and Attention; chat_commands, attachments, file_actions, tokenizer_feed,
  save_retry one job each; drafting (like beams/view.py, score/view.py, steering/) given what it needs
- window/: menus.py actions (actions.py) and menus, docks.py, central.py the splitter, sidebar.py, boxes.py
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QSettings, QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

from logitscope.protocol.api import LoadSettings
from logitscope.session.conversation import Conversation, Turn
from logitscope.session.history import ChatHistory
from logitscope.store.history import HistoryStore
from logitscope.store.settings import SettingsStore
from logitscope.ui.beams import view as beams_view
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.causal import dialog as causal_dialog
from logitscope.ui.chat.chat_view import ChatView
from logitscope.ui.chat.prompt_box import PromptBox
from logitscope.ui.compare import action as compare_action
from logitscope.ui.controllers import answer_vocab, chat_settings, drafting, template_system, unsent_messages
from logitscope.ui.controllers.attachments import AttachmentController
from logitscope.ui.controllers.chat_commands import ChatCommands
from logitscope.ui.controllers.diagnosis import DiagnosisController
from logitscope.ui.controllers.file_actions import FileActions
from logitscope.ui.controllers.forward_inspector import ForwardInspector
from logitscope.ui.controllers.inspector_coordinator import InspectorCoordinator
from logitscope.ui.controllers.model import ModelBox, ModelController
from logitscope.ui.controllers.save_retry import SaveRetry
from logitscope.ui.controllers.session import SessionController, SessionServices
from logitscope.ui.controllers.session_display import SessionDisplay
from logitscope.ui.controllers.tokenizer_feed import TokenizerFeed
from logitscope.ui.dialogs.settings import ask_settings
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
from logitscope.ui.models import quantize_dialog
from logitscope.ui.score import view as score_view
from logitscope.ui.steering import compare_view as steering_compare
from logitscope.ui.steering.controller import SteeringController, install_steering
from logitscope.ui.throughput import view as throughput_view
from logitscope.ui.window import layout_facts, state_probe, window_settings
from logitscope.ui.window.actions import ActionRegistry
from logitscope.ui.window.boxes import error_status_line, save_preset, show_about, show_error_box
from logitscope.ui.window.central import build_central
from logitscope.ui.window.docks import dock_specs
from logitscope.ui.window.layout import add_docks, arrange_docks, restore_layout, save_layout
from logitscope.ui.window.menu_focus import MenuFocusKeeper
from logitscope.ui.window.menus import build_actions, build_menus
from logitscope.ui.window.sidebar import ConversationSidebar
from logitscope.ui.window.status_line import StatusLine
from logitscope.ui.window.theme import apply_theme


class MainWindow(QMainWindow):
    statusMessage = Signal(str)

    def __init__(self, bridge: EngineBridge | None = None, settings: QSettings | None = None,
                 dark: bool = False, history: ChatHistory | None = None,
                 app_settings: SettingsStore | None = None) -> None:
        super().__init__()
        self.bridge = bridge or EngineBridge(parent=self)
        self.qsettings = settings or window_settings.open_window_settings()
        self.history = history or ChatHistory(HistoryStore())
        self.app_settings = app_settings or SettingsStore()
        self.app_settings.repair()  # ignored parts: the file is backed up and rewritten, its notices shown once
        self.dark = dark
        self.save_retry = SaveRetry(self.history, self.show_error, parent=self)
        self.setObjectName("MainWindow")
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
        self._install_tools()
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
        self.timeline = TimelinePanel()
        self.memory = MemoryPanel()
        self.model_card = ModelCardPanel()
        self.tokenizer = TokenizerPanel()
        self.layers = LayersPanel()
        self.attention = AttentionPanel()
        self.model_box = ModelBox()
        self.steering = SteeringController(self.bridge, self.qsettings, parent=self)  # its dock's panel too

    def _build_controllers(self) -> None:
        self.models = ModelController(
            self.bridge, self.app_settings, self.model_box, self,
            capable=[self.sampler, self.tokenizer, self.memory], model_panels=[self.memory, self.model_card],
            vocab_users=[self.chat.set_vocab, partial(setattr, self.distribution, "vocab"),
                         partial(setattr, self.tokenizer, "vocab"), partial(setattr, self.layers, "vocab"),
                         partial(setattr, self.attention, "vocab")])
        self.answer_vocab = answer_vocab.AnswerVocabulary(lambda: self.bridge.vocab, self.models.recorded_name, self.history)
        self.chat.vocab_for = self.answer_vocab
        services = SessionServices(self.sampler.settings_to_send, self.sampler.decode_options, self.models.recorded_name,
                                   self.models.identity, self.models.can_fork, steering=self.steering.steering)
        self.session = SessionController(self.bridge, self.history, services, parent=self)
        self.sidebar = ConversationSidebar(self.history, self.session)
        self.chat_settings = chat_settings.ChatSettingsController(  # with the system prompt bar above the chat
            self.history, self.session, self.sidebar, self.sampler, self.app_settings, self.show_error, self.statusMessage.emit, self)
        self.kv_map_feed = KvMapFeed(self.bridge, self.memory.kv_map, parent=self)
        self.inspector = InspectorCoordinator(self.distribution, self.waterfall, self.timeline, self.sampler.settings,
                                              self.answer_vocab, parent=self)
        self.chat_commands = ChatCommands(self.session, self.bridge, self, self.show_error)
        self.files = FileActions(self, self.history, lambda: self.current, self.inspector.inspected_answer,
                                 self.answer_vocab, self.sidebar.add_imported)

    def _build_central(self) -> None:
        central = build_central(self.sidebar, self.model_box, self.chat, self.prompt, self.chat_settings.bar)
        self.send_button, self.stop_button = central.send_button, central.stop_button
        self.attachments = AttachmentController(self.bridge, self.session, self.prompt, central.attachments,
                                                central.attach_button, central.send_button, self, self.show_error)
        self.unsent = unsent_messages.UnsentMessages(self.prompt, self.attachments, self.session, self.sidebar, self)
        self.setCentralWidget(central.splitter)

    def _build_docks(self) -> None:
        pages = self.inspector.pages  # the step panels, each with its "nothing selected" state
        forward = {"layers": ForwardPage(self.layers), "attention": ForwardPage(self.attention)}
        # the badges, the Diagnosis dock, the one-click fix
        self.diagnosis = DiagnosisController(lambda: self.docks["diagnosis"], self.chat, self.timeline, self.session,
                                             self.sampler, self.models, self.bridge, self.history, self.answer_vocab, self)
        panels = {**pages, "sampler": self.sampler, "memory": self.memory, "model_card": self.model_card,
                  "tokenizer": self.tokenizer, **forward, "diagnosis": self.diagnosis.panel,
                  "steering": self.steering.panel}
        self.docks = add_docks(self, dock_specs(panels), self._dock_visibility)
        self.forward = ForwardInspector(self.bridge, self.inspector, {key: (self.docks[key], page) for key, page in
                                                                      forward.items()}, self.models.recorded_name, self)
        self.models.capable.append(self.forward)

    def _build_actions(self) -> None:
        self.action_registry = ActionRegistry(self)
        self.window_actions = build_actions(self.action_registry, self)
        self.model_menu = build_menus(self.menuBar(), self.window_actions,
                                      [dock.toggleViewAction() for dock in self.docks.values()])

    def _install_tools(self) -> None:
        """The Model menu's dialogs and the speculative row, each given what it needs (not the window)."""
        registry, menu = self.action_registry, self.model_menu
        self.beams_dialog, self.beams_action = beams_view.install(
            self.bridge, self, registry, menu, self.models, self.sampler.settings_to_send, self.kv_map_feed,
            self.steering.steering)
        self.score_dialog, self.score_action = score_view.install(self.bridge, self, registry, menu, self.models)
        self.throughput_dialog, _ = throughput_view.install(self.bridge, self, registry, menu, self.models)
        self.quantize_dialog, _ = quantize_dialog.install(self, registry, menu, self.models, self.score_dialog.start_kl_comparison)
        self.compare, _ = compare_action.install(self.bridge, self, registry, menu, self.models, self.sampler, self.session)
        drafting.install(self.sampler.drafting, self.models, self.app_settings, self.bridge, self.statusMessage.emit)
        self.steering_compare = steering_compare.install(self.bridge, self, registry, menu, self.steering,
                                                         lambda: self.current, self.inspector.inspected_turn)
        install_steering(self.steering, self.docks["steering"], self.statusBar(), self.forward.inspected,
                         self.models.changed, self, self.show_error, self.statusMessage.emit, self.model_card.set_adapters)
        self.causal = causal_dialog.install(self.bridge, self, registry, menu, self.forward, self.models, self.session,
                                            self.statusBar())
        template_system.install(self.bridge, self.models, self.chat_settings.bar)
        state_probe.install(self, self.session, self.sidebar, self.inspector,  # for the e2e tests only
                            lambda: layout_facts.layout_facts(self, self.docks, self.chat))

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.status = StatusLine(bar)
        self.status_model, self.status_backend = self.status.model, self.status.backend
        self.status_context, self.status_speed = self.status.context, self.status.speed
        self.statusMessage.connect(self.status.show_notice)

    def _connect_controllers(self) -> None:
        chat, session, inspector, sidebar, models = self.chat, self.session, self.inspector, self.sidebar, self.models
        self.stop_button.clicked.connect(session.stop)
        chat.stepSelected.connect(inspector.select_step)
        chat.forkRequested.connect(self.fork)
        self.chat_commands.connect_chat(chat)
        chat.regenerateRequested.connect(self.regenerate)
        chat.editRequested.connect(self.edit_turn)
        chat.branchRequested.connect(self.switch_branch)
        chat.questionBranchRequested.connect(self.switch_question)
        self.display = SessionDisplay(session, chat, inspector, self.memory, self.status, self._update_actions, self)
        session.failed.connect(lambda message: self.show_error(self.tr("Generation failed"), message))
        session.notice.connect(self.statusMessage)
        session.titleChanged.connect(self._update_title)
        self.diagnosis.notice.connect(self.statusMessage)
        sidebar.switched.connect(self.diagnosis.forget)  # another conversation: the dock's answer is gone
        sidebar.switched.connect(self._show_conversation)
        sidebar.deleted.connect(lambda text: self.status.offer_undo(text, self.undo_delete))
        sidebar.notice.connect(self.statusMessage)
        models.changed.connect(self._model_changed)
        models.error.connect(self.show_error)
        models.notice.connect(self.statusMessage)
        self.model_box.models_button.clicked.connect(lambda: self.show_models())
        self.files.error.connect(self.show_error)
        self.files.notice.connect(self.statusMessage)
        self.sampler.settingsChanged.connect(lambda _settings: inspector.refresh())
        self.sampler.presetSaved.connect(partial(save_preset, self.app_settings, self.show_error))
        self.tokenizer_feed = TokenizerFeed(self.bridge, self.tokenizer, lambda: self.current,
                                            self.statusMessage.emit, self.show_error, parent=self)
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
        self.display.show_conversation()
        self._update_title()
        self._update_actions()
        self.prompt.setFocus()

    def _dock_visibility(self, visible: bool) -> None:
        if visible:
            QTimer.singleShot(0, self._catch_up)

    def _catch_up(self) -> None:
        for panel in (self.inspector, self.memory, self.diagnosis):
            panel.catch_up()

    def _model_changed(self) -> None:
        self._update_title()
        self.status.show_model(self.models.name(), self.bridge.info, self.capabilities)
        self._update_actions()

    # -- the chat (what the menus, the chat view and the tests call) -----------------------------------
    def send(self, text: str) -> None:
        self.attachments.send(text)   # the files attached to it go with it (once they are counted)

    def stop(self) -> None:
        self.session.stop()

    def regenerate(self, turn_index: int, n: int = 1) -> None:
        self.session.regenerate(turn_index, n)

    def edit_turn(self, turn_index: int) -> None:
        self.chat_commands.edit_turn(turn_index)

    def resend_edited(self, turn_index: int, text: str) -> None:
        self.session.edit(turn_index, text)

    def switch_branch(self, turn_index: int, version: int) -> None:
        self.session.switch_answer(turn_index, version)

    def switch_question(self, turn_index: int, version: int) -> None:
        self.session.switch_question(turn_index, version)

    def fork(self, turn_index: int, step_index: int, token: int) -> None:
        self.session.fork(turn_index, step_index, token)

    def copy_last_answer(self) -> None:
        self.chat_commands.copy_last_answer()

    # -- conversations (the sidebar's) -------------------------------------------------------------------
    def new_chat(self) -> None:
        self.sidebar.new_chat()

    def rename_conversation(self, title: str | None = None) -> None:
        self.sidebar.rename(title)

    def delete_conversation(self, confirm: bool = True) -> None:
        self.sidebar.delete(confirm)

    def undo_delete(self) -> None:
        self.sidebar.undo_delete()

    # -- models (the model controller's) ----------------------------------------------------------------
    def open_model(self, path: str | None = None, settings: LoadSettings | None = None, ask: bool = True) -> bool:
        return self.models.open_model(path, settings, ask)

    def connect_server(self, engine: object | None = None) -> None:
        self.models.connect_server(engine)  # type: ignore[arg-type]

    def reload_model(self) -> None:
        self.models.reload_model()

    def show_models(self) -> object:
        return self.models.show_models()

    # -- inspector (the coordinator's) ------------------------------------------------------------------
    def select_step(self, turn_index: int, step_index: int) -> None:
        self.inspector.select_step(turn_index, step_index)

    def current_step_view(self) -> StepView | None:
        return self.inspector.current_step_view()

    # -- files and settings ------------------------------------------------------------------------------
    def export_trace(self, path: str | None = None) -> bool:
        return self.files.export_trace(path)

    def export_conversation(self, path: str | None = None) -> bool:
        return self.files.export_conversation(path)

    def import_conversations(self, path: str | None = None) -> int:
        return self.files.import_conversations(path)

    def open_settings(self, accept: bool | None = None) -> None:
        self.settings_dialog, app = ask_settings(self.app_settings, self, accept, self.show_error)
        if app is not None:
            self.dark = apply_theme(QApplication.instance(), app.theme)  # type: ignore[arg-type]
            self.chat.set_dark(self.dark)

    # -- view -------------------------------------------------------------------------------------------
    def toggle_heatmap(self) -> None:
        actions = self.window_actions
        self.chat.set_heatmap(actions.heatmap.isChecked(), "rank" if actions.rank.isChecked() else "probability")

    def reset_layout(self) -> None:
        arrange_docks(self, self.docks)

    def restore_layout(self) -> None:
        restore_layout(self, self.qsettings, self.reset_layout)

    def save_layout(self) -> None:
        save_layout(self, self.qsettings)

    def about(self) -> None:
        show_about(self, self.capabilities)

    def show_error(self, title: str, message: str, offer_reload: bool = False) -> None:
        message = show_error_box(self, title, message, self.reload_model if offer_reload else None)
        self.last_error = (title, message)
        self.statusMessage.emit(error_status_line(title, message))

    # -- title, status bar, actions ------------------------------------------------------------------------
    def _update_title(self) -> None:
        self.setWindowTitle(f"Logitscope — {name}" if (name := self.models.name()) else "Logitscope")

    def _update_actions(self) -> None:
        busy, has_model = self.session.busy, self.bridge.info is not None
        self.send_button.setEnabled(has_model and not busy)
        self.stop_button.setEnabled(busy)  # the answer's Stop: other jobs have their own Cancel
        self.window_actions.stop.setEnabled(busy)
        for action in (self.window_actions.regenerate, self.window_actions.regenerate_many, self.window_actions.edit):
            action.setEnabled(has_model and not busy and bool(self.current.turns))
        self.window_actions.copy.setEnabled(bool(self.current.turns) and self.current.turns[-1].answer is not None)
        self.model_box.reload_button.setEnabled(not busy)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_layout()
        self.forward.stop()
        self.bridge.shutdown()
        self.save_retry.stop()
        self.session.close_open_answers("the app was closed while answering")  # kept, marked as stopped
        self.history.close()
        super().closeEvent(event)
