"""Each chat's own settings: its system prompt (the bar above the chat) and the sampler controls' values
(sampler, max tokens, stops), kept with the conversation and put back in the controls when it is shown.

A new chat starts from what the controls show (the last used settings: a preset picked, a slider tuned
carry on into the next chat, as they did before chats had settings of their own); a saved chat that
recorded none (an older one, or one whose settings cannot be read) gets the sampler settings and max tokens
its last answer was made with (so its steps show as recorded, not as a preview), else the defaults: Settings'
default sampler preset and its own 'system' message. A change reaches the store a moment later (SAVE_DELAY_MS: a
dragged slider writes once), and at once when another chat is shown.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from logitscope.protocol.reasoning import UNLIMITED
from logitscope.session.chat_settings import ChatSettings
from logitscope.session.conversation import Conversation
from logitscope.session.history import ChatHistory
from logitscope.store.settings import SettingsStore
from logitscope.ui.chat.system_prompt_bar import SystemPromptBar
from logitscope.ui.common.messages import translate_message
from logitscope.ui.controllers.session import SessionController
from logitscope.ui.inspector.sampler_controls import SamplerPanel
from logitscope.ui.window.sidebar import ConversationSidebar

SAVE_DELAY_MS = 500


class ChatSettingsController(QObject):
    def __init__(self, history: ChatHistory, session: SessionController, sidebar: ConversationSidebar,
                 sampler: SamplerPanel, app_settings: SettingsStore, show_error: Callable[[str, str], None],
                 notice: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.history, self.session, self.sampler, self.app_settings = history, session, sampler, app_settings
        self.notice = notice
        self.bar = SystemPromptBar(app_settings, show_error)
        self._default_max_tokens = sampler.max_tokens.value()
        self._shown: Conversation | None = None
        self._applying = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SAVE_DELAY_MS)
        self._timer.timeout.connect(self.flush)
        sampler.select_preset(app_settings.app.sampler_preset)   # the controls' defaults, before any chat
        sampler.settingsChanged.connect(self._changed)
        sampler.max_tokens.valueChanged.connect(self._changed)
        sampler.stops.textChanged.connect(self._changed)
        sampler.reasoning_budget.valueChanged.connect(self._changed)
        self.bar.changed.connect(self._changed)
        sidebar.switched.connect(self.show_current)
        self.show_current()

    def show_current(self) -> None:
        """The session shows another conversation: save the last one's settings, show this one's."""
        self.flush()
        conversation = self.session.current
        self._shown = conversation
        if conversation.settings is None:   # a new chat: the controls as they are
            self.history.save_settings(conversation, self.current_settings())
            return
        settings = conversation.settings
        sampler, max_tokens = (settings.sampler, settings.max_tokens)
        if sampler is None:   # none recorded: what its last answer was made with, else the default preset
            sampler, answered_max = conversation.answered_with()
            max_tokens = max_tokens or answered_max
        self._applying = True
        try:
            self.sampler.set_settings(sampler or self.app_settings.preset(self.app_settings.app.sampler_preset))
            self.sampler.max_tokens.setValue(max_tokens or self._default_max_tokens)
            self.sampler.set_stop_sequences(settings.stop or ())
            self.sampler.reasoning_budget.setValue(UNLIMITED if settings.reasoning_budget is None
                                                   else settings.reasoning_budget)
            self.bar.set_prompt(conversation.system, settings.system_preset)
        finally:
            self._applying = False
        if lines := self.history.settings_notices(conversation):   # after start-up, when the status bar listens
            text = self.tr("This chat's saved settings: {0}").format("; ".join(translate_message(n) for n in lines))
            QTimer.singleShot(0, lambda: self.notice(text))

    def current_settings(self) -> ChatSettings:
        """What the controls show, as a chat keeps it."""
        return ChatSettings(system_preset=self.bar.preset_name(), system_prompt=self.bar.prompt(),
                            sampler=self.sampler.settings(), max_tokens=self.sampler.max_tokens.value(),
                            stop=self.sampler.stop_sequences(), reasoning_budget=self.sampler.reasoning_budget.value())

    def flush(self) -> None:
        self._timer.stop()
        if not self.history.flush_settings():
            self.notice(self.tr("This chat's settings could not be saved yet (the history is busy); "
                                "they are kept and saved with the next change"))

    def _changed(self, *_args: object) -> None:
        if self._applying or self._shown is not self.session.current:
            return
        settings = self.current_settings()
        if settings != self._shown.settings:
            self.history.save_settings(self._shown, settings)
            self._timer.start()
