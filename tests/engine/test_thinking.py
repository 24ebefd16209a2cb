"""A reasoning model's thinking block on the real engine: the demo model with a chat template that opens
`<think>` (tests/helpers/thinking_model.py). The budget closes the block after N tokens (the engine writes the
closing tags and the answer follows), 0 closes it at once, an answer that stops inside it is said to; each step
knows whether it was thinking, the trace carries it; a model without a block, or --reasoning-format none, is
unaffected."""

from __future__ import annotations

from pathlib import Path

import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.reasoning import (
    BY_BUDGET,
    CLOSE_TAG,
    CLOSE_TEXT,
    UNCLOSED,
    split_thinking,
    step_phases,
)
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import (
    GenerationResult,
    StepRecord,
    pack_step,
    result_to_json,
    step_to_json,
    unpack_step,
)
from tests.helpers.thinking_model import make_thinking_model

pytestmark = pytest.mark.model
LONG_THOUGHT = "Explain step by step why the sky is blue."   # the demo model thinks past any budget below
SHORT_THOUGHT = "What is 2+3?"                               # it answers inside the block and stops there


@pytest.fixture(scope="module")
def thinker(tmp_path_factory: pytest.TempPathFactory, demo_model: Path):
    from logitscope.engine.core import Engine

    path = make_thinking_model(demo_model, tmp_path_factory.mktemp("thinking") / "thinking.gguf")
    engine = Engine()
    engine.load(path, LoadSettings(n_ctx=1024, n_threads=2))
    yield engine
    engine.unload()


def _ask(engine, question: str, **options) -> tuple[list[StepRecord], GenerationResult]:
    events = list(engine.generate(GenerateRequest(messages=[ChatMessage("user", question)],
                                                  settings=PRESETS["Greedy"], options=DecodeOptions(**options))))
    result = events[-1]
    assert isinstance(result, GenerationResult)
    return [e for e in events[:-1] if isinstance(e, StepRecord)], result


def test_the_budget_closes_the_block_and_the_answer_follows(thinker) -> None:
    close = thinker.tokenize(CLOSE_TEXT, False, True)
    steps, result = _ask(thinker, LONG_THOUGHT, max_tokens=60, reasoning_budget=20)
    assert [s.token for s in steps[20:20 + len(close)]] == close          # the engine's closing tags
    # the block ends with the token that completes the tag (the newlines after it start the answer)
    tag_end = next(j for j in range(1, len(close) + 1) if CLOSE_TAG in "".join(s.text for s in steps[20:20 + j]))
    assert result.reasoning == {"format": "deepseek", "budget": 20, "opened_by_prompt": True,
                                "n_thinking": 20 + tag_end, "ended": BY_BUDGET,
                                "forced": [20, 20 + len(close)]}
    assert [s.thinking for s in steps] == [True] * (20 + tag_end) + [False] * (len(steps) - 20 - tag_end)
    assert [s.thinking for s in steps] == [p == "thinking" for p in step_phases([s.text for s in steps], True)]
    split = split_thinking(result.text, inside=True)
    assert split.closed and split.thinking and split.answer and CLOSE_TAG not in split.answer
    assert split.thinking == "".join(s.text for s in steps[:20]).strip()
    # the trace: each step says so, the done line has the record; the stored form keeps it
    assert step_to_json(steps[0], thinker.vocab())["thinking"] is True
    assert step_to_json(steps[-1], thinker.vocab())["thinking"] is False
    assert result_to_json(result)["reasoning"]["ended"] == BY_BUDGET
    assert unpack_step(pack_step(steps[0])).thinking and not unpack_step(pack_step(steps[-1])).thinking


def test_the_same_answer_without_a_budget_thinks_on(thinker) -> None:
    steps, result = _ask(thinker, LONG_THOUGHT, max_tokens=60)
    budgeted, _ = _ask(thinker, LONG_THOUGHT, max_tokens=60, reasoning_budget=20)
    assert [s.token for s in steps[:20]] == [s.token for s in budgeted[:20]]   # the same until the budget
    assert result.reasoning is not None and result.reasoning["ended"] == UNCLOSED
    assert all(s.thinking for s in steps) and result.finish_reason == "length"


