"""Ask the engine whether a part of the sampler settings is valid (a grammar parses, a JSON schema converts,
every logit-bias token is in the vocabulary): only the engine process can tell (the window never loads
llama.cpp). The question runs on the bridge's worker after a short pause in typing, never on the GUI thread;
the answer for each exact value is kept, so a send with a known problem is refused at once.

While an answer is being generated, the question waits for it (the engine serves one request at a time);
the engine checks the settings again before it generates anything, so nothing slips through meanwhile.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.protocol.engine_like import EngineLike
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.ui.bridge import EngineBridge

PAUSE_MS = 400   # a check starts this long after the last keystroke


@dataclass
class _Pending:
    settings: SamplerSettings
    key: str


def _key(part: str, settings: SamplerSettings) -> str:
    d = settings.to_dict()
    fields = ("grammar", "json_schema") if part == "constraint" else ("logit_bias",)
    return json.dumps([part] + [d[f] for f in fields])


def _ask(client: EngineLike, settings: SamplerSettings) -> Message:
    """"" when the engine accepts the settings, its message when it refuses them (a remote server checks
    what it can before a request; its reply to the request says the rest)."""
    try:
        client.check_settings(settings)
    except InvalidSettingsError as exc:
        return exc.message
    return Message("")


class EngineCheck(QObject):
    answered = Signal(str)   # the part whose answer for the current value arrived ("constraint" or "bias")

    def __init__(self, bridge: EngineBridge | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self._answers: dict[str, Message] = {}      # key -> problem ("" = none)
        self._latest: dict[str, _Pending] = {}      # part -> the value to check (or last checked)
        self._timers: dict[str, QTimer] = {}
        if bridge is not None:  # another model (another vocabulary): every answer may change
            bridge.loaded.connect(lambda _info: self._recheck())
            bridge.remoteConnected.connect(lambda _info, _caps: self._recheck())

    def request(self, part: str, settings: SamplerSettings) -> None:
        """Check this part of `settings` soon (a newer request for the part replaces it)."""
        self._latest[part] = _Pending(settings, _key(part, settings))
        if self._latest[part].key in self._answers:
            self.answered.emit(part)
            return
        timer = self._timers.get(part)
        if timer is None:
            timer = self._timers[part] = QTimer(self)
            timer.setSingleShot(True)
            timer.setInterval(PAUSE_MS)
            timer.timeout.connect(lambda p=part: self._send(p))
        timer.start()

    def problem(self, part: str, settings: SamplerSettings) -> Message | None:
        """The engine's answer for this exact value: a problem, "" (fine), or None (not known yet)."""
        return self._answers.get(_key(part, settings))

    def _recheck(self) -> None:
        self._answers.clear()
        for part, pending in list(self._latest.items()):
            self.request(part, pending.settings)

    def _send(self, part: str) -> None:
        bridge, pending = self.bridge, self._latest.get(part)
        if bridge is None or pending is None or bridge.info is None:
            return   # no model yet: asked again when one is loaded

        def done(answer: Message | None, key: str = pending.key) -> None:
            if answer is None:
                return
            self._answers[key] = answer
            if self._latest.get(part) is not None and self._latest[part].key == key:
                self.answered.emit(part)

        bridge.call(lambda client: _ask(client, pending.settings), done=done)
