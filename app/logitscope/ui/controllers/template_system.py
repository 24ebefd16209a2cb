"""The system prompt bar learns, for each model loaded, what its chat template writes when a chat has no system
prompt (protocol/template_system.py), asked of the engine off the GUI thread; a remote engine says nothing."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from logitscope.protocol.api import ModelInfo
from logitscope.protocol.engine_like import EngineLike
from logitscope.protocol.template_system import default_system_prompt
from logitscope.ui.bridge import EngineBridge
from logitscope.ui.chat.system_prompt_bar import SystemPromptBar
from logitscope.ui.controllers.model import ModelController


def install(bridge: EngineBridge, models: ModelController, bar: SystemPromptBar) -> None:
    asked: list[Path | None] = [None]   # the model last asked about

    def job(client: EngineLike) -> str | None:   # the worker thread
        render = getattr(client, "render_chat", None)   # by name: a remote engine has none
        return default_system_prompt(render) if render is not None else None

    def update() -> None:
        info = models.info
        path = Path(info.card.path) if isinstance(info, ModelInfo) else None
        if path == asked[0]:
            return
        asked[0] = path
        bar.set_template_default(None)   # the last model's is not this one's
        if path is not None:
            bridge.call(job, done=partial(shown, path), failed=lambda _message: None)

    def shown(path: Path, text: str | None) -> None:
        if asked[0] == path:   # a model loaded since (or none) has its own
            bar.set_template_default(text)

    models.changed.connect(update)
    update()
