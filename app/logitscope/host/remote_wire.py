"""The wire formats of remote engines, without any I/O: what to send (the sampler settings mapped to each
kind of server, and what cannot be sent), and how streamed chunks become StepRecords.

Three streamed formats are read:
- OpenAI chat, `/v1/chat/completions`: choices[0].delta.content (or .reasoning_content: a reasoning model's
  thinking, which the server split off), and choices[0].logprobs.content[] =
  {token, bytes, logprob, top_logprobs[{token, bytes, logprob}]}. llama-server adds `id` to each and,
  asked for post-sampling probabilities, writes `prob` / `top_probs` instead of the logprobs.
- OpenAI completions, `/v1/completions`: choices[0].text, and choices[0].logprobs = {tokens[],
  token_logprobs[], top_logprobs[{text: logprob}]}.
- llama-server's native `/completion`: content, completion_probabilities[] = {id, token, bytes,
  logprob | prob, top_logprobs | top_probs}, and on the last chunk stop, stop_type, timings.

Servers report log-probabilities of the raw distribution (softmax of the untouched logits); a step keeps
them as `raw_logits` with `raw_lse = 0`, so `raw_probs` and the replay work as for a local step.
What a server does not report stays unknown (NaN, -1, no stages): it is never made up.

Nothing a server sends is trusted: a log-probability above 0 or not finite, or a probability outside
[0, 1], is unknown (the token's own: NaN; an alternative's: left out), and counted in `absurd`; ids
and counts are non-negative int32 or unknown (-1); pieces and texts fit the trace's storage
(MAX_PIECE_BYTES); text that is not valid Unicode (lone surrogates) is repaired. Anything else
out of shape is a MalformedChunk; a chunk of another format (chat chunks from the completions endpoint,
OpenAI chunks from llama-server's /completion) is a ForeignChunk, so the reader can say what arrived.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from logitscope.base.utf8 import Utf8Stream
from logitscope.host.remote_params import STAGE_SETTINGS, extra_params, not_applied, stage_on
from logitscope.protocol.api import GenerateRequest
from logitscope.protocol.sampler_settings import SamplerSettings, is_on
from logitscope.protocol.trace import RAW_TOP_N, StepRecord

NAN = float("nan")
MAX_PIECE_BYTES = 0xFFFF     # a step's piece and text, and each candidate's piece: pack_step stores uint16 lengths
MAX_COUNT = 2**31 - 1        # ids and counts: int32 in the trace, and what a real server reports
LOWEST_LOGPROB = float(np.finfo(np.float32).min)  # lower ones are kept as this (p = 0 all the same): float32 logits
CHAT, COMPLETIONS, NATIVE = "chat", "completions", "native"   # the three streamed formats
PATHS = {CHAT: "/v1/chat/completions", COMPLETIONS: "/v1/completions", NATIVE: "/completion"}

# OpenAI's own sampling parameters: every compatible server takes these.
_OPENAI_PARAMS = {"temperature": "temperature", "top_p": "top_p", "frequency_penalty": "frequency_penalty",
                  "presence_penalty": "presence_penalty", "seed": "seed"}


@dataclass(frozen=True)
class ServerKind:
    """What one kind of server accepts and reports."""

    name: str
    params: Mapping[str, str]            # SamplerSettings field -> the server's parameter
    unsupported: Mapping[str, str]       # SamplerSettings field -> why it is not sent
    fixed_order: str | None = None       # the sampler order the server always uses, when known
    native_prompt: bool = False          # raw prompts go to llama-server's /completion (n_probs)
    post_sampling: bool = False          # can report post-sampling probabilities
    token_ids: bool = False              # reports token ids
    tokenize: tuple[str, str] | None = None   # (path, the body's text field), if it tokenizes
    tokenize_flags: Mapping[str, str] = field(default_factory=dict)  # tokenize()'s flags it takes -> its field
    top_k_off: int = 0                   # the top_k value that means "off"
    max_top: int = 20                    # the most alternatives per token it returns

    def settings_not_applied(self, s: SamplerSettings) -> dict[str, str]:
        """The settings this server ignores that would change the result, with the reason."""
        return not_applied(self.unsupported, self.fixed_order, s)


_NOT_OPENAI = "not part of the OpenAI API"
# llama.cpp's settings under llama-server's own names (tools/server/server-schema.cpp); the lists, the
# logit bias, the grammar and the schema are sent by remote_params.extra_params.
_LLAMA_SERVER_PARAMS = {
    "top_k": "top_k", "min_p": "min_p", "repeat_penalty": "repeat_penalty", "repeat_last_n": "repeat_last_n",
    "min_keep": "min_keep", "typical_p": "typical_p", "top_n_sigma": "top_n_sigma",
    **{name: name for name in ("dry_multiplier", "dry_base", "dry_allowed_length", "dry_penalty_last_n",
                               "xtc_probability", "xtc_threshold", "dynatemp_range", "dynatemp_exponent",
                               "mirostat", "mirostat_tau", "mirostat_eta")}}


_DRY = ("dry_multiplier", "dry_base", "dry_allowed_length", "dry_penalty_last_n", "dry_sequence_breakers")
_XTC = ("xtc_probability", "xtc_threshold")
_DYNATEMP = ("dynatemp_range", "dynatemp_exponent")
_MIROSTAT = ("mirostat", "mirostat_tau", "mirostat_eta")
SERVER_KINDS: dict[str, ServerKind] = {
    "llama-server": ServerKind(
        "llama-server", params={**_OPENAI_PARAMS, **_LLAMA_SERVER_PARAMS},
        unsupported={}, native_prompt=True, post_sampling=True, token_ids=True,
        tokenize=("/tokenize", "content"), tokenize_flags={"add_special": "add_special",
                                                            "parse_special": "parse_special"},
        max_top=100),
    "llama-cpp-python": ServerKind(
        "llama-cpp-python",
        params={**_OPENAI_PARAMS, "top_k": "top_k", "min_p": "min_p", "repeat_penalty": "repeat_penalty",
                "mirostat": "mirostat_mode", "mirostat_tau": "mirostat_tau", "mirostat_eta": "mirostat_eta"},
        unsupported={"repeat_last_n": "llama-cpp-python's server fixes it when it starts (--last_n_tokens_size)",
                     "samplers": "llama-cpp-python's server always applies the temperature last",
                     "min_keep": "llama-cpp-python's server always keeps at least 1",
                     **dict.fromkeys(("typical_p", "top_n_sigma", *_DRY, *_XTC, *_DYNATEMP),
                                     "llama-cpp-python's server has no such setting")},
        # Its /extras/tokenize always adds BOS when the model wants one and parses special tokens.
        fixed_order="temperature_last", tokenize=("/extras/tokenize", "input"), max_top=100),
    "vllm": ServerKind(
        "vllm",
        params={**_OPENAI_PARAMS, "top_k": "top_k", "min_p": "min_p", "repeat_penalty": "repetition_penalty"},
        unsupported={"repeat_last_n": "vLLM's repetition penalty covers the whole prompt and answer",
                     "samplers": "vLLM always applies the temperature first",
                     "grammar": "vLLM's grammars are EBNF or Lark, not llama.cpp's GBNF",
                     **dict.fromkeys(("min_keep", "typical_p", "top_n_sigma", *_DRY, *_XTC, *_DYNATEMP, *_MIROSTAT),
                                     "vLLM has no such setting")},
        fixed_order="temperature_first", tokenize=("/tokenize", "prompt"),
        tokenize_flags={"add_special": "add_special_tokens"}, top_k_off=-1),
    "openai": ServerKind(
        "openai", params=dict(_OPENAI_PARAMS),
        unsupported={"samplers": "the server's sampler order is not known",
                     **dict.fromkeys(("top_k", "min_p", "repeat_penalty", "repeat_last_n", "min_keep", "typical_p",
                                      "top_n_sigma", "grammar", *_DRY, *_XTC, *_DYNATEMP, *_MIROSTAT), _NOT_OPENAI)}),
}
# Who answers GET /v1/models with which `owned_by` (llama-server is found by its /props instead).
OWNED_BY_KIND = {"vllm": "vllm", "me": "llama-cpp-python", "llamacpp": "llama-server"}


# -- requests ------------------------------------------------------------------------------------

@dataclass
class WireRequest:
    format: str                  # CHAT | COMPLETIONS | NATIVE
    path: str
    body: dict[str, Any]
    not_applied: dict[str, str]  # settings the server ignores that matter here, with the reason


def build_request(kind: ServerKind, model: str, request: GenerateRequest, settings: SamplerSettings,
                  top_n: int, post_sampling: bool) -> WireRequest:
    """The streamed request for `request` (validated, its seed fixed) on a server of this kind."""
    top_n = max(1, min(top_n, kind.max_top))
    params: dict[str, Any] = {kind.params[name]: getattr(settings, name) for name in kind.params
                              if name not in STAGE_SETTINGS or stage_on(name, settings)}
    extra, partly = extra_params(kind.name, settings, chat=request.messages is not None)
    params |= extra
    if "top_k" in kind.params and settings.top_k == 0:
        params[kind.params["top_k"]] = kind.top_k_off
    if kind.name == "llama-server":
        params["samplers"] = [n for n in settings.samplers if is_on(n, settings)]  # llama-server's sampler names are ours
        params["post_sampling_probs"] = post_sampling
    options = request.options
    stop = list(options.stop)
    if request.messages is not None:
        head = [{"role": "system", "content": request.system}] if request.system else []
        messages = head + [{"role": m.role, "content": m.content} for m in request.messages
                           if not (request.system and m.role == "system")]
        body = {"model": model, "messages": messages, "logprobs": True, "top_logprobs": top_n,
                "max_tokens": options.max_tokens, **params}
        fmt = CHAT
    elif kind.native_prompt:
        body = {"prompt": request.prompt, "n_predict": options.max_tokens, "n_probs": top_n,
                "cache_prompt": True, **params}
        fmt = NATIVE
    else:
        # OpenAI's legacy completions return at most 5 alternatives; compatible servers more.
        n = min(top_n, 5) if kind.name == "openai" else top_n
        body = {"model": model, "prompt": request.prompt, "logprobs": n, "max_tokens": options.max_tokens,
                **params}
        fmt = COMPLETIONS
    body["stream"] = True
    if fmt != NATIVE:
        body["stream_options"] = {"include_usage": True}
    if stop:
        body["stop"] = stop
    return WireRequest(fmt, PATHS[fmt], body, kind.settings_not_applied(settings) | partly)


# -- chunks --------------------------------------------------------------------------------------

class MalformedChunk(ValueError):
    """A streamed chunk that does not have the shape of its format."""


class ForeignChunk(MalformedChunk):
    """A streamed chunk of another format, or of no format known here: the request went to the wrong kind
    of endpoint (or server)."""


def _openai_choices(data: Mapping[str, Any], own: str, other: tuple[str, ...]) -> Sequence[Any]:
    """`choices` of an OpenAI chunk whose choice carries `own`; ForeignChunk for one without choices (nor
    usage: the last chunk may have only that) and for a choice that carries another format's field instead."""
    if "choices" not in data and "usage" not in data:
        raise ForeignChunk("no choices")
    choices = _list(data.get("choices"), "choices")
    if choices and isinstance(choices[0], Mapping) and own not in choices[0]:
        found = next((key for key in other if key in choices[0]), None)
        if found is not None:
            raise ForeignChunk(f"choices[0].{found} instead of choices[0].{own}")
    return choices


