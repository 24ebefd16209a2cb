"""Property: whatever bytes a server streams (well-formed chunks of the three formats with hostile values,
wrong types, missing fields, NaN, huge numbers, random bytes, over-long lines, cut anywhere), the stream
reader either gives bounded, valid steps or raises RemoteEngineError, never anything else; and the
trace it produces is always strict JSON (no NaN, no Infinity, valid UTF-8) and storable."""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from logitscope.base.errors import RemoteEngineError
from logitscope.host.remote_stream import MAX_LINE_BYTES, Answer, read_answer
from logitscope.host.remote_wire import CHAT, COMPLETIONS, MAX_COUNT, MAX_PIECE_BYTES, NATIVE
from logitscope.protocol.trace import (
    RAW_TOP_N,
    dumps,
    pack_step,
    result_to_json,
    step_to_json,
    unpack_step,
)

# -- values a server might send where a number, an id, a text or a list belongs ---------------------

hostile_numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([10**400, -(10**400), 2**63, 2**31, -1, 0, 1, 1e-320, -1e300]),
)
numbers = st.integers(0, 3).flatmap(lambda k: (
    st.floats(min_value=-30, max_value=0),                     # a plausible log-probability
    st.floats(min_value=0, max_value=1),                       # a plausible probability
    hostile_numbers, hostile_numbers)[k])
odd = st.one_of(st.none(), st.booleans(), st.text(max_size=5), st.lists(st.integers(-5, 300), max_size=3),
                st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
texts = st.integers(0, 4).flatmap(lambda k: st.text(min_size=1, max_size=12) if k else st.sampled_from(
    ["", "\ud800", "a\udfff", "你", "\x00", " " * 70_000]))
ids = st.one_of(st.integers(min_value=-3, max_value=50_000), st.sampled_from([2**31, 2**63, 10**40]), odd)
byte_lists = st.one_of(st.lists(st.integers(0, 255), max_size=8), st.lists(st.integers(-300, 70_000), max_size=4),
                       odd)


def maybe(value: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly the value; sometimes a wrong type instead, or the key missing (`...`: dropped below)."""
    return st.integers(0, 9).flatmap(lambda k: value if k < 8 else odd if k == 8 else st.just(...))


@st.composite
def entry(draw: st.DrawFn, post: bool) -> dict:
    """One token of OpenAI chat logprobs.content or llama-server's completion_probabilities."""
    value_key, top_key = ("prob", "top_probs") if post else ("logprob", "top_logprobs")
    alternative = st.fixed_dictionaries({"id": maybe(ids), "token": maybe(texts), "bytes": maybe(byte_lists),
                                         value_key: maybe(numbers)})
    fields = {"id": draw(maybe(ids)), "token": draw(maybe(texts)), "bytes": draw(maybe(byte_lists)),
              value_key: draw(maybe(numbers)), top_key: draw(maybe(st.lists(alternative, max_size=6)))}
    return fields


@st.composite
def chunk(draw: st.DrawFn, fmt: str) -> dict:
    finish = draw(maybe(st.one_of(st.none(), st.none(), st.sampled_from(["stop", "length", "eos", "weird", ""]))))
    if fmt == NATIVE:
        data = {"content": draw(maybe(texts)), "completion_probabilities": draw(maybe(st.lists(
                    entry(draw(st.booleans())), max_size=3))),
                "tokens": draw(maybe(st.lists(ids, max_size=2))), "stop": draw(st.booleans()),
                "stop_type": draw(maybe(st.sampled_from(["eos", "limit", "word", "none"]))),
                "tokens_evaluated": draw(maybe(ids)),
                "timings": draw(maybe(st.fixed_dictionaries({"prompt_n": ids, "prompt_ms": numbers,
                                                             "predicted_n": ids, "predicted_ms": numbers})))}
    elif fmt == CHAT:
        logprobs = {"content": draw(maybe(st.lists(entry(draw(st.booleans())), max_size=3)))}
        choice = {"delta": draw(maybe(st.fixed_dictionaries({"content": maybe(texts)}))),
                  "logprobs": draw(maybe(st.just(logprobs))), "finish_reason": finish}
        data = {"choices": draw(maybe(st.lists(st.just(choice), min_size=1, max_size=1))),
                "usage": draw(maybe(st.fixed_dictionaries({"prompt_tokens": ids})))}
    else:
        n = draw(st.integers(0, 3))
        logprobs = {"tokens": draw(maybe(st.lists(maybe(texts), min_size=n, max_size=n))),
                    "token_logprobs": draw(maybe(st.lists(st.one_of(numbers, st.none()), min_size=n, max_size=n))),
                    "top_logprobs": draw(maybe(st.lists(st.dictionaries(st.text(max_size=4), numbers, max_size=4),
                                                        min_size=n, max_size=n)))}
        choice = {"text": draw(maybe(texts)), "logprobs": draw(maybe(st.just(logprobs))), "finish_reason": finish}
        data = {"choices": draw(maybe(st.lists(st.just(choice), max_size=1)))}
    return data


def without_missing(x: object) -> object:
    """Drop the keys (and list items) `maybe` chose to leave out."""
    if isinstance(x, dict):
        return {k: without_missing(v) for k, v in x.items() if v is not ...}
    if isinstance(x, list):
        return [without_missing(v) for v in x if v is not ...]
    return x


def event(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass") + b"\n\n"


# Whole events that are not a chunk: harmless ones, and ones that end the stream one way or another
BENIGN = st.one_of(
    st.binary(max_size=40),                                                    # noise
    st.sampled_from([event(": keep-alive"), event("event: x\ndata: {}"), event("data: {not json"),
                     event("data: " + "[" * 100_000 + "]" * 100_000), event('data: {"choices": [{"text": 1e999}]}'),
                     event("data: " + "9" * 5000), b"data: \xff\xfe\r\n\r\n", b"\r", b"\n", b"data: x\r\n\r"]))
FINAL = st.sampled_from([event("data: [DONE]"), event('error: {"message": "boom"}'),      # each ends the stream
                         event('data: {"error": {"message": "m"}}'),
                         b"data: " + b"x" * (MAX_LINE_BYTES + 1) + b"\n\n"])             # over-long


@st.composite
def stream(draw: st.DrawFn) -> tuple[str, list[bytes]]:
    """A format, and the stream's bytes cut into the pieces they arrive in."""
    fmt = draw(st.sampled_from([CHAT, COMPLETIONS, NATIVE]))
    well_formed = st.builds(lambda c: event("data: " + json.dumps(without_missing(c), allow_nan=True)), chunk(fmt))
    events = draw(st.lists(st.integers(0, 5).flatmap(lambda k: BENIGN if k == 0 else well_formed), max_size=12))
    if draw(st.integers(0, 3)) == 0:
        events.insert(draw(st.integers(0, len(events))), draw(FINAL))
    data = b"".join(events)
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=8)))
    return fmt, [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]


