"""A remote engine: a model served over HTTP by llama-server, vLLM, llama-cpp-python's server or any
OpenAI-compatible server, inspected through the probabilities it streams back.

- `connect()` finds out what the server is: llama-server answers GET /props; the others are told
  apart by GET /v1/models (its `owned_by`). It lists the models and picks one.
- `generate()` streams (SSE) chat through /v1/chat/completions and raw prompts through llama-server's
  /completion (n_probs, optionally post_sampling_probs) or /v1/completions, with logprobs, and turns
  each token into a StepRecord (remote_wire.py). What the server cannot report stays unknown.
- Failures are RemoteEngineError with one clear sentence: unreachable, timed out, TLS, HTTP errors
  with the server's own message (401/403 with a hint about the API key). An answer that fails once
  its request is sent (an HTTP error, the server died, an error event, silence) raises too, and the
  error's `partial` is the GenerationResult so far, maybe without a token (finish_reason "error", the
  reason in its notices); its steps were already handed to on_step. Malformed chunks are skipped and
  counted in the result's notices; a stream of which nothing can be read is an error saying what arrived.
- The server is not trusted (remote_stream.py, remote_wire.py): a JSON answer is read up to
  MAX_JSON_BYTES and within `timeout`, a stream line up to MAX_LINE_BYTES; the answer stops at
  max_tokens whatever the server does; each token must come within `timeout` and MAX_JSON_BYTES
  (keep-alives are no progress); absurd probabilities become unknown.
- The address is checked up front (http or https, a host, a port in 1-65535). A user name and
  password in it (`http://user:pass@host`) are sent as HTTP Basic auth (for a server behind a proxy
  that asks for it), never shown: `base_url`, every message and the recorded engine show `user:****`.
- `cancel()` (any thread) shuts the connection's socket down, which wakes a read blocked on a silent
  server at once; the server sees the disconnect and stops. Each generation uses a fresh connection
  for that reason (no keep-alive).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import httpx2

from logitscope.base.errors import InvalidSettingsError, RemoteEngineError, UnsupportedByServerError
from logitscope.base.messages import Message
from logitscope.host.remote_params import applied_stages, json_schema_object, readable
from logitscope.host.remote_stream import MAX_ANSWER_BYTES, Answer, iter_sse, read_answer, server_message
from logitscope.host.remote_wire import (
    OWNED_BY_KIND,
    SERVER_KINDS,
    ServerKind,
    WireRequest,
    build_request,
    count,
)
from logitscope.protocol.api import GenerateRequest
from logitscope.protocol.batched import (
    AnswerStep,
    BatchedRequest,
    BatchedResult,
    ThroughputPoint,
    ThroughputRequest,
    ThroughputResult,
)
from logitscope.protocol.beams import BeamProgress, BeamRequest, BeamResult
from logitscope.protocol.causal import (
    AblateRequest,
    Ablation,
    AblationEffect,
    HeadScan,
    HeadScanRequest,
    PatchRequest,
    PatchResult,
)
from logitscope.protocol.engine_like import RemoteModelInfo
from logitscope.protocol.forced_compare import ForcedKl
from logitscope.protocol.forward import AttentionMatrix, ForwardInspection, InspectRequest
from logitscope.protocol.reasoning import UNLIMITED
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.score import ScoreRequest, ScoreResult
from logitscope.protocol.steering import Steering
from logitscope.protocol.steering_compare import SteeringCompare, SteeringCompareRequest
from logitscope.protocol.trace import GenerationResult, StepRecord

__all__ = ["RemoteEngine", "ServerAddress", "iter_sse", "normalize_base_url", "server_address", "server_message"]

DEFAULT_TIMEOUT_S = 120.0    # the longest wait for a token (or any answer): covers evaluating a long prompt
CONNECT_TIMEOUT_S = 5.0
MAX_TIMEOUT_S = 86400.0      # a day: beyond what any socket timeout needs
DEFAULT_TOP_N = 20           # alternatives asked for per token (capped by what the server allows)
MAX_TOP_N = 100
MAX_JSON_BYTES = MAX_ANSWER_BYTES  # a JSON answer (model list, props, tokens): the longest real ones are a few MB
MAX_ERROR_BYTES = 64 << 10   # what is read of an error answer
PASSWORD_SHOWN = "****"      # in place of the password of an address, wherever it is shown


@dataclass(frozen=True)
class ServerAddress:
    url: str                          # where requests go: normalized, without user name and password
    shown: str                        # what the user sees: the password replaced by PASSWORD_SHOWN
    auth: tuple[str, str] | None      # the address's user name and password, sent as HTTP Basic auth


def normalize_base_url(url: str) -> str:
    """`host:port`, `http://host:port/`, `http://host:port/v1` -> `http://host:port` (paths are added)."""
    url = url.strip()
    if not url:
        raise InvalidSettingsError("the server address is empty (e.g. http://127.0.0.1:8080)")
    if "://" not in url:
        url = "http://" + url
    url = url.rstrip("/")
    return url[:-3].rstrip("/") if url.endswith("/v1") else url


def server_address(url: str) -> ServerAddress:
    """The checked address: scheme http or https, a host, a port in 1-65535; user name and password
    taken out (they become Basic auth). Messages show the address with its password hidden."""
    url = normalize_base_url(url)
    parts = urlsplit(url)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    user, colon, password = userinfo.partition(":")
    hidden = f"{user}:{PASSWORD_SHOWN}" if colon else PASSWORD_SHOWN  # a lone user name is often a token
    shown = urlunsplit(parts._replace(netloc=f"{hidden}@{hostport}" if at else hostport))
    if parts.scheme not in ("http", "https"):
        raise InvalidSettingsError("{shown} is not an http:// or https:// address", shown=shown)
    try:
        port = parts.port
    except ValueError:
        port = 0
    if not parts.hostname:
        raise InvalidSettingsError("{shown} has no host name (e.g. http://127.0.0.1:8080)", shown=shown)
    if port is not None and not 1 <= port <= 65535:
        raise InvalidSettingsError("the port of {shown} must be between 1 and 65535", shown=shown)
    plain = urlunsplit(parts._replace(netloc=hostport))
    try:
        httpx2.URL(plain)
    except (httpx2.InvalidURL, ValueError) as exc:
        raise InvalidSettingsError("{shown} is not a valid address ({exc})", shown=shown, exc=exc) from None
    return ServerAddress(plain, shown, (unquote(user), unquote(password)) if at else None)


class RemoteEngine:
    """The engine interface (engine_api.EngineLike) over HTTP. Nothing is sent until `connect()` or
    the first call that needs the server."""

    def __init__(self, base_url: str, api_key: str | None = None, model: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT_S, verify_tls: bool = True, *,
                 connect_timeout: float = CONNECT_TIMEOUT_S, top_n: int = DEFAULT_TOP_N,
                 post_sampling_probs: bool = False, server: str | None = None) -> None:
        """`server`: the kind of server ("llama-server", "llama-cpp-python", "vllm", "openai"); found
        out when None. `post_sampling_probs`: llama-server only: report each token's probabilities
        after its sampler instead of the raw ones (it gives one or the other per request).
        `timeout`: the longest wait for each token of an answer (and for any other answer)."""
        self.address = server_address(base_url)
        self.base_url = self.address.shown  # the only form of the address ever shown or recorded
        if server is not None and server not in SERVER_KINDS:
            raise InvalidSettingsError("the server kind must be one of {SERVER_KINDS}", SERVER_KINDS=', '.join(SERVER_KINDS))
        if not 1 <= top_n <= MAX_TOP_N:
            raise InvalidSettingsError("alternatives per token must be between 1 and {MAX_TOP_N}", MAX_TOP_N=MAX_TOP_N)
        if not (0 < timeout <= MAX_TIMEOUT_S and 0 < connect_timeout <= MAX_TIMEOUT_S):
            raise InvalidSettingsError("timeouts must be > 0 and at most {MAX_TIMEOUT_S:g} seconds", MAX_TIMEOUT_S=MAX_TIMEOUT_S)
        if api_key and self.address.auth:
            raise InvalidSettingsError("{base_url} carries a user name and password and an API "
                                       "key was given too: both would be sent as the "
                                       "Authorization header; give one of them", base_url=self.base_url)
        self.timeout_s, self.connect_timeout_s = timeout, connect_timeout
        self._api_key_given = bool(api_key)
        self._wanted_model, self._wanted_kind = model, server
        self._top_n, self._post_sampling = top_n, post_sampling_probs
        self._http = httpx2.Client(
            base_url=self.address.url, auth=self.address.auth, verify=verify_tls, follow_redirects=True,
            headers={"Authorization": f"Bearer {api_key}"} if api_key else {},
            timeout=httpx2.Timeout(timeout, connect=connect_timeout, pool=connect_timeout),
            limits=httpx2.Limits(max_keepalive_connections=0))  # a fresh socket per request: see cancel()
        self._info: RemoteModelInfo | None = None
        self._kind: ServerKind | None = None
        self._generate_lock = threading.Lock()
        self._cancelled = threading.Event()
        self._socket_lock = threading.Lock()
        self._socket: socket.socket | None = None

    # -- the server --------------------------------------------------------------------------------
    @property
    def info(self) -> RemoteModelInfo | None:
        return self._info

    @property
    def kind(self) -> ServerKind:
        self.connect()
        assert self._kind is not None
        return self._kind

    def connect(self) -> RemoteModelInfo:
        """Find out the kind of server and its models, and choose the model (idempotent)."""
        if self._info is not None:
            return self._info
        props = self._get_json("/props", optional=True) if self._wanted_kind in (None, "llama-server") else None
        is_llama_server = isinstance(props, dict) and ("default_generation_settings" in props or "build_info" in props)
        # llama-server builds without /v1/models still serve their one model
        listing = self._get_json("/v1/models", optional=is_llama_server or self._wanted_kind == "llama-server")
        if listing is not None and not isinstance(listing, dict):
            raise RemoteEngineError("{base_url}/v1/models is not a model list: is this an "
                                    "OpenAI-compatible server?", base_url=self.base_url)
        data = (listing or {}).get("data")
        entries = [e for e in data if isinstance(e, dict) and isinstance(e.get("id"), str)] if isinstance(data, list) else []
        owner = str(entries[0].get("owned_by")) if entries else ""
        kind = self._wanted_kind or ("llama-server" if is_llama_server else OWNED_BY_KIND.get(owner, "openai"))
        models = [e["id"] for e in entries]
        model = self._choose_model(models, props if is_llama_server else None)
        entry = next((e for e in entries if e["id"] == model), {})
        self._kind = SERVER_KINDS[kind]
        if self._post_sampling and not self._kind.post_sampling:
            raise InvalidSettingsError("post-sampling probabilities need llama-server; "
                                       "{base_url} is {kind}", base_url=self.base_url, kind=kind)
        self._info = RemoteModelInfo(self.base_url, model, kind, models, _n_ctx(props, entry))
        return self._info

    def _choose_model(self, models: list[str], props: Mapping[str, Any] | None) -> str:
        if self._wanted_model:
            if models and self._wanted_model not in models:
                raise RemoteEngineError("{base_url} has no model {model!r}; it serves: {models}",
                                        base_url=self.base_url, model=self._wanted_model, models=", ".join(models[:20]))
            return self._wanted_model
        if models:
            return models[0]
        model_path = props.get("model_path") if props else None
        if isinstance(model_path, str):
            return model_path  # llama-server serves one model, whatever the name sent
        raise RemoteEngineError("{base_url} lists no models: name one with --remote-model", base_url=self.base_url)

    def list_models(self) -> list[str]:
        return list(self.connect().models)

    def capabilities(self) -> dict[str, object]:
        kind = self.kind
        return {"backend": f"remote ({kind.name})", "gpu_offload": False, "remote": True,
                "raw_probs": not self._post_sampling, "final_probs": self._post_sampling, "stages": False,
                "entropy": False, "kv": False, "token_ids": kind.token_ids, "tokenize": kind.tokenize is not None,
                "vocab": False, "fork": False, "unsupported_settings": dict(kind.unsupported),
                "samplers": applied_stages(kind.unsupported), "grammar": "grammar" not in kind.unsupported,
                "kv_map": False, "forward_pass": False, "beams": False, "score": False, "batched": False,
                "speculative": False}

    # -- generation --------------------------------------------------------------------------------
    def check_settings(self, settings: SamplerSettings) -> None:
        """What can be checked here before a request (InvalidSettingsError): the values, and that a JSON
        schema is a JSON object. The server checks a grammar itself (its refusal is an error then)."""
        settings.validate()
        if settings.json_schema:
            json_schema_object(settings.json_schema)

    def generate(self, request: GenerateRequest,
                 on_step: Callable[[StepRecord], None] | None = None) -> GenerationResult:
        request.validate()
        if request.assistant_prefix or request.options.forced:
            raise UnsupportedByServerError("forking at a token continues from token ids, but a remote server "
                                           "takes text: fork with a local model")
        if request.options.draft:
            raise UnsupportedByServerError("speculative decoding needs the local engine: a remote server does "
                                           "its own decoding")
        if request.steering is not None and request.steering.active:
            raise UnsupportedByServerError("control vectors and LoRA adapters need the local engine: a remote "
                                           "server applies its own (llama-server's --control-vector, --lora)")
        info, kind = self.connect(), self.kind
        settings = request.settings
        if settings.seed is None:  # drawn here so the result records it; 31 bits suit every server
            settings = replace(settings, seed=secrets.randbits(31))
        wire = build_request(kind, info.model, request, settings, self._top_n, self._post_sampling)
        recorded = settings.to_dict() | {
            "max_tokens": request.options.max_tokens, "stop": list(request.options.stop),
            "engine": {"url": self.base_url, "model": info.model, "server": kind.name,
                       "not_applied": sorted(wire.not_applied)}}
        with self._generate_lock:
            self._cancelled.clear()
            answer = Answer(time.perf_counter(), request.options.max_tokens, notices=[
                Message("{name} = {value} was not applied: {why}", name=name, value=readable(name, getattr(settings, name)),
                        why=why)
                for name, why in wire.not_applied.items()])
            if request.options.reasoning_budget != UNLIMITED:
                answer.notices.append(Message("the thinking budget ({budget}) was not applied: a remote server does "
                                              "its own thinking (llama-server's --reasoning-budget)",
                                              budget=request.options.reasoning_budget))
            try:
                self._stream(wire, answer, on_step)
            except RemoteEngineError as exc:
                if self._cancelled.is_set():
                    return answer.result("cancelled", recorded, info.n_ctx)
                raise self._broken_off(exc, answer, recorded) from None
            finally:
                with self._socket_lock:
                    self._socket = None
        if self._cancelled.is_set():
            return answer.result("cancelled", recorded, info.n_ctx)
        if not answer.complete:
            raise self._broken_off(RemoteEngineError(
                "the stream from {base_url} ended before the answer was complete (after "
                "{n_steps} tokens)", base_url=self.base_url, n_steps=len(answer.steps)), answer, recorded)
        return answer.result(answer.finish or "stop", recorded, info.n_ctx)

    def _broken_off(self, exc: RemoteEngineError, answer: Answer, recorded: dict[str, Any]) -> RemoteEngineError:
        """`exc`, carrying the answer so far (finish_reason "error"), even without a token: a trace that
        was asked for still ends with its result, which says why."""
        partial = answer.result("error", recorded, self._info.n_ctx if self._info else None)
        partial.notices.append(exc.message)
        exc.partial = partial
        return exc

    def _stream(self, wire: WireRequest, answer: Answer, on_step: Callable[[StepRecord], None] | None) -> None:
        try:
            with self._http.stream("POST", wire.path, json=wire.body,
                                   extensions={"trace": self._remember_socket}) as response:
                if response.status_code >= 400:
                    raise self._http_error(response, wire.path)
                content_type = response.headers.get("content-type", "")
                if not content_type.startswith("text/event-stream"):
                    raise RemoteEngineError(
                        "{base_url}{wire_path} answered with {value}, not a stream of events: "
                        "{value2}", base_url=self.base_url, wire_path=wire.path, value=content_type or 'no content type', value2=server_message(_read_some(response)) or 'empty')
                # leaving the block closes the connection: a server past max_tokens sees it and stops
                read_answer(response.iter_bytes(), wire.format, answer, self.timeout_s, on_step,
                            stop=self._cancelled, source=self.base_url)
        except httpx2.HTTPError as exc:
            if self._cancelled.is_set():
                return
            raise self._transport_error(exc, answer) from None

    def cancel(self) -> None:
        """Stop the current generation (any thread): it returns finish_reason "cancelled"."""
        self._cancelled.set()
        # No lock here: the CLI calls this from its SIGINT handler, which runs on the main thread and would
        # deadlock if that thread held the lock when the signal came. Reading one attribute is atomic.
        sock = self._socket
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes a blocked read at once; close() would not

    def _remember_socket(self, event: str, info: Mapping[str, Any]) -> None:
        """httpcore's trace hook: keep the generation's socket, so cancel() can shut it down."""
        if event not in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            return
        stream = info.get("return_value")
        sock = stream.get_extra_info("socket") if stream is not None else None
        with self._socket_lock:
            self._socket = sock
        if self._cancelled.is_set():
            self.cancel()

    # -- tokens ------------------------------------------------------------------------------------
    def tokenize(self, text: str, add_special: bool = False, parse_special: bool = True) -> list[int]:
        """The server's tokenization. Flags the server does not take are left to it (llama-cpp-python
        adds BOS when the model wants one)."""
        kind, info = self.kind, self.connect()
        if kind.tokenize is None:
            raise UnsupportedByServerError("{base_url} ({kind_name}) cannot tokenize text", base_url=self.base_url, kind_name=kind.name)
        path, text_field = kind.tokenize
        flags = {"add_special": add_special, "parse_special": parse_special}
        body = {"model": info.model, text_field: text} | {kind.tokenize_flags[k]: v for k, v in flags.items()
                                                          if k in kind.tokenize_flags}
        data = self._request_json("POST", path, body, optional=True)
        if data is None:
            raise UnsupportedByServerError("{base_url} has no {path}: it cannot tokenize text", base_url=self.base_url, path=path)
        tokens = data.get("tokens") if isinstance(data, dict) else None
        if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
            raise RemoteEngineError("{base_url}{path} did not answer with a list of token ids", base_url=self.base_url, path=path)
        return tokens

    def prompt_tokens(self, request: GenerateRequest) -> list[int]:
        raise UnsupportedByServerError("{base_url} applies its own chat template: the prompt's tokens "
                                       "are not known here", base_url=self.base_url)

    def vocab(self) -> list[bytes]:
        raise UnsupportedByServerError("{base_url} does not publish its vocabulary: alternatives "
                                       "are shown by their text", base_url=self.base_url)

    def inspect(self, request: InspectRequest) -> ForwardInspection:
        raise _no_forward_pass()

    def generate_batched(self, request: BatchedRequest,
                         on_step: Callable[[AnswerStep], None] | None = None) -> BatchedResult:
        raise UnsupportedByServerError("answers decoded together are not available on a remote engine: they share "
                                       "a local model's context, one llama.cpp sequence each")

    def throughput(self, request: ThroughputRequest, on_progress: Callable[[float], None] | None = None,
                   on_point: Callable[[ThroughputPoint], None] | None = None) -> ThroughputResult:
        raise UnsupportedByServerError("throughput against the batch size is measured on a local model: a server "
                                       "batches its own requests")

    def beam_search(self, request: BeamRequest, on_progress: Callable[[BeamProgress], None] | None = None) -> BeamResult:
        raise UnsupportedByServerError("beam search is not available on a remote engine: it keeps every "
                                       "hypothesis in llama.cpp sequences of a local model's context")

    def attention_matrix(self, tokens: list[int], layer: int, head: int, steering: Steering | None = None,
                         knockouts: tuple[Ablation, ...] = ()) -> AttentionMatrix:
        raise _no_forward_pass()

    def score(self, request: ScoreRequest, on_progress: Callable[[float], None] | None = None) -> ScoreResult:
        raise UnsupportedByServerError("this engine cannot score texts: a remote server does not report every "
                                       "token's probability over the whole vocabulary; score with a local model")

    def save_distributions(self, tokens: list[int], first: int, path: str, steering: Steering | None = None) -> int:
        raise _no_distributions()

    def compare_distributions(self, tokens: list[int], first: int, path: str,
                              steering: Steering | None = None) -> ForcedKl:
        raise _no_distributions()

    def set_threads(self, n_threads: int) -> int:
        raise UnsupportedByServerError("{base_url} chooses its own threads", base_url=self.base_url)

    def compare_steering(self, request: SteeringCompareRequest) -> SteeringCompare:
        raise UnsupportedByServerError("control vectors and LoRA adapters need the local engine: a remote "
                                       "server applies its own (llama-server's --control-vector, --lora)")

    def ablate(self, request: AblateRequest) -> AblationEffect:
        raise _no_causal_tracing()

    def head_scan(self, request: HeadScanRequest, on_progress: Callable[[float], None] | None = None) -> HeadScan:
        raise _no_causal_tracing()

    def patch(self, request: PatchRequest, on_progress: Callable[[float], None] | None = None) -> PatchResult:
        raise _no_causal_tracing()

    # -- life --------------------------------------------------------------------------------------
    def close(self) -> None:
        self.cancel()
        self._http.close()

    def __enter__(self) -> RemoteEngine:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- HTTP --------------------------------------------------------------------------------------
    def _get_json(self, path: str, optional: bool = False) -> Any:
        return self._request_json("GET", path, None, optional)

    def _request_json(self, method: str, path: str, body: dict[str, Any] | None, optional: bool) -> Any:
        """The JSON answer; None when `optional` and the server has no such endpoint (or answers it
        with something else than JSON). 401/403 always raise: they need the user. The answer is read
        up to MAX_JSON_BYTES and within `timeout`, whatever the server sends."""
        try:
            with self._http.stream(method, path, json=body) as response:
                if response.status_code in (401, 403) or (response.status_code >= 400 and not optional):
                    raise self._http_error(response, path)
                if response.status_code >= 400:
                    return None
                raw = self._read_bounded(response, path)
        except httpx2.HTTPError as exc:
            raise self._transport_error(exc, None) from None
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            if optional:
                return None
            raise RemoteEngineError("{base_url}{path} did not answer with JSON: is this an "
                                    "OpenAI-compatible server?", base_url=self.base_url, path=path) from None

    def _read_bounded(self, response: httpx2.Response, path: str) -> bytearray:
        body, stopped = _read_capped(response, MAX_JSON_BYTES, self.timeout_s)
        if stopped == "size":
            raise RemoteEngineError("{base_url}{path} sent more than {value} MiB: that is not "
                                    "the answer of an OpenAI-compatible server (is this the "
                                    "right address?)", base_url=self.base_url, path=path, value=MAX_JSON_BYTES >> 20)
        if stopped == "time":
            raise RemoteEngineError("{base_url}{path} did not finish its answer within "
                                    "{timeout_s:g} s: the request was given up", base_url=self.base_url, path=path, timeout_s=self.timeout_s)
        return body

    def _http_error(self, response: httpx2.Response, path: str) -> RemoteEngineError:
        status = f"{response.status_code} {response.reason_phrase}".strip()
        detail = server_message(_read_some(response))
        said = f"{status}: {detail}" if detail else status
        if response.status_code in (401, 403):
            hint = ("check the API key given with --api-key" if self._api_key_given else
                    "it wants an API key: give it with --api-key (or LOGITSCOPE_API_KEY)")
            return RemoteEngineError("{base_url} refused the request ({said}); {hint}", base_url=self.base_url, said=said, hint=hint)
        if response.status_code == 404:
            return RemoteEngineError("{base_url} has no {path} ({said}): is this the right "
                                     "address of an OpenAI-compatible server?", base_url=self.base_url, path=path, said=said)
        return RemoteEngineError("{base_url} answered {path} with {said}", base_url=self.base_url, path=path, said=said)

    def _transport_error(self, exc: httpx2.HTTPError, answer: Answer | None) -> RemoteEngineError:
        cut = Message(" after {n} tokens", n=len(answer.steps)) if answer is not None else ""
        reason = str(exc) or type(exc).__name__
        url = self.base_url
        if isinstance(exc, httpx2.ConnectTimeout):
            return RemoteEngineError("{url} did not accept a connection within {timeout_s:g} s",
                                     url=url, timeout_s=self.connect_timeout_s)
        if isinstance(exc, httpx2.ConnectError) and "CERTIFICATE" in reason.upper():
            return RemoteEngineError("the TLS certificate of {url} could not be verified ({reason}); "
                                     "--insecure skips the check, only for a server you trust", url=url, reason=reason)
        if isinstance(exc, httpx2.ConnectError):
            return RemoteEngineError("cannot connect to {url} ({reason}): is the server running?", url=url, reason=reason)
        if isinstance(exc, httpx2.ReadTimeout):
            return RemoteEngineError("{url} sent nothing for {timeout_s:g} s{cut}: the answer was given up",
                                     url=url, timeout_s=self.timeout_s, cut=cut)
        if isinstance(exc, httpx2.RemoteProtocolError | httpx2.ReadError):
            return RemoteEngineError("the connection to {url} broke{cut} ({reason}): did the server stop?",
                                     url=url, cut=cut, reason=reason)
        return RemoteEngineError("the request to {url} failed{cut} ({kind}: {reason})",
                                 url=url, cut=cut, kind=type(exc).__name__, reason=reason)


def _read_capped(response: httpx2.Response, limit: int, timeout_s: float) -> tuple[bytearray, str | None]:
    """The answer's bytes, read until it ends, passes `limit` bytes or `timeout_s` seconds (a server can
    trickle for ever): the bytes, and why the reading stopped early ("size", "time"; None: the end)."""
    deadline = time.monotonic() + timeout_s
    body = bytearray()
    for part in response.iter_bytes():
        body += part
        if len(body) > limit:
            return body, "size"
        if time.monotonic() > deadline:
            return body, "time"
    return body, None


def _read_some(response: httpx2.Response, timeout_s: float = CONNECT_TIMEOUT_S) -> bytes:
    """At most MAX_ERROR_BYTES of a (possibly streamed) answer, for a few seconds: enough for an error message."""
    try:
        return bytes(_read_capped(response, MAX_ERROR_BYTES, timeout_s)[0][:MAX_ERROR_BYTES])
    except (httpx2.HTTPError, httpx2.StreamConsumed):
        return response.content[:MAX_ERROR_BYTES] if response.is_closed else b""


def _n_ctx(props: Any, entry: Mapping[str, Any]) -> int | None:
    """The context size: llama-server's /props, or vLLM's max_model_len in /v1/models."""
    candidates = []
    if isinstance(props, dict):
        settings = props.get("default_generation_settings")
        candidates += [settings.get("n_ctx") if isinstance(settings, dict) else None, props.get("n_ctx")]
    candidates.append(entry.get("max_model_len"))
    return next((n for n in candidates if count(n) > 0), None)




def _no_causal_tracing() -> UnsupportedByServerError:
    return UnsupportedByServerError("knocking out heads and patching activations needs the local engine: a "
                                    "server does not let anyone write into its forward pass")


def _no_forward_pass() -> UnsupportedByServerError:
    return UnsupportedByServerError("the layer lens and attention maps are not available on a remote engine: "
                                    "a server does not show the inside of its forward pass")


def _no_distributions() -> UnsupportedByServerError:
    return UnsupportedByServerError("comparing two models token by token needs the local engine: a remote server "
                                    "does not give every token's probability over the whole vocabulary")
