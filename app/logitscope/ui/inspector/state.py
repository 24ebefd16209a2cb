"""What the inspector is looking at: one step of one answer, and the sampler settings to preview."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import StageRecord, StepRecord
from logitscope.sampling.replay import Replay, replay_step


@dataclass
class StepView:
    """A step, as recorded or as the current sliders would have sampled it."""

    step: StepRecord
    recorded: dict[str, object]                 # the settings it was generated with
    preview: SamplerSettings | None = None      # set when the sliders differ from `recorded`
    recent: Sequence[int] = field(default_factory=tuple)
    vocab: Sequence[bytes] | None = None        # the model's pieces by id: DRY's sequence breakers need them
    _replay: Replay | None = None
    preview_error: Message | None = None        # why the preview could not be computed (then: as recorded)

    @property
    def is_preview(self) -> bool:
        return self.preview is not None

    @property
    def replay(self) -> Replay | None:
        if self.preview is not None and self._replay is None and self.preview_error is None:
            try:
                self._replay = replay_step(self.step, self.preview, self.recent, self.vocab)
            except InvalidSettingsError as exc:   # a stage the engine cannot replay with these settings
                self.preview_error = exc.message
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
    def not_replayed(self) -> list[str]:
        """What the preview cannot redo from the stored head (a changed grammar, XTC's new draw...): plain
        Messages from the engine's replay; empty for a recorded step."""
        r = self.replay
        return list(getattr(r, "not_replayed", ())) if r is not None else []   # Replay.not_replayed (engine)

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
