"""Search and file listing through the real huggingface_hub client, against the fake Hub on 127.0.0.1."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from urllib.parse import parse_qs, urlsplit

import huggingface_hub.constants
import pytest

from logitscope.base.errors import HubError, LogitscopeError
from logitscope.library import hub as hub_module
from logitscope.library.hub import list_repo_ggufs, search_models
from logitscope.system.machine import MachineMemory
from tests.helpers.fake_hub import closed_port_endpoint

GIB = 1 << 30
MACHINE = MachineMemory(16 * GIB, 8 * GIB)


def test_search_sorts_and_filters_gguf_repositories(hub):
    ids = [r.repo_id for r in search_models("", "downloads")]
    assert ids == ["test-org/SmolLM2-Demo-GGUF", "test-org/Tiny-GGUF", "test-org/Split-GGUF", "test-org/Gated-GGUF",
                   "test-org/Medium-GGUF", "test-org/BadHash-GGUF"]            # Plain-Model has no GGUF
    assert [r.repo_id for r in search_models("", "likes")][:3] == [
        "test-org/Split-GGUF", "test-org/Tiny-GGUF", "test-org/SmolLM2-Demo-GGUF"]
    recent = search_models("", "recent")
    assert recent[0].repo_id == "test-org/Split-GGUF" and recent[-1].repo_id == "test-org/SmolLM2-Demo-GGUF"
    assert recent[0].last_modified.startswith("2024-09-01")
    query = parse_qs(urlsplit(hub.seen("GET", "hub", "/api/models")[-1].path).query)
    assert query["filter"] == ["gguf"] and query["sort"] == ["lastModified"]


def test_search_text_limit_and_details(hub):
    found = search_models("TINY", "downloads")
    assert [(r.repo_id, r.downloads, r.likes, r.gated) for r in found] == [("test-org/Tiny-GGUF", 500, 10, False)]
    assert len(search_models("gguf", "downloads", limit=2)) == 2
    assert [r.gated for r in search_models("gated")] == [True]
    assert search_models("no such thing") == []
    with pytest.raises(HubError, match="unknown sort"):
        search_models("x", "stars")


def test_files_with_quantization_size_and_fit(hub, gguf_files):
    listing = list_repo_ggufs("test-org/Tiny-GGUF", machine=MACHINE)
    assert listing.commit == hub.repos["test-org/Tiny-GGUF"].commit and not listing.gated
    assert [(m.name, m.quant, m.size_bytes) for m in listing.models] == [
        ("tiny-Q4_K_M.gguf", "Q4_K_M", gguf_files["tiny-q4"].stat().st_size),
        ("tiny-Q8_0.gguf", "Q8_0", gguf_files["tiny-q8"].stat().st_size)]         # README.md is not a model
    assert all(m.fit.verdict == "fits" and not m.fit.need.exact for m in listing.models)
    big = MachineMemory(GIB // 8, GIB // 16)
    assert list_repo_ggufs("test-org/SmolLM2-Demo-GGUF", machine=big).models[0].fit.verdict == "does not fit"


def test_a_split_model_is_one_entry(hub, gguf_files):
    listing = list_repo_ggufs("test-org/Split-GGUF", machine=MACHINE)
    split = next(m for m in listing.models if len(m.parts) > 1)
    assert split.name == "Q8_0/big-Q8_0-00001-of-00003.gguf" and split.quant == "Q8_0"
    assert split.parts == [f"Q8_0/big-Q8_0-0000{i}-of-00003.gguf" for i in (1, 2, 3)] and split.missing_parts == []
    assert split.size_bytes == sum(gguf_files[f"split-{i}"].stat().st_size for i in (1, 2, 3))
    data = json.loads(json.dumps(listing.to_dict()))
    assert all(isinstance(m["size_bytes"], int) for m in data["models"]) and len(data["models"]) == 2


def test_gated_repositories_are_listed_but_flagged(hub):
    listing = list_repo_ggufs("test-org/Gated-GGUF", machine=MACHINE)
    assert listing.gated and [m.name for m in listing.models] == ["tiny-Q4_K_M.gguf"]


@pytest.mark.parametrize(("repo", "message"), [
    ("test-org/Nope-GGUF", "repository test-org/Nope-GGUF was not found on the Hub"),
    ("test-org/Broken-GGUF", r"server error \(500\); try again later"),
    ("test-org/Forbidden-GGUF", r"refused access to test-org/Forbidden-GGUF \(403 Forbidden\)"),
    ("not a repo id!", "not a valid repository id"),
])
def test_hub_failures_are_one_clear_sentence(hub, repo, message):
    with pytest.raises(HubError, match=message) as info:
        list_repo_ggufs(repo, machine=MACHINE)
    assert "\n" not in str(info.value) and isinstance(info.value, LogitscopeError)


def test_unreachable_hub(sealed):
    endpoint = closed_port_endpoint()
    with pytest.raises(HubError, match=f"cannot reach the Hugging Face Hub at {endpoint}"):
        list_repo_ggufs("test-org/Tiny-GGUF", machine=MACHINE, endpoint=endpoint)


def test_an_unreachable_hub_fails_a_search_at_once_without_retry_lines(sealed, capfd, caplog):
    """huggingface_hub's list_models retried 5 times over 23.6 s, logging each retry: one try, one error."""
    endpoint = closed_port_endpoint()
    t0 = time.monotonic()
    with pytest.raises(HubError, match=f"cannot reach the Hugging Face Hub at {endpoint}"):
        search_models("qwen", endpoint=endpoint)
    assert time.monotonic() - t0 < 3
    assert "Retry" not in capfd.readouterr().err and not [r for r in caplog.records if "Retry" in r.getMessage()]


