"""The self-test's window part (`logitscope --selftest`, cli/selftest.py): the real main window offscreen,
over the engine client the self-test already checked, loads the model, answers one question greedily and
saves a screenshot. Here because Qt lives only in ui/; the command keeps the checks and the report."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEventLoop, QSettings, QTimer

from logitscope.base.errors import LogitscopeError
from logitscope.host.client import EngineClient
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.ui.app import apply_theme, build_window, create_app
from logitscope.ui.bridge import EngineBridge


class WindowCheckError(LogitscopeError):
    """The window could not load, answer or draw; the message says which."""


@dataclass
class WindowReport:
    width: int
    height: int
    backend_shown: str   # what the status bar and the About dialog show


@dataclass(frozen=True)
class WindowCheck:
    prompt: str
    n_tokens: int
    n_ctx: int
    load_timeout_s: float
    answer_timeout_s: float


def _run_until(action: Callable[[], object], done: Any, failed: list[Any], timeout_s: float, what: str) -> None:  # noqa: ANN401
    """Connect first, then act, then run the event loop until `done` fires (a fast engine may answer
    before a later connect). A failure signal, a falsy action or the timeout becomes WindowCheckError."""
    loop = QEventLoop()
    outcome: dict[str, str] = {}

    def finish(key: str, message: str = "") -> None:
        outcome.setdefault(key, message)
        loop.quit()

    def act() -> None:
        if not action():
            finish("error", "it refused to start")

    done.connect(lambda *_args: finish("ok"))
    for signal in failed:
        signal.connect(lambda message: finish("error", str(message)))
    QTimer.singleShot(0, act)
    QTimer.singleShot(int(timeout_s * 1000), lambda: finish("error", f"no result after {timeout_s:.0f} s"))
    loop.exec()
    if "ok" not in outcome:
        raise WindowCheckError(f"the window could not {what}: {outcome.get('error')}")


def run_window_check(client: EngineClient, model: Path, check: WindowCheck, screenshot: Path,
                     scratch: Path) -> WindowReport:
    """The real main window over the same engine client: load, answer one question, save a picture."""
    app = create_app([sys.argv[0]])
    dark = apply_theme(app, "light")
    settings = QSettings(str(scratch / "window.ini"), QSettings.Format.IniFormat)  # not the user's layout
    window = build_window(EngineBridge(client=client), settings, dark)
    try:
        window.resize(1280, 800)
        window.show()
        bridge = window.bridge
        _run_until(lambda: window.open_model(str(model), LoadSettings(n_ctx=check.n_ctx), ask=False),
                   bridge.loaded, [bridge.loadFailed, bridge.engineCrashed], check.load_timeout_s, "load the model")
        window.sampler.set_settings(PRESETS["Greedy"])
        window.sampler.max_tokens.setValue(check.n_tokens)

        def ask() -> bool:
            window.send(check.prompt)  # a refusal shows no signal: the wait's timeout reports it
            return True

        _run_until(ask, bridge.generationFinished,
                   [bridge.generationFailed, bridge.engineCrashed], check.answer_timeout_s, "answer a question")
        app.processEvents()
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        picture = window.grab()
        if picture.isNull() or not picture.save(str(screenshot), "PNG"):
            raise WindowCheckError(f"could not save the screenshot to {screenshot}")
        return WindowReport(picture.width(), picture.height(), str(window.capabilities.get("backend")))
    finally:
        window.close()
        app.processEvents()
