"""Downloads from the fake Hub: verification, resume after a drop or a cancel, bad hashes, gated repositories."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from logitscope.base.errors import DownloadCancelledError, DownloadError, HubError
from logitscope.base.paths import models_dir
from logitscope.library.catalog import list_local_models
from logitscope.library.demo import DEMO_FILE_NAME, DEMO_SHA256, DEMO_SIZE, sha256_of
from logitscope.library.discovery import default_roots
from logitscope.library.download import CHUNK, Progress, pull_model
from logitscope.library.filenames import partial_paths
from logitscope.library.hub_token import set_token
from logitscope.system.machine import MachineMemory
from tests.helpers.fake_hub import GATED_TOKEN, closed_port_endpoint

DEMO_REPO = "test-org/SmolLM2-Demo-GGUF"


def leftovers() -> list[Path]:
    return [p for p in models_dir().rglob("*") if p.name.endswith((".part", ".part.json"))]


def test_pull_lands_verified_in_the_models_folder(hub, gguf_files):
    events: list[Progress] = []
    result = pull_model("test-org/Tiny-GGUF", "tiny-Q4_K_M.gguf", progress=events.append)
    assert result.path == models_dir() / "test-org" / "Tiny-GGUF" / "tiny-Q4_K_M.gguf"
    assert result.path.read_bytes() == gguf_files["tiny-q4"].read_bytes()
    assert result.verified and result.downloaded_bytes == result.size_bytes and result.resumed_bytes == 0
    assert events[-1].done_bytes == events[-1].total_bytes == result.size_bytes and events[-1].eta_s == 0
    assert leftovers() == []
    head = hub.seen("HEAD", "hub")[0]
    assert head.status == 302 and f"/resolve/{hub.repos['test-org/Tiny-GGUF'].commit}/" in head.path

    gets = len(hub.seen("GET", "cdn"))
    again = pull_model("test-org/Tiny-GGUF", "tiny-Q4_K_M.gguf")
    assert again.downloaded_bytes == 0 and again.verified and len(hub.seen("GET", "cdn")) == gets
    [entry] = list_local_models(default_roots(home=Path("/nonexistent")), machine=MachineMemory(1 << 34, 1 << 33))
    assert entry.name == "test-org/Tiny-GGUF/tiny-Q4_K_M.gguf" and entry.removable and entry.card.n_layer == 2


def test_a_dropped_connection_is_resumed_with_range(hub):
    demo = hub.file(DEMO_REPO, DEMO_FILE_NAME)
    demo.drops, demo.drop_after = 1, 30_000_000
    events: list[Progress] = []
    result = pull_model(DEMO_REPO, DEMO_FILE_NAME, progress=events.append)
    gets = hub.seen("GET", "cdn")
    assert len(gets) == 2 and "range" not in gets[0].headers
    resumed_at = int(gets[1].headers["range"].removeprefix("bytes=").rstrip("-"))
    assert 30_000_000 - CHUNK <= resumed_at <= 30_000_000 and gets[1].status == 206
    assert result.verified and result.size_bytes == DEMO_SIZE and sha256_of(result.path) == DEMO_SHA256
    assert max(e.speed_bps for e in events) > 0 and events[-1].done_bytes == DEMO_SIZE


def test_an_interrupted_pull_resumes_on_the_next_one(hub):
    demo = hub.file(DEMO_REPO, DEMO_FILE_NAME)
    demo.drops, demo.drop_after = 1, 40_000_000
    with pytest.raises(DownloadError, match="connection was lost after .* pulling it again resumes it"):
        pull_model(DEMO_REPO, DEMO_FILE_NAME, max_retries=0)
    part, state = partial_paths(models_dir() / DEMO_REPO / DEMO_FILE_NAME)
    kept = part.stat().st_size
    assert 40_000_000 - CHUNK <= kept <= 40_000_000 and json.loads(state.read_text())["sha256"] == DEMO_SHA256
    assert not (models_dir() / DEMO_REPO / DEMO_FILE_NAME).exists()

    result = pull_model(DEMO_REPO, DEMO_FILE_NAME, max_retries=0)
    assert hub.seen("GET", "cdn")[-1].headers["range"] == f"bytes={kept}-"
    assert result.resumed_bytes == kept and result.downloaded_bytes == DEMO_SIZE - kept and result.verified
    assert sha256_of(result.path) == DEMO_SHA256 and leftovers() == []


def test_cancel_from_another_thread_keeps_the_partial_file(hub, gguf_files):
    medium = hub.file("test-org/Medium-GGUF", "medium-F32.gguf")
    medium.pause_at = 3 * CHUNK + 123
    cancel = threading.Event()
    outcome: list[BaseException] = []

    def pull() -> None:
        try:
            pull_model("test-org/Medium-GGUF", "medium-F32.gguf", cancel=cancel)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=pull)
    worker.start()
    assert hub.pausing.wait(10)   # the transfer is under way (and stalled)
    with pytest.raises(DownloadError, match="medium-F32.gguf is already being downloaded"):
        pull_model("test-org/Medium-GGUF", "medium-F32.gguf")
    cancel.set()
    hub.release()
    worker.join(20)
    assert not worker.is_alive() and len(outcome) == 1 and isinstance(outcome[0], DownloadCancelledError)
    assert "pulling it again resumes it" in str(outcome[0])
    part, state = partial_paths(models_dir() / "test-org" / "Medium-GGUF" / "medium-F32.gguf")
    kept = part.stat().st_size
    assert CHUNK <= kept < medium.size and state.exists()

    result = pull_model("test-org/Medium-GGUF", "medium-F32.gguf")
    assert hub.seen("GET", "cdn")[-1].headers["range"] == f"bytes={kept}-"
    assert result.resumed_bytes == kept and result.verified
    assert result.path.read_bytes() == gguf_files["medium"].read_bytes()


def test_a_partial_file_of_another_version_is_discarded(hub, gguf_files):
    dest = models_dir() / "test-org" / "Tiny-GGUF" / "tiny-Q8_0.gguf"
    part, state = partial_paths(dest)
    dest.parent.mkdir(parents=True)
    part.write_bytes(b"x" * 1000)
    state.write_text(json.dumps({"etag": "an-older-version", "size": 1000, "sha256": None}))
    result = pull_model("test-org/Tiny-GGUF", "tiny-Q8_0.gguf")
    assert "range" not in hub.seen("GET", "cdn")[-1].headers and result.resumed_bytes == 0
    assert result.path.read_bytes() == gguf_files["tiny-q8"].read_bytes()


def test_a_corrupt_partial_file_fails_verification_and_is_deleted(hub, gguf_files):
    first = pull_model("test-org/Tiny-GGUF", "tiny-Q8_0.gguf")     # learn the state a real pull writes
    data = first.path.read_bytes()
    part, state = partial_paths(first.path)
    sha = sha256_of(first.path)
    first.path.unlink()
    part.write_bytes(b"\0" * 1000)                                   # same version, damaged bytes
    state.write_text(json.dumps({"etag": sha, "size": len(data), "sha256": sha}))
    with pytest.raises(DownloadError, match="failed its SHA-256 check .* the download was deleted"):
        pull_model("test-org/Tiny-GGUF", "tiny-Q8_0.gguf")
    assert hub.seen("GET", "cdn")[-1].headers["range"] == "bytes=1000-"
    assert leftovers() == [] and not first.path.exists()
    assert pull_model("test-org/Tiny-GGUF", "tiny-Q8_0.gguf").path.read_bytes() == data


def test_a_server_that_ignores_range_gets_a_fresh_start(hub, gguf_files):
    hub.file("test-org/Tiny-GGUF", "tiny-Q8_0.gguf").ignore_range = True
    data = gguf_files["tiny-q8"].read_bytes()
    dest = models_dir() / "test-org" / "Tiny-GGUF" / "tiny-Q8_0.gguf"
    part, state = partial_paths(dest)
    dest.parent.mkdir(parents=True)
    part.write_bytes(data[:1000])
    sha = sha256_of(gguf_files["tiny-q8"])
    state.write_text(json.dumps({"etag": sha, "size": len(data), "sha256": sha}))
    result = pull_model("test-org/Tiny-GGUF", "tiny-Q8_0.gguf")
    assert hub.seen("GET", "cdn")[-1].status == 200 and result.verified and result.path.read_bytes() == data


def test_a_wrong_hash_deletes_the_download(hub):
    with pytest.raises(DownloadError, match=r"failed its SHA-256 check \(the Hub says 000000000000"):
        pull_model("test-org/BadHash-GGUF", "tiny-Q4_K_M.gguf")
    assert list(models_dir().rglob("*.gguf*")) == []


def test_a_gated_repository_needs_a_token(hub):
    with pytest.raises(HubError, match="test-org/Gated-GGUF is gated: accept its licence on .* and set a token"):
        pull_model("test-org/Gated-GGUF", "tiny-Q4_K_M.gguf")
    assert hub.seen("HEAD", "hub")[-1].status == 401
    set_token("hf_someone_elses_token")
    with pytest.raises(HubError, match="is gated and your token has no access to it yet: accept its licence"):
        pull_model("test-org/Gated-GGUF", "tiny-Q4_K_M.gguf")
    assert hub.seen("HEAD", "hub")[-1].status == 403
    set_token(GATED_TOKEN)
    assert pull_model("test-org/Gated-GGUF", "tiny-Q4_K_M.gguf").verified
    assert hub.seen("HEAD", "hub")[-1].headers["authorization"] == f"Bearer {GATED_TOKEN}"
    assert "authorization" not in hub.seen("GET", "cdn")[-1].headers   # never sent to another origin


@pytest.mark.parametrize(("repo", "name", "message"), [
    ("test-org/Forbidden-GGUF", "tiny-Q4_K_M.gguf", r"403 Forbidden"),
    ("test-org/Broken-GGUF", "tiny-Q4_K_M.gguf", r"server error \(500\)"),
    ("test-org/Tiny-GGUF", "tiny-Q2_K.gguf", "test-org/Tiny-GGUF has no GGUF file named tiny-Q2_K.gguf"),
    ("test-org/Tiny-GGUF", "README.md", "has no GGUF file named README.md"),
    ("test-org/Nope", "x.gguf", "repository test-org/Nope was not found"),
])
def test_hub_errors_on_pull(hub, repo, name, message):
    with pytest.raises(HubError, match=message):
        pull_model(repo, name)
    assert list(models_dir().rglob("*")) == []


def test_unreachable_hub_on_pull(sealed):
    with pytest.raises(HubError, match="cannot reach the Hugging Face Hub"):
        pull_model("test-org/Tiny-GGUF", "tiny-Q4_K_M.gguf", endpoint=closed_port_endpoint())


def test_a_split_model_is_pulled_as_a_set(hub, gguf_files):
    events: list[Progress] = []
    result = pull_model("test-org/Split-GGUF", "big-Q8_0-00002-of-00003.gguf", progress=events.append)
    folder = models_dir() / "test-org" / "Split-GGUF" / "Q8_0"
    assert result.paths == [folder / f"big-Q8_0-0000{i}-of-00003.gguf" for i in (1, 2, 3)] and result.verified
    assert [p.read_bytes() for p in result.paths] == [gguf_files[f"split-{i}"].read_bytes() for i in (1, 2, 3)]
    assert events[-1].done_bytes == events[-1].total_bytes == result.size_bytes
    [entry] = list_local_models(default_roots(home=Path("/nonexistent")), machine=MachineMemory(1 << 34, 1 << 33))
    assert entry.path == str(result.path) and len(entry.parts) == 3 and entry.card.n_params == 576
