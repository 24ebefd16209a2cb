"""A scriptable HTTP server on 127.0.0.1 (stdlib http.server, a thread per request), for what the real
llama_cpp.server cannot do on purpose: faults (HTTP errors, malformed or broken streams, silence, TLS)
and the protocols of servers we cannot run here.

MODELLED, NOT REAL: `llama_server_routes` imitates llama.cpp's llama-server (GET /props,
/v1/models with owned_by "llamacpp", the native POST /completion stream with n_probs and
post_sampling_probs, /v1/chat/completions with token ids, POST /tokenize, and errors written as an
`error:` SSE field), after llama.cpp's server README; `vllm_routes` imitates vLLM's /v1/models
(owned_by "vllm", max_model_len) and /tokenize. Every request is recorded with its JSON body.
"""

from __future__ import annotations

import json
import ssl
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

STALL_LIMIT_S = 20.0   # a "silent" handler gives up after this, so no test can hang on it

Handler = Callable[["Exchange"], None]


@dataclass
class Exchange:
    """One request, and the means to answer it."""

    handler: BaseHTTPRequestHandler
    method: str
    path: str
    body: Any
    server: FakeServer

    def json(self, obj: Any, status: int = 200) -> None:
        data = json.dumps(obj).encode()
        h = self.handler
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    def raw(self, status: int, content_type: str, data: bytes) -> None:
        h = self.handler
        h.send_response(status)
        h.send_header("Content-Type", content_type)
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    @property
    def headers(self) -> Any:
        return self.handler.headers

    def start_stream(self, content_type: str = "text/event-stream; charset=utf-8") -> None:
        h = self.handler
        h.send_response(200)
        h.send_header("Content-Type", content_type)
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()

    def send(self, text: str) -> None:
        """One HTTP chunk of the event stream."""
        data = text.encode()
        self.handler.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.handler.wfile.flush()

    def end_stream(self) -> None:
        self.handler.wfile.write(b"0\r\n\r\n")
        self.handler.wfile.flush()

    def stream(self, events: Iterable[str], delay_s: float = 0.0, end: bool = True) -> None:
        """`events`: each already formatted (`data: ...\\n\\n`). `end=False` drops the connection after
        the last one instead of ending the stream (a server that died)."""
        self.start_stream()
        for event in events:
            self.send(event)
            if delay_s:
                time.sleep(delay_s)
        if end:
            self.end_stream()
        else:
            self.server.drop(self.handler)

    def flood(self, content_type: str, head: str, block: str, limit_bytes: int) -> None:
        """A body that never ends (a broken or hostile server): `head`, then `block` again and again until
        the client hangs up or `limit_bytes` went out (so a client without a bound still ends)."""
        self.start_stream(content_type)
        self.send(head)
        sent = len(head)
        while sent < limit_bytes and not self.server.stopping.is_set():
            self.send(block)
            sent += len(block)
        self.end_stream()

    def stall(self) -> None:
        """Say nothing until the server stops (or STALL_LIMIT_S)."""
        self.server.stopping.wait(STALL_LIMIT_S)


def data(obj: Any) -> str:
    return f"data: {json.dumps(obj)}\n\n"


@dataclass
class FakeServer:
    routes: dict[tuple[str, str], Handler]
    tls: tuple[Path, Path] | None = None          # (certificate, key): serve HTTPS
    requests: list[tuple[str, str, Any]] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        fake = self

        class RequestHandler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:
                pass

            def _handle(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw
                path = self.path.split("?")[0]
                fake.requests.append((method, path, body))
                route = fake.routes.get((method, path))
                exchange = Exchange(self, method, path, body, fake)
                if route is None:
                    exchange.json({"error": {"code": 404, "message": "File Not Found", "type": "not_found_error"}}, 404)
                    return
                try:
                    route(exchange)
                except (BrokenPipeError, ConnectionResetError, OSError):
                    pass  # the client went away (a test that cancels or times out)
                self.close_connection = True

            def do_GET(self) -> None:  # noqa: N802 (http.server's names)
                self._handle("GET")

            def do_POST(self) -> None:  # noqa: N802
                self._handle("POST")

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), RequestHandler)
        self._httpd.daemon_threads = True
        if self.tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(str(self.tls[0]), str(self.tls[1]))
            self._httpd.socket = context.wrap_socket(self._httpd.socket, server_side=True)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True, name="fake-server")

    @property
    def url(self) -> str:
        scheme = "https" if self.tls else "http"
        return f"{scheme}://127.0.0.1:{self._httpd.server_address[1]}"

    def bodies(self, path: str) -> list[Any]:
        return [body for _, p, body in self.requests if p == path]

    def drop(self, handler: BaseHTTPRequestHandler) -> None:
        """Close the connection mid-answer, as a process that died would."""
        import socket

        handler.wfile.flush()
        handler.connection.shutdown(socket.SHUT_RDWR)
        handler.close_connection = True

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(5)


