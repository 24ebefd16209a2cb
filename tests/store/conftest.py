"""Fixtures for the store tests: real answers from the real engine (the demo model), generated once."""

from __future__ import annotations

from pathlib import Path

import pytest

from logitscope.protocol.trace import GenerationResult
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity
from tests.helpers.store import Answer, Generated


@pytest.fixture(scope="session")
def generated(engine, demo_model: Path) -> Generated:
    """Three short answers (16 tokens each), one of them asked in Chinese (multi-byte pieces)."""
    from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
    from logitscope.protocol.sampler_settings import SamplerSettings

    answers = []
    for n, prompt in enumerate(["Why is the sky blue?", "请用中文介绍一下你自己。", "Name three fruits."]):
        request = GenerateRequest(messages=[ChatMessage("user", prompt)],
                                  settings=SamplerSettings(temperature=0.9, seed=100 + n),
                                  options=DecodeOptions(max_tokens=16))
        events = list(engine.generate(request))
        *steps, result = events
        assert isinstance(result, GenerationResult) and steps
        answers.append(Answer(prompt, steps, result))
    return Generated(ModelIdentity.of_file(demo_model), engine.vocab(), answers)


@pytest.fixture
def store(tmp_path: Path):
    with HistoryStore(tmp_path / "history.sqlite3") as s:
        yield s


