"""Seeded steering files for the demo model, made with the `gguf` package: control vectors and a small low-rank
LoRA adapter in llama.cpp's layout (convert_lora_to_gguf.py): `general.type = adapter`, `adapter.type = lora`,
`adapter.lora.alpha`, and per adapted weight `<name>.lora_a` (numpy [rank, n_in], ggml ne [n_in, rank]) and
`<name>.lora_b` (numpy [n_out, rank]), F32."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gguf import GGUFWriter

from logitscope.gguf.control_vector import write_control_vector

DEMO_N_EMBD = 576
DEMO_N_LAYER = 30
DEMO_ARCH = "llama"


def random_vector(path: Path, layers: range = range(1, DEMO_N_LAYER), seed: int = 0,
                  n_embd: int = DEMO_N_EMBD) -> Path:
    """Unit-length random directions for `layers` (llama-cvector-generator's --method mean normalises too)."""
    rng = np.random.default_rng(seed)
    directions = {}
    for layer in layers:
        v = rng.standard_normal(n_embd).astype(np.float32)
        directions[layer] = v / np.linalg.norm(v)
    return write_control_vector(path, directions, DEMO_ARCH)


def lora_adapter(path: Path, seed: int = 0, rank: int = 4, alpha: float = 4.0, std: float = 0.1,
                 n_embd: int = DEMO_N_EMBD, arch: str = DEMO_ARCH, n_layer: int = DEMO_N_LAYER) -> Path:
    """A seeded rank-`rank` adapter of every layer's attn_q (n_embd x n_embd in SmolLM2-135M). `n_embd`
    other than the demo model's makes an adapter for another base model."""
    rng = np.random.default_rng(seed)
    w = GGUFWriter(str(path), arch)
    w.add_type("adapter")
    w.add_string("adapter.type", "lora")
    w.add_float32("adapter.lora.alpha", alpha)
    for layer in range(n_layer):
        name = f"blk.{layer}.attn_q.weight"
        w.add_tensor(f"{name}.lora_a", (rng.standard_normal((rank, n_embd)) * std).astype(np.float32))
        w.add_tensor(f"{name}.lora_b", (rng.standard_normal((n_embd, rank)) * std).astype(np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path