@dataclass
class Candidate:
    token: int          # -1: the server gave no id
    piece: bytes
    value: float        # log-probability (raw) or probability (post-sampling)


@dataclass
class TokenReport:
    """One generated token as the server reported it."""

    token: int = -1
    piece: bytes = b""
    logprob: float = NAN        # raw distribution
    prob: float = NAN           # post-sampling distribution
    top: list[Candidate] = field(default_factory=list)
    top_is_prob: bool = False   # top[].value are post-sampling probabilities, not raw log-probabilities
    absurd: int = 0             # probabilities out of range the server sent for this token (left out)


@dataclass
class Chunk:
    text: str = ""                          # the visible text this chunk adds
    tokens: list[TokenReport] = field(default_factory=list)
    finish_reason: str | None = None        # as the server said it
    usage: Mapping[str, Any] | None = None  # OpenAI usage (prompt_tokens, ...)
    timings: Mapping[str, Any] | None = None  # llama-server's timings (prompt_n, prompt_ms, ...)
    n_prompt: int = -1                      # llama-server's tokens_evaluated
    reasoning: bool = False                 # the text is the server's reasoning_content (thinking, split off)


def _number(x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise MalformedChunk(f"expected a number, got {type(x).__name__}")
    try:
        return float(x)
    except OverflowError:  # an integer beyond any float: out of range
        return NAN


def _in_range(value: float, is_prob: bool) -> bool:
    """A probability in [0, 1], or a log-probability in (-inf, 0]."""
    return math.isfinite(value) and (0.0 <= value <= 1.0 if is_prob else value <= 0.0)


def count(x: Any) -> int:
    """An id or a count the server reports: a non-negative int32, else -1 (unknown)."""
    return x if isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_COUNT else -1


def _text(x: Any, what: str) -> str:
    """Visible text: at most MAX_PIECE_BYTES of UTF-8; lone surrogates (a JSON escape can carry them)
    become U+FFFD, since they cannot be written out."""
    if x is None:
        return ""
    if not isinstance(x, str):
        raise MalformedChunk(f"{what} is not text")
    text: str = x
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        size = len(text.encode("utf-8"))
    if size > MAX_PIECE_BYTES:
        raise MalformedChunk(f"{what} is longer than {MAX_PIECE_BYTES} bytes")
    return text


def _bounded(piece: bytes) -> bytes:
    if len(piece) > MAX_PIECE_BYTES:
        raise MalformedChunk(f"a token is longer than {MAX_PIECE_BYTES} bytes")
    return piece


def _dict(x: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(x, Mapping):
        raise MalformedChunk(f"{what} is not an object")
    return x


def _extra(x: Any) -> Mapping[str, Any] | None:
    """An optional object the answer does not depend on (usage, timings): dropped when malformed."""
    return x if isinstance(x, Mapping) else None


def _list(x: Any, what: str) -> Sequence[Any]:
    if x is None:
        return []
    if not isinstance(x, list):
        raise MalformedChunk(f"{what} is not a list")
    return x


def _token_id(entry: Mapping[str, Any]) -> int:
    return count(entry.get("id", -1))


def _piece_of_text(text: str) -> bytes:
    """A token's bytes from its text; lone surrogates kept as their (invalid) UTF-8 bytes."""
    return _bounded(text.encode("utf-8", "surrogatepass"))


def _piece(entry: Mapping[str, Any]) -> bytes:
    """The token's bytes: the `bytes` list when given (exact), else its text."""
    raw = entry.get("bytes")
    if isinstance(raw, list):
        if len(raw) > MAX_PIECE_BYTES:
            raise MalformedChunk(f"a token is longer than {MAX_PIECE_BYTES} bytes")
        try:
            return bytes(raw)
        except (TypeError, ValueError, OverflowError):
            raise MalformedChunk("a token's bytes are not a list of bytes") from None
    text = entry.get("token")
    if not isinstance(text, str):
        raise MalformedChunk("a token has no text")
    return _piece_of_text(text)


def _report(entry: Any) -> TokenReport:
    """One entry of OpenAI chat logprobs.content or llama-server's completion_probabilities."""
    entry = _dict(entry, "a token entry")
    post = "prob" in entry
    value_key = "prob" if post else "logprob"
    report = TokenReport(_token_id(entry), _piece(entry), top_is_prob=post)
    for alternative in _list(entry.get("top_probs" if post else "top_logprobs"), "the alternatives"):
        alternative = _dict(alternative, "an alternative")
        value = _number(alternative.get(value_key))
        if _in_range(value, post):
            report.top.append(Candidate(_token_id(alternative), _piece(alternative),
                                        value if post else max(value, LOWEST_LOGPROB)))
        else:
            report.absurd += 1
    value = entry.get(value_key)
    if value is not None:
        value = _number(value)
        if not _in_range(value, post):
            report.absurd += 1
        elif post:
            report.prob = value
        else:
            report.logprob = value
    return report


def _finish(choice: Mapping[str, Any]) -> str | None:
    reason = choice.get("finish_reason")
    if reason is not None and not isinstance(reason, str):
        raise MalformedChunk("finish_reason is not text")
    return reason


def parse_chat(data: Mapping[str, Any]) -> Chunk:
    chunk = Chunk(usage=_extra(data.get("usage")), timings=_extra(data.get("timings")))
    choices = _openai_choices(data, "delta", ("text", "message"))
    if not choices:
        return chunk  # the usage chunk at the end
    choice = _dict(choices[0], "a choice")
    delta = _dict(choice.get("delta") or {}, "delta")
    chunk.text = _text(delta.get("content") or None, "delta.content")
    # llama-server (--reasoning-format deepseek, its default) and vLLM stream the thinking apart
    thought = _text(delta.get("reasoning_content") or delta.get("reasoning") or None, "delta.reasoning_content")
    if thought and not chunk.text:
        chunk.text, chunk.reasoning = thought, True
    logprobs = choice.get("logprobs")
    if logprobs:
        chunk.tokens = [_report(e) for e in _list(_dict(logprobs, "logprobs").get("content"), "logprobs.content")]
    chunk.finish_reason = _finish(choice)
    return chunk


def parse_completion(data: Mapping[str, Any]) -> Chunk:
    chunk = Chunk(usage=_extra(data.get("usage")))
    choices = _openai_choices(data, "text", ("delta", "message"))
    if not choices:
        return chunk
    choice = _dict(choices[0], "a choice")
    chunk.text = _text(choice.get("text") or None, "text")
    logprobs = choice.get("logprobs")
    if logprobs:
        logprobs = _dict(logprobs, "logprobs")
        texts = _list(logprobs.get("tokens"), "logprobs.tokens")
        values = _list(logprobs.get("token_logprobs"), "logprobs.token_logprobs")
        tops = _list(logprobs.get("top_logprobs"), "logprobs.top_logprobs")
        if len(values) != len(texts) or (tops and len(tops) != len(texts)):
            raise MalformedChunk("logprobs lists of different lengths")
        for k, text in enumerate(texts):
            if not isinstance(text, str):
                raise MalformedChunk("a token has no text")
            alternatives = _dict((tops[k] if tops else None) or {}, "top_logprobs")
            report = TokenReport(-1, _piece_of_text(text))
            for t, v in alternatives.items():
                value = _number(v)
                if _in_range(value, False):
                    report.top.append(Candidate(-1, _piece_of_text(str(t)), max(value, LOWEST_LOGPROB)))
                else:
                    report.absurd += 1
            if values[k] is not None:
                value = _number(values[k])
                if _in_range(value, False):
                    report.logprob = value
                else:
                    report.absurd += 1
            chunk.tokens.append(report)
    chunk.finish_reason = _finish(choice)
    return chunk


_NATIVE_STOP = {"eos": "stop", "word": "stop", "limit": "length"}


def parse_native(data: Mapping[str, Any]) -> Chunk:
    if not data.keys() & {"content", "completion_probabilities", "tokens", "stop"}:
        raise ForeignChunk("choices instead of content" if "choices" in data else "no content")
    text = _text(data.get("content") or None, "content")
    chunk = Chunk(text, [_report(e) for e in _list(data.get("completion_probabilities"), "completion_probabilities")])
    ids = data.get("tokens")
    if not chunk.tokens and isinstance(ids, list) and len(ids) == 1 and count(ids[0]) >= 0:
        chunk.tokens = [TokenReport(ids[0], _piece_of_text(text))]  # ids without probabilities
    if data.get("stop"):
        stop_type = data.get("stop_type")
        chunk.finish_reason = _NATIVE_STOP.get(stop_type, "stop") if isinstance(stop_type, str) else "stop"
        chunk.timings = _extra(data.get("timings"))
        chunk.n_prompt = count(data.get("tokens_evaluated"))
    return chunk


PARSERS = {CHAT: parse_chat, COMPLETIONS: parse_completion, NATIVE: parse_native}


# -- steps ---------------------------------------------------------------------------------------

def _rank(report: TokenReport, top: list[Candidate]) -> int:
    for k, c in enumerate(top):
        same = c.token == report.token if report.token >= 0 and c.token >= 0 else c.piece == report.piece
        if same:
            return k
    return -1  # not among the alternatives the server sent: unknown


def _head(top: list[Candidate]) -> tuple[np.ndarray, np.ndarray, list[bytes]]:
    return (np.array([c.token for c in top], dtype=np.int32), np.array([c.value for c in top], dtype=np.float32),
            [c.piece for c in top])


def _texts(chunk: Chunk) -> list[str]:
    """Split the chunk's text over its tokens (usually one). Several tokens: each one's bytes through a
    UTF-8 decoder, the last taking the rest, so the texts always add up to what the server sent."""
    n = len(chunk.tokens)
    if n == 1:
        return [chunk.text]
    utf8 = Utf8Stream()
    first = [utf8.feed(r.piece) for r in chunk.tokens[:-1]]
    joined = "".join(first)
    if chunk.text.startswith(joined):
        return [*first, chunk.text[len(joined):]]
    return [""] * (n - 1) + [chunk.text]


def to_step(i: int, report: TokenReport, text: str, latency_s: float) -> StepRecord:
    top = sorted(report.top, key=lambda c: -c.value)[:RAW_TOP_N]  # in any order from some servers; a local step's bound
    empty_ids, empty_values = np.empty(0, np.int32), np.empty(0, np.float32)
    raw_ids, raw_logits, raw_pieces = (empty_ids, empty_values, []) if report.top_is_prob else _head(top)
    final_ids, final_probs, final_pieces = _head(top) if report.top_is_prob else (empty_ids, empty_values, [])
    rank = _rank(report, top)
    return StepRecord(
        i=i, token=report.token, piece=report.piece, text=text,
        raw_ids=raw_ids, raw_logits=raw_logits, raw_lse=0.0 if len(raw_ids) else NAN,
        p_raw=math.exp(report.logprob) if math.isfinite(report.logprob) else NAN,
        rank_raw=-1 if report.top_is_prob else rank, entropy_raw=NAN, stages=[],
        final_ids=final_ids, final_probs=final_probs, n_final=-1,
        p=report.prob, rank=rank if report.top_is_prob else -1, entropy=NAN,
        latency_s=latency_s, kv_used=-1, raw_pieces=raw_pieces, final_pieces=final_pieces)


def chunk_steps(chunk: Chunk, first_i: int, latency_s: float) -> list[StepRecord]:
    """The chunk's steps. Text without token reports (a server without logprobs) is one step with
    only its text. Tokens that arrive together: the first carries the latency, the others 0."""
    if not chunk.tokens:
        if not chunk.text:
            return []
        chunk = Chunk(chunk.text, [TokenReport(piece=chunk.text.encode("utf-8"))])
    return [to_step(first_i + k, report, text, latency_s if k == 0 else 0.0)
            for k, (report, text) in enumerate(zip(chunk.tokens, _texts(chunk), strict=True))]
