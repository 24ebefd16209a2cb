"""Driving the main window in tests: ask a question and wait for the answer, find a token on screen, open
another window over the same home, read the dock tabs."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QTabBar

from logitscope.protocol.api import LoadSettings

GEN_TIMEOUT_MS = 90_000


def ask(qtbot, window, text: str, max_tokens: int = 24):
    """Send a message and wait for the whole answer."""
    window.sampler.max_tokens.setValue(max_tokens)
    with qtbot.waitSignal(window.bridge.generationFinished, timeout=GEN_TIMEOUT_MS):
        window.send(text)
    qtbot.waitUntil(lambda: window.streaming is None, timeout=5_000)
    return window.current.turns[-1].answer


def heatmap_answer(qtbot, window):
    """A real answer shown as heatmap tokens: (answer, its token view, the step of its 4th visible token)."""
    answer = ask(qtbot, window, "List three animals.", max_tokens=12)
    window.window_actions.heatmap.setChecked(True)
    window.toggle_heatmap()
    view = window.chat.answers[-1].view
    qtbot.waitUntil(lambda: view.isVisible(), timeout=5_000)
    target = next(i for i, s in enumerate(answer.steps) if i >= 3 and s.text.strip())
    return answer, view, target


def token_point(view, answer, target: int):
    """A point inside the first character of step `target`'s text in the token view."""
    from PySide6.QtGui import QTextCursor

    start = sum(len(s.text) for s in answer.steps[:target])
    cursor = QTextCursor(view.document())
    cursor.setPosition(start + 1)
    rect = view.cursorRect(cursor)
    point = rect.center()
    point.setX(rect.left() - 2)
    return point


def make_window(qtbot, tmp_path, demo_model, load: bool = True):
    from logitscope.ui.main_window import MainWindow

    w = MainWindow(settings=QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.show()
    if load:
        with qtbot.waitSignal(w.bridge.loaded, timeout=30_000):
            w.open_model(str(demo_model), LoadSettings(n_ctx=2048), ask=False)
        qtbot.waitUntil(lambda: not w.bridge.busy, timeout=10_000)
    return w


def cut_tabs(window) -> list[tuple[str, int, int]]:
    """The dock tabs narrower than their title needs (Qt elides their text): (title, width, needed)."""
    cut = []
    for bar in window.findChildren(QTabBar):
        if bar.isVisible():
            cut += [(bar.tabText(i), bar.tabRect(i).width(), bar.tabSizeHint(i).width()) for i in range(bar.count())
                    if bar.tabRect(i).width() < bar.tabSizeHint(i).width()]
    return cut
