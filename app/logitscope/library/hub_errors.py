"""Hub failures as one clear sentence: every huggingface_hub / HTTP error becomes a HubError.

huggingface_hub already refines HTTP statuses into typed errors (GatedRepoError, RepositoryNotFoundError,
...) from the `X-Error-Code` header; we only choose the words and the advice.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import httpx2
from huggingface_hub.errors import (
    FileMetadataError,
    GatedRepoError,
    HfHubHTTPError,
    HFValidationError,
    LocalEntryNotFoundError,
    OfflineModeIsEnabled,
    RemoteEntryNotFoundError,
    RepositoryNotFoundError,
    RevisionNotFoundError,
)

from logitscope.base.errors import HubError, LogitscopeError
from logitscope.base.messages import Message

SET_TOKEN_HINT = Message("set a token with 'logitscope models token set'")


def hub_error(exc: BaseException, endpoint: str, repo_id: str | None = None, filename: str | None = None,
              token_sent: bool = False) -> HubError | None:
    """The HubError for `exc`, or None when `exc` is not a Hub or network failure (a bug: let it raise)."""
    repo = repo_id or "the repository"
    if isinstance(exc, OfflineModeIsEnabled):
        return HubError("HF_HUB_OFFLINE is set, so the Hugging Face Hub is not contacted: "
                        "unset it to search and download")
    if isinstance(exc, HfHubHTTPError):
        return _http_error(exc, endpoint, repo, filename, token_sent)
    if isinstance(exc, httpx2.TimeoutException):
        return HubError("the Hugging Face Hub at {endpoint} did not answer in time: check the "
                        "internet connection", endpoint=endpoint)
    if isinstance(exc, httpx2.HTTPError | LocalEntryNotFoundError):
        return HubError("cannot reach the Hugging Face Hub at {endpoint}: check the internet "
                        "connection (offline?)", endpoint=endpoint)
    if isinstance(exc, FileMetadataError):
        return HubError("{endpoint} does not answer like the Hugging Face Hub (no commit or ETag "
                        "header): check HF_ENDPOINT and any proxy", endpoint=endpoint)
    if isinstance(exc, HFValidationError):
        return HubError("{repo_id!r} is not a valid repository id (expected owner/name)", repo_id=repo_id)
    if isinstance(exc, json.JSONDecodeError):
        return HubError("the Hugging Face Hub at {endpoint} sent an unreadable answer (not "
                        "JSON); try again later", endpoint=endpoint)
    return None


def _http_error(exc: HfHubHTTPError, endpoint: str, repo: str, filename: str | None, token_sent: bool) -> HubError:
    status = exc.response.status_code
    page = f"{endpoint}/{repo}"
    if isinstance(exc, GatedRepoError) or exc.response.headers.get("X-Error-Code") == "GatedRepo":
        if status == 403 or token_sent:
            return HubError("{repo} is gated and your token has no access to it yet: accept its "
                            "licence on {page} with the account that owns the token", repo=repo, page=page)
        return HubError("{repo} is gated: accept its licence on {page} and {SET_TOKEN_HINT}", repo=repo, page=page, SET_TOKEN_HINT=SET_TOKEN_HINT)
    if isinstance(exc, RepositoryNotFoundError):
        return HubError("repository {repo} was not found on the Hub; if it is private, "
                        "{SET_TOKEN_HINT}", repo=repo, SET_TOKEN_HINT=SET_TOKEN_HINT)
    if isinstance(exc, RevisionNotFoundError):
        return HubError("{repo} has no such revision", repo=repo)
    if isinstance(exc, RemoteEntryNotFoundError):
        if filename:
            return HubError("{repo} has no file {filename}", repo=repo, filename=filename)
        return HubError("{repo} has no file", repo=repo)
    if status == 401:
        return HubError("the Hub rejected the request for {repo} (401 Unauthorized): the "
                        "repository is gated or private, or the token is invalid; accept its "
                        "licence on {page} and {SET_TOKEN_HINT}", repo=repo, page=page, SET_TOKEN_HINT=SET_TOKEN_HINT)
    if status == 403:
        return HubError("the Hub refused access to {repo} (403 Forbidden): if the repository is "
                        "gated, accept its licence on {page} and {SET_TOKEN_HINT} (with read "
                        "access)", repo=repo, page=page, SET_TOKEN_HINT=SET_TOKEN_HINT)
    if status == 429:
        return HubError("the Hugging Face Hub is rate-limiting requests (429 Too Many Requests): "
                        "wait a minute and retry")
    if status >= 500:
        return HubError("the Hugging Face Hub had a server error ({status}); try again later", status=status)
    return HubError("the Hugging Face Hub answered {status} for {repo}", status=status, repo=repo)


@contextmanager
def hub_errors(endpoint: str, repo_id: str | None = None, filename: str | None = None,
               token_sent: bool = False) -> Iterator[None]:
    """Turn Hub and network failures raised inside the block into HubError (chained, for the log)."""
    try:
        yield
    except LogitscopeError:
        raise
    except Exception as exc:
        err = hub_error(exc, endpoint, repo_id, filename, token_sent)
        if err is None:
            raise
        raise err from exc
