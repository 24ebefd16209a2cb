"""Fixtures shared by the engine tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from logitscope.protocol.api import LoadSettings


@pytest.fixture(scope="module")
def fa_engine(demo_model: Path):
    """An engine with flash attention on: batched and one-token evaluations agree bit for bit."""
    from logitscope.engine.core import Engine

    eng = Engine()
    eng.load(demo_model, LoadSettings(n_ctx=2048, flash_attn=True))
    yield eng
    eng.unload()
