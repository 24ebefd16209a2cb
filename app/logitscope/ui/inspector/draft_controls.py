"""The generation options' speculative-decoding row: off, prompt lookup or a draft model (chosen with a file
dialog, shown by name), and how many drafts per evaluation. A remote engine does its own decoding: the row is
disabled there, its tooltip says why.

Without flash attention llama.cpp's batched verification rounds differently from one token at a time, so a
drafted answer can differ from the plain one at a near tie; the main context keeps flash attention off by
default because the forward-pass inspector copies its state (that needs the same cache layout) and reproduces
its numbers. So while drafting is chosen on a model loaded without it, a line under the row says so and
offers to reload the model with flash attention, after which greedy answers are identical token for token."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.library.display_name import model_display_name
from logitscope.protocol.api import DEFAULT_DRAFT_MAX, DRAFT_LOOKUP, DRAFT_MAX_LIMIT, ModelInfo
from logitscope.ui.common.spin_boxes import SpinBox
from logitscope.ui.window import file_folders

CHOOSE = "\0choose"  # the "Draft model…" item's data: it opens the file dialog, it is never a choice itself


class DraftControls(QWidget):
    reloadRequested = Signal()        # reload the model with flash attention
    draftModelChosen = Signal(str)    # a draft model's path, chosen in the file dialog

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.mode = QComboBox()
        self.mode.addItem(self.tr("Off"), "")
        self.mode.addItem(self.tr("Prompt lookup"), DRAFT_LOOKUP)
        self.mode.addItem(self.tr("Draft model…"), CHOOSE)
        self.draft_max = SpinBox()
        self.draft_max.setRange(1, DRAFT_MAX_LIMIT)
        self.draft_max.setValue(DEFAULT_DRAFT_MAX)
        self.draft_max.setSuffix(self.tr(" drafts"))  # a bare number beside the choice did not say what it counts
        self.draft_max.setToolTip(self.tr("Drafts verified per evaluation, at most"))
        self.draft_max.setEnabled(False)
        self._tip = self.tr("Speculative decoding: tokens drafted from the context (prompt lookup) or by a smaller "
                            "model with the same vocabulary are verified in one evaluation; accepted drafts are "
                            "marked in the chat and the timeline. The answer is the same as without it (with flash "
                            "attention on, token for token).")
        self.mode.setToolTip(self._tip)
        row.addWidget(self.mode, 1)
        row.addWidget(self.draft_max)
        column.addLayout(row)
        self.notice = QLabel(self.tr("Loaded without flash attention: an answer may differ slightly from "
                                     "plain decoding."))
        self.notice.setObjectName("settingNote")
        self.notice.setWordWrap(True)
        self.reload_button = QPushButton(self.tr("Reload with flash attention"))
        self.reload_button.setToolTip(self.tr("Reload the model with flash attention on: a drafted greedy answer is "
                                              "then identical to the plain one, token for token"))
        self.reload_button.clicked.connect(self.reloadRequested)
        column.addWidget(self.notice)   # the row is narrow (a dock's form): the notice under it, then the button
        column.addWidget(self.reload_button, 0, Qt.AlignmentFlag.AlignLeft)
        self._available = True
        self._flash_off = False   # a local model loaded without flash attention
        self._previous = 0        # the item chosen before "Draft model…" (back to it on cancel)
        self.mode.currentIndexChanged.connect(self._on_mode)
        self._update()

    # -- the choice ----------------------------------------------------------------------------------------
    def draft_model(self) -> str:
        """The draft model listed in the row ("" if none)."""
        i = self._model_index()
        return str(self.mode.itemData(i)) if i >= 0 else ""

    def set_draft_model(self, path: str) -> None:
        """List `path` in the row (in place of an earlier draft model) and choose it."""
        self.mode.blockSignals(True)  # the current index moves with the items: no "Draft model…" again
        try:
            old = self._model_index()
            if old >= 0:
                self.mode.removeItem(old)
            index = self.mode.count() - 1  # before "Draft model…"
            self.mode.insertItem(index, self.tr("Draft: {0}").format(model_display_name(path)), path)
            self.mode.setItemData(index, path, Qt.ItemDataRole.ToolTipRole)  # the whole path
            self.mode.setCurrentIndex(index)
        finally:
            self.mode.blockSignals(False)
        self._on_mode(index)

    def choose_draft_model(self) -> bool:
        """The file dialog; False (and the earlier choice kept) when cancelled."""
        start = str(Path(self.draft_model()).parent) if self.draft_model() else file_folders.start(file_folders.MODEL)
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a draft model"), start,
                                              self.tr("GGUF models (*.gguf)"))
        file_folders.chosen(file_folders.MODEL, path)
        if not path:
            self.mode.setCurrentIndex(self._previous)
            return False
        self.set_draft_model(path)
        self.draftModelChosen.emit(path)
        return True

    def _model_index(self) -> int:
        for i in range(self.mode.count()):
            if self.mode.itemData(i) not in ("", DRAFT_LOOKUP, CHOOSE):
                return i
        return -1

    def _on_mode(self, index: int) -> None:
        if self.mode.itemData(index) == CHOOSE:
            self.choose_draft_model()
            return
        self._previous = index
        self._update()

    # -- what it asks for -------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        """DecodeOptions fields: none when drafting is off or unavailable."""
        data = self.mode.currentData()
        if not self._available or not data or data == CHOOSE:
            return {}
        return {"draft": str(data), "draft_max": self.draft_max.value()}

    def set_available(self, available: bool) -> None:
        self._available = available
        self.setEnabled(available)
        self.mode.setToolTip(self._tip if available else
                             self.tr("This engine does its own decoding: speculative decoding needs the local engine"))
        self._update()

    def set_model(self, info: object) -> None:
        """The loaded model (ModelInfo, a remote model's info, or None): whether it has flash attention."""
        self._flash_off = isinstance(info, ModelInfo) and not info.load.flash_attn
        self._update()

    @property
    def notice_shown(self) -> bool:
        return not self.notice.isHidden()

    def _update(self) -> None:
        drafting = bool(self.options())
        self.draft_max.setEnabled(drafting)
        for widget in (self.notice, self.reload_button):
            widget.setVisible(drafting and self._flash_off)
