"""Files from the window: export an answer's trace or a conversation, import conversations."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from logitscope.base.errors import LogitscopeError
from logitscope.protocol.trace import dumps, result_to_json, step_to_json
from logitscope.session.conversation import Answer, Conversation
from logitscope.session.history import ChatHistory
from logitscope.store.files import write_export
from logitscope.ui.window import file_folders

_NOT_IN_FILE_NAMES = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')


def export_file_name(title: str) -> str:
    """A file name for a conversation's export: its title without the characters file systems refuse ("1/2" made
    a folder of "1") and without trailing dots ("a robot." gave "a robot..md")."""
    stem = _NOT_IN_FILE_NAMES.sub(" ", title).strip().rstrip(". ")[:100].strip()
    return f"{stem or 'conversation'}.md"


class FileActions(QObject):
    error = Signal(str, str)      # title, message
    notice = Signal(str)

    def __init__(self, parent_widget: QWidget, history: ChatHistory, current: Callable[[], Conversation],
                 inspected_answer: Callable[[], Answer | None], vocab_for: Callable[[Answer], Sequence[bytes]],
                 add_imported: Callable[[], int]) -> None:
        """`vocab_for`: the bytes of an answer's token ids (its own model's: ui/controllers/answer_vocab.py)."""
        super().__init__(parent_widget)
        self.parent_widget, self.history = parent_widget, history
        self.current, self.inspected_answer, self.vocab_for, self.add_imported = (current, inspected_answer, vocab_for,
                                                                                  add_imported)

    def export_trace(self, path: str | None = None) -> bool:
        answer = self.inspected_answer()
        if answer is None:
            self.notice.emit(self.tr("No answer to export yet"))
            return False
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self.parent_widget, self.tr("Export trace"),
                                                  file_folders.start(file_folders.EXPORT, "trace.jsonl"),
                                                  self.tr("JSON Lines (*.jsonl)"))
            file_folders.chosen(file_folders.EXPORT, path)
            if not path:
                return False
        vocab = self.vocab_for(answer)
        lines = [dumps(step_to_json(s, vocab)) for s in answer.steps]
        if answer.result is not None:
            lines.append(dumps(result_to_json(answer.result)))
        try:  # never replaces a pipe, a device or a link; a pipe nobody reads is an error, not a hang
            write_export(Path(path), ("\n".join(lines) + "\n").encode("utf-8"), wait_for_reader=False)
        except LogitscopeError as exc:
            self.error.emit(self.tr("Export failed"), str(exc))
            return False
        self.notice.emit(self.tr("Trace saved to {0}").format(path))
        return True

    def export_conversation(self, path: str | None = None) -> bool:
        from logitscope.store.exchange import export_json, export_markdown

        conversation = self.current()
        if conversation.store_id is None:
            self.notice.emit(self.tr("Nothing to export yet"))
            return False
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self.parent_widget, self.tr("Export conversation"),
                                                  file_folders.start(file_folders.EXPORT,
                                                                     export_file_name(conversation.title)),
                                                  self.tr("Markdown (*.md);;JSON, lossless with traces (*.json)"))
            file_folders.chosen(file_folders.EXPORT, path)
            if not path:
                return False
        ids = [conversation.store_id]
        self.history.flush_settings()   # a change of the last half second goes with the chat
        try:
            if path.endswith(".json"):
                text = json.dumps(export_json(self.history.store, ids), ensure_ascii=False, indent=1)
            else:
                text = export_markdown(self.history.store, ids)
            write_export(Path(path), text.encode("utf-8"), wait_for_reader=False)
        except LogitscopeError as exc:
            self.error.emit(self.tr("Export failed"), str(exc))
            return False
        self.notice.emit(self.tr("Conversation saved to {0}").format(path))
        return True

    def import_conversations(self, path: str | None = None) -> int:
        from logitscope.store.exchange import import_json
        from logitscope.store.import_check import load_export

        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.parent_widget, self.tr("Import conversations"),
                                                  file_folders.start(file_folders.EXPORT), self.tr("JSON (*.json)"))
            file_folders.chosen(file_folders.EXPORT, path)
            if not path:
                return 0
        try:  # the same bounded reading and checks as `history import`
            checked = load_export(path)
            skipped = len(checked["conversations"]) - len(import_json(self.history.store, checked))
        except LogitscopeError as exc:
            self.error.emit(self.tr("Import failed"), str(exc))
            return 0
        if checked.notices:  # what was incomplete, imported as it is
            self.error.emit(self.tr("Notice"), "\n".join(checked.notices))
        added = self.add_imported()
        said = self.tr("{0} conversation(s) imported").format(added)
        if skipped:
            said += self.tr("; {0} already in the history, not imported again").format(skipped)
        self.notice.emit(said)
        return added