def refuse_constant(name: str) -> None:
    raise AssertionError(f"{name} written into the JSON trace")


def check_strict_json(line: str) -> None:
    line.encode("utf-8")  # raises on lone surrogates: what could not be written out
    json.loads(line, parse_constant=refuse_constant)


def probability(x: float) -> bool:
    return math.isnan(x) or 0.0 <= x <= 1.0


HUGE_TIMINGS = event('data: {"content": "", "stop": true, "tokens_evaluated": 1e999, "timings": {"prompt_n": 3, '
                     f'"prompt_ms": {10**400}, "predicted_n": 0, "predicted_ms": NaN}}}}')


@example((NATIVE, [event('data: {"content": "a", "completion_probabilities": [{"token": "a", "logprob": 1e999}]}'),
                   HUGE_TIMINGS]), 1)
@example((CHAT, [event(f'data: {{"choices": [], "usage": {{"prompt_tokens": {10**400}}}}}')]), 2)
@example((NATIVE, [event('data: {"content": "a", "completion_probabilities": [{"token": "a", "logprob": -1}]}'),
                   event('data: {"stop": true, "timings": {"prompt_n": 1, "prompt_ms": 1e-320, "predicted_n": 1, '
                         '"predicted_ms": 1e-320}}')]), 3)  # rates of 1e323 tokens/s: infinite in JSON
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(stream(), st.integers(1, 6))
def test_the_stream_reader_gives_valid_bounded_steps_or_its_clear_error(arrived, max_tokens):
    fmt, pieces = arrived
    answer = Answer(0.0, max_tokens)
    seen = []
    try:
        read_answer(iter(pieces), fmt, answer, no_token_timeout_s=1e9, on_step=seen.append)
    except RemoteEngineError as exc:
        assert str(exc) and "\n" not in str(exc)
    assert seen == answer.steps and len(seen) <= max_tokens
    for i, step in enumerate(seen):
        assert step.i == i and -1 <= step.token <= MAX_COUNT
        assert probability(step.p) and probability(step.p_raw)
        assert len(step.raw_ids) <= RAW_TOP_N and len(step.final_ids) <= RAW_TOP_N
        assert all(0.0 <= p <= 1.0 for p in step.raw_probs) and all(0.0 <= p <= 1.0 for p in step.final_probs)
        pieces_of_step = [step.piece, *(step.raw_pieces or []), *(step.final_pieces or [])]
        assert all(len(piece) <= MAX_PIECE_BYTES for piece in pieces_of_step)
        check_strict_json(dumps(step_to_json(step, [], top=RAW_TOP_N)))
        again = unpack_step(pack_step(step))  # storable in the history as is
        assert again.text == step.text and again.piece == step.piece and again.raw_pieces == step.raw_pieces
    result = answer.result(answer.finish or "stop", {"seed": 1}, None)
    check_strict_json(dumps(result_to_json(result)))
    assert result.text == "".join(step.text for step in seen)  # the steps add up to the answer
    assert len(result.tokens) == len(seen) and answer.finish in (None, "stop", "length")
