"""The diagnosis of a reasoning model's answer: a budget that cut the thinking short (the recorded reasoning trace,
tests/data/thinking_trace.json.gz), a block that never ended and thinking in circles (the thinking copy of the demo
model on the real engine), each with its fix; a loop inside the block is the thinking's, not the answer's."""

from __future__ import annotations

from pathlib import Path

import pytest

from logitscope.diagnosis import diagnose
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import GenerationResult, StepRecord
from tests.helpers.scripted_engine import load_thinking
from tests.helpers.thinking_model import make_thinking_model


def test_a_budget_that_closed_the_block_is_a_warning_with_more_budget_as_its_fix() -> None:
    recording = load_thinking(Path("demo.gguf"))
    (steps, result), = recording.answers
    findings = diagnose(steps, result, recording.vocab).findings
    (budget,) = [f for f in findings if f.kind == "thinking_budget"]
    assert budget.severity == "warning" and "(12 tokens)" in str(budget.text)
    assert budget.spans == ((12, 16),)   # the engine's closing tags
    assert budget.fix is not None and dict(budget.fix.decode) == {"reasoning_budget": 24}
    assert not [f for f in findings if f.kind in ("thinking_unclosed", "thinking_loop")]


def test_an_answer_without_a_block_has_no_thinking_findings() -> None:
    recording = load_thinking(Path("demo.gguf"))
    (steps, result), = recording.answers
    plain = [StepRecord(**{**s.__dict__, "thinking": False}) for s in steps]
    from dataclasses import replace
    assert not [f for f in diagnose(plain, replace(result, reasoning=None), recording.vocab).findings
                if f.kind.startswith("thinking")]


@pytest.fixture(scope="module")
def thinker(tmp_path_factory: pytest.TempPathFactory, demo_model: Path):
    from logitscope.engine.core import Engine

    engine = Engine()
    engine.load(make_thinking_model(demo_model, tmp_path_factory.mktemp("think") / "thinking.gguf"),
                LoadSettings(n_ctx=1024, n_threads=2))
    yield engine
    engine.unload()


def _diagnosed(engine, question: str, max_tokens: int):
    events = list(engine.generate(GenerateRequest(messages=[ChatMessage("user", question)], settings=PRESETS["Greedy"],
                                                  options=DecodeOptions(max_tokens=max_tokens))))
    steps = [e for e in events if isinstance(e, StepRecord)]
    result = events[-1]
    assert isinstance(result, GenerationResult)
    return steps, result, diagnose(steps, result, engine.vocab(), settings={**result.settings,
                                                                             "max_tokens": max_tokens})


@pytest.mark.model
def test_thinking_that_never_ends_gets_a_budget_and_a_loop_inside_it_is_the_thinkings(thinker) -> None:
    steps, result, diagnosis = _diagnosed(thinker, "Write a poem about the sea.", 200)
    assert result.finish_reason == "length" and all(s.thinking for s in steps)
    kinds = [f.kind for f in diagnosis.findings]
    assert "thinking_unclosed" in kinds and "thinking_loop" in kinds
    assert "loop" not in kinds and "cut_off" not in kinds   # the thinking findings say it, with the budget fix
    (unclosed,) = [f for f in diagnosis.findings if f.kind == "thinking_unclosed"]
    assert unclosed.severity == "problem" and "token limit" in str(unclosed.text)
    assert unclosed.fix is not None and dict(unclosed.fix.decode) == {"reasoning_budget": 150}
    (loop,) = [f for f in diagnosis.findings if f.kind == "thinking_loop"]
    assert loop.spans[0][1] <= len(steps) and "round in circles" in str(loop.text)


@pytest.mark.model
def test_a_block_the_model_stops_inside_is_said_to(thinker) -> None:
    _steps, result, diagnosis = _diagnosed(thinker, "What is 2+3?", 60)
    assert result.finish_reason == "stop"
    (unclosed,) = [f for f in diagnosis.findings if f.kind == "thinking_unclosed"]
    assert "stopped without ending its thinking" in str(unclosed.text)
    assert unclosed.fix is not None and dict(unclosed.fix.decode) == {"reasoning_budget": 16}
