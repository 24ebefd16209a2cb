"""A stand-in for the Hugging Face Hub: a real HTTP server on 127.0.0.1, for the real huggingface_hub client.

Two origins, like the real Hub: the Hub itself (API + `/resolve/`) and a "CDN" on another port that
serves file bytes. `HEAD|GET /{repo}/resolve/{rev}/{path}` answers an LFS file with a 302 to the CDN
plus `X-Repo-Commit`, `X-Linked-Etag` (the SHA-256) and `X-Linked-Size`, which is what
huggingface_hub's `get_hf_file_metadata` reads; because the CDN is another origin the client stops at
the redirect (and drops the token), as it does with the real CDN. No `X-Xet-Hash` header or `xet-auth`
link is ever sent, so the client never tries an hf-xet transfer: plain HTTP only.

Endpoints: `GET /api/models` (search, filter, sort, limit), `GET /api/models/{repo}` and
`/api/models/{repo}/revision/{rev}` (model info; `blobs=true` adds size, blobId and lfs{sha256,size}),
`HEAD|GET /{repo}/resolve/{rev}/{path}`, and on the CDN `HEAD|GET /blobs/{key}` with Range (206,
Content-Range, 416). Errors carry `X-Error-Code` (RepoNotFound, RevisionNotFound, EntryNotFound,
GatedRepo) and `X-Error-Message`, as the Hub does. Anything else is a 404 recorded as unhandled.

Fault modes, per file: `claimed_sha256` (the Hub reports a wrong hash), `drops`/`drop_after` (close the
connection after that byte, that many times), `pause_at` (stall at that byte until `release()`,
at most PAUSE_LIMIT_S), `ignore_range` (200 and the whole file for a Range request); for the search:
`search_body` (answer that JSON instead of the list); per repository:
`gated` + `token` (401 without a token, 403 with another one) and `fault_status` (every request about
it answers 403, 500, ...). Every request is recorded.
"""

from __future__ import annotations

import hashlib
import io
import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import parse_qs, quote, unquote, urlsplit

from logitscope.library.demo import sha256_of

PAUSE_LIMIT_S = 10.0
SOCKET_TIMEOUT_S = 15.0
SEND_BLOCK = 64 << 10
DEFAULT_DATE = "2024-06-01T12:00:00.000Z"


@dataclass
class FakeFile:
    path: str                            # in the repository
    source: Path | bytes                 # the content
    sha256: str
    size: int
    lfs: bool = True
    claimed_sha256: str | None = None    # fault: the Hub reports this hash instead of the real one
    drop_after: int = 0                  # fault: close the connection once this byte is sent ...
    drops: int = 0                       # ... this many times
    pause_at: int | None = None          # fault: stall once at this byte until FakeHub.release()
    ignore_range: bool = False           # fault: answer Range requests with the whole file (200)
    paused: bool = False

    @classmethod
    def of(cls, path: str, source: Path | bytes, sha256: str | None = None, lfs: bool = True) -> FakeFile:
        if isinstance(source, bytes):
            return cls(path, source, hashlib.sha256(source).hexdigest(), len(source), lfs)
        return cls(path, source, sha256 or sha256_of(source), source.stat().st_size, lfs)

    @property
    def reported_sha256(self) -> str:
        return self.claimed_sha256 or self.sha256

    @property
    def git_oid(self) -> str:
        """The git blob id: of the LFS pointer for LFS files, of the content otherwise (as git computes it)."""
        if self.lfs:
            data = (f"version https://git-lfs.github.com/spec/v1\noid sha256:{self.reported_sha256}\n"
                    f"size {self.size}\n").encode()
        else:
            data = self.source if isinstance(self.source, bytes) else self.source.read_bytes()
        return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()

    def open(self) -> BinaryIO:
        return io.BytesIO(self.source) if isinstance(self.source, bytes) else self.source.open("rb")


@dataclass
class FakeRepo:
    repo_id: str
    files: dict[str, FakeFile]
    commit: str
    downloads: int = 0
    likes: int = 0
    last_modified: str = DEFAULT_DATE
    gated: bool = False
    token: str | None = None        # the token that opens a gated repository
    fault_status: int | None = None  # fault: every request about this repository answers this status

    @property
    def tags(self) -> list[str]:
        return ["gguf"] if any(p.endswith(".gguf") for p in self.files) else ["safetensors"]


@dataclass
class Request:
    server: str            # "hub" or "cdn"
    method: str
    path: str
    headers: dict[str, str]  # names in lower case
    status: int = 0
    handled: bool = True