def test_a_budget_of_zero_closes_the_block_at_once(thinker) -> None:
    close = thinker.tokenize(CLOSE_TEXT, False, True)
    steps, result = _ask(thinker, LONG_THOUGHT, max_tokens=30, reasoning_budget=0)
    assert [s.token for s in steps[:len(close)]] == close
    assert result.reasoning is not None and result.reasoning["ended"] == BY_BUDGET
    split = split_thinking(result.text, inside=True)
    assert split.closed and split.thinking == "" and split.answer
    assert steps[0].thinking and not any(s.thinking for s in steps[len(close):])


def test_an_answer_that_stops_inside_the_block_is_said_to(thinker) -> None:
    steps, result = _ask(thinker, SHORT_THOUGHT, max_tokens=60)
    assert result.finish_reason == "stop" and result.reasoning is not None
    assert result.reasoning["ended"] == UNCLOSED and all(s.thinking for s in steps)
    split = split_thinking(result.text, inside=True)
    assert not split.closed and "5" in split.thinking and split.answer == ""


def test_format_none_leaves_the_text_whole(thinker) -> None:
    steps, result = _ask(thinker, LONG_THOUGHT, max_tokens=20, reasoning_format="none")
    assert result.reasoning is None and not any(s.thinking for s in steps)
    with pytest.raises(InvalidSettingsError, match="deepseek"):
        _ask(thinker, LONG_THOUGHT, max_tokens=20, reasoning_format="none", reasoning_budget=10)


def test_a_model_without_a_block_is_unaffected(engine) -> None:
    events = list(engine.generate(GenerateRequest(messages=[ChatMessage("user", LONG_THOUGHT)],
                                                  settings=PRESETS["Greedy"],
                                                  options=DecodeOptions(max_tokens=24, reasoning_budget=5))))
    result = events[-1]
    assert isinstance(result, GenerationResult) and result.reasoning is None
    assert not any(e.thinking for e in events[:-1] if isinstance(e, StepRecord))
    assert CLOSE_TAG not in result.text


def test_earlier_answers_go_back_to_the_template_without_their_thinking(engine) -> None:
    """The demo model's template does not strip the block itself: the engine does, as llama-server does."""
    from logitscope.engine.chat import build_chat_prompt

    assert engine.template is not None
    messages = [ChatMessage("user", "What is six times seven?"),
                ChatMessage("assistant", "<think>\nsix sevens are forty-two\n</think>\n\n42"),
                ChatMessage("user", "And six times eight?")]
    prompt = build_chat_prompt(engine.template, messages, None, engine.chat_tokens, 2048, 64)
    assert "forty-two" not in prompt.text and "<|im_start|>assistant\n42<|im_end|>" in prompt.text


def test_a_template_that_reads_the_thinking_gets_it_as_reasoning_content() -> None:
    from logitscope.engine.chat import ChatTemplate, build_chat_prompt
    from logitscope.protocol.api import ChatMessage

    source = ("{% for m in messages %}<{{ m.role }}>{% if m.reasoning_content %}[{{ m.reasoning_content }}]"
              "{% endif %}{{ m.content }}{% endfor %}")
    template = ChatTemplate(source, bos_token="", eos_token="")
    messages = [ChatMessage("user", "q"), ChatMessage("assistant", "<think>\nsix sevens\n</think>\n\n42"),
                ChatMessage("user", "again")]
    prompt = build_chat_prompt(template, messages, None, lambda t: list(t.encode()), 4096, 16)
    assert prompt.text == "<user>q<assistant>[six sevens]42<user>again"


