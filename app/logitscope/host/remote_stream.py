"""One streamed answer from a remote server, read under the client's own limits, without any I/O of its
own: the bytes as they arrive become lines, server-sent events, chunks (remote_wire) and StepRecords.

The server is not trusted with the client's memory or time:
- a line is at most MAX_LINE_BYTES (and an event as much): it is refused before more is buffered;
- the answer is cut at `max_tokens` (finish_reason "length") whatever the server does with it;
- the server has `no_token_timeout_s` to send each token: keep-alive comments, empty or malformed
  chunks are no progress. After the answer's finish_reason the reading just stops instead.
- it has MAX_ANSWER_BYTES to send each token, and MAX_UNREAD_IN_A_ROW events that cannot be read one
  after another end the answer: a server of another protocol is not read for as long as it likes.
Everything it cannot do ends in a RemoteEngineError with one clear sentence, which says what arrived
when nothing could be read (events that are not JSON, chunks of another endpoint's format).
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from logitscope.base.errors import RemoteEngineError
from logitscope.base.messages import Message, join_messages
from logitscope.host.remote_wire import (
    CHAT,
    COMPLETIONS,
    NATIVE,
    PARSERS,
    Chunk,
    ForeignChunk,
    MalformedChunk,
    chunk_steps,
    count,
)
from logitscope.protocol.reasoning import BY_MODEL, CLOSE_TEXT, OPEN_TAG, UNCLOSED, UNLIMITED
from logitscope.protocol.trace import GenerationResult, KvInfo, StepRecord, Timings

MAX_LINE_BYTES = 4 << 20     # one line of the stream; a token's chunk is a few kB
MAX_EVENT_BYTES = MAX_LINE_BYTES  # one event, however many `data:` lines it has
MAX_ANSWER_BYTES = 32 << 20  # a JSON answer, and what a stream may send without a token: real ones send kB
MAX_UNREAD_IN_A_ROW = 100    # events that cannot be read, one after another: not a glitch but another protocol
SAMPLE_CHARS = 100           # of the first such event, shown
NAN = float("nan")
NOT_JSON, FOREIGN, MALFORMED = "not JSON", "foreign", "malformed"  # why an event was skipped
NOT_SSE = "not SSE"          # a line that is no field of server-sent events (a bare body: JSON, HTML, text)
SSE_IGNORED = ("id", "retry")  # fields of server-sent events that say nothing here
_FOREIGN = {  # what an event of another format lacks, and the question that follows
    CHAT: (Message("without a chat delta"), Message("is this an OpenAI-compatible chat completions endpoint?")),
    COMPLETIONS: (Message("without a completion text"),
                  Message("is this an OpenAI-compatible completions endpoint?")),
    NATIVE: (Message("without llama-server's content"), Message("is this llama-server's /completion endpoint?")),
}


class OversizedStream(RemoteEngineError):
    """A line or an event beyond its bound: the server is broken (or hostile)."""


def iter_lines(chunks: Iterable[bytes], max_bytes: int = MAX_LINE_BYTES) -> Iterator[str]:
    """The lines of a byte stream (CR, LF or CRLF end a line, as in SSE), decoded as UTF-8. A line longer
    than `max_bytes` raises OversizedStream before more of it is kept."""
    buffer = bytearray()
    after_cr = False  # the last chunk ended with CR: a LF at the start of this one is part of that CRLF
    for chunk in chunks:
        if not chunk:
            continue
        if after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        after_cr = chunk.endswith(b"\r")
        if b"\r" in chunk:
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            if len(buffer) + end - start > max_bytes:
                break
            if buffer:
                buffer += chunk[start:end]
                line = buffer.decode("utf-8", "replace")
                buffer.clear()
            else:
                line = chunk[start:end].decode("utf-8", "replace")
            yield line
            start = end + 1
        else:
            buffer += chunk[start:]
        if len(buffer) > max_bytes or end >= 0:
            raise OversizedStream("a line longer than {mib} MiB", mib=max_bytes >> 20)
    if buffer:
        yield buffer.decode("utf-8", "replace")


def iter_sse(lines: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Server-sent events as (event name, data). llama-server writes errors as an `error:` field,
    which the SSE standard would drop: it comes out as an "error" event. So does any other line that is
    no field of server-sent events (the standard drops those too), as a NOT_SSE event: a server that
    writes an error's JSON, or an HTML page, into its event stream is told, not ignored."""
    event, size = "message", 0
    data: list[str] = []
    for line in lines:
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data, size = "message", [], 0
            continue
        if line.startswith(":"):
            continue  # a comment (keep-alive ping)
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        size += len(value)
        if size > MAX_EVENT_BYTES:
            raise OversizedStream("an event larger than {mib} MiB", mib=MAX_EVENT_BYTES >> 20)
        if name == "data":
            data.append(value)
        elif name == "event":
            event = value
        elif name == "error":
            yield "error", value
        elif name not in SSE_IGNORED:
            yield NOT_SSE, line
    if data:
        yield event, "\n".join(data)