# -- OpenAI-format chunks ------------------------------------------------------------------------

def chat_chunk(content: str | None, logprobs: list[dict] | None = None, finish: str | None = None) -> dict:
    delta = {} if content is None else {"content": content}
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "fake",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish,
                         "logprobs": {"content": logprobs} if logprobs is not None else None}]}


def chat_logprob(token: str, logprob: float, alternatives: dict[str, float]) -> dict:
    return {"token": token, "bytes": list(token.encode()), "logprob": logprob,
            "top_logprobs": [{"token": t, "bytes": list(t.encode()), "logprob": v} for t, v in alternatives.items()]}


def chat_routes(chunks: list[str], model: str = "fake-model", owned_by: str = "someone") -> dict[tuple[str, str], Handler]:
    """An OpenAI-compatible server that answers every chat with `chunks` (formatted events)."""
    return {("GET", "/v1/models"): lambda x: x.json({"object": "list", "data": [{"id": model, "owned_by": owned_by}]}),
            ("POST", "/v1/chat/completions"): lambda x: x.stream(chunks)}


# -- the modelled llama-server -------------------------------------------------------------------

@dataclass
class ModelToken:
    id: int
    piece: bytes
    logprob: float
    alternatives: list[tuple[int, bytes, float]]   # (id, bytes, logprob), best first, the token among them
    post_prob: float = 1.0                          # its probability after the sampler chain
    post_alternatives: list[tuple[int, bytes, float]] = field(default_factory=list)  # (id, bytes, prob)


def _token_text(piece: bytes) -> str:
    """llama-server's `token`: the piece cut to its valid UTF-8 prefix."""
    for end in range(len(piece), -1, -1):
        try:
            return piece[:end].decode()
        except UnicodeDecodeError:
            continue
    return ""


def _probs_entry(tok: ModelToken, post: bool) -> dict:
    if post:
        return {"id": tok.id, "token": _token_text(tok.piece), "bytes": list(tok.piece), "prob": tok.post_prob,
                "top_probs": [{"id": i, "token": _token_text(b), "bytes": list(b), "prob": p}
                              for i, b, p in tok.post_alternatives]}
    return {"id": tok.id, "token": _token_text(tok.piece), "bytes": list(tok.piece), "logprob": tok.logprob,
            "top_logprobs": [{"id": i, "token": _token_text(b), "bytes": list(b), "logprob": v}
                             for i, b, v in tok.alternatives]}


def _groups(tokens: list[ModelToken]) -> list[list[ModelToken]]:
    """Tokens grouped as llama-server sends them: a token that leaves a UTF-8 character incomplete is
    held back and goes out with the one that completes it."""
    groups, pending, buffer = [], [], b""
    for tok in tokens:
        pending.append(tok)
        buffer += tok.piece
        try:
            buffer.decode()
        except UnicodeDecodeError:
            continue
        groups.append(pending)
        pending, buffer = [], b""
    return groups + ([pending] if pending else [])


