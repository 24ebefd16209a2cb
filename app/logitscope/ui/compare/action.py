"""Model ▸ Compare two models…: the compare window and its action, enabled with a local model loaded."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from logitscope.protocol.api import ModelInfo
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.compare.window import CompareWindow
from logitscope.ui.controllers.model import ModelController
from logitscope.ui.controllers.session import SessionController
from logitscope.ui.inspector.sampler_controls import SamplerPanel
from logitscope.ui.window.actions import ActionRegistry

SHORTCUT = "Ctrl+Shift+A"


def install(bridge: EngineBridge, parent: QWidget, actions: ActionRegistry, model_menu: QMenu,
            models: ModelController, sampler: SamplerPanel, session: SessionController
            ) -> tuple[CompareWindow, QAction]:
    """The window gets the sampler's settings and options and the conversation's system prompt for each question."""
    window = CompareWindow(bridge, sampler.settings_to_send, lambda: sampler.decode_options(()),
                           lambda: session.current.system, parent=parent)
    tip = QCoreApplication.translate(
        "CompareWindow", "One question to two models (or one model in two configurations) side by side, and "
                         "the KL divergence of A's answer under B, token by token")
    action = actions.add(QCoreApplication.translate("CompareWindow", "Compare t&wo models…"), window.show,
                         QKeySequence(SHORTCUT), tip)
    model_menu.addAction(action)

    def update() -> None:
        info = bridge.info
        if info is None:
            reason = QCoreApplication.translate("CompareWindow", "Load a model to compare it with another.")
        elif not isinstance(info, ModelInfo) or models.capabilities.get("score") is False:
            reason = QCoreApplication.translate(
                "CompareWindow", "Comparing needs a local model: a server does not give every token's probability.")
        else:
            reason = ""
        action.setEnabled(not reason)
        action.setStatusTip(reason or tip)
        action.setToolTip(reason or tip)
        window.set_available()

    models.changed.connect(update)
    update()
    return window, action
