"""Stage names are defined once (engine.trace.STAGE_NAMES, whose order the stored steps depend on)."""

from __future__ import annotations

from logitscope.engine.sampler import ORDERS, SamplerSettings
from logitscope.engine.trace import STAGE_NAMES


def test_each_order_applies_every_stage_once():
    for order, stages in ORDERS.items():
        assert sorted(stages) == sorted(STAGE_NAMES), order
    assert SamplerSettings().order in ORDERS
