"""The main window's actions and its menu bar: File, Edit, View, Model, Help. The strings keep the
"MainWindow" translation context they had when the window made them itself."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

from logitscope.session.conversation import Conversation
from logitscope.ui.window.actions import ActionRegistry


class WindowCommands(Protocol):
    """What the menus call: the main window's commands, without the window's type (no import cycle)."""

    @property
    def current(self) -> Conversation: ...
    def new_chat(self) -> None: ...
    def open_model(self) -> bool: ...
    def export_trace(self) -> bool: ...
    def export_conversation(self) -> bool: ...
    def import_conversations(self) -> int: ...
    def open_settings(self) -> None: ...
    def close(self) -> bool: ...
    def stop(self) -> None: ...
    def regenerate(self, turn_index: int, n: int = 1) -> None: ...
    def edit_turn(self, turn_index: int) -> None: ...
    def copy_last_answer(self) -> None: ...
    def toggle_heatmap(self) -> None: ...
    def reset_layout(self) -> None: ...
    def reload_model(self) -> None: ...
    def show_models(self) -> object: ...
    def connect_server(self) -> None: ...
    def about(self) -> None: ...


@dataclass
class WindowActions:
    new: QAction
    open: QAction
    export: QAction
    export_chat: QAction
    import_chats: QAction
    settings: QAction
    quit: QAction
    stop: QAction
    regenerate: QAction
    regenerate_many: QAction
    edit: QAction
    copy: QAction
    heatmap: QAction
    rank: QAction
    reset_layout: QAction
    models: QAction
    connect: QAction
    reload: QAction
    about: QAction


def build_actions(registry: ActionRegistry, window: WindowCommands) -> WindowActions:
    add = registry.add

    def last() -> int:
        return len(window.current.turns) - 1

    # lambdas where the slot takes arguments: `triggered` passes a `checked` flag
    actions = WindowActions(
        new=add(QCoreApplication.translate("MainWindow", "&New chat"), window.new_chat, "Ctrl+N"),
        open=add(QCoreApplication.translate("MainWindow", "&Open model…"), lambda: window.open_model(), "Ctrl+O"),
        export=add(QCoreApplication.translate("MainWindow", "&Export trace…"), lambda: window.export_trace(),
                   "Ctrl+Shift+E",
                   QCoreApplication.translate("MainWindow", "Save the selected answer's trace as JSON Lines")),
        quit=add(QCoreApplication.translate("MainWindow", "&Quit"), window.close, QKeySequence.StandardKey.Quit),
        stop=add(QCoreApplication.translate("MainWindow", "&Stop generating"), window.stop, "Esc"),
        regenerate=add(QCoreApplication.translate("MainWindow", "&Regenerate"), lambda: window.regenerate(last()),
                       "Ctrl+R"),
        regenerate_many=add(QCoreApplication.translate("MainWindow", "Regenerate &4 versions at once"),
                            lambda: window.regenerate(last(), 4), "Ctrl+Alt+R",
                            QCoreApplication.translate("MainWindow", "Four new versions of the last answer decoded "
                                                       "together in one batch (the question read once)")),
        edit=add(QCoreApplication.translate("MainWindow", "&Edit last message"), lambda: window.edit_turn(last()),
                 "Ctrl+E"),
        copy=add(QCoreApplication.translate("MainWindow", "&Copy last answer"), window.copy_last_answer,
                 "Ctrl+Shift+C"),
        heatmap=add(QCoreApplication.translate("MainWindow", "Probability &heatmap"), window.toggle_heatmap, "Ctrl+H"),
        rank=add(QCoreApplication.translate("MainWindow", "Colour by &rank instead"), window.toggle_heatmap),
        reset_layout=add(QCoreApplication.translate("MainWindow", "Reset &layout"), window.reset_layout),
        reload=add(QCoreApplication.translate("MainWindow", "&Reload model"), window.reload_model, "Ctrl+Shift+R"),
        models=add(QCoreApplication.translate("MainWindow", "&Models…"), lambda: window.show_models(), "Ctrl+M",
                   QCoreApplication.translate("MainWindow", "Models on this computer and on Hugging Face")),
        connect=add(QCoreApplication.translate("MainWindow", "&Connect to a server…"), lambda: window.connect_server(),
                    tip=QCoreApplication.translate("MainWindow",
                                                   "llama-server, vLLM or any OpenAI-compatible server")),
        about=add(QCoreApplication.translate("MainWindow", "&About Logitscope"), window.about),
        settings=add(QCoreApplication.translate("MainWindow", "&Settings…"), lambda: window.open_settings(), "Ctrl+,"),
        export_chat=add(QCoreApplication.translate("MainWindow", "Export con&versation…"),
                        lambda: window.export_conversation()),
        import_chats=add(QCoreApplication.translate("MainWindow", "&Import conversations…"),
                         lambda: window.import_conversations()),
    )
    actions.heatmap.setCheckable(True)
    actions.rank.setCheckable(True)
    return actions


def build_menus(bar: QMenuBar, actions: WindowActions, dock_toggles: Iterable[QAction]) -> QMenu:
    """The menu bar; returns the Model menu, where the dialogs installed later add their entries."""
    file_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&File"))
    file_menu.addActions([actions.new, actions.open, actions.export, actions.export_chat, actions.import_chats])
    file_menu.addSeparator()
    file_menu.addAction(actions.settings)
    file_menu.addSeparator()
    file_menu.addAction(actions.quit)
    edit_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&Edit"))
    edit_menu.addActions([actions.stop, actions.regenerate, actions.regenerate_many, actions.edit, actions.copy])
    view_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&View"))
    view_menu.addActions([actions.heatmap, actions.rank])
    view_menu.addSeparator()
    view_menu.addActions(list(dock_toggles))
    view_menu.addSeparator()
    view_menu.addAction(actions.reset_layout)
    model_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&Model"))
    model_menu.addActions([actions.models, actions.open, actions.connect, actions.reload])
    help_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&Help"))
    help_menu.addAction(actions.about)
    return model_menu
