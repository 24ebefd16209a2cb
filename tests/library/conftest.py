"""Fixtures for the model library: a sealed home (no real models, caches or tokens) and the fake Hub."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import huggingface_hub.constants
import pytest

from logitscope.library.demo import DEMO_FILE_NAME, DEMO_SHA256
from tests.library.fake_hub import FakeFile, FakeHub
from tests.library.ggufs import split_gguf, tiny_gguf

GATED_TOKEN = "hf_fake_gated_access_token_123"
MEDIUM_FLOATS = 2_000_000  # an 8 MB GGUF: several 1 MiB chunks, for cancel and resume


@pytest.fixture
def sealed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """LOGITSCOPE_HOME, HF cache and HOME all in tmp; the keyring and any Hugging Face login unused."""
    monkeypatch.setenv("LOGITSCOPE_HOME", str(tmp_path / "logitscope"))
    monkeypatch.setenv("LOGITSCOPE_NO_KEYRING", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    # huggingface_hub reads its own login token from this path (resolved at import): point it at nothing.
    monkeypatch.setattr(huggingface_hub.constants, "HF_TOKEN_PATH", str(tmp_path / "no-hf-token"))
    (tmp_path / "user").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "user"))  # no real LM Studio / Ollama / HF cache
    return tmp_path


@pytest.fixture(scope="session")
def gguf_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ggufs")
    files = {
        "tiny-q4": tiny_gguf(folder / "tiny-Q4_K_M.gguf", seed=1),
        "tiny-q8": tiny_gguf(folder / "tiny-Q8_0.gguf", n_layer=3, seed=2),
        "medium": tiny_gguf(folder / "medium-F32.gguf", extra_floats=MEDIUM_FLOATS, seed=3),
    }
    for i, part in enumerate(split_gguf(folder / "big-Q8_0.gguf"), 1):
        files[f"split-{i}"] = part
    return files


@pytest.fixture
def hub(sealed: Path, demo_model: Path, gguf_files: dict[str, Path],
        monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    """The fake Hub, started, with HF_ENDPOINT pointing at it (read by logitscope at call time)."""
    fake = FakeHub()
    fake.add_repo("test-org/Tiny-GGUF", [
        FakeFile.of("tiny-Q4_K_M.gguf", gguf_files["tiny-q4"]),
        FakeFile.of("tiny-Q8_0.gguf", gguf_files["tiny-q8"]),
        FakeFile.of("README.md", b"# Tiny\n", lfs=False),
    ], downloads=500, likes=10, last_modified="2024-03-01T00:00:00.000Z")
    fake.add_repo("test-org/SmolLM2-Demo-GGUF", [FakeFile.of(DEMO_FILE_NAME, demo_model, sha256=DEMO_SHA256)],
                  downloads=9000, likes=3, last_modified="2024-01-01T00:00:00.000Z")
    fake.add_repo("test-org/Split-GGUF", [
        FakeFile.of(f"Q8_0/{gguf_files[f'split-{i}'].name}", gguf_files[f"split-{i}"]) for i in (1, 2, 3)
    ] + [FakeFile.of("big-F32.gguf", gguf_files["tiny-q8"])],
        downloads=50, likes=70, last_modified="2024-09-01T00:00:00.000Z")
    fake.add_repo("test-org/Medium-GGUF", [FakeFile.of("medium-F32.gguf", gguf_files["medium"])], downloads=5)
    fake.add_repo("test-org/Gated-GGUF", [FakeFile.of("tiny-Q4_K_M.gguf", gguf_files["tiny-q4"])],
                  gated=True, token=GATED_TOKEN, downloads=40)
    fake.add_repo("test-org/BadHash-GGUF", [FakeFile.of("tiny-Q4_K_M.gguf", gguf_files["tiny-q4"])], downloads=1)
    fake.file("test-org/BadHash-GGUF", "tiny-Q4_K_M.gguf").claimed_sha256 = "0" * 64
    fake.add_repo("test-org/Forbidden-GGUF", [FakeFile.of("tiny-Q4_K_M.gguf", gguf_files["tiny-q4"])],
                  fault_status=403)
    fake.add_repo("test-org/Broken-GGUF", [FakeFile.of("tiny-Q4_K_M.gguf", gguf_files["tiny-q4"])],
                  fault_status=500)
    fake.add_repo("test-org/Plain-Model", [FakeFile.of("model.safetensors", b"\0" * 64)], downloads=10**6)
    with fake:
        monkeypatch.setenv("HF_ENDPOINT", fake.endpoint)
        yield fake
