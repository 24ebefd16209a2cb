"""Property-based tests over `history import`: a real export, mutated at random (huge integers, NaN and
Infinity, unpaired surrogates, deep nesting, wrong types, missing keys, garbled step records, mangled
bytes). Whatever the input, the import either succeeds, and what it stored survives export -> import ->
export unchanged and exports as Markdown and as trace JSON Lines, or it fails with a StoreError (the CLI's
one `error:` line). Any other exception is a bug."""

from __future__ import annotations

import base64
import copy
import json
import re
import struct
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from logitscope.base.errors import StoreError
from logitscope.store.exchange import export_json, export_markdown, export_trace_jsonl, import_json
from logitscope.store.history import HistoryStore
from logitscope.store.import_check import check_export, parse_export
from tests.helpers.store import save_answer

FUZZ = settings(max_examples=150, deadline=None, database=None,
                phases=[Phase.explicit, Phase.generate, Phase.shrink],  # no "explain": minutes on a failure
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class Export(dict):
    """A document that hypothesis reports by name, not as 60 kB of base64."""

    def __repr__(self) -> str:
        return "<a real export>"


@pytest.fixture(scope="module")
def base(generated, tmp_path_factory: pytest.TempPathFactory) -> Export:
    """A real export: a question, its 16-step answer and a second, edited question (a branch)."""
    with HistoryStore(tmp_path_factory.mktemp("fuzz") / "base.sqlite3") as store:
        cid, answer_id = save_answer(store, generated, generated.answers[2])
        store.edit(store.message(answer_id).parent_id, "Name three vegetables.")
        return Export(export_json(store, [cid]))


# -- what goes in ------------------------------------------------------------------------------------

ODD_TEXT = ["\ud800", "x\udfffy", "\udc00\ud800", "", " ", "0", "00", "-1", "\u00b2", "\u0663", "NaN", "9" * 25,
            "assistant", "done", "streaming", "AAAA", "!!"]
LEAVES = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([2**63, 2**63 - 1, -(2**63) - 1, 2**64, 10**40, -1, 0, 1, 2**31]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(ODD_TEXT),
)
JSON_VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6) | st.sampled_from(ODD_TEXT),
                                                                 inner, max_size=4),
    max_leaves=10)


def nested(depth: int) -> Any:
    value: Any = 1
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


VALUES = LEAVES | LEAVES | JSON_VALUES | st.integers(2, 60).map(nested)


def places(node: Any) -> list[tuple[Any, Any]]:
    """Every place in the document as (container, key or index), each value once, but not inside the
    traces' step and piece collections (dozens of look-alike entries: they get mutations of their own)."""
    found: list[tuple[Any, Any]] = []
    is_trace = isinstance(node, dict) and "steps" in node and "pieces" in node
    for key, child in (node.items() if isinstance(node, dict) else enumerate(node)):
        if isinstance(child, dict | list) and not is_trace:
            found.extend(places(child))
        found.append((node, key))  # after what is inside: hypothesis favours the first ones ("format")
    return found


def garbled_step(data: st.DataObject, blob: bytes) -> str:
    """A real step record, damaged: cut short, a byte changed, its index or lengths rewritten, or noise."""
    raw = bytearray(blob)
    how = data.draw(st.sampled_from(["cut", "flip", "index", "count", "noise"] if len(raw) >= 12 else ["noise"]))
    if how == "cut":
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    elif how == "flip":
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    elif how == "index":
        struct.pack_into("<i", raw, 0, data.draw(st.sampled_from([-1, -(2**31), 2**31 - 1, 3, 1000])))
    elif how == "count":  # the number of raw candidates (bytes 8..12)
        struct.pack_into("<I", raw, 8, data.draw(st.sampled_from([0, 1, 2**31, 2**32 - 1])))
    else:
        raw = bytearray(data.draw(st.binary(max_size=200)))
    return base64.b64encode(bytes(raw)).decode("ascii")


def mutate(data: st.DataObject, doc: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, 3))):
        kind = data.draw(st.sampled_from(["replace", "replace", "replace", "delete", "cut-list", "step", "piece"]))
        traces = _traces(doc)
        if kind == "step" and any(trace["steps"] for trace in traces):
            steps = data.draw(st.sampled_from([trace["steps"] for trace in traces if trace["steps"]]))
            k = data.draw(st.integers(0, len(steps) - 1))
            try:
                steps[k] = garbled_step(data, base64.b64decode(steps[k], validate=True))
            except (ValueError, TypeError):  # already replaced by something else
                pass
        elif kind == "piece" and any(trace["pieces"] for trace in traces):
            pieces = data.draw(st.sampled_from([trace["pieces"] for trace in traces if trace["pieces"]]))
            token = data.draw(st.sampled_from(sorted(pieces)))
            if data.draw(st.booleans()):
                pieces[data.draw(st.sampled_from(ODD_TEXT) | st.text(max_size=6))] = pieces.pop(token)
            else:
                pieces[token] = data.draw(LEAVES)
        else:
            parent, key = data.draw(st.sampled_from(places(doc)))
            if kind == "delete":
                del parent[key]
            elif kind == "cut-list" and isinstance(parent[key], list) and parent[key]:
                del parent[key][data.draw(st.integers(0, len(parent[key]) - 1)):]
            else:
                parent[key] = data.draw(VALUES)
    return doc


