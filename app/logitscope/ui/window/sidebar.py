"""The conversation sidebar: the list of conversations, search, new, rename, delete (with undo)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.session.conversation import NEW_CHAT_TITLE, Conversation
from logitscope.session.history import ChatHistory
from logitscope.ui.common.ask_text import ask_text
from logitscope.ui.controllers.session import SessionController
from logitscope.ui.window.list_notice import notice_item

WATCH_MS = 2000   # how often the list looks for another process's changes (one SQLite pragma)


class ConversationSidebar(QWidget):
    """Lists the conversations and decides which one the session shows; says when it switched."""

    switched = Signal()          # the session shows another conversation (chosen, new, after a delete)
    deleted = Signal(str)        # a conversation was deleted: the text to show beside an Undo button
    notice = Signal(str)

    def __init__(self, history: ChatHistory, session: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history, self.session = history, session
        self.conversations: list[Conversation] = history.conversations() or [Conversation()]
        self._deleted: list[tuple[int, Conversation]] = []
        self._listed: list[Conversation] = []
        session.open(self.conversations[0])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(self.tr("<b>Conversations</b>")))
        self.search_box = QLineEdit()
        self.search_box.setPlaceholderText(self.tr("Search conversations"))
        self.search_box.setClearButtonEnabled(True)
        self.search_box.textChanged.connect(lambda _text: self.refresh())
        layout.addWidget(self.search_box)
        self.conversation_list = QListWidget()
        self.conversation_list.currentRowChanged.connect(self._choose)
        self.conversation_list.itemDoubleClicked.connect(lambda _item: self.rename())
        layout.addWidget(self.conversation_list, 1)
        buttons = QHBoxLayout()
        self.new_button = QPushButton(self.tr("New"))
        self.rename_button = QPushButton(self.tr("Rename"))
        self.delete_button = QPushButton(self.tr("Delete"))
        self.new_button.clicked.connect(lambda: self.new_chat())
        self.rename_button.clicked.connect(lambda: self.rename())
        self.delete_button.clicked.connect(lambda: self.delete())
        for button in (self.new_button, self.rename_button, self.delete_button):
            buttons.addWidget(button)
        layout.addLayout(buttons)
        session.titleChanged.connect(self.refresh)
        self.refresh()
        self._add_shortcuts()
        self._watch = QTimer(self)   # another window or `history import` writing to the same history
        self._watch.timeout.connect(self.pick_up_changes)
        self._watch.start(WATCH_MS)

    def _add_shortcuts(self) -> None:
        """Ctrl+F searches the conversations and F2 renames the one shown from anywhere in the window (a click on
        the list puts the cursor in the message box); on the list, Delete deletes (with its confirmation and its
        Undo), as file managers and other chat apps do."""
        search = QShortcut(QKeySequence(QKeySequence.StandardKey.Find), self, self._focus_search)
        search.setContext(Qt.ShortcutContext.WindowShortcut)
        self.search_box.setToolTip(self.tr("Search conversations ({0})").format(
            search.key().toString(QKeySequence.SequenceFormat.NativeText)))
        rename = QShortcut(QKeySequence(Qt.Key.Key_F2), self, lambda: self.rename())
        rename.setContext(Qt.ShortcutContext.WindowShortcut)
        self.rename_button.setToolTip(self.tr("Rename the conversation shown ({0})").format(
            rename.key().toString(QKeySequence.SequenceFormat.NativeText)))
        delete = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.conversation_list, lambda: self.delete())
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)

    def _focus_search(self) -> None:
        self.search_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_box.selectAll()

    def pick_up_changes(self) -> bool:
        """When another process changed the history: its new conversations listed, its renames and deletions
        followed. The conversation shown stays (deleted elsewhere, it leaves the trash when written to); a new chat
        not saved yet stays. True when the list was read again."""
        if not self.history.changed_elsewhere():
            return False
        known: dict[int | None, Conversation] = {c.store_id: c for c in self.conversations if c.store_id is not None}
        listed = []
        for fresh in self.history.conversations():
            mine = known.get(fresh.store_id)
            if mine is not None:
                mine.title = fresh.title
            listed.append(mine or fresh)
        kept = [c for c in self.conversations if c.store_id is None or c is self.current]
        self.conversations = [c for c in kept if c not in listed] + listed
        self.refresh()
        return True

    @property
    def current(self) -> Conversation:
        return self.session.current

    def refresh(self) -> None:
        """List the conversations matching the search (or all), the current one selected when listed; say so
        when nothing matches."""
        query = self.search_box.text().strip()
        matches = set(self.history.search(query)) if query else None
        self.conversation_list.blockSignals(True)
        self.conversation_list.clear()
        self._listed = [c for c in self.conversations if matches is None or c.store_id in matches]
        for conversation in self._listed:
            # a chat not asked anything yet has the session's placeholder title: shown in the interface's language
            new = conversation.title == NEW_CHAT_TITLE and conversation.store_id is None
            item = QListWidgetItem(self.tr("New chat") if new else conversation.title)
            item.setData(Qt.ItemDataRole.UserRole, conversation.id)
            self.conversation_list.addItem(item)
        if not self._listed:
            self.conversation_list.addItem(notice_item(self.tr("No conversations match")))
        if self.current in self._listed:
            self.conversation_list.setCurrentRow(self._listed.index(self.current))
        self.conversation_list.blockSignals(False)

    def _show(self, conversation: Conversation) -> bool:
        if not self.session.open(conversation):
            self.notice.emit(self.tr("Wait for the answer to finish (or press Esc)"))
            self.refresh()
            return False
        self.refresh()
        self.switched.emit()
        return True

    def _choose(self, row: int) -> None:
        if 0 <= row < len(self._listed) and self._listed[row] is not self.current:
            self._show(self._listed[row])

    def new_chat(self) -> None:
        if self.session.busy:
            self.notice.emit(self.tr("Wait for the answer to finish (or press Esc)"))
            return
        conversation = self.current
        if conversation.turns:
            conversation = Conversation()
            self.conversations.insert(0, conversation)
        self._show(conversation)

    def rename(self, title: str | None = None) -> None:
        if title is None:
            title, ok = ask_text(self, self.tr("Rename"), self.tr("Title:"), text=self.current.title)
            if not ok:
                return
        if title.strip():
            self.current.title = title.strip()
            self.history.rename(self.current)
            self.refresh()

    def delete(self, confirm: bool = True) -> None:
        if self.session.busy:
            return
        doomed = self.current
        if confirm and doomed.turns:
            answer = QMessageBox.question(self, self.tr("Delete conversation"),
                                          self.tr("Delete “{0}”?").format(doomed.title))
            if answer != QMessageBox.StandardButton.Yes:
                return
        index = self.conversations.index(doomed)
        self.history.delete(doomed)
        self._deleted.append((index, doomed))
        self.conversations.remove(doomed)
        if not self.conversations:
            self.conversations.append(Conversation())
        self._show(self.conversations[0])
        self.deleted.emit(self.tr("Conversation deleted."))

    def undo_delete(self) -> None:
        if not self._deleted or self.session.busy:
            return
        index, conversation = self._deleted.pop()
        self.history.restore(conversation)
        only = self.conversations[0] if len(self.conversations) == 1 else None
        if only is not None and not only.turns and only.store_id is None:  # the empty chat made for the gap
            self.conversations.clear()
        self.conversations.insert(min(index, len(self.conversations)), conversation)
        self._show(conversation)

    def add_imported(self) -> int:
        """Put conversations the store has and this list lacks (just imported) on top; returns how many."""
        known = {c.store_id for c in self.conversations}
        fresh = [c for c in self.history.conversations() if c.store_id not in known]
        self.conversations[0:0] = fresh
        self.refresh()
        return len(fresh)
