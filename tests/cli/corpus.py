"""A corpus of bad model files: each one must give exit code 2 and one clear `error:` line."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
from gguf import GGUFWriter


def _header(version: int = 3, n_tensors: int = 0, n_kv: int = 0) -> bytes:
    return b"GGUF" + struct.pack("<IQQ", version, n_tensors, n_kv)


def _kv_string(key: str, value: str) -> bytes:
    k, v = key.encode(), value.encode()
    return struct.pack("<Q", len(k)) + k + struct.pack("<I", 8) + struct.pack("<Q", len(v)) + v


def tiny_gguf(path: Path, arch: str, n_layers: int = 1) -> Path:
    """A small, well-formed GGUF (gguf.GGUFWriter) with a made-up model."""
    w = GGUFWriter(str(path), arch)
    w.add_block_count(n_layers)
    w.add_context_length(64)
    w.add_embedding_length(8)
    w.add_feed_forward_length(16)
    w.add_head_count(2)
    w.add_tokenizer_model("gpt2")
    w.add_token_list([b"a", b"b", b"c", b"d"])
    w.add_token_types([1, 1, 1, 1])
    w.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def with_metadata_patched(demo: Path, dest: Path, key: str, value: int) -> Path:
    """The demo model with one uint32 metadata value overwritten in place (same size, offsets intact)."""
    data = bytearray(demo.read_bytes())
    k = key.encode()
    at = data.find(struct.pack("<Q", len(k)) + k)
    assert at > 0, key
    value_at = at + 8 + len(k) + 4
    assert struct.unpack_from("<I", data, value_at - 4)[0] == 4  # uint32
    struct.pack_into("<I", data, value_at, value)
    dest.write_bytes(bytes(data))
    return dest


def build(folder: Path, demo: Path) -> dict[str, tuple[Path, str]]:
    """name -> (path, a phrase the error must contain)."""
    folder.mkdir(parents=True, exist_ok=True)
    head = demo.read_bytes()[:2_000_000]
    files: dict[str, tuple[Path, str]] = {}

    def put(name: str, data: bytes, phrase: str) -> None:
        path = folder / name
        path.write_bytes(data)
        files[name] = (path, phrase)

    files["missing"] = (folder / "does-not-exist.gguf", "not found")
    (folder / "a-folder.gguf").mkdir(exist_ok=True)
    files["directory"] = (folder / "a-folder.gguf", "folder")
    put("empty.gguf", b"", "empty")
    put("text.gguf", b"hello, I am not a model\n" * 10, "not a GGUF file")
    put("truncated-in-header.gguf", head[:300], "truncated")
    put("truncated-in-tensors.gguf", head, "truncated")
    put("bad-version.gguf", _header(version=99) + b"\0" * 64, "version 99")
    put("absurd-kv-count.gguf", _header(n_kv=1 << 60) + b"\0" * 64, "absurd metadata count")
    put("absurd-tensor-count.gguf", _header(n_tensors=1 << 62) + b"\0" * 64, "absurd tensor count")
    put("absurd-string.gguf", _header(n_kv=1) + struct.pack("<Q", 1 << 62) + b"x" * 64, "claims")
    put("bad-value-type.gguf", _header(n_kv=1) + struct.pack("<Q", 1) + b"k" + struct.pack("<I", 77) + b"\0" * 16,
        "unknown metadata value type")
    put("no-architecture.gguf", _header(n_kv=1) + _kv_string("general.name", "x"), "no general.architecture")
    files["unknown-architecture"] = (tiny_gguf(folder / "unknown-arch.gguf", "frobnicator"), "unknown model architecture")
    files["too-many-layers"] = (with_metadata_patched(demo, folder / "too-many-layers.gguf", "llama.block_count", 4000),
                                "")
    files["absurd-heads"] = (with_metadata_patched(demo, folder / "absurd-heads.gguf", "llama.attention.head_count",
                                                   0), "")
    return files
