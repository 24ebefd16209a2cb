"""A real window over a real engine process with the demo model, offscreen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from logitscope.protocol.api import LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from tests.conftest import GUI_FIXTURES
from tests.helpers.qt import free_windows


@pytest.fixture(autouse=True)
def _collect_on_gui_thread(request: pytest.FixtureRequest) -> Iterator[None]:
    """As in the app (create_app): the windows a test drops are freed on the GUI thread, never on a worker's
    (where Qt warns, failing the test that happens to be running). After the test, every window it left is
    destroyed: pytest-qt's deleteLater runs only when an event loop returns to its level, so each test's
    window (and its parentless menus) stayed alive, and every later test's style sheet and theme switch
    re-polished all of them (~120 more widgets a test, ~0.3 s a test by the end of the suite)."""
    gui = bool(GUI_FIXTURES & set(request.fixturenames))
    if gui:
        from logitscope.ui.common.gui_collector import collect_on_gui_thread

        collect_on_gui_thread(request.getfixturevalue("qapp"))
    yield
    if gui:
        free_windows()


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
    from tests.helpers.scripted_engine import load_recording

    return load_recording(demo_model)


@pytest.fixture
def scripted_window(qtbot, tmp_path, recording, isolated_home):
    """The real window over a scripted engine that replays the recorded steps: window state tests
    without running the model (the real-engine window is `real_window`)."""
    from PySide6.QtCore import QSettings

    from logitscope.ui.app import apply_theme, create_app
    from logitscope.ui.bridge import EngineBridge
    from logitscope.ui.main_window import MainWindow
    from tests.helpers.scripted_engine import ScriptedEngine

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


