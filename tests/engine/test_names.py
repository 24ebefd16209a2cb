"""Names defined once in the engine: the sampler's stages (engine.trace.STAGE_NAMES, whose order the stored
steps depend on) and the KV cache types (engine.memory.KV_CACHE_TYPES)."""

from __future__ import annotations

from logitscope.gguf.memory import KV_CACHE_TYPES, kv_bytes_per_element_text
from logitscope.protocol.sampler_settings import (
    CHAIN_STAGES,
    FIXED_BEFORE,
    LEGACY_ORDERS,
    MIROSTAT_CHAIN,
    SamplerSettings,
)
from logitscope.protocol.trace import STAGE_NAMES


def test_each_order_applies_every_chain_stage_once_and_every_stage_has_a_stored_name():
    for order, stages in LEGACY_ORDERS.items():
        assert sorted(stages) == sorted(CHAIN_STAGES), order
    assert SamplerSettings().samplers == LEGACY_ORDERS["temperature_last"]
    every = set(CHAIN_STAGES) | set(FIXED_BEFORE) | {n for chain in MIROSTAT_CHAIN.values() for n in chain}
    assert every == set(STAGE_NAMES)


def test_the_formula_shows_every_kv_cache_types_bytes_per_element():
    assert {name: kv_bytes_per_element_text(name) for name in KV_CACHE_TYPES} == {
        "f16": "2", "q8_0": "34/32", "q4_0": "18/32"}