def _traces(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The traces still well-formed enough to mutate inside (after earlier mutations)."""
    return [parent[key] for parent, key in places(doc)
            if key == "trace" and isinstance(parent[key], dict) and isinstance(parent[key].get("steps"), list)
            and isinstance(parent[key].get("pieces"), dict)]


# A key (skipped), or a value: a number or a string.
KEY_OR_VALUE = re.compile(rb'"(?:[^"\\]|\\.)*"\s*:|(?P<value>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|"(?:[^"\\]|\\.)*")')
TOKENS = [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"9" * 30, b"9" * 5000, b"true", b"null", b"[]", b"{}",
          b'"\\ud800"', b'"\\udc00x"', b"[" * 3000 + b"]" * 3000, b'{"a":' * 3000 + b"1" + b"}" * 3000,
          b"\xff", b"\xed\xa0\x80", b'"\xc3"']


def mangle(data: st.DataObject, text: bytes) -> bytes:
    """The export's bytes, damaged: a value replaced by an odd token, cut short, or a span dropped."""
    for _ in range(data.draw(st.integers(1, 2))):
        how = data.draw(st.sampled_from(["token"] * 6 + ["cut", "drop"]))
        spans = [m.span("value") for m in KEY_OR_VALUE.finditer(text) if m.group("value")]
        if how == "token" and spans:
            a, b = data.draw(st.sampled_from(spans))
            text = text[:a] + data.draw(st.sampled_from(TOKENS)) + text[b:]
        elif how in ("cut", "token"):
            text = text[:data.draw(st.integers(0, len(text)))]
        else:
            a = data.draw(st.integers(0, len(text)))
            text = text[:a] + text[a + data.draw(st.integers(1, 50)):]
    return text


# -- the property ------------------------------------------------------------------------------------

def without_ids(document: dict[str, Any]) -> str:
    document = copy.deepcopy(document)
    document.pop("exported_at")
    for conv in document["conversations"]:
        conv.pop("id")
    return json.dumps(document, sort_keys=True)  # NaN as NaN on both sides (NaN != NaN in a dict compare)


def import_or_refuse(text: bytes, note: Callable[[str], None] = event) -> bool:
    """Import `text`; a refusal must be a StoreError; what is accepted must round-trip and export.
    Returns whether it was imported. `note`: hypothesis's event, shown by --hypothesis-show-statistics."""
    try:
        checked = check_export(parse_export(text, "fuzz.json"))
    except StoreError as exc:
        note(f"refused: {_gist(exc)}")
        return False
    with tempfile.TemporaryDirectory() as folder:
        with HistoryStore(Path(folder) / "first.sqlite3", full_text=False) as first:
            ids = import_json(first, checked)  # checked: writing it must not fail
            note("imported" + (" with notices" if checked.notices else ""))
            exported = export_json(first, ids)
            for cid in ids:
                export_markdown(first, [cid])
                for message in first.messages(cid):
                    if message.n_steps:
                        for line in export_trace_jsonl(first, message.id).rstrip("\n").split("\n"):
                            json.loads(line)
        again_text = json.dumps(exported, ensure_ascii=False).encode("utf-8")
        with HistoryStore(Path(folder) / "second.sqlite3", full_text=False) as second:
            import_json(second, check_export(parse_export(again_text, "again.json")))
            assert without_ids(export_json(second)) == without_ids(exported)
    return True


def _gist(exc: StoreError) -> str:
    """The kind of refusal, without the specifics (positions, values)."""
    return re.sub(r"conversation \d+(, message \d+)?(, trace step \d+)?|\d+|'[^']*'|\(.*", "", str(exc))[:50]


@FUZZ
@given(data=st.data())
def test_any_mutated_document_imports_cleanly_or_is_refused(base, data):
    document = mutate(data, base)
    import_or_refuse(json.dumps(document).encode("utf-8"))   # NaN, Infinity, \ud800 as json writes them


@FUZZ
@given(data=st.data())
def test_any_mangled_file_imports_cleanly_or_is_refused(base, data):
    import_or_refuse(mangle(data, json.dumps(base, ensure_ascii=False).encode("utf-8")))


def test_the_unmutated_export_round_trips(base):
    """The property's other half is reachable: a valid export is accepted (not everything refused)."""
    checked = check_export(parse_export(json.dumps(base).encode(), "base.json"))
    assert checked.notices == []
    assert import_or_refuse(json.dumps(base).encode(), note=lambda _: None)