def llama_server_routes(tokens: list[ModelToken], n_prompt: int = 7, n_ctx: int = 4096,
                        model_path: str = "/models/modelled.gguf") -> dict[tuple[str, str], Handler]:
    timings = {"prompt_n": n_prompt, "prompt_ms": 35.0, "prompt_per_token_ms": 5.0, "prompt_per_second": 200.0,
               "predicted_n": len(tokens), "predicted_ms": 50.0 * len(tokens),
               "predicted_per_token_ms": 50.0, "predicted_per_second": 20.0}

    def props(x: Exchange) -> None:
        x.json({"default_generation_settings": {"n_ctx": n_ctx, "params": {"n_probs": 0}}, "total_slots": 1,
                "model_path": model_path, "chat_template": "{{ messages }}", "build_info": "b0000-modelled"})

    def models(x: Exchange) -> None:
        x.json({"object": "list", "data": [{"id": model_path, "object": "model", "owned_by": "llamacpp",
                                            "created": 1, "meta": {"n_ctx_train": 8192}}]})

    def completion(x: Exchange) -> None:
        post = bool(x.body.get("post_sampling_probs"))
        events = []
        for group in _groups(tokens):
            events.append(data({
                "index": 0, "content": b"".join(t.piece for t in group).decode(), "tokens": [t.id for t in group],
                "stop": False, "id_slot": 0, "tokens_predicted": 0, "tokens_evaluated": n_prompt,
                "completion_probabilities": [_probs_entry(t, post) for t in group]}))
        events.append(data({"index": 0, "content": "", "tokens": [], "id_slot": 0, "stop": True,
                            "model": model_path, "tokens_predicted": len(tokens), "tokens_evaluated": n_prompt,
                            "generation_settings": {"n_predict": x.body.get("n_predict")},
                            "prompt": x.body.get("prompt"), "has_new_line": False, "truncated": False,
                            "stop_type": "limit", "stopping_word": "", "tokens_cached": n_prompt + len(tokens),
                            "timings": timings}))
        x.stream(events)

    def chat(x: Exchange) -> None:
        post = bool(x.body.get("post_sampling_probs"))
        events = []
        for group in _groups(tokens):
            chunk = chat_chunk(b"".join(t.piece for t in group).decode(), [_probs_entry(t, post) for t in group])
            events.append(data(chunk))
        events.append(data(chat_chunk(None, None, "length")))
        events.append(data({"choices": [], "object": "chat.completion.chunk", "model": model_path,
                            "usage": {"prompt_tokens": n_prompt, "completion_tokens": len(tokens),
                                      "total_tokens": n_prompt + len(tokens)}, "timings": timings}))
        events.append("data: [DONE]\n\n")
        x.stream(events)

    def tokenize(x: Exchange) -> None:
        x.json({"tokens": [ord(c) for c in x.body["content"]]})  # one "token" per character

    return {("GET", "/props"): props, ("GET", "/v1/models"): models, ("POST", "/completion"): completion,
            ("POST", "/v1/chat/completions"): chat, ("POST", "/tokenize"): tokenize,
            ("GET", "/health"): lambda x: x.json({"status": "ok"})}


def vllm_routes(chunks: list[str]) -> dict[tuple[str, str], Handler]:
    """MODELLED vLLM: its /v1/models (owned_by "vllm", max_model_len) and /tokenize."""
    return {("GET", "/v1/models"): lambda x: x.json({"object": "list", "data": [
                {"id": "Qwen/Qwen2.5-0.5B-Instruct", "object": "model", "owned_by": "vllm",
                 "root": "Qwen/Qwen2.5-0.5B-Instruct", "max_model_len": 32768, "permission": []}]}),
            ("POST", "/v1/chat/completions"): lambda x: x.stream(chunks),
            ("POST", "/v1/completions"): lambda x: x.stream(chunks),
            ("POST", "/tokenize"): lambda x: x.json({"tokens": [1, 2, 3], "count": 3, "max_model_len": 32768})}


# " café!" as the model might write it: "é" (c3 a9) split over two tokens.
MODELLED_TOKENS = [
    ModelToken(1101, b" caf", -0.2, [(1101, b" caf", -0.2), (2202, b" the", -1.9)],
               0.9, [(1101, b" caf", 0.9), (2202, b" the", 0.1)]),
    ModelToken(195, b"\xc3", -0.05, [(195, b"\xc3", -0.05), (68, b"e", -3.2)], 1.0, [(195, b"\xc3", 1.0)]),
    ModelToken(169, b"\xa9", -0.01, [(169, b"\xa9", -0.01)], 1.0, [(169, b"\xa9", 1.0)]),
    ModelToken(0, b"!", -1.5, [(13, b".", -0.4), (0, b"!", -1.5), (30, b"?", -2.0)],
               0.25, [(13, b".", 0.75), (0, b"!", 0.25)]),
]
