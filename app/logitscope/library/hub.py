"""The Hugging Face Hub: search GGUF repositories and list a repository's GGUF models with a fit verdict.

The endpoint is read when a function is called (`HF_ENDPOINT`, else huggingface_hub's default) and passed
explicitly to every client call: huggingface_hub reads HF_ENDPOINT once, at import time, into
`constants.ENDPOINT`, so setting it later would otherwise be ignored.

Every call is one request with a timeout, and fails at once: the search asks `/api/models` itself
rather than through `HfApi.list_models`, whose pager goes through huggingface_hub's `http_backoff`
(an unreachable Hub was retried 5 times over 23.6 s, each retry logged on stderr, and its session
has no timeout at all); the file listing (`model_info`) never retried.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import PurePosixPath
from typing import Any

from huggingface_hub import HfApi, constants
from huggingface_hub.hf_api import ModelInfo
from huggingface_hub.utils import build_hf_headers, get_session, hf_raise_for_status

from logitscope import __version__
from logitscope.base.errors import HubError
from logitscope.library.filenames import group_gguf_files, quant_label
from logitscope.library.fit import DEFAULT_N_CTX, FitVerdict, assess_fit, need_for_download
from logitscope.library.hub_errors import hub_errors
from logitscope.library.hub_token import get_token
from logitscope.system.machine import MachineMemory, probe_machine

SORTS = {"downloads": "downloads", "likes": "likes", "recent": "lastModified"}  # ours -> the Hub's `sort`
SEARCH_EXPAND = ["downloads", "likes", "lastModified", "gated", "tags"]
API_TIMEOUT_S = 20.0


def hub_endpoint(endpoint: str | None = None) -> str:
    return (endpoint or os.environ.get("HF_ENDPOINT") or constants.ENDPOINT).rstrip("/")


def hub_token(token: str | None = None) -> str | None:
    """The token to send: the one given, else ours, else None (huggingface_hub then uses its own login)."""
    return token or get_token()


def hub_api(endpoint: str, token: str | None) -> HfApi:
    return HfApi(endpoint=endpoint, token=token, library_name="logitscope", library_version=__version__)


@dataclass(frozen=True)
class HubRepo:
    repo_id: str
    downloads: int
    likes: int
    last_modified: str | None   # ISO 8601
    gated: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def search_models(query: str, sort: str = "downloads", limit: int = 20, *, endpoint: str | None = None,
                  token: str | None = None) -> list[HubRepo]:
    """GGUF repositories whose id contains `query`, best first by downloads, likes or recency."""
    if sort not in SORTS:
        raise HubError("unknown sort {sort!r}: use one of {SORTS}", sort=sort, SORTS=', '.join(SORTS))
    endpoint = hub_endpoint(endpoint)
    params: dict[str, Any] = {"filter": "gguf", "sort": SORTS[sort], "limit": limit, "expand": SEARCH_EXPAND}
    if query:
        params["search"] = query
    headers = build_hf_headers(token=hub_token(token), library_name="logitscope", library_version=__version__)
    with hub_errors(endpoint):
        response = get_session().get(f"{endpoint}/api/models", params=params, headers=headers,
                                     timeout=API_TIMEOUT_S)  # one page of `limit`: no paging, no retries
        hf_raise_for_status(response)
        found = response.json()
    try:
        return [_hub_repo(entry) for entry in found[:limit]]
    except (TypeError, ValueError, KeyError, AttributeError):  # not a list of models
        raise HubError("the Hugging Face Hub at {endpoint} sent an unreadable model list; try "
                       "again later", endpoint=endpoint) from None


def _hub_repo(entry: dict[str, Any]) -> HubRepo:
    """One model of the search answer, as huggingface_hub reads it; TypeError/ValueError when it is not one."""
    m = ModelInfo(**({"siblings": None} | entry))  # type: ignore[no-untyped-call]  # its __init__(**kwargs) is unannotated
    if not isinstance(m.id, str):
        raise TypeError("a model without an id")
    return HubRepo(m.id, int(m.downloads or 0), int(m.likes or 0),
                   m.last_modified.isoformat() if m.last_modified else None, bool(m.gated))


@dataclass(frozen=True)
class RemoteFile:
    path: str                 # path in the repository
    size: int | None
    sha256: str | None        # LFS files only: the Hub's SHA-256 of the content


@dataclass(frozen=True)
class RepoSnapshot:
    repo_id: str
    commit: str
    gated: bool
    files: dict[str, RemoteFile]


def repo_snapshot(repo_id: str, revision: str | None = None, *, endpoint: str | None = None,
                  token: str | None = None) -> RepoSnapshot:
    """A repository's files with sizes and SHA-256 at one commit (one model-info call)."""
    endpoint = hub_endpoint(endpoint)
    token = hub_token(token)
    with hub_errors(endpoint, repo_id, token_sent=bool(token)):
        info = hub_api(endpoint, token).model_info(repo_id, revision=revision, files_metadata=True,
                                                   timeout=API_TIMEOUT_S)
    files = {s.rfilename: RemoteFile(s.rfilename, s.lfs.size if s.lfs else s.size, s.lfs.sha256 if s.lfs else None)
             for s in info.siblings or []}
    if not info.sha:
        raise HubError("the Hub did not say which commit {repo_id} is at; try again later", repo_id=repo_id)
    return RepoSnapshot(info.id, info.sha, bool(info.gated), files)


