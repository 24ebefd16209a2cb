"""Names defined once in the engine: the sampler's stages (engine.trace.STAGE_NAMES, whose order the stored
steps depend on) and the KV cache types (engine.memory.KV_CACHE_TYPES)."""

from __future__ import annotations

from logitscope.engine.memory import KV_CACHE_TYPES, kv_bytes_per_element_text
from logitscope.engine.sampler import ORDERS, SamplerSettings
from logitscope.engine.trace import STAGE_NAMES


def test_each_order_applies_every_stage_once():
    for order, stages in ORDERS.items():
        assert sorted(stages) == sorted(STAGE_NAMES), order
    assert SamplerSettings().order in ORDERS


def test_the_formula_shows_every_kv_cache_types_bytes_per_element():
    assert {name: kv_bytes_per_element_text(name) for name in KV_CACHE_TYPES} == {
        "f16": "2", "q8_0": "34/32", "q4_0": "18/32"}
