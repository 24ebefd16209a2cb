"""bench --samplers on the real demo model, once, quickly: every stage is timed and the sampler runs whole."""

from __future__ import annotations

import pytest

from logitscope.bench.samplers import STAGE_SETTINGS, measure_pipeline, measure_stages

pytestmark = pytest.mark.model  # imports llama.cpp at its top


def test_every_stage_is_timed_on_the_whole_vocabulary(engine):
    stage_ms = measure_stages(engine, reps=1)
    assert set(stage_ms) == set(STAGE_SETTINGS)
    assert all(0 < ms < 2000 for ms in stage_ms.values())
    # the grammar visits every token's text; top-k on an already ranked head does almost nothing
    assert stage_ms["grammar"] > stage_ms["top_k"]
    pipeline = measure_pipeline(engine, reps=1)
    assert set(pipeline) == {"default", "classic chain only"} and all(ms > 0 for ms in pipeline.values())
