"""What the Compare view runs, on the bridge's worker (never the GUI thread): an answer regenerated without
steering (A) and with it (B), same question, same sampler settings and seed; then both models' distributions
along B's text (Engine.compare_steering: per-step KL(A || B) over the whole vocabulary, both top-10 lists),
and, for a step, the logit lens of both runs (each token's rank per layer, unsteered and steered).

Until the texts part, the two runs read the same tokens, so the distributions along B's text are exactly the
two runs' own. After, both models read B's text (the steered answer is the one being explained).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from logitscope.host.client import CancelledError
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.engine_like import EngineLike
from logitscope.protocol.forward import InspectRequest, LayerLens
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.steering import Steering
from logitscope.protocol.steering_compare import SteeringCompare, SteeringCompareRequest
from logitscope.protocol.trace import GenerationResult, StepRecord

UNSTEERED, STEERED = "a", "b"


@dataclass(frozen=True)
class CompareQuestion:
    """The answer to regenerate: the chat up to its question, the sampler settings with the seed it used."""

    messages: list[ChatMessage]
    system: str | None
    settings: SamplerSettings
    max_tokens: int
    steering: Steering

    def request(self, side: str) -> GenerateRequest:
        return GenerateRequest(messages=self.messages, system=self.system, settings=self.settings,
                               options=DecodeOptions(max_tokens=self.max_tokens),
                               steering=self.steering if side == STEERED else None)


@dataclass
class Run:
    result: GenerationResult
    steps: list[StepRecord]

    @property
    def tokens(self) -> list[int]:
        return [s.token for s in self.steps]


@dataclass
class SteeringRuns:
    question: CompareQuestion
    a: Run
    b: Run
    along_b: SteeringCompare | None   # None: B has no token to compare (an empty answer)

    @property
    def parted(self) -> int | None:
        """The first step where the two texts differ (one ending before the other counts); None: the same."""
        a, b = self.a.tokens, self.b.tokens
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return i
        return None if len(a) == len(b) else min(len(a), len(b))

    @property
    def prompt(self) -> list[int]:
        return self.b.result.prompt_tokens


ALONG_B = "along_b"   # run_both's progress after both answers: both distributions measured along B's tokens


def run_both(client: EngineLike, question: CompareQuestion, stop: threading.Event,
             on_progress: Callable[[str, int], None]) -> SteeringRuns | None:
    """Worker thread: A, then B, then the distributions along B (`on_progress` gets the side and its tokens so far,
    then ALONG_B). None: stopped (Cancel) before the end."""
    runs: dict[str, Run] = {}
    for side in (UNSTEERED, STEERED):
        steps: list[StepRecord] = []

        def on_step(step: StepRecord, steps: list[StepRecord] = steps, side: str = side) -> None:
            steps.append(step)
            on_progress(side, len(steps))

        try:
            result = client.generate(question.request(side), on_step=on_step)
        except CancelledError:
            return None
        if stop.is_set() or result.finish_reason == "cancelled":
            return None
        runs[side] = Run(result, steps)
    b = runs[STEERED]
    along_b = None
    if b.steps:
        on_progress(ALONG_B, len(b.steps))   # the longest part of a long answer: said, not left at 'B: 512 of 512'
        tokens = tuple(b.result.prompt_tokens) + tuple(b.tokens)
        try:
            along_b = client.compare_steering(SteeringCompareRequest(tokens, len(b.result.prompt_tokens),
                                                                     a=None, b=question.steering))
        except CancelledError:
            return None
    return None if stop.is_set() else SteeringRuns(question, runs[UNSTEERED], b, along_b)


@dataclass
class StepLens:
    """The logit lens at one step of B's text, unsteered and steered, following A's and B's tokens there."""

    step: int
    lenses: dict[tuple[str, int], LayerLens]   # (side the model ran as, token followed) -> its lens


def lens_at(client: EngineLike, runs: SteeringRuns, step: int) -> StepLens:
    """Worker thread: the context B's step `step` was predicted from, inspected unsteered and steered, following
    the token each run chose there (B's token, and A's when A has one at that step and it differs)."""
    context = tuple(runs.prompt) + tuple(runs.b.tokens[:step])
    followed = [runs.b.tokens[step]]
    if step < len(runs.a.tokens) and runs.a.tokens[step] != followed[0] and runs.a.tokens[:step] == runs.b.tokens[:step]:
        followed.append(runs.a.tokens[step])
    lenses: dict[tuple[str, int], LayerLens] = {}
    for side, steering in ((UNSTEERED, None), (STEERED, runs.question.steering)):
        for token in followed:
            # B's tokens one at a time where B generated them (steered), as the steps recorded; the unsteered model
            # never evaluated them: in batches (a click far into a long answer stays quick)
            lens = client.inspect(InspectRequest(context, chosen=token, lens=True, attention=False,
                                                 steering=steering,
                                                 n_prompt=len(runs.prompt) if side == STEERED else None)).lens
            if lens is not None:
                lenses[(side, token)] = lens
    return StepLens(step, lenses)


def question_for(messages: list[ChatMessage], system: str | None, settings: dict[str, object],
                 used: dict[str, object] | None, max_tokens: int, steering: Steering) -> CompareQuestion:
    """The question of an answer on screen: its sampler settings with the seed it was made with (the trace's),
    or, for one without a finished trace, its settings with a seed drawn now (both runs share it)."""
    sampler = SamplerSettings.from_dict(used or settings)   # the trace's settings carry the seed drawn
    return CompareQuestion(messages, system, sampler.with_seed(), max_tokens, steering)
