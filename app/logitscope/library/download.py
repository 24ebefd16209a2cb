"""Download a GGUF model (every part of a split one) from the Hub into the app's models folder.

Files land in `<models>/<owner>/<repo>/<path in repo>`: plain files the app owns (listed, loaded and
removed like any other), no symlinks into a cache that another tool may prune. The Hugging Face cache is
still used in place when a model is already there (discovery.py), never copied.

Why not `hf_hub_download(local_dir=...)`: in huggingface_hub 2.4 it writes to a process-unique temporary
file that it deletes on any failure, so an interrupted download starts over; it reports progress in
10 MB steps and has no way to cancel. So huggingface_hub resolves the file (HEAD: commit, ETag, size,
CDN location, gated/not-found errors) and shares its HTTP session, and the transfer is a small loop of
Range requests into `<file>.part`, with the ETag and size it belongs to in `<file>.part.json`:
- resume: a later pull continues the .part file if the remote file is unchanged (same ETag and size);
- verification: the SHA-256 the Hub reports for LFS files (`lfs.sha256`, also the ETag) is checked on
  the whole file; a mismatch deletes the download and raises DownloadError;
- cancel: a threading.Event, checked before each request and after each 1 MiB chunk.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import httpx2
from huggingface_hub import get_hf_file_metadata, get_session, hf_hub_url, hf_raise_for_status
from huggingface_hub.utils import build_hf_headers

from logitscope.base.errors import DownloadCancelledError, DownloadError, HubError
from logitscope.base.paths import models_dir
from logitscope.gguf.memory import format_bytes
from logitscope.library.demo import sha256_of
from logitscope.library.filenames import partial_paths
from logitscope.library.hub import RemoteFile, find_remote_model, hub_endpoint, hub_token, repo_snapshot
from logitscope.library.hub_errors import hub_errors

CHUNK = 1 << 20
METADATA_TIMEOUT_S = 15.0
READ_TIMEOUT_S = 30.0
RETRY_WAIT_S = 0.5
MAX_REQUESTS = 50          # per file, whatever happens: a misbehaving server cannot keep us looping
PROGRESS_EVERY_S = 0.2
SPEED_WINDOW_S = 5.0
SHA256_RE = re.compile(r"^[0-9a-f]{64}$")

_in_progress: set[Path] = set()  # destinations being written by this process: one writer per .part file
_in_progress_lock = threading.Lock()


@dataclass(frozen=True)
class Progress:
    filename: str
    done_bytes: int              # over all parts
    total_bytes: int | None
    speed_bps: float             # over the last few seconds
    eta_s: float | None


ProgressCallback = Callable[[Progress], None]


@dataclass
class PullResult:
    repo_id: str
    name: str
    paths: list[Path]            # every part; the first is what llama.cpp loads
    size_bytes: int
    downloaded_bytes: int        # transferred by this call (0: it was all there already)
    resumed_bytes: int           # taken from earlier partial downloads
    verified: bool               # every part's SHA-256 matched the Hub's

    @property
    def path(self) -> Path:
        return self.paths[0]


class _Meter:
    """Bytes done over a whole pull, speed over a sliding window, and throttled callbacks."""

    def __init__(self, total: int | None, callback: ProgressCallback | None) -> None:
        self.total, self.callback, self.done = total, callback, 0
        self.samples: deque[tuple[float, int]] = deque()
        self.last_report = 0.0
        self.filename = ""

    def restart_window(self) -> None:
        self.samples.clear()  # bytes taken from disk are not speed

    def add(self, n: int, force: bool = False) -> None:
        self.done += n
        now = time.monotonic()
        self.samples.append((now, self.done))
        while len(self.samples) > 2 and now - self.samples[0][0] > SPEED_WINDOW_S:
            self.samples.popleft()
        if self.callback and (force or now - self.last_report >= PROGRESS_EVERY_S):
            self.last_report = now
            self.callback(self.progress())

    def progress(self) -> Progress:
        (t0, d0), (t1, d1) = (self.samples[0], self.samples[-1]) if self.samples else ((0.0, 0), (0.0, 0))
        speed = (d1 - d0) / (t1 - t0) if t1 > t0 else 0.0
        left = None if self.total is None else max(0, self.total - self.done)
        eta = 0.0 if left == 0 else (left / speed if left is not None and speed > 0 else None)
        return Progress(self.filename, self.done, self.total, speed, eta)


@dataclass
class _Job:
    """One file to fetch, and how."""

    repo_id: str
    remote: RemoteFile
    revision: str
    dest: Path
    endpoint: str
    token: str | None
    cancel: threading.Event
    max_retries: int


def _check_cancel(job: _Job, done: int, total: int | None) -> None:
    if job.cancel.is_set():
        raise DownloadCancelledError(
            "download of {remote_path} cancelled after {done} of {total}; pulling it again "
            "resumes it", remote_path=job.remote.path, done=format_bytes(done), total=_fmt(total))


def _fmt(n: int | None) -> str:
    return "?" if n is None else format_bytes(n)


def _read_state(state_path: Path) -> dict[str, Any]:
    try:
        state = json.loads(state_path.read_text())
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}  # a damaged state file starts the download afresh


class _PartFile:
    """The .part file being written, with the running SHA-256 of everything in it."""

    def __init__(self, path: Path, keep: int) -> None:
        self.digest = hashlib.sha256()
        self.fh = path.open("r+b" if keep else "wb")
        while self.fh.tell() < keep and (block := self.fh.read(min(CHUNK, keep - self.fh.tell()))):
            self.digest.update(block)  # resuming: hash what is already there
        self.fh.truncate()
        self.size = self.fh.tell()

    def write(self, chunk: bytes) -> None:
        self.fh.write(chunk)
        self.digest.update(chunk)
        self.size += len(chunk)

    def restart(self) -> None:
        self.fh.seek(0)
        self.fh.truncate()
        self.digest, self.size = hashlib.sha256(), 0

    def close(self) -> None:
        self.fh.flush()
        os.fsync(self.fh.fileno())
        self.fh.close()


@contextmanager
def _one_writer(dest: Path) -> Iterator[None]:
    with _in_progress_lock:
        if dest in _in_progress:
            raise DownloadError("{dest_name} is already being downloaded", dest_name=dest.name)
        _in_progress.add(dest)
    try:
        yield
    finally:
        with _in_progress_lock:
            _in_progress.discard(dest)


def _fetch(job: _Job, meter: _Meter) -> tuple[int, int, bool]:
    """Fetch one file into job.dest; return (bytes transferred, bytes resumed, verified)."""
    with hub_errors(job.endpoint, job.repo_id, job.remote.path, token_sent=bool(job.token)):
        url = hf_hub_url(job.repo_id, job.remote.path, revision=job.revision, endpoint=job.endpoint)
        meta = get_hf_file_metadata(url, token=job.token, endpoint=job.endpoint, timeout=METADATA_TIMEOUT_S)
    size = meta.size if meta.size is not None else job.remote.size
    etag = meta.etag or ""
    sha = job.remote.sha256 or (etag if SHA256_RE.match(etag) else None)
    meter.filename = job.remote.path

    if job.dest.is_file() and job.dest.stat().st_size == size and (sha is None or sha256_of(job.dest) == sha):
        meter.add(size or 0, force=True)
        return 0, 0, sha is not None

    part_path, state_path = partial_paths(job.dest)
    state = {"etag": etag, "size": size, "sha256": sha}
    resumable = part_path.is_file() and _read_state(state_path) == state and size is not None
    start = min(part_path.stat().st_size, size or 0) if resumable else 0
    job.dest.parent.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(job.dest.parent).free
    if size is not None and free < size - start:
        raise DownloadError("not enough disk space for {remote_path}: it needs {value}, {free} "
                            "free in {parent}", remote_path=job.remote.path, value=format_bytes(size - start), free=format_bytes(free), parent=job.dest.parent)
    state_path.write_text(json.dumps(state))
    part = _PartFile(part_path, start)
    meter.add(start, force=True)
    meter.restart_window()  # bytes taken from disk are not speed
    try:
        _transfer(job, meta.location, url, part, size, meter)
    finally:
        part.close()

    if size is not None and part.size != size:
        raise DownloadError("{remote_path}: got {part_size} bytes, the Hub says {size}; pulling "
                            "again resumes it", remote_path=job.remote.path, part_size=part.size, size=size)
    if sha is not None and part.digest.hexdigest() != sha:
        part_path.unlink(missing_ok=True)
        state_path.unlink(missing_ok=True)
        raise DownloadError("{remote_path} failed its SHA-256 check (the Hub says {sha}..., the "
                            "download is {hexdigest}...): the download was deleted; try again", remote_path=job.remote.path, sha=sha[:12], hexdigest=part.digest.hexdigest()[:12])
    part_path.replace(job.dest)  # atomic: the real name only ever holds a complete, verified file
    state_path.unlink(missing_ok=True)
    return part.size - start, start, sha is not None


def _transfer(job: _Job, location: str, url: str, part: _PartFile, size: int | None, meter: _Meter) -> None:
    """GET `location` into `part` from where it ends, resuming with Range after a dropped connection."""
    token_sent = urlsplit(location)[:2] == urlsplit(url)[:2] and bool(job.token)
    headers = build_hf_headers(token=job.token if token_sent else False)  # never send the token to a CDN
    headers["Accept-Encoding"] = "identity"
    timeout = httpx2.Timeout(METADATA_TIMEOUT_S, read=READ_TIMEOUT_S)
    failures = 0
    for _ in range(MAX_REQUESTS):
        _check_cancel(job, part.size, size)
        if size is not None and part.size >= size:
            return
        before = part.size
        if before:
            headers["Range"] = f"bytes={before}-"
        try:
            with get_session().stream("GET", location, headers=headers, timeout=timeout) as resp:
                if resp.status_code >= 400:
                    with hub_errors(job.endpoint, job.repo_id, job.remote.path, token_sent):
                        hf_raise_for_status(resp)
                if before and resp.status_code == 200:  # the server ignored Range: start over
                    part.restart()
                    meter.add(-before)
                    meter.restart_window()
                    before = 0
                elif before and not resp.headers.get("Content-Range", "").startswith(f"bytes {before}-"):
                    raise DownloadError("{remote_path}: the server resumed at the wrong place "
                                        "({value!r} for byte {before})", remote_path=job.remote.path, value=resp.headers.get('Content-Range'), before=before)
                for chunk in resp.iter_bytes(CHUNK):
                    part.write(chunk)
                    meter.add(len(chunk))
                    _check_cancel(job, part.size, size)
            if size is None or part.size >= size:
                return
            raise httpx2.RemoteProtocolError("the server ended the transfer early")
        except httpx2.TransportError as exc:  # a dropped connection or a stall: resume where it stopped
            failures = 1 if part.size > before else failures + 1  # in a row, without progress
            if failures > job.max_retries:
                raise DownloadError(
                    "the connection was lost after {part_size} of {size} of {remote_path} "
                    "({exc}); pulling it again resumes it", part_size=format_bytes(part.size), size=_fmt(size), remote_path=job.remote.path, exc=exc) from exc
            job.cancel.wait(RETRY_WAIT_S)
    raise DownloadError("{remote_path}: gave up after {MAX_REQUESTS} requests; pulling it again "
                        "resumes it", remote_path=job.remote.path, MAX_REQUESTS=MAX_REQUESTS)


def _safe_dest(root: Path, repo_id: str, path: str) -> Path:
    """Where a repository file goes; a hostile name ('../..') cannot leave the models folder."""
    rel = PurePosixPath(repo_id) / PurePosixPath(path)
    if rel.is_absolute() or ".." in rel.parts:
        raise HubError("refusing the file name {path!r} from {repo_id}: it points outside the "
                       "models folder", path=path, repo_id=repo_id)
    return root.joinpath(*rel.parts)


def pull_model(repo_id: str, filename: str, *, revision: str | None = None, dest_root: Path | None = None,
               endpoint: str | None = None, token: str | None = None, progress: ProgressCallback | None = None,
               cancel: threading.Event | None = None, max_retries: int = 3) -> PullResult:
    """Download a GGUF model (all parts of a split one) into the models folder; idempotent and resumable.

    `filename` is any part's path in the repository (or its file name, if unique). `progress` is called on
    this thread, at most every 0.2 s; set `cancel` from any thread to stop (the partial file is kept).
    Raises HubError (unreachable, gated, not found) or DownloadError (transfer, disk, SHA-256, cancel)."""
    endpoint = hub_endpoint(endpoint)
    token = hub_token(token)
    snapshot = repo_snapshot(repo_id, revision, endpoint=endpoint, token=token)
    model = find_remote_model(snapshot, filename)
    if model.missing_parts:
        raise HubError("{model_name} is a split model but {repo_id} lacks part(s) {str}: it "
                       "cannot be loaded", model_name=model.name, repo_id=repo_id, str=', '.join(map(str, model.missing_parts)))
    root = dest_root or models_dir()
    remotes = [snapshot.files[p] for p in model.parts]
    meter = _Meter(sum(r.size or 0 for r in remotes) if all(r.size is not None for r in remotes) else None, progress)
    cancel = cancel or threading.Event()
    paths, downloaded, resumed, verified = [], 0, 0, True
    for remote in remotes:
        job = _Job(snapshot.repo_id, remote, snapshot.commit, _safe_dest(root, snapshot.repo_id, remote.path),
                   endpoint, token, cancel, max_retries)
        with _one_writer(job.dest):
            got, had, ok = _fetch(job, meter)
        paths.append(job.dest)
        downloaded, resumed, verified = downloaded + got, resumed + had, verified and ok
    if progress:
        progress(meter.progress())
    return PullResult(snapshot.repo_id, model.name, paths, sum(p.stat().st_size for p in paths), downloaded,
                      resumed, verified)
