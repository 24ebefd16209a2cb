"""What the inspector is looking at: one step of one answer, and the sampler settings to preview."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from logitscope.engine.replay import Replay, replay_step
from logitscope.engine.sampler import SamplerSettings
from logitscope.engine.trace import StageRecord, StepRecord
from logitscope.errors import InvalidSettingsError


@dataclass
class StepView:
    """A step, as recorded or as the current sliders would have sampled it."""

    step: StepRecord
    recorded: dict[str, object]                 # the settings it was generated with
    preview: SamplerSettings | None = None      # set when the sliders differ from `recorded`
    recent: Sequence[int] = field(default_factory=tuple)
    _replay: Replay | None = None

    @property
    def is_preview(self) -> bool:
        return self.preview is not None

    @property
    def replay(self) -> Replay | None:
        if self.preview is not None and self._replay is None:
            self._replay = replay_step(self.step, self.preview, self.recent)
        return self._replay

    @property
    def final(self) -> tuple[np.ndarray, np.ndarray]:
        r = self.replay
        return (r.ids, r.probs) if r is not None else (self.step.final_ids, self.step.final_probs)

    @property
    def stages(self) -> list[StageRecord]:
        r = self.replay
        return r.stages if r is not None else self.step.stages

    @property
    def order(self) -> str:
        """The legacy order's name the chain matches ("temperature_last" unless temperature comes before top-k)."""
        if self.preview is not None:
            chain = self.preview.samplers
        else:
            try:
                chain = SamplerSettings.from_dict(self.recorded).samplers
            except InvalidSettingsError:
                chain = SamplerSettings().samplers
        return "temperature_first" if chain.index("temperature") < chain.index("top_k") else "temperature_last"

    def setting(self, name: str) -> object:
        if self.preview is not None:
            return getattr(self.preview, name)
        return self.recorded.get(name)

    def number(self, name: str, default: float) -> float:
        """A numeric setting; `default` when it is not recorded (or not a number)."""
        value = self.setting(name)
        return float(value) if isinstance(value, int | float) else default


def differs(settings: SamplerSettings, recorded: dict[str, object]) -> bool:
    try:
        then = SamplerSettings.from_dict(recorded)
    except InvalidSettingsError:
        return True
    return replace(settings, seed=None) != replace(then, seed=None)  # a seed alone changes no distribution