@dataclass
class FakeHub:
    repos: dict[str, FakeRepo] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    search_body: Any = None  # fault: the search (/api/models) answers this JSON instead of the list

    def __post_init__(self) -> None:
        self.lock = threading.Lock()
        self.released = threading.Event()
        self.pausing = threading.Event()  # set when a transfer stalls at pause_at
        self.blobs: dict[str, tuple[FakeRepo, FakeFile]] = {}
        self.servers: list[ThreadingHTTPServer] = []

    # -- set-up ---------------------------------------------------------------------------------

    def add_repo(self, repo_id: str, files: list[FakeFile], **kwargs: Any) -> FakeRepo:
        commit = hashlib.sha1(repo_id.encode()).hexdigest()
        repo = FakeRepo(repo_id, {f.path: f for f in files}, commit, **kwargs)
        self.repos[repo_id] = repo
        for f in files:
            self.blobs[hashlib.sha256(f"{repo_id}/{f.path}".encode()).hexdigest()[:24]] = (repo, f)
        return repo

    def file(self, repo_id: str, path: str) -> FakeFile:
        return self.repos[repo_id].files[path]

    def release(self) -> None:
        """Let paused transfers (pause_at) continue."""
        self.released.set()

    # -- life -----------------------------------------------------------------------------------

    def start(self) -> FakeHub:
        for role in ("hub", "cdn"):
            server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
            server.daemon_threads = True
            server.hub, server.role = self, role  # type: ignore[attr-defined]
            threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
            self.servers.append(server)
        return self

    def stop(self) -> None:
        self.released.set()
        for server in self.servers:
            server.shutdown()
            server.server_close()

    def __enter__(self) -> FakeHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.servers[0].server_address[1]}"

    @property
    def cdn(self) -> str:
        return f"http://127.0.0.1:{self.servers[1].server_address[1]}"

    # -- what happened --------------------------------------------------------------------------

    def seen(self, method: str, server: str | None = None, path_part: str = "") -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.method == method and (server is None or r.server == server)
                    and path_part in unquote(r.path)]

    def unhandled(self) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if not r.handled]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    record: Request | None = None
    timeout = SOCKET_TIMEOUT_S  # a client that stops reading cannot hold a server thread for ever

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the request log is self.hub.requests
        pass

    @property
    def hub(self) -> FakeHub:
        return self.server.hub  # type: ignore[attr-defined]

    def do_GET(self) -> None:
        self._dispatch()

    def do_HEAD(self) -> None:
        self._dispatch()

    def send_response(self, code: int, message: str | None = None) -> None:
        if self.record is not None:
            self.record.status = code
        super().send_response(code, message)

    # -- routing --------------------------------------------------------------------------------

    def _dispatch(self) -> None:
        role = self.server.role  # type: ignore[attr-defined]
        self.record = Request(role, self.command, self.path, {k.lower(): v for k, v in self.headers.items()})
        with self.hub.lock:
            self.hub.requests.append(self.record)
        url = urlsplit(self.path)
        parts = [unquote(p) for p in url.path.strip("/").split("/")]
        query = parse_qs(url.query)
        if role == "cdn":
            if len(parts) == 2 and parts[0] == "blobs" and parts[1] in self.hub.blobs:
                return self._send_file(*self.hub.blobs[parts[1]])
        elif parts[:2] == ["api", "models"] and self.command == "GET":
            if len(parts) == 2:
                return self._search(query)
            if len(parts) == 4 or (len(parts) == 6 and parts[4] == "revision"):
                return self._model_info("/".join(parts[2:4]), parts[5] if len(parts) == 6 else "main", query)
        elif len(parts) >= 5 and parts[2] == "resolve":
            return self._resolve("/".join(parts[:2]), parts[3], "/".join(parts[4:]))
        self.record.handled = False
        self._error(404, "", "Not Found")

    # -- answers --------------------------------------------------------------------------------

    def _json(self, data: Any, status: int = 200, headers: dict[str, str] | None = None) -> None:
        body = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        extra = {"X-Error-Message": message} | ({"X-Error-Code": code} if code else {}) | (headers or {})
        self._json({"error": message}, status, extra)

    def _repo(self, repo_id: str, revision: str) -> FakeRepo | None:
        repo = self.hub.repos.get(repo_id)
        if repo is None:
            self._error(404, "RepoNotFound", "Repository not found")
        elif repo.fault_status:
            self._error(repo.fault_status, "", f"fault {repo.fault_status}")
        elif revision not in ("main", repo.commit):
            self._error(404, "RevisionNotFound", "Invalid rev id: " + revision)
        else:
            return repo
        return None

    def _search(self, query: dict[str, list[str]]) -> None:
        if self.hub.search_body is not None:
            return self._json(self.hub.search_body)
        text = (query.get("search") or [""])[0].lower()
        filters = query.get("filter", [])
        repos = [r for r in self.hub.repos.values()
                 if text in r.repo_id.lower() and all(f in r.tags for f in filters) and not r.fault_status]
        key = {"downloads": lambda r: r.downloads, "likes": lambda r: r.likes,
               "lastModified": lambda r: r.last_modified}.get((query.get("sort") or ["downloads"])[0])
        if key is None:
            return self._error(400, "", "Invalid sort parameter")
        repos.sort(key=key, reverse=True)
        limit = int((query.get("limit") or ["1000"])[0])
        self._json([{"_id": r.commit[:24], "id": r.repo_id, "downloads": r.downloads, "likes": r.likes,
                     "lastModified": r.last_modified, "gated": "manual" if r.gated else False, "private": False,
                     "tags": r.tags} for r in repos[:limit]])

    def _model_info(self, repo_id: str, revision: str, query: dict[str, list[str]]) -> None:
        repo = self._repo(repo_id, revision)
        if repo is None:
            return
        blobs = (query.get("blobs") or ["false"])[0] == "true"
        siblings = []
        for f in repo.files.values():
            sibling: dict[str, Any] = {"rfilename": f.path}
            if blobs:
                sibling |= {"size": f.size, "blobId": f.git_oid}
                if f.lfs:
                    sibling["lfs"] = {"sha256": f.reported_sha256, "size": f.size, "pointerSize": 134}
            siblings.append(sibling)
        self._json({"_id": repo.commit[:24], "id": repo.repo_id, "modelId": repo.repo_id,
                    "author": repo.repo_id.split("/")[0], "sha": repo.commit, "lastModified": repo.last_modified,
                    "private": False, "gated": "manual" if repo.gated else False, "disabled": False,
                    "downloads": repo.downloads, "likes": repo.likes, "tags": repo.tags, "siblings": siblings,
                    "createdAt": DEFAULT_DATE})

    def _resolve(self, repo_id: str, revision: str, path: str) -> None:
        repo = self._repo(repo_id, revision)
        if repo is None:
            return
        commit = {"X-Repo-Commit": repo.commit}
        if repo.gated:
            auth = self.headers.get("Authorization")
            if auth is None:
                return self._error(401, "GatedRepo", f"Access to model {repo_id} is restricted. You must have access "
                                   "to it and be authenticated to access it. Please log in.", commit)
            if auth != f"Bearer {repo.token}":
                return self._error(403, "GatedRepo", f"Access to model {repo_id} is restricted and you are not in "
                                   "the authorized list.", commit)
        f = repo.files.get(path)
        if f is None:
            return self._error(404, "EntryNotFound", f"{path} does not exist on \"{revision}\"", commit)
        if not f.lfs:
            return self._send_file(repo, f)
        key = next(k for k, (r, ff) in self.hub.blobs.items() if r is repo and ff is f)
        self.send_response(302)
        self.send_header("Location", f"{self.hub.cdn}/blobs/{key}?X-Signature={quote(repo.commit[:8])}")
        self.send_header("X-Repo-Commit", repo.commit)
        self.send_header("X-Linked-Etag", f'"{f.reported_sha256}"')
        self.send_header("X-Linked-Size", str(f.size))
        self.send_header("ETag", f'"{f.git_oid}"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send_file(self, repo: FakeRepo, f: FakeFile) -> None:
        start, end = 0, f.size  # end is exclusive
        rng = None if f.ignore_range else self.headers.get("Range")
        if rng:
            try:
                first, _, last = rng.removeprefix("bytes=").partition("-")
                start, end = int(first), (int(last) + 1 if last else f.size)
            except ValueError:
                start = f.size
            if not 0 <= start < min(end, f.size):
                return self._error(416, "", "Range Not Satisfiable", {"Content-Range": f"bytes */{f.size}"})
            end = min(end, f.size)
        self.send_response(206 if rng else 200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(end - start))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", f'"{f.reported_sha256 if f.lfs else f.git_oid}"')
        self.send_header("X-Repo-Commit", repo.commit)
        if rng:
            self.send_header("Content-Range", f"bytes {start}-{end - 1}/{f.size}")
        self.end_headers()
        if self.command == "HEAD":
            return
        with self.hub.lock:  # decide the faults of this response once
            drop = f.drops > 0 and start <= f.drop_after < end
            f.drops -= drop
            pause = f.pause_at is not None and not f.paused and start <= f.pause_at < end
            f.paused = f.paused or pause
        stops = sorted({end} | ({f.drop_after} if drop else set()) | ({f.pause_at} if pause else set()))
        pos = start
        with f.open() as src:
            src.seek(start)
            for stop in stops:
                while pos < stop and (block := src.read(min(SEND_BLOCK, stop - pos))):
                    self.wfile.write(block)
                    pos += len(block)
                self.wfile.flush()
                if drop and pos == f.drop_after:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)  # the client sees the body end early
                    return
                if pause and pos == f.pause_at:
                    self.hub.pausing.set()
                    self.hub.released.wait(PAUSE_LIMIT_S)


GATED_TOKEN = "hf_fake_gated_access_token_123"


def closed_port_endpoint() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"  # nothing listens there: connection refused
