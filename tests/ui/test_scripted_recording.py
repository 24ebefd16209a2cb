"""The scripted engine's recording (tests/data/scripted_engine.json.gz) still is what the real engine
answers: the same vocabulary, model card and greedy steps. When this fails, record it again with
scripts/record_scripted_engine.py."""

from __future__ import annotations

from dataclasses import asdict, replace

import numpy as np
import pytest

from tests.helpers.kernels import OTHER_KERNELS, runs_the_recorded_kernels
from tests.helpers.scripted_engine import load_recording, record

pytestmark = pytest.mark.model  # runs the real demo model


def test_the_recording_matches_the_real_engine(engine, demo_model):
    recorded, fresh = load_recording(demo_model), record(engine)
    assert recorded.vocab == fresh.vocab
    assert asdict(recorded.info.card) == asdict(replace(fresh.info.card, path=str(demo_model)))
    assert recorded.info.n_ctx == fresh.info.n_ctx
    assert len(recorded.answers) == len(fresh.answers)
    if not runs_the_recorded_kernels():
        pytest.skip(f"the answers' steps: {OTHER_KERNELS}")  # the vocabulary and the card above are the same
    for (steps, result), (fresh_steps, fresh_result) in zip(recorded.answers, fresh.answers, strict=True):
        assert [(s.token, s.piece, s.text) for s in steps] == [(s.token, s.piece, s.text) for s in fresh_steps]
        assert (result.text, result.tokens, result.finish_reason, result.prompt_tokens) == \
            (fresh_result.text, fresh_result.tokens, fresh_result.finish_reason, fresh_result.prompt_tokens)
        for step, fresh_step in zip(steps, fresh_steps, strict=True):
            # the candidates may swap places on another build or thread count only where they tie
            np.testing.assert_allclose(step.raw_logits, fresh_step.raw_logits, rtol=1e-3, atol=1e-3)
            np.testing.assert_array_equal(step.raw_ids[:5], fresh_step.raw_ids[:5])
            assert [st.name for st in step.stages] == [st.name for st in fresh_step.stages]


def test_the_reasoning_trace_matches_the_real_engine(demo_model, tmp_path):
    """tests/data/thinking_trace.json.gz (scripts/record_thinking_trace.py): the thinking model's answer."""
    from logitscope.engine.core import Engine
    from logitscope.protocol.api import LoadSettings
    from tests.helpers.scripted_engine import load_thinking, record_thinking
    from tests.helpers.thinking_model import make_thinking_model

    if not runs_the_recorded_kernels():
        pytest.skip(OTHER_KERNELS)
    engine = Engine()
    engine.load(make_thinking_model(demo_model, tmp_path / "thinking.gguf"), LoadSettings(n_ctx=2048))
    try:
        fresh = record_thinking(engine)
    finally:
        engine.unload()
    recorded = load_thinking(demo_model)
    for (steps, result), (fresh_steps, fresh_result) in zip(recorded.answers, fresh.answers, strict=True):
        assert [(s.token, s.text, s.thinking) for s in steps] == [(s.token, s.text, s.thinking) for s in fresh_steps]
        assert (result.text, result.reasoning) == (fresh_result.text, fresh_result.reasoning)