def test_a_budget_of_zero_closes_a_block_the_template_does_not_know_at_once(engine) -> None:
    """The demo model's own template knows no block; an answer that opens one (here a fork's prefix) is closed at
    once by a budget of 0, not left to think on."""
    close = engine.tokenize(CLOSE_TEXT, False, True)
    prefix = tuple(engine.tokenize("<think>\nLet me", False, True))
    events = list(engine.generate(GenerateRequest(messages=[ChatMessage("user", LONG_THOUGHT)],
                                                  settings=PRESETS["Greedy"], assistant_prefix=prefix,
                                                  options=DecodeOptions(max_tokens=12, reasoning_budget=0))))
    steps = [e for e in events if isinstance(e, StepRecord)]
    result = events[-1]
    assert isinstance(result, GenerationResult)
    assert [s.token for s in steps[:len(close)]] == close
    assert result.reasoning is not None and result.reasoning["ended"] == BY_BUDGET


def test_a_budget_of_zero_turns_a_templates_thinking_switch_off(tmp_path: Path, demo_model: Path) -> None:
    """Qwen3's `enable_thinking`: with a budget of 0 the template is rendered with it false and writes the empty
    block itself; nothing is forced. Unlimited leaves the switch alone (undefined: thinking on)."""
    from logitscope.engine.core import Engine
    from tests.helpers.thinking_model import SWITCH_TEMPLATE

    engine = Engine()
    engine.load(make_thinking_model(demo_model, tmp_path / "switch.gguf", SWITCH_TEMPLATE),
                LoadSettings(n_ctx=512, n_threads=2))
    try:
        messages = [ChatMessage("user", SHORT_THOUGHT)]
        off, _, _ = engine.prepare(GenerateRequest(messages=messages, options=DecodeOptions(reasoning_budget=0)))
        on, _, _ = engine.prepare(GenerateRequest(messages=messages))
        vocab = engine.vocab()

        def text(tokens: list[int]) -> str:
            return b"".join(vocab[t] for t in tokens).decode()

        assert text(off).endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
        assert text(on).endswith("<|im_start|>assistant\n")
        steps, result = _ask(engine, SHORT_THOUGHT, max_tokens=8, reasoning_budget=0)
        assert not any(s.thinking for s in steps) and result.reasoning is None   # no block in the answer: none forced
        assert CLOSE_TAG not in result.text
    finally:
        engine.unload()


def test_a_harmony_analysis_channel_is_budgeted_and_closed_into_the_final_channel(tmp_path: Path,
                                                                                  demo_model: Path) -> None:
    """gpt-oss's channels on the demo model (its vocabulary writes the tags as plain text): the analysis channel,
    opened here by a fork's prefix, is the thinking; the budget closes it with the final channel's header."""
    from logitscope.engine.core import Engine
    from logitscope.protocol.reasoning import HARMONY
    from tests.helpers.thinking_model import HARMONY_TEMPLATE

    engine = Engine()
    engine.load(make_thinking_model(demo_model, tmp_path / "harmony.gguf", HARMONY_TEMPLATE),
                LoadSettings(n_ctx=512, n_threads=2))
    try:
        prefix = tuple(engine.tokenize(HARMONY.open_tag, False, True))
        events = list(engine.generate(GenerateRequest(
            messages=[ChatMessage("user", LONG_THOUGHT)], settings=PRESETS["Greedy"], assistant_prefix=prefix,
            options=DecodeOptions(max_tokens=40, reasoning_budget=len(prefix) + 6))))   # the prefix's tokens count
        steps = [e for e in events if isinstance(e, StepRecord)]
        result = events[-1]
        assert isinstance(result, GenerationResult) and result.reasoning is not None
        close = engine.tokenize(HARMONY.close_text, False, True)
        assert result.reasoning["format"] == "harmony" and result.reasoning["ended"] == BY_BUDGET, result.text
        assert result.reasoning["forced"] == [6, 6 + len(close)]
        assert [s.token for s in steps[6:6 + len(close)]] == close
        assert all(s.thinking for s in steps[:6 + len(close)]) and not any(s.thinking for s in steps[6 + len(close):])
    finally:
        engine.unload()
