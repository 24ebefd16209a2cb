"""A cancel reaches the draft model's evaluations too (engine/speculative.py ModelDraft): its first one evaluates
the whole prompt, as long as the model's own, and without the cancel check it ran to the end. Real demo model,
drafting for itself."""

from __future__ import annotations

import threading
import time

from logitscope.protocol.api import DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import GenerationResult, StepRecord

# ~1,000 tokens: evaluating them takes seconds on two cores; a cancel that reaches the evaluation ends it at
# once (llama.cpp's abort callback, checked between graph nodes)
LONG = "The keeper climbed the stairs at dusk, lit the lamp and watched the ships pass in the night. " * 50
CANCEL_BOUND_S = 1.0


def request(draft: str) -> GenerateRequest:
    return GenerateRequest(prompt=LONG, settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=8, draft=draft))


def test_a_cancel_stops_the_draft_models_prompt_evaluation(fa_engine, demo_model):
    fa_engine.reset()
    cancel = threading.Event()
    events = fa_engine.generate(request(str(demo_model)), cancel.is_set)
    first = next(events)  # the model's prompt is evaluated and its first token chosen; the draft model's is next
    assert isinstance(first, StepRecord)
    draft = fa_engine.draft
    assert draft is not None and draft.tokens == []
    cancel.set()
    start = time.monotonic()
    rest = list(events)
    elapsed = time.monotonic() - start
    result = rest[-1]
    assert isinstance(result, GenerationResult) and result.finish_reason == "cancelled"
    n_prompt = len(result.prompt_tokens)
    assert n_prompt > 900 and len(draft.tokens) < n_prompt  # its evaluation was cut short
    assert elapsed < CANCEL_BOUND_S, elapsed


def test_a_cancel_right_after_the_start_stops_both_prompt_evaluations(client, demo_model):
    """Through the engine process: Stop pressed right after Send, with a draft model."""
    client.load(str(demo_model), LoadSettings(n_ctx=2048, flash_attn=True))
    timer = threading.Timer(0.05, client.cancel)
    start = time.monotonic()
    timer.start()
    result = client.generate(request(str(demo_model)))
    elapsed = time.monotonic() - start
    timer.join()
    assert result.finish_reason == "cancelled" and len(result.tokens) < 8
    # the draft model loads first (not cancellable, ~0.4 s for the demo model), then both prompts are cut short
    assert elapsed < 1.0 + CANCEL_BOUND_S, elapsed
