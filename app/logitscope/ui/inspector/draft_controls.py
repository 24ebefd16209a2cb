"""The generation options' speculative-decoding row: off or prompt lookup, and how many drafts per
evaluation. A remote engine does its own decoding: the row is disabled there, its tooltip says why."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QSpinBox, QWidget

from logitscope.engine.api import DEFAULT_DRAFT_MAX, DRAFT_LOOKUP, DRAFT_MAX_LIMIT


class DraftControls(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.mode = QComboBox()
        self.mode.addItem(self.tr("Off"), "")
        self.mode.addItem(self.tr("Prompt lookup"), DRAFT_LOOKUP)
        self.draft_max = QSpinBox()
        self.draft_max.setRange(1, DRAFT_MAX_LIMIT)
        self.draft_max.setValue(DEFAULT_DRAFT_MAX)
        self.draft_max.setToolTip(self.tr("Drafts verified per evaluation, at most"))
        self.draft_max.setEnabled(False)
        self.mode.currentIndexChanged.connect(lambda _i: self.draft_max.setEnabled(bool(self.mode.currentData())))
        self._tip = self.tr("Speculative decoding: tokens drafted from the context (prompt lookup) are verified "
                            "in one evaluation; accepted drafts are marked in the chat and the timeline. The "
                            "answer is the same as without it (with flash attention on, token for token).")
        self.mode.setToolTip(self._tip)
        row.addWidget(self.mode, 1)
        row.addWidget(self.draft_max)

    def options(self) -> dict[str, Any]:
        """DecodeOptions fields: none when drafting is off or unavailable."""
        if not self.isEnabled() or not self.mode.currentData():
            return {}
        return {"draft": str(self.mode.currentData()), "draft_max": self.draft_max.value()}

    def set_available(self, available: bool) -> None:
        self.setEnabled(available)
        self.mode.setToolTip(self._tip if available else
                             self.tr("This engine does its own decoding: speculative decoding needs the local engine"))
