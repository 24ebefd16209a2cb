"""Importance matrices for the quantize tests, made without llama-imatrix: seeded values in llama-imatrix's GGUF
format (`NAME.in_sum2`, `NAME.counts`, the imatrix.* metadata) and in the legacy .dat format, for every 2-D
weight of a model (what llama.cpp looks an imatrix up for). The same seed gives the same bytes."""

from __future__ import annotations

import struct
from pathlib import Path

import gguf
import numpy as np

from logitscope.gguf.header import read_header

DATASET = "logitscope-tests"
CHUNKS, CHUNK_SIZE = 10, 512


def _weights(model: Path) -> list[tuple[str, int]]:
    """(name, columns) of each 2-D weight."""
    return [(t.name, t.shape[0]) for t in read_header(model).tensors
            if len(t.shape) == 2 and t.name.endswith(".weight")]


def _values(columns: int, rng: np.random.Generator) -> np.ndarray:
    return (rng.gamma(2.0, 1.0, size=columns) * CHUNKS * CHUNK_SIZE).astype(np.float32)


def write_gguf_imatrix(model: Path, out: Path, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    writer = gguf.GGUFWriter(str(out), arch="imatrix")
    writer.add_array("imatrix.datasets", [DATASET])
    writer.add_uint32("imatrix.chunk_count", CHUNKS)
    writer.add_uint32("imatrix.chunk_size", CHUNK_SIZE)
    for name, columns in _weights(model):
        writer.add_tensor(f"{name}.in_sum2", _values(columns, rng))
        writer.add_tensor(f"{name}.counts", np.array([CHUNKS * CHUNK_SIZE], dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out


def write_legacy_imatrix(model: Path, out: Path, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    weights = _weights(model)
    parts = [struct.pack("<i", len(weights))]
    for name, columns in weights:
        raw = name.encode()
        parts += [struct.pack("<i", len(raw)), raw, struct.pack("<ii", CHUNKS, columns),
                  (_values(columns, rng) / CHUNK_SIZE).astype("<f4").tobytes()]
    parts += [struct.pack("<i", CHUNKS), struct.pack("<i", len(DATASET)), DATASET.encode()]
    out.write_bytes(b"".join(parts))
    return out