@pytest.mark.parametrize("body", [{"error": "x"}, [{"id": 5}], ["x"], [{"id": "a/b", "lastModified": "yesterday"}],
                                  [{"id": "a/b", "downloads": "many"}]])
def test_a_model_list_that_is_not_one_is_a_clear_error(hub, body):
    hub.search_body = body
    with pytest.raises(HubError, match="sent an unreadable model list"):
        search_models("tiny")


def test_a_silent_hub_times_out_a_search(sealed, monkeypatch):
    monkeypatch.setattr(hub_module, "API_TIMEOUT_S", 0.5)
    with socket.socket() as silent:  # accepts connections (the backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        endpoint = f"http://127.0.0.1:{silent.getsockname()[1]}"
        t0 = time.monotonic()
        with pytest.raises(HubError, match=f"the Hugging Face Hub at {endpoint} did not answer in time"):
            search_models("qwen", endpoint=endpoint)
        assert time.monotonic() - t0 < 5


def test_the_cli_says_one_line_when_the_hub_is_unreachable(sealed):
    env = os.environ | {"HF_ENDPOINT": closed_port_endpoint()}
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "logitscope", "models", "search", "qwen"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert time.monotonic() - t0 < 15  # the interpreter's start included, on a busy machine
    assert proc.returncode == 2 and proc.stderr.splitlines() == [
        f"error: cannot reach the Hugging Face Hub at {env['HF_ENDPOINT']}: check the internet connection (offline?)"]


def test_offline_mode(hub, monkeypatch):
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(HubError, match="HF_HUB_OFFLINE is set"):
        list_repo_ggufs("test-org/Tiny-GGUF", machine=MACHINE)
    with pytest.raises(HubError, match="HF_HUB_OFFLINE is set"):
        search_models("tiny")
    assert hub.requests == []


def test_only_known_endpoints_were_called(hub):
    search_models("tiny")
    list_repo_ggufs("test-org/Split-GGUF", machine=MACHINE)
    assert hub.requests and hub.unhandled() == []