_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")


def server_message(body: bytes | str) -> str:
    """The server's own words from an error answer: OpenAI's {"error": {"message"}}, llama-server's
    and vLLM's variants, FastAPI's {"detail"}, or the start of a plain-text body; without control characters
    (a server's ESC sequences would recolour or clear the user's terminal)."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    return _CONTROLS.sub("", _words(text))


def _words(text: str) -> str:
    try:
        data = json.loads(text)
        found: Any = data
        if isinstance(data, dict):
            found = data.get("error") or data.get("message") or data.get("detail") or data
            if isinstance(found, dict):
                found = found.get("message") or found.get("msg") or found
            if isinstance(found, list):  # FastAPI validation errors
                found = "; ".join(str(e.get("msg", e)) if isinstance(e, dict) else str(e) for e in found)
        return " ".join(str(found)[:2000].split())[:300]
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python goes
        return " ".join(text[:2000].split())[:300]


@dataclass
class Unread:
    """The events of a stream that could not be read, by why (NOT_JSON, FOREIGN, MALFORMED): how many, and
    the start of the first of each kind."""

    counts: dict[str, int] = field(default_factory=dict)
    first: dict[str, str] = field(default_factory=dict)
    in_a_row: int = 0

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def add(self, why: str, data: str) -> None:
        self.counts[why] = self.counts.get(why, 0) + 1
        if why not in self.first:
            text = " ".join(data[:SAMPLE_CHARS * 4].split())
            self.first[why] = text[:SAMPLE_CHARS] + ("…" if len(text) > SAMPLE_CHARS else "")
        self.in_a_row += 1

    def described(self, fmt: str) -> Message:
        """What arrived, e.g. "50 events that are not JSON (the first: '…')"; for events of another format,
        the question whether the address is right."""
        parts = []
        if NOT_SSE in self.counts:
            parts.append(Message("{n} line(s) that are not server-sent events (the first: {first!r})",
                                 n=self.counts[NOT_SSE], first=self.first[NOT_SSE]))
        if NOT_JSON in self.counts:
            parts.append(Message("{n} event(s) that are not JSON (the first: {first!r})",
                                 n=self.counts[NOT_JSON], first=self.first[NOT_JSON]))
        if FOREIGN in self.counts:
            parts.append(Message("{n} event(s) {lacking} (the first: {first!r})",
                                 n=self.counts[FOREIGN], lacking=_FOREIGN[fmt][0], first=self.first[FOREIGN]))
        if MALFORMED in self.counts:
            parts.append(Message("{n} malformed event(s) (the first: {first!r})",
                                 n=self.counts[MALFORMED], first=self.first[MALFORMED]))
        if not parts:
            return Message("keep-alives and empty chunks only")
        what = join_messages("; ", parts)
        return Message("{what}: {question}", what=what, question=_FOREIGN[fmt][1]) if FOREIGN in self.counts else what


@dataclass
class Answer:
    """What has arrived of one streamed answer, at most `max_tokens` steps of it."""

    t0: float
    max_tokens: int
    steps: list[StepRecord] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    finish: str | None = None          # the server said the answer is complete (or max_tokens cut it)
    done: bool = False                 # [DONE] seen
    cut: bool = False                  # the server sent more than max_tokens: the rest was not read
    usage: Mapping[str, Any] | None = None
    timings: Mapping[str, Any] | None = None
    n_prompt: int = -1
    read: int = 0                      # chunks read (understood), with or without a token
    unread: Unread = field(default_factory=Unread)
    absurd: int = 0                    # probabilities out of range, left out
    notices: list[str] = field(default_factory=list)
    t_first: float = NAN
    t_last: float = NAN
    n_thinking: int = 0                # steps of the reasoning_content the server split off
    thinking_open: bool = False        # its block has not ended yet

    @property
    def last_progress(self) -> float:
        return self.t_last if self.steps else self.t0

    def add(self, chunk: Chunk, on_step: Callable[[StepRecord], None] | None) -> None:
        now = time.perf_counter()
        steps = self._tagged(chunk, chunk_steps(chunk, len(self.steps), now - self.last_progress))
        text = "".join(s.text for s in steps) if steps else chunk.text
        room = self.max_tokens - len(self.steps)
        if len(steps) > room:  # a server that ignores max_tokens: keep what was asked for, stop there
            steps = steps[:room]
            text = "".join(s.text for s in steps)
            self.cut, self.finish = True, "length"
            self.notices.append(Message("the server sent more than max_tokens = {max_tokens} "
                                        "tokens: the answer was cut there", max_tokens=self.max_tokens))
        if steps:
            self.t_first = now if not self.steps else self.t_first
            self.t_last = now
        self.steps += steps
        if text:
            self.text.append(text)
        self.absurd += sum(r.absurd for r in chunk.tokens)
        self.usage = chunk.usage or self.usage
        self.timings = chunk.timings or self.timings
        self.n_prompt = chunk.n_prompt if chunk.n_prompt >= 0 else self.n_prompt
        if chunk.finish_reason and self.finish is None:
            self.finish = _finish_reason(chunk.finish_reason, self.notices)
        if on_step:
            for step in steps:
                on_step(step)

    def _tagged(self, chunk: Chunk, steps: list[StepRecord]) -> list[StepRecord]:
        """The server's thinking, split off, back in the answer's text between the tags (so it is stored, shown and
        split as a local model's), its steps marked."""
        if not steps:
            return steps
        if chunk.reasoning:
            if not self.n_thinking:
                steps[0] = replace(steps[0], text=OPEN_TAG + "\n" + steps[0].text)
            self.thinking_open = True
            self.n_thinking += len(steps)
            return [replace(s, thinking=True) for s in steps]
        if self.thinking_open:   # the answer's first text: the block ended before it
            self.thinking_open = False
            steps[0] = replace(steps[0], text=CLOSE_TEXT + steps[0].text)
        return steps

    def reasoning(self) -> dict[str, Any] | None:
        if not self.n_thinking:
            return None
        return {"format": "server", "budget": UNLIMITED, "opened_by_prompt": False, "n_thinking": self.n_thinking,
                "ended": UNCLOSED if self.thinking_open else BY_MODEL, "forced": None}

    @property
    def complete(self) -> bool:
        return self.finish is not None or self.done

    def timing(self) -> Timings:
        n = len(self.steps)
        t = Timings(load_s=NAN, n_prompt=self.n_prompt, n_prompt_eval=-1, prompt_s=NAN,
                    ttft_s=self.t_first - self.t0, n_gen=n,
                    # measured here: n tokens at the rate of the n - 1 gaps between them
                    gen_s=(self.t_last - self.t_first) * n / (n - 1) if n >= 2 else NAN)
        usage, server = self.usage or {}, self.timings or {}
        if t.n_prompt < 0:
            t.n_prompt = count(usage.get("prompt_tokens"))
        prompt_ms, predicted_ms = _millis(server.get("prompt_ms")), _millis(server.get("predicted_ms"))
        if count(server.get("prompt_n")) >= 0 and prompt_ms is not None:
            t.n_prompt_eval, t.prompt_s = count(server.get("prompt_n")), prompt_ms / 1000
        if n and count(server.get("predicted_n")) == n and predicted_ms is not None:
            t.gen_s = predicted_ms / 1000  # the server's own clock, when it counted the same tokens
        return t

    def result(self, finish: str, settings: dict[str, Any], n_ctx: int | None) -> GenerationResult:
        notices = list(self.notices)
        if self.unread.total:
            notices.append(Message("{malformed} malformed chunk(s) from the server were skipped",
                                   malformed=self.unread.total))
        if self.absurd:
            notices.append(Message("{absurd} out-of-range probabilities from the server were "
                                   "left out (shown as unknown)", absurd=self.absurd))
        blind = sum(1 for s in self.steps if math.isnan(s.p_raw) and math.isnan(s.p))
        if blind:
            notices.append(Message("the server sent no probabilities for {blind} of {n_steps} tokens", blind=blind, n_steps=len(self.steps)))
        return GenerationResult(
            text="".join(self.text), tokens=[s.token for s in self.steps], finish_reason=finish,
            timings=self.timing(), kv=KvInfo(n_ctx if n_ctx else -1, -1, NAN, -1), settings=settings,
            prompt_tokens=[], notices=notices, reasoning=self.reasoning())


def _millis(x: Any) -> float | None:
    """A duration the server reports, in ms; None when it is not a plain non-negative number."""
    ok = isinstance(x, int | float) and not isinstance(x, bool) and 0 <= x < 1e12  # False for NaN, inf, 10**400
    return float(x) if ok else None


def _finish_reason(reason: str, notices: list[str]) -> str:
    if reason == "length":
        return "length"
    if reason not in ("stop", "eos"):
        notices.append(Message("the server ended the answer with finish_reason {reason!r}", reason=reason[:40]))
    return "stop"


def read_answer(chunks: Iterable[bytes], fmt: str, answer: Answer, no_token_timeout_s: float,
                on_step: Callable[[StepRecord], None] | None = None, stop: threading.Event | None = None,
                source: str = "the server") -> None:
    """Read the stream `chunks` (its bytes as they arrive) into `answer` until the server ends it, the
    answer is complete, `max_tokens` is reached or `stop` is set. A broken, hostile or stalled stream
    raises RemoteEngineError, and so does one of which no event could be read (saying what arrived);
    `source` names the server in its message."""
    try:
        _read_events(chunks, fmt, answer, no_token_timeout_s, on_step, stop, source)
    except OversizedStream as exc:
        raise RemoteEngineError("{source} sent {exc}: the answer was given up", source=source, exc=exc) from None
    if not answer.read and answer.unread.total and not (stop is not None and stop.is_set()):
        raise RemoteEngineError("{source} sent nothing that could be read: {what}",
                                source=source, what=answer.unread.described(fmt))


def _read_events(chunks: Iterable[bytes], fmt: str, answer: Answer, no_token_timeout_s: float,
                 on_step: Callable[[StepRecord], None] | None, stop: threading.Event | None, source: str) -> None:
    parse, native = PARSERS[fmt], fmt == NATIVE

    def watched() -> Iterator[bytes]:
        idle, n_steps = 0, 0  # bytes read since the last token
        for chunk in chunks:
            yield chunk
            idle = 0 if len(answer.steps) != n_steps else idle + len(chunk)
            n_steps = len(answer.steps)
            if answer.finish is not None and (idle > MAX_ANSWER_BYTES or
                                              time.perf_counter() - answer.last_progress > no_token_timeout_s):
                return  # complete: only the stream's end is missing
            if idle > MAX_ANSWER_BYTES:
                raise RemoteEngineError(
                    "{source} sent {mib} MiB without a token after {n_steps} tokens ({what}): the answer was "
                    "given up", source=source, mib=MAX_ANSWER_BYTES >> 20, n_steps=n_steps,
                    what=answer.unread.described(fmt))
            if time.perf_counter() - answer.last_progress > no_token_timeout_s:
                raise RemoteEngineError(
                    "{source} sent no token for {no_token_timeout_s:g} s after {n_steps} tokens "
                    "(keep-alives and empty or malformed chunks are no progress): the answer was "
                    "given up", source=source, no_token_timeout_s=no_token_timeout_s, n_steps=n_steps)

    for event, data in iter_sse(iter_lines(watched())):
        if stop is not None and stop.is_set():
            return
        if event == "error":
            raise RemoteEngineError("the server reported an error: {data}", data=server_message(data))
        if data.strip() == "[DONE]":
            answer.done = True
            return
        chunk = _parse(parse, data, answer, sse=event != NOT_SSE)
        if chunk is not None:
            answer.add(chunk, on_step)
            if answer.cut or (native and answer.complete):
                return  # cut at max_tokens, or llama-server's last chunk (no [DONE] follows)
        elif answer.unread.in_a_row >= MAX_UNREAD_IN_A_ROW:
            raise RemoteEngineError(
                "{source} sent {limit} events in a row that could not be read, after {n_steps} tokens: {what}; "
                "the answer was given up", source=source, limit=MAX_UNREAD_IN_A_ROW, n_steps=len(answer.steps),
                what=answer.unread.described(fmt))


def _parse(parse: Callable[[Mapping[str, Any]], Chunk], data: str, answer: Answer, sse: bool = True) -> Chunk | None:
    """The chunk of one event's data (None: skipped, and counted by why). `sse` False: a line outside the
    events, read only for an error the server wrote there."""
    try:
        payload = json.loads(data)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python goes
        answer.unread.add(NOT_JSON if sse else NOT_SSE, data)
        return None
    if isinstance(payload, dict) and ("error" in payload or payload.get("object") == "error"):
        raise RemoteEngineError("the server reported an error: {data}", data=server_message(data))
    if not sse:
        answer.unread.add(NOT_SSE, data)
        return None
    try:
        if not isinstance(payload, dict):
            raise ForeignChunk("not an object")
        chunk = parse(payload)
    except ForeignChunk:
        answer.unread.add(FOREIGN, data)
        return None
    except MalformedChunk:
        answer.unread.add(MALFORMED, data)
        return None
    answer.read += 1
    answer.unread.in_a_row = 0
    return chunk
