"""Column B's engine: an engine process of its own (its own EngineBridge over its own EngineClient), loaded
with the model and settings B was given, after the memory check counted both models, and refused when its
vocabulary is not A's (host/score_compare.py: the same check as the Score dialog's comparison). Its process
ends with close() (the compare window closing)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from logitscope.base.errors import LogitscopeError
from logitscope.gguf.card import read_model_card
from logitscope.host.client import EngineClient
from logitscope.host.score_compare import check_same_vocabulary
from logitscope.protocol.api import LoadSettings, ModelInfo
from logitscope.protocol.engine_like import EngineLike
from logitscope.system.machine import MachineMemory, probe_machine
from logitscope.ui.bridge import JOB_LOAD, EngineBridge
from logitscope.ui.common.messages import translate_sentence
from logitscope.ui.compare.memory_check import both_fit

BridgeFactory = Callable[[], EngineBridge]


class SecondEngine(QObject):
    loading = Signal(float)       # 0..1
    loaded = Signal(object)       # ModelInfo
    failed = Signal(str)          # one clear message

    def __init__(self, make_bridge: BridgeFactory | None = None,
                 machine: Callable[[], MachineMemory] = probe_machine, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._make_bridge = make_bridge or (lambda: EngineBridge(EngineClient()))
        self._machine = machine
        self.bridge: EngineBridge | None = None
        self.info: ModelInfo | None = None
        self.loaded_as: tuple[str, LoadSettings] | None = None

    @property
    def ready(self) -> bool:
        return self.bridge is not None and self.info is not None

    def load(self, path: str, settings: LoadSettings, info_a: ModelInfo, vocab_a: list[bytes]) -> bool:
        """Start loading B (False, and `failed` said why, when it cannot start: a bad file, not enough memory)."""
        try:
            settings.validate()
            card_b = read_model_card(path)
        except LogitscopeError as exc:
            self.failed.emit(translate_sentence(exc))
            return False
        check = both_fit(info_a.card, info_a.load, card_b, settings, self._machine())
        if not check.fits:
            self.failed.emit(check.message())
            return False
        if self.bridge is None:
            self.bridge = self._make_bridge()
            self.bridge.setParent(self)
        self.info, self.loaded_as = None, None
        bridge = self.bridge

        def job(client: EngineLike) -> ModelInfo:
            local = bridge.local
            info = local.load(path, settings, on_progress=self.loading.emit)
            check_same_vocabulary(local.vocab(), vocab_a, Path(path))
            return info

        def done(info: ModelInfo) -> None:
            self.info, self.loaded_as = info, (path, settings)
            self.loaded.emit(info)

        bridge.call(job, done, lambda message: self.failed.emit(translate_sentence(message)), kind=JOB_LOAD)
        return True

    def cancel(self) -> None:
        if self.bridge is not None:
            self.bridge.cancel()

    def close(self) -> None:
        """End B's engine process (a later load starts a fresh one)."""
        bridge, self.bridge, self.info, self.loaded_as = self.bridge, None, None, None
        if bridge is not None:
            bridge.shutdown()
            bridge.deleteLater()
