"""A LoRA adapter's metadata from its header (gguf/lora.py, no llama.cpp): what was written reads back, and
every bad file (not a GGUF, not an adapter, not a LoRA, no or broken pairs, truncated, empty, a folder) is
one InvalidSettingsError naming the path, never another exception."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gguf import GGUFWriter

from logitscope.base.errors import InvalidSettingsError
from logitscope.bench.steering_files import DEMO_N_EMBD, DEMO_N_LAYER, lora_adapter, random_vector
from logitscope.gguf.lora import compact_ranges, read_lora_metadata
from tests.helpers.small_ggufs import tiny_gguf


def write_adapter(path: Path, tensors: dict[str, tuple[int, int]], kv: dict[str, str] | None = None,
                  alpha: float | None = 8.0, general_type: str | None = "adapter", arch: str = "llama") -> Path:
    """An adapter of hand-picked tensors, each given as its numpy shape (rows, columns)."""
    w = GGUFWriter(str(path), arch)
    if general_type is not None:
        w.add_type(general_type)
    for key, value in {"adapter.type": "lora", **(kv or {})}.items():
        w.add_string(key, value)
    if alpha is not None:
        w.add_float32("adapter.lora.alpha", alpha)
    for name, shape in tensors.items():
        w.add_tensor(name, np.zeros(shape, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


# -- bad files first: one clear error each --------------------------------------------------------------

def assert_clear_error(path: Path, *words: str) -> str:
    with pytest.raises(InvalidSettingsError) as caught:
        read_lora_metadata(path)
    text = str(caught.value)
    assert str(path) in text or path.name in text, text
    assert "Traceback" not in text and all(w in text for w in words), text
    return text


def test_an_empty_file_a_folder_a_missing_file_and_random_bytes_are_one_clear_error(tmp_path):
    empty = tmp_path / "empty.gguf"
    empty.write_bytes(b"")
    noise = tmp_path / "noise.gguf"
    noise.write_bytes(np.random.default_rng(0).bytes(4096))
    folder = tmp_path / "folder.gguf"
    folder.mkdir()
    assert_clear_error(empty, "empty")
    assert_clear_error(noise, "not a GGUF")
    assert_clear_error(folder, "folder")
    assert_clear_error(tmp_path / "gone.gguf", "not found")


def test_a_truncated_adapter_is_one_clear_error_wherever_it_is_cut(tmp_path):
    whole = lora_adapter(tmp_path / "whole.gguf", rank=2, n_layer=3).read_bytes()
    for size in (3, 24, 40, 200, len(whole) // 2, len(whole) - 1):
        cut = tmp_path / f"cut-{size}.gguf"
        cut.write_bytes(whole[:size])
        assert_clear_error(cut)


def test_a_model_a_control_vector_and_another_adapter_type_are_not_lora_adapters(tmp_path):
    assert_clear_error(tiny_gguf(tmp_path / "model.gguf"), "not a LoRA adapter", "general.type")
    assert_clear_error(random_vector(tmp_path / "vector.gguf", layers=[1, 2]), "not a LoRA adapter")
    other = write_adapter(tmp_path / "other.gguf", {"blk.0.attn_q.weight.lora_a": (2, 8)},
                          kv={"adapter.type": "prompt"})
    assert_clear_error(other, "adapter.type", "'prompt'")
    untyped = write_adapter(tmp_path / "untyped.gguf", {"blk.0.attn_q.weight.lora_a": (2, 8)}, general_type=None)
    assert_clear_error(untyped, "general.type")


def test_no_broken_or_stray_lora_tensors_are_refused_as_llama_cpp_refuses_them(tmp_path):
    assert_clear_error(write_adapter(tmp_path / "none.gguf", {}), "no .lora_a / .lora_b tensors")
    half = write_adapter(tmp_path / "half.gguf", {"blk.0.attn_q.weight.lora_a": (2, 8)})
    assert_clear_error(half, "blk.0.attn_q.weight", "missing one half")
    stray = write_adapter(tmp_path / "stray.gguf", {"blk.0.attn_q.weight.lora_a": (2, 8),
                                                    "blk.0.attn_q.weight.lora_b": (8, 2), "blk.0.extra": (4,)})
    assert_clear_error(stray, "'blk.0.extra'")
    transposed = write_adapter(tmp_path / "transposed.gguf", {"blk.0.attn_q.weight.lora_a": (8, 2),
                                                              "blk.0.attn_q.weight.lora_b": (8, 2)})
    assert_clear_error(transposed, "rank")


# -- what was written reads back -----------------------------------------------------------------------

def test_the_metadata_is_what_was_written(tmp_path):
    targets = (("attn_q", DEMO_N_EMBD, DEMO_N_EMBD), ("attn_v", DEMO_N_EMBD, 192))
    path = lora_adapter(tmp_path / "tune.gguf", seed=3, rank=8, alpha=16.0, targets=targets)
    meta = read_lora_metadata(path)
    assert meta.path == path and meta.alpha == 16.0
    assert meta.ranks == (8,) and meta.rank == 8 and meta.alpha_over_rank == 2.0
    assert meta.targets == ("attn_q", "attn_v") and meta.layers == tuple(range(DEMO_N_LAYER))
    assert meta.n_weights == 2 * DEMO_N_LAYER and meta.n_tensors == 4 * DEMO_N_LAYER
    assert meta.n_params == DEMO_N_LAYER * 8 * (DEMO_N_EMBD + DEMO_N_EMBD + DEMO_N_EMBD + 192)
    assert meta.architecture == "llama"
    assert compact_ranges(meta.layers) == f"0\u2013{DEMO_N_LAYER - 1}"


def test_mixed_ranks_some_layers_no_alpha_and_the_base_models_name(tmp_path):
    path = write_adapter(tmp_path / "mixed.gguf", {
        "blk.2.attn_q.weight.lora_a": (4, 16), "blk.2.attn_q.weight.lora_b": (16, 4),
        "blk.3.ffn_down.weight.lora_a": (2, 32), "blk.3.ffn_down.weight.lora_b": (16, 2),
        "blk.7.attn_q.weight.lora_a": (4, 16), "blk.7.attn_q.weight.lora_b": (16, 4),
        "output.weight.lora_a": (4, 16), "output.weight.lora_b": (100, 4),
        "blk.2.attn_norm.weight": (16,),                                  # skipped, as llama.cpp does
    }, kv={"general.basename": "SmolLM2"}, alpha=None, arch="qwen3")
    meta = read_lora_metadata(path)
    assert meta.alpha is None and meta.ranks == (2, 4) and meta.rank is None
    assert meta.alpha_over_rank == 1.0   # no alpha: llama.cpp applies the scale as it is
    assert meta.targets == ("attn_q", "ffn_down", "output") and meta.layers == (2, 3, 7)
    assert meta.n_weights == 4 and meta.n_tensors == 8
    assert meta.n_params == 2 * (4 * 16 + 16 * 4) + 2 * 32 + 16 * 2 + 4 * 16 + 100 * 4
    assert (meta.architecture, meta.name) == ("qwen3", "SmolLM2")


def test_layer_ranges_are_compact():
    assert compact_ranges([]) == ""
    assert compact_ranges([5]) == "5"
    assert compact_ranges([9, 0, 1, 2, 3, 5, 7, 8, 3]) == "0\u20133, 5, 7\u20139"
