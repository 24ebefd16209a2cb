"""What the CLI prints as JSON is strict JSON: a NaN (a model whose weights are NaN gives NaN logits) is written
null, as `generate --json` and `score --json` already did; `inspect`, `patch` and beams wrote the `NaN` token,
which JSON readers refuse."""

from __future__ import annotations

import json
import math

import pytest

from logitscope.cli.causal import print_json


def strict(text: str) -> object:
    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_a_nan_is_printed_null(capsys: pytest.CaptureFixture[str]) -> None:
    print_json({"kl": math.nan, "top": [{"p": math.inf, "text": "中"}]})
    assert strict(capsys.readouterr().out) == {"kl": None, "top": [{"p": None, "text": "中"}]}
