"""Integer bounds of a JSON schema as GBNF (engine/schema_bounds.py): checked against every integer of a
span, through the same alternatives read as a regular expression (the rules use no recursion)."""

from __future__ import annotations

import re

import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.engine.schema_bounds import integer_bounds, integer_range_rule


def as_regex(rule: str) -> re.Pattern[str]:
    return re.compile(rule.replace(" ", "").replace('"', ""))


@pytest.mark.parametrize("lo,hi", [(5, 9), (5, 123), (-15, 7), (None, -3), (7, None), (0, None), (None, None),
                                   (-100, -20), (1000, 1000), (0, 0), (99, 1000), (-1234, 9876)])
def test_the_rule_holds_exactly_the_integers_in_range(lo, hi):
    rx = as_regex(integer_range_rule(lo, hi))
    for n in range(-2000, 12000):
        assert bool(rx.fullmatch(str(n))) == ((lo is None or n >= lo) and (hi is None or n <= hi)), n
    assert not rx.fullmatch("05") and not rx.fullmatch("-0") and not rx.fullmatch("1.5")


@pytest.mark.parametrize("schema,bounds", [
    ({"minimum": 5, "maximum": 9}, (5, 9)),
    ({"exclusiveMinimum": 5, "exclusiveMaximum": 9}, (6, 8)),
    ({"minimum": 5, "exclusiveMinimum": True, "maximum": 9, "exclusiveMaximum": True}, (6, 8)),   # draft 4
    ({"minimum": 4.5, "maximum": 9.5}, (5, 9)),
    ({"exclusiveMinimum": 4.5}, (5, None)),
    ({"minimum": 2, "exclusiveMinimum": 3}, (4, None)),
])
def test_bounds_as_integers(schema, bounds):
    assert integer_bounds({"type": "integer", **schema}) == bounds


@pytest.mark.parametrize("schema,phrase", [
    ({"minimum": 5, "maximum": 2}, "allows no integer: it asks for one from 5 to 2"),
    ({"exclusiveMinimum": 5, "exclusiveMaximum": 6}, "allows no integer"),
    ({"minimum": "5"}, "minimum must be a number"),
])
def test_impossible_or_malformed_bounds_are_refused(schema, phrase):
    with pytest.raises(InvalidSettingsError, match=phrase):
        integer_bounds({"type": "integer", **schema})