@dataclass
class RemoteModel:
    """One GGUF model in a repository: a file, or every part of a split one."""

    name: str                 # the first part: what llama.cpp loads, and what `pull` takes
    parts: list[str]
    missing_parts: list[int]  # part numbers the repository lacks (a broken upload)
    quant: str
    size_bytes: int
    fit: FitVerdict

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"fit": self.fit.to_dict()}


@dataclass
class RepoListing:
    repo_id: str
    commit: str
    gated: bool
    models: list[RemoteModel]

    def to_dict(self) -> dict[str, Any]:
        return {"repo_id": self.repo_id, "commit": self.commit, "gated": self.gated,
                "models": [m.to_dict() for m in self.models]}


def remote_models(snapshot: RepoSnapshot, n_ctx: int, machine: MachineMemory, use_gpu: bool) -> list[RemoteModel]:
    models = []
    for group in group_gguf_files(snapshot.files):
        size = sum(snapshot.files[p].size or 0 for p in group.parts)
        fit = assess_fit(need_for_download(size, n_ctx), machine, use_gpu)
        models.append(RemoteModel(group.name, list(group.parts), group.missing, quant_label(group.name), size, fit))
    return models


def list_repo_ggufs(repo_id: str, *, n_ctx: int = DEFAULT_N_CTX, machine: MachineMemory | None = None,
                    use_gpu: bool = True, revision: str | None = None, endpoint: str | None = None,
                    token: str | None = None) -> RepoListing:
    """The GGUF models of a repository: quantization, size in bytes, and whether each fits this machine."""
    snap = repo_snapshot(repo_id, revision, endpoint=endpoint, token=token)
    return RepoListing(snap.repo_id, snap.commit, snap.gated,
                       remote_models(snap, n_ctx, machine or probe_machine(), use_gpu))


def find_remote_model(snapshot: RepoSnapshot, filename: str) -> RemoteModel:
    """The model a user means by `filename`: any part's path, or a file name unique in the repository."""
    machine = MachineMemory(None, None)  # no verdict needed here
    models = remote_models(snapshot, DEFAULT_N_CTX, machine, False)
    hits = [m for m in models if filename in m.parts]
    if not hits:
        hits = [m for m in models if any(PurePosixPath(p).name == filename for p in m.parts)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise HubError("{repo_id} has no GGUF file named {filename}; 'logitscope models files "
                       "{repo_id}' lists them", repo_id=snapshot.repo_id, filename=filename)
    names = ", ".join(m.name for m in hits)
    raise HubError("{filename} is ambiguous in {repo_id}: give its full path ({names})", filename=filename, repo_id=snapshot.repo_id, names=names)
