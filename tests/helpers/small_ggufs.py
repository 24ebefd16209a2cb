"""Small, valid GGUF files made with gguf.GGUFWriter: single files, split ones, and a few MiB big ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gguf import GGUFWriter

N_EMBD = 16


def _describe(w: GGUFWriter, n_layer: int, name: str) -> None:
    w.add_name(name)
    w.add_block_count(n_layer)
    w.add_context_length(2048)
    w.add_embedding_length(N_EMBD)
    w.add_feed_forward_length(32)
    w.add_head_count(4)
    w.add_head_count_kv(2)
    w.add_file_type(0)  # ALL_F32
    w.add_tokenizer_model("gpt2")
    w.add_token_list([b"a", b"b", b"c", b"d"])
    w.add_token_types([1, 1, 1, 1])
    w.add_chat_template("{% for m in messages %}{{ m['content'] }}{% endfor %}")


def _write(w: GGUFWriter) -> None:
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def tiny_gguf(path: Path, n_layer: int = 2, extra_floats: int = 0, seed: int = 0) -> Path:
    """A well-formed llama-like GGUF of a few KiB (plus `extra_floats` float32 values of payload)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    w = GGUFWriter(str(path), "llama")
    _describe(w, n_layer, path.stem)
    rng = np.random.default_rng(seed)
    w.add_tensor("token_embd.weight", rng.standard_normal((4, N_EMBD), dtype=np.float32))
    for i in range(n_layer):
        w.add_tensor(f"blk.{i}.attn_q.weight", rng.standard_normal((N_EMBD, N_EMBD), dtype=np.float32))
    if extra_floats:
        w.add_tensor("output.weight", rng.standard_normal((extra_floats // N_EMBD, N_EMBD), dtype=np.float32))
    _write(w)
    return path


def split_gguf(path: Path, n_parts: int = 3) -> list[Path]:
    """A model split into `n_parts` files named `<stem>-0000i-of-0000n.gguf` (one tensor per part)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    w = GGUFWriter(str(path), "llama", split_max_tensors=1)
    _describe(w, n_parts - 1, path.stem)
    rng = np.random.default_rng(1)
    w.add_tensor("token_embd.weight", rng.standard_normal((4, N_EMBD), dtype=np.float32))
    for i in range(n_parts - 1):
        w.add_tensor(f"blk.{i}.attn_q.weight", rng.standard_normal((N_EMBD, N_EMBD), dtype=np.float32))
    _write(w)
    return [path.with_name(f"{path.stem}-{i:05d}-of-{n_parts:05d}.gguf") for i in range(1, n_parts + 1)]
