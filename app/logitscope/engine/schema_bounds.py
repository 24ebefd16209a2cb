"""Integer bounds in a JSON schema, as llama.cpp's own converter honours them (common/json-schema-to-grammar.cpp,
_build_min_max_int): llama-cpp-python's bundled converter ignores `minimum` / `maximum` (a TODO), so
`{"type": "integer", "minimum": 5, "maximum": 9}` would let the model answer 10000000.

An integer range becomes GBNF alternatives, digit by digit (no leading zeros, as JSON has none): [5, 123]
is `[5-9] | [1-9] [0-9] | "1" [0-1] [0-9] | "12" [0-3]`. An empty range (minimum 5, maximum 2) is refused;
bounds on a "number" are refused too (llama.cpp does not enforce them either), rather than silently ignored.
"""

from __future__ import annotations

import math
from typing import Any

from logitscope.base.errors import InvalidSettingsError

BOUND_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def integer_bounds(schema: dict[str, Any]) -> tuple[int | None, int | None]:
    """The smallest and largest integer the schema allows (None: no bound); InvalidSettingsError for a bound
    that is not a number or a range that holds no integer."""
    for key in BOUND_KEYS:
        value = schema.get(key)
        is_draft4_flag = key.startswith("exclusive") and isinstance(value, bool)
        if key in schema and not is_draft4_flag and (not isinstance(value, int | float) or isinstance(value, bool)
                                                     or not math.isfinite(value)):
            raise InvalidSettingsError("the JSON schema's {key} must be a number, not {value}", key=key,
                                       value=repr(value)[:40])
    lo = _bound(schema, "minimum", "exclusiveMinimum", math.ceil, +1)
    hi = _bound(schema, "maximum", "exclusiveMaximum", math.floor, -1)
    if lo is not None and hi is not None and lo > hi:
        raise InvalidSettingsError("the JSON schema allows no integer: it asks for one from {lo} to {hi}",
                                   lo=lo, hi=hi)
    return lo, hi


def _bound(schema: dict[str, Any], inclusive: str, exclusive: str, rounding: Any, step: int) -> int | None:
    """One side's tightest integer bound from `minimum` and `exclusiveMinimum` (or the maximum's)."""
    found: list[int] = []
    flag = schema.get(exclusive)
    if inclusive in schema:  # draft 4: "exclusiveMinimum": true makes "minimum" exclusive
        value = schema[inclusive]
        found.append(int(rounding(value)) + (step if flag is True and rounding(value) == value else 0))
    if not isinstance(flag, bool) and flag is not None:  # draft 6 and later: the exclusive bound itself
        found.append(int(rounding(flag)) + (step if rounding(flag) == flag else 0))
    if not found:
        return None
    return max(found) if step > 0 else min(found)


def integer_range_rule(lo: int | None, hi: int | None) -> str:
    """A GBNF expression for the integers from `lo` to `hi` (None: unbounded), as JSON writes them."""
    parts: list[str] = []
    if lo is None or lo < 0:   # the negative ones: "-" and their magnitude, from -hi (or 1) to -lo
        magnitude = _magnitudes(1 if hi is None or hi >= 0 else -hi, None if lo is None else -lo)
        parts.append(f'"-" ({magnitude})')
    if hi is None or hi >= 0:
        parts.append(_magnitudes(0 if lo is None or lo < 0 else lo, hi))
    return " | ".join(parts)


def _magnitudes(a: int, b: int | None) -> str:
    """Non-negative integers from a to b (None: no end), without leading zeros."""
    blocks: list[str] = []
    length = len(str(a))
    while b is None or 10 ** (length - 1) <= b or length == 1:
        start = max(a, 0 if length == 1 else 10 ** (length - 1))
        end = 10 ** length - 1 if b is None else min(b, 10 ** length - 1)
        if b is None and start == 10 ** (length - 1) and length > 1:   # every number this long, and longer
            blocks.append('[1-9] ' + '[0-9] ' * (length - 1) + '[0-9]*')
            break
        blocks.extend(_block(s, e) for s, e in _aligned(start, end))
        if b is not None and end >= b:
            break
        length += 1
    return " | ".join(blocks)


def _aligned(start: int, end: int) -> list[tuple[int, int]]:
    """[start, end] (numbers of one length) split into runs P a 0..0 to P b 9..9: one digit range after a
    common prefix, then any digits."""
    runs = []
    while start <= end:
        size = 1
        while start % (size * 10) == 0 and start + size * 10 - 1 <= end:
            size *= 10
        stop = start + size - 1
        while stop + size <= end and ((stop + 1) // size) % 10 != 0:
            stop += size
        runs.append((start, stop))
        start = stop + 1
    return runs


def _block(start: int, stop: int) -> str:
    s, e = str(start), str(stop)
    free = len(s) - len(s.rstrip("0")) if start != stop else 0
    free = min(free, len(e) - len(e.rstrip("9")), len(s) - 1)   # [0, 9] is one digit range, not zero digits
    head_s, head_e = s[:len(s) - free], e[:len(e) - free]
    prefix, a, b = head_s[:-1], head_s[-1], head_e[-1]
    out = [f'"{prefix}"'] if prefix else []
    out.append(f'"{a}"' if a == b else f"[{a}-{b}]")
    out.extend(["[0-9]"] * free)
    return " ".join(out)


def bounded_converter() -> Any:
    """llama-cpp-python's SchemaConverter (as json_schema_to_gbnf sets it up), taught integer bounds."""
    from llama_cpp.llama_grammar import RESERVED_NAMES, SchemaConverter

    class Converter(SchemaConverter):  # llama-cpp-python's converter is untyped
        def visit(self, schema: Any, name: str) -> Any:
            bounded = isinstance(schema, dict) and any(key in schema for key in BOUND_KEYS)
            if not bounded or "$ref" in schema or "const" in schema or "enum" in schema:
                return super().visit(schema, name)  # type: ignore[no-untyped-call]
            if schema.get("type") != "integer":
                raise InvalidSettingsError("the JSON schema's minimum and maximum apply to \"type\": \"integer\" "
                                           "only (llama.cpp's schema converter cannot bound {type}): drop them "
                                           "or use an integer", type=repr(schema.get("type", "an untyped value")))
            rule = integer_range_rule(*integer_bounds(schema))
            rule_name = name + "-" if name in RESERVED_NAMES else name or "root"
            return self._add_rule(rule_name, f"({rule}) space")  # type: ignore[no-untyped-call]

    return Converter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)  # type: ignore[no-untyped-call]
