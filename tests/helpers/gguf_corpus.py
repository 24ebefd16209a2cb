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


HEADER_BYTES = 16 << 20  # more than any header here (metadata + tensor descriptions: demo ~1.8 MB, Gemma 3 ~6 MB)


def header_copy(model: Path, dest: Path, size: int | None = None) -> Path:
    """The model's first 16 MiB (its whole header and some tensor data), then zeros up to `size` bytes
    (default: its own size). The zeros are a hole in a sparse file: a full-size copy costs 16 MiB."""
    with model.open("rb") as src:
        head = src.read(HEADER_BYTES)
    with dest.open("wb") as out:
        out.write(head)
        out.truncate(model.stat().st_size if size is None else size)
    return dest


def patch_uint32(path: Path, key: str, value: int) -> Path:
    """Overwrite one uint32 metadata value in place (same size, offsets intact)."""
    with path.open("r+b") as fh:
        data = fh.read(HEADER_BYTES)
        k = key.encode()
        at = data.find(struct.pack("<Q", len(k)) + k)
        assert at > 0, key
        value_at = at + 8 + len(k) + 4
        assert struct.unpack_from("<I", data, value_at - 4)[0] == 4  # uint32
        fh.seek(value_at)
        fh.write(struct.pack("<I", value))
    return path


def move_tensor_data(path: Path, index: int, by: int) -> Path:
    """Add `by` to the data offset of the index-th tensor in the header (its data stays where it was)."""
    from logitscope.gguf.header import read_header

    t = read_header(path).tensors[index]
    with path.open("r+b") as fh:
        data = fh.read(HEADER_BYTES)
        name = t.name.encode()
        at = data.find(struct.pack("<Q", len(name)) + name)
        assert at > 0, t.name
        offset_at = at + 8 + len(name) + 4 + 8 * len(t.shape) + 4  # name, n_dims, dims, type, then offset
        assert struct.unpack_from("<Q", data, offset_at)[0] == t.offset
        fh.seek(offset_at)
        fh.write(struct.pack("<Q", t.offset + by))
    return path


def with_metadata_patched(demo: Path, dest: Path, key: str, value: int) -> Path:
    """The demo model with one uint32 metadata value overwritten in place (same size, offsets intact)."""
    return patch_uint32(header_copy(demo, dest), key, value)


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
    # Damaged files whose header reads fine: each is the demo model's header with one thing made inconsistent.
    files["truncated-99-percent"] = (header_copy(demo, folder / "truncated-99-percent.gguf",
                                                 demo.stat().st_size * 99 // 100), "past the end of the file")
    files["block-count-100000"] = (with_metadata_patched(demo, folder / "block-count-100000.gguf",
                                                         "llama.block_count", 100_000), "block_count is 100000")
    files["zero-kv-heads"] = (with_metadata_patched(demo, folder / "zero-kv-heads.gguf",
                                                    "llama.attention.head_count_kv", 0), "head_count_kv is 0")
    files["embedding-length-7"] = (with_metadata_patched(demo, folder / "embedding-length-7.gguf",
                                                         "llama.embedding_length", 7), "embedding_length is 7")
    return files


DAMAGED = ("truncated-99-percent", "block-count-100000", "zero-kv-heads", "embedding-length-7")
