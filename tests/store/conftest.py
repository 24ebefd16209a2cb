"""Fixtures for the store tests: real answers from the real engine (the demo model), generated once."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from logitscope.engine.trace import GenerationResult, StepRecord
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity


@dataclass
class Answer:
    prompt: str
    steps: list[StepRecord]
    result: GenerationResult


@dataclass
class Generated:
    model: ModelIdentity
    vocab: list[bytes]
    answers: list[Answer]


@pytest.fixture(scope="session")
def generated(engine, demo_model: Path) -> Generated:
    """Three short answers (16 tokens each), one of them asked in Chinese (multi-byte pieces)."""
    from logitscope.engine.api import ChatMessage, DecodeOptions, GenerateRequest
    from logitscope.engine.sampler import SamplerSettings

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


def save_answer(store: HistoryStore, generated: Generated, answer: Answer, conversation_id: int | None = None,
                parent_id: int | None = None) -> tuple[int, int]:
    """Store a user turn and its streamed answer, as the app does; returns (conversation id, answer id)."""
    if conversation_id is None:
        conversation_id = store.create_conversation(answer.prompt)
    user_id = store.add_message(conversation_id, "user", answer.prompt, parent_id)
    writer = store.start_answer(conversation_id, user_id, generated.model, generated.vocab,
                                answer.result.settings)
    for step in answer.steps:
        writer.append(step)
    writer.finish(answer.result)
    return conversation_id, writer.message_id
