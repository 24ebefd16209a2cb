"""Control vectors and LoRA adapters: llama.cpp's control-vector files read and written here, and both applied
to the demo model's generation context per request, as llama.cpp's --control-vector / --lora apply them."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from gguf import GGUFWriter

from logitscope.base.errors import InvalidSettingsError
from logitscope.bench.steering_files import lora_adapter, random_vector
from logitscope.gguf.control_vector import read_control_vector, write_control_vector
from logitscope.protocol.api import DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.steering import ScaledFile, Steering
from logitscope.protocol.trace import GenerationResult, StepRecord, result_to_json
from logitscope.protocol.trace_schema import migrate_trace_line

PROMPT = "The capital of France is"
VISIBLE_SCALE = 12.0  # a unit vector on every layer changes the demo model's greedy text from ~6 on (FACTS.md)


def greedy(engine, steering: Steering | None = None, max_tokens: int = 12) -> tuple[list[StepRecord], GenerationResult]:
    """A greedy answer from a fresh prefill: a reused prefix would leave the last prompt token to a one-token
    batch, which may round differently from the batched prompt (without flash attention)."""
    engine.reset()
    events = list(engine.generate(GenerateRequest(prompt=PROMPT, settings=PRESETS["Greedy"],
                                                  options=DecodeOptions(max_tokens=max_tokens), steering=steering)))
    result = events[-1]
    assert isinstance(result, GenerationResult)
    return events[:-1], result


def vectors(*files: tuple[Path, float], start: int = 0, end: int = 0) -> Steering:
    return Steering(control_vectors=tuple(ScaledFile(str(p), s) for p, s in files), layer_start=start, layer_end=end)


# -- the file format (no llama.cpp) ---------------------------------------------------------------------------

def test_a_control_vector_round_trips(tmp_path):
    directions = {1: np.arange(8, dtype=np.float32), 7: -np.ones(8, dtype=np.float32)}
    path = write_control_vector(tmp_path / "v.gguf", directions, "llama")
    vector = read_control_vector(path)
    assert vector.n_embd == 8 and vector.model_hint == "llama" and sorted(vector.directions) == [1, 7]
    for layer, values in directions.items():
        np.testing.assert_array_equal(vector.directions[layer], values)
    vector.require_n_embd(8)
    with pytest.raises(InvalidSettingsError, match="8 values per layer, but the model's embedding has 576"):
        vector.require_n_embd(576)


def _gguf(path: Path, arch: str, tensors: dict[str, np.ndarray]) -> Path:
    w = GGUFWriter(str(path), arch)
    for name, values in tensors.items():
        w.add_tensor(name, values)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


@pytest.mark.parametrize(("make", "phrase"), [
    (lambda p: p.write_bytes(b"not a gguf at all"), "is not a GGUF file"),
    (lambda p: _gguf(p, "llama", {"direction.1": np.ones(4, np.float32)}), "architecture is 'llama'"),
    (lambda p: _gguf(p, "controlvector", {}), "has no direction.N tensors"),
    (lambda p: _gguf(p, "controlvector", {"direction.1": np.array([1, np.nan, 0, 0], np.float32)}), "NaN or infinite"),
    (lambda p: _gguf(p, "controlvector", {"direction.2": np.array([1, np.inf, 0, 0], np.float32)}), "NaN or infinite"),
    (lambda p: _gguf(p, "controlvector", {"direction.0": np.ones(4, np.float32)}), "only direction.N tensors"),
    (lambda p: _gguf(p, "controlvector", {"direction.1": np.ones(4, np.float32),
                                          "direction.2": np.ones(5, np.float32)}), "has 5 values, the other layers 4"),
    (lambda p: _gguf(p, "controlvector", {"direction.1": np.ones((2, 2), np.float32)}), "1-D F32"),
])
def test_each_bad_control_vector_file_is_one_clear_error(tmp_path, make, phrase):
    path = tmp_path / "bad.gguf"
    make(path)
    with pytest.raises(InvalidSettingsError, match=re.escape(phrase)) as info:
        read_control_vector(path)
    assert str(path) in str(info.value) and "{path}" in info.value.message.template  # a template, translatable
    with pytest.raises(InvalidSettingsError, match="does not exist"):
        read_control_vector(tmp_path / "missing.gguf")


def test_a_trace_records_the_steering_and_older_done_lines_read_as_unsteered():
    assert migrate_trace_line({"type": "done", "schema": 3})["steering"] is None
    assert migrate_trace_line({"type": "done", "schema": 2})["steering"] is None


# -- applied through llama.cpp ----------------------------------------------------------------------------

@pytest.mark.model
def test_scale_zero_is_exactly_unsteered_and_a_visible_scale_changes_the_answer(engine, tmp_path):
    path = random_vector(tmp_path / "v.gguf", seed=1)
    plain_steps, plain = greedy(engine)
    zero_steps, zero = greedy(engine, vectors((path, 0.0)))
    assert zero.tokens == plain.tokens
    np.testing.assert_array_equal(zero_steps[0].raw_probs, plain_steps[0].raw_probs)
    steered_steps, steered = greedy(engine, vectors((path, VISIBLE_SCALE)))
    assert steered.tokens != plain.tokens
    assert not np.array_equal(steered_steps[0].raw_probs[:10], plain_steps[0].raw_probs[:10])
    again_steps, again = greedy(engine)  # no steering: taken off again
    assert again.tokens == plain.tokens and again.steering is None
    np.testing.assert_array_equal(again_steps[0].raw_probs, plain_steps[0].raw_probs)
    record = steered.steering
    assert record is not None and record["layer_range"] == [1, 29]
    assert record["control_vectors"][0]["file"] == "v.gguf" and record["control_vectors"][0]["scale"] == VISIBLE_SCALE
    assert len(record["control_vectors"][0]["sha256"]) == 64
    assert result_to_json(steered)["steering"] == record and result_to_json(plain)["steering"] is None


@pytest.mark.model
def test_an_unchanged_steering_is_not_applied_again(engine, tmp_path):
    path = random_vector(tmp_path / "v.gguf", seed=1)
    steering = vectors((path, 2.0), start=3, end=9)
    greedy(engine, steering)
    assert engine.steerer.apply(steering) is False  # nothing re-read, the KV cache kept
    assert engine.steerer.apply(vectors((path, 2.5), start=3, end=9)) is True
    assert engine.steerer.apply(None) is True and engine.steerer.apply(Steering()) is False


@pytest.mark.model
def test_a_change_of_steering_drops_the_cells_computed_without_it(engine, tmp_path):
    path = random_vector(tmp_path / "v.gguf", seed=1)
    steering = vectors((path, VISIBLE_SCALE))
    clean_steps, _ = greedy(engine, steering)
    greedy(engine)  # the cache now holds the prompt computed unsteered
    request = GenerateRequest(prompt=PROMPT, settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=2),
                              steering=steering)
    first = list(engine.generate(request))[0]  # no reset: the prompt's cells would be reused, if kept
    assert engine.runtime.last_sync.n_kept == 0
    np.testing.assert_array_equal(first.raw_probs, clean_steps[0].raw_probs)


@pytest.mark.model
def test_scales_add_as_llama_cpp_sums_the_files(engine, tmp_path):
    """The same file twice at 6 is the file once at 12 (common_control_vector_load adds scaled files)."""
    path = random_vector(tmp_path / "v.gguf", seed=1)
    twice_steps, twice = greedy(engine, vectors((path, VISIBLE_SCALE / 2), (path, VISIBLE_SCALE / 2)))
    once_steps, once = greedy(engine, vectors((path, VISIBLE_SCALE)))
    assert twice.tokens == once.tokens
    np.testing.assert_array_equal(twice_steps[0].raw_probs, once_steps[0].raw_probs)


@pytest.mark.model
def test_the_layer_range_decides_where_the_vector_applies(engine, tmp_path):
    path = random_vector(tmp_path / "low.gguf", layers=range(1, 6), seed=2)  # layers 1..5 only
    plain_steps, plain = greedy(engine)
    outside_steps, outside = greedy(engine, vectors((path, 4 * VISIBLE_SCALE), start=10, end=20))
    assert outside.tokens == plain.tokens and outside.steering["layer_range"] == [10, 20]
    np.testing.assert_array_equal(outside_steps[0].raw_probs, plain_steps[0].raw_probs)
    inside_steps, inside = greedy(engine, vectors((path, 4 * VISIBLE_SCALE), start=1, end=5))
    assert not np.array_equal(inside_steps[0].raw_probs[:10], plain_steps[0].raw_probs[:10])


@pytest.mark.model
def test_a_vector_for_another_model_is_one_clear_error_and_the_model_stays(engine, tmp_path):
    path = random_vector(tmp_path / "narrow.gguf", seed=3, n_embd=64)
    _, plain = greedy(engine)
    with pytest.raises(InvalidSettingsError, match="64 values per layer, but the model's embedding has 576"):
        greedy(engine, vectors((path, 1.0)))
    _, after = greedy(engine)
    assert after.tokens == plain.tokens


@pytest.mark.model
def test_a_hot_swapped_lora_equals_the_same_adapter_on_a_fresh_engine(engine, demo_model, tmp_path):
    from logitscope.engine.core import Engine

    first, second = lora_adapter(tmp_path / "a.gguf", seed=4), lora_adapter(tmp_path / "b.gguf", seed=5)
    plain_steps, plain = greedy(engine)
    greedy(engine, Steering(loras=(ScaledFile(str(first), 1.0),)))   # another adapter first, then swapped
    swapped_steps, swapped = greedy(engine, Steering(loras=(ScaledFile(str(second), 0.8),)))
    assert not np.array_equal(swapped_steps[0].raw_probs[:10], plain_steps[0].raw_probs[:10])
    assert swapped.steering["loras"][0]["file"] == "b.gguf" and swapped.steering["layer_range"] is None
    fresh = Engine()
    fresh.load(demo_model, LoadSettings(n_ctx=2048))
    try:
        fresh_steps, on_fresh = greedy(fresh, Steering(loras=(ScaledFile(str(second), 0.8),)))
    finally:
        fresh.unload()
    assert on_fresh.tokens == swapped.tokens
    np.testing.assert_allclose(fresh_steps[0].raw_probs, swapped_steps[0].raw_probs, rtol=0, atol=1e-6)
    _, off = greedy(engine)
    assert off.tokens == plain.tokens


@pytest.mark.model
def test_an_adapter_for_another_base_model_is_one_clear_error_and_the_model_stays_loaded(engine, tmp_path):
    other = lora_adapter(tmp_path / "other.gguf", seed=6, n_embd=64)
    _, plain = greedy(engine)
    with pytest.raises(InvalidSettingsError, match="cannot apply the LoRA adapter") as info:
        greedy(engine, Steering(loras=(ScaledFile(str(other), 1.0),)))
    assert "shape" in str(info.value), str(info.value)
    _, after = greedy(engine)
    assert after.tokens == plain.tokens
