"""A forward-pass dock's page: its panel, or in its place one plain line (nothing selected, computing,
not available for this engine or model, an error)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from logitscope.ui.controllers.inspector_coordinator import EmptyStatePage


class ForwardPage(EmptyStatePage):
    def __init__(self, panel: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(panel, "", parent)

    def show_message(self, text: str) -> None:
        self.empty.setText(text)
        self.show_empty(True)

    def show_panel(self) -> None:
        self.show_empty(False)
