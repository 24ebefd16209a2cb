"""Seeded steering files, made with the `gguf` package: control vectors and small low-rank LoRA adapters in
llama.cpp's layout (convert_lora_to_gguf.py): `general.type = adapter`, `adapter.type = lora`,
`adapter.lora.alpha`, and per adapted weight `<name>.lora_a` (numpy [rank, n_in], ggml ne [n_in, rank]) and
`<name>.lora_b` (numpy [n_out, rank]), F32.

`bench --steering` makes them for the model it measures when no file is given (`vector_for`, `lora_for`: sizes
read from the model's header); the tests make them for the demo model (`random_vector`, `lora_adapter`, whose
defaults are SmolLM2-135M's sizes). One seed gives the same file every time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from gguf import GGUFWriter

from logitscope.base.errors import InvalidSettingsError
from logitscope.gguf.card import read_model_card
from logitscope.gguf.control_vector import write_control_vector
from logitscope.gguf.header import read_header

DEMO_N_EMBD = 576
DEMO_N_LAYER = 30
DEMO_ARCH = "llama"


def random_vector(path: Path, layers: Iterable[int] = range(1, DEMO_N_LAYER), seed: int = 0,
                  n_embd: int = DEMO_N_EMBD, arch: str = DEMO_ARCH) -> Path:
    """Unit-length random directions for `layers` (llama-cvector-generator's --method mean normalises too)."""
    rng = np.random.default_rng(seed)
    directions = {}
    for layer in layers:
        v = rng.standard_normal(n_embd).astype(np.float32)
        directions[layer] = v / np.linalg.norm(v)
    return write_control_vector(path, directions, arch)


def lora_adapter(path: Path, seed: int = 0, rank: int = 4, alpha: float = 4.0, std: float = 0.1,
                 n_embd: int = DEMO_N_EMBD, arch: str = DEMO_ARCH, n_layer: int = DEMO_N_LAYER,
                 targets: Sequence[tuple[str, int, int]] | None = None) -> Path:
    """A seeded rank-`rank` adapter of every layer's weights in `targets`: (name, n_in, n_out) each, by default
    attn_q alone, n_embd x n_embd (SmolLM2-135M's). `n_embd` other than the demo model's makes an adapter for
    another base model. The values are drawn layer by layer, target by target, A before B."""
    rng = np.random.default_rng(seed)
    w = GGUFWriter(str(path), arch)
    w.add_type("adapter")
    w.add_string("adapter.type", "lora")
    w.add_float32("adapter.lora.alpha", alpha)
    for layer in range(n_layer):
        for target, n_in, n_out in targets or (("attn_q", n_embd, n_embd),):
            name = f"blk.{layer}.{target}.weight"
            w.add_tensor(f"{name}.lora_a", (rng.standard_normal((rank, n_in)) * std).astype(np.float32))
            w.add_tensor(f"{name}.lora_b", (rng.standard_normal((n_out, rank)) * std).astype(np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def vector_for(model: Path, path: Path, seed: int = 0) -> Path:
    """A seeded unit control vector for every layer llama.cpp can steer in `model` (1 .. n_layer - 1, as
    llama-cvector-generator writes them)."""
    card = read_model_card(model)
    return random_vector(path, range(1, card.n_layer), seed, card.n_embd, card.architecture)


def lora_for(model: Path, path: Path, seed: int = 0, rank: int = 8, targets: Sequence[str] = ("attn_q", "attn_v"),
             alpha: float | None = None, std: float = 0.1) -> Path:
    """A seeded rank-`rank` adapter of `targets` in every layer of `model`, each weight's shape read from the
    model's header (ggml's ne: [n_in, n_out]). alpha defaults to the rank (the adapter's scale is then 1)."""
    card = read_model_card(model)
    shapes = {t.name: t.shape for t in read_header(model).tensors}
    found = []
    for target in targets:
        shape = shapes.get(f"blk.0.{target}.weight")
        if shape is None or len(shape) != 2:
            raise InvalidSettingsError("{model} has no 2-D {target} weight in its first layer to adapt",
                                       model=str(model), target=target)
        found.append((target, int(shape[0]), int(shape[1])))
    return lora_adapter(path, seed, rank, float(rank) if alpha is None else alpha, std, card.n_embd,
                        card.architecture, card.n_layer, found)
