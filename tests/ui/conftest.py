"""A real window over a real engine process with the demo model, offscreen."""

from __future__ import annotations

import pytest

from logitscope.protocol.api import LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from tests.library.conftest import gguf_files, hub, sealed  # noqa: F401  (the fake Hub, for the Models page)
from tests.remote.conftest import real_server  # noqa: F401  (llama_cpp.server with the demo model)

GEN_TIMEOUT_MS = 90_000


@pytest.fixture
def real_window(qtbot, tmp_path, demo_model, isolated_home):
    """The window over a real engine process with the demo model loaded (greedy)."""
    from PySide6.QtCore import QSettings

    from logitscope.ui.app import apply_theme, create_app
    from logitscope.ui.main_window import MainWindow

    app = create_app([])
    dark = apply_theme(app, "light")
    settings = QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, dark=dark)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    with qtbot.waitSignal(w.bridge.loaded, timeout=30_000):
        w.open_model(str(demo_model), LoadSettings(n_ctx=2048), ask=False)
    qtbot.waitUntil(lambda: not w.bridge.busy, timeout=10_000)
    w.sampler.set_settings(PRESETS["Greedy"])
    yield w
    w.close()


@pytest.fixture(scope="session")
def recording(demo_model):
    """Answers of the real demo model, read from tests/data/scripted_engine.json.gz (no llama.cpp)."""
    from tests.ui.scripted_engine import load_recording

    return load_recording(demo_model)


@pytest.fixture
def scripted_window(qtbot, tmp_path, recording, isolated_home):
    """The real window over a scripted engine that replays the recorded steps: window state tests
    without running the model (the real-engine window is `real_window`)."""
    from PySide6.QtCore import QSettings

    from logitscope.ui.app import apply_theme, create_app
    from logitscope.ui.bridge import EngineBridge
    from logitscope.ui.main_window import MainWindow
    from tests.ui.scripted_engine import ScriptedEngine

    app = create_app([])
    dark = apply_theme(app, "light")
    settings = QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat)
    w = MainWindow(bridge=EngineBridge(client=ScriptedEngine(recording)), settings=settings, dark=dark)
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(w.bridge.loaded, timeout=10_000):
        w.bridge.load(recording.info.card.path, LoadSettings(n_ctx=2048))
    w.sampler.set_settings(PRESETS["Greedy"])
    yield w
    w.close()


@pytest.fixture
def bare_window(qtbot, tmp_path, isolated_home):
    """The window without a model: the layout does not depend on one."""
    from PySide6.QtCore import QSettings

    from logitscope.ui.app import apply_theme, create_app
    from logitscope.ui.main_window import MainWindow

    app = create_app([])
    dark = apply_theme(app, "light")
    w = MainWindow(settings=QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat), dark=dark)
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()


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
    window.heatmap_action.setChecked(True)
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
