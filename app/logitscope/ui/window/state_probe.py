"""What the window shows, as a small JSON file, for end-to-end tests of the real window under X11.

With LOGITSCOPE_UI_STATE_FILE set (only the e2e tests set it) the window rewrites that file five times a
second: whether an answer is streaming, whether each step panel shows its empty state, the selected step, and where the conversation rows
and the Delete button are on screen (so xdotool can click them), and the layout's facts (layout_facts.py). Unset, nothing is created.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget

from logitscope.ui.controllers.inspector_coordinator import InspectorCoordinator
from logitscope.ui.controllers.session import SessionController
from logitscope.ui.window.sidebar import ConversationSidebar

STATE_FILE_ENV = "LOGITSCOPE_UI_STATE_FILE"
INTERVAL_MS = 200


def _centre(widget: QWidget) -> list[int]:
    point = widget.mapToGlobal(widget.rect().center())
    return [point.x(), point.y()]


def install(owner: QObject, session: SessionController, sidebar: ConversationSidebar,
            inspector: InspectorCoordinator, layout: Callable[[], dict[str, object]] = dict) -> None:
    """`owner`: the window, whose life the timer shares; `layout`: the layout's facts (layout_facts.py)."""
    target = os.environ.get(STATE_FILE_ENV)
    if not target:
        return
    path = Path(target)

    def write() -> None:
        rows = sidebar.conversation_list
        listed = []
        for row in range(rows.count()):
            item = rows.item(row)
            centre = rows.viewport().mapToGlobal(rows.visualItemRect(item).center())
            listed.append({"title": item.text(), "at": [centre.x(), centre.y()]})
        state = {
            "turns": len(session.current.turns),
            "answering": session.busy,
            "selected": inspector.selected,
            "panels_empty": {key: page.showing_empty() for key, page in inspector.pages.items()},
            "rows": listed,
            "delete_button": _centre(sidebar.delete_button),
            "layout": layout(),
        }
        partial = path.with_suffix(".tmp")
        partial.write_text(json.dumps(state))
        partial.replace(path)  # readers never see half a file

    timer = QTimer(owner)
    timer.setInterval(INTERVAL_MS)
    timer.timeout.connect(write)
    timer.start()
