"""protocol/reasoning.py without a model: the thinking block found as --reasoning-format deepseek finds it, in
whole texts and in a stream of step texts whose tags are split across tokens; the budget's settings checked."""

from __future__ import annotations

import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.reasoning import (
    ANSWER,
    THINKING,
    ThinkingSplit,
    ThinkingTracker,
    prompt_opens_block,
    sent_back,
    split_thinking,
    step_phases,
    template_thinks,
    validate_reasoning,
)
from logitscope.protocol.trace_schema import migrate_trace_line

T, A = THINKING, ANSWER


@pytest.mark.parametrize(("text", "inside", "expected"), [
    ("<think>\nsix times seven\n</think>\n\n42", False, ThinkingSplit("six times seven", "42", True, True)),
    ("  <think>a</think>b", False, ThinkingSplit("a", "b", True, True)),
    ("42", False, ThinkingSplit("", "42", False, False)),
    ("I <think> so", False, ThinkingSplit("", "I <think> so", False, False)),  # not at the start: text
    ("six times seven\n</think>\n\n42", True, ThinkingSplit("six times seven", "42", True, True)),
    ("still thinking", True, ThinkingSplit("still thinking", "", True, False)),
    ("<think>a</think>b<think>c</think>d", False, ThinkingSplit("a", "b<think>c</think>d", True, True)),
])
def test_whole_texts_split_as_deepseek_does(text: str, inside: bool, expected: ThinkingSplit) -> None:
    assert split_thinking(text, inside) == expected


def test_tags_split_across_tokens_are_followed() -> None:
    texts = ["\n", "<", "think", ">", "\n", "six", " times", "</", "think", ">", "\n\n", "42"]
    assert step_phases(texts) == [A] + [T] * 9 + [A, A]   # whitespace before the tag shows nothing: answer
    tracker = ThinkingTracker()
    for text in texts[:7]:
        tracker.feed(text)
    assert tracker.inside and tracker.opened and not tracker.closed and tracker.n_thinking == 6


def test_a_start_that_only_looked_like_the_tag_is_answer() -> None:
    assert step_phases(["<", "b", ">bold"]) == [A, A, A]
    assert step_phases(["  ", "Hello"]) == [A, A]
    assert step_phases(["still", " thinking", "</think>", "done"], inside=True) == [T, T, T, A]


def test_templates_and_prompts_that_open_the_block() -> None:
    assert template_thinks("{{ '<think>\\n' }}") and template_thinks("{{ c.split('</think>')[-1] }}")
    assert not template_thinks(None) and not template_thinks("{{ '<|im_start|>assistant\\n' }}")
    assert prompt_opens_block("<|im_start|>assistant\n<think>\n") and not prompt_opens_block("assistant\n")


@pytest.mark.parametrize(("fmt", "budget", "message"), [
    ("qwen", -1, "one of none, deepseek"), ("deepseek", -2, "-1 \\(unlimited\\)"), ("none", 5, "deepseek"),
])
def test_bad_settings_get_one_clear_line(fmt: str, budget: int, message: str) -> None:
    with pytest.raises(InvalidSettingsError, match=message):
        validate_reasoning(fmt, budget)
    validate_reasoning("deepseek", 0)
    validate_reasoning("deepseek", 512)


def test_older_traces_read_as_without_a_block() -> None:
    assert migrate_trace_line({"type": "step", "i": 0})["thinking"] is False
    assert migrate_trace_line({"type": "done", "schema": 3})["reasoning"] is None


def test_earlier_answers_go_back_without_their_thinking() -> None:
    plain = "{{ '<|im_start|>assistant\\n' }}"
    opening = "{{ '<|im_start|>assistant\\n<think>\\n' }}"
    assert sent_back("<think>\nsix sevens\n</think>\n\n42", plain) == ("42", "")
    assert sent_back("six sevens\n</think>\n\n42", opening) == ("42", "")    # the template opened the block
    assert sent_back("six sevens\n</think>\n\n42", plain) == ("six sevens\n</think>\n\n42", "")  # no block here
    assert sent_back("<think>\nstill thinking", plain) == ("<think>\nstill thinking", "")   # never closed: kept
    assert sent_back("42", opening) == ("42", "")
    assert sent_back("42", plain, thinking="six sevens") == ("42", "")        # stored apart: the answer alone
    wants_it = "{{ message.reasoning_content }}<think>"
    assert sent_back("<think>a</think>b", wants_it) == ("b", "a")             # the template gets it apart
    assert sent_back("b", wants_it, thinking="a") == ("b", "a")


def test_an_answer_splits_by_its_steps_phases() -> None:
    from logitscope.protocol.reasoning import joined_text, split_by_steps

    texts = ["<think>", "\nsix", " sevens", "\n</think>\n\n4", "2"]
    split = split_by_steps(texts, [True, True, True, True, False])
    assert (split.thinking, split.answer, split.has_block, split.closed) == ("six sevens", "42", True, True)
    opened = split_by_steps(["six", " sevens", "</think>", "\n42"], [True, True, True, False])
    assert (opened.thinking, opened.answer) == ("six sevens", "42")           # the template opened the block
    unclosed = split_by_steps(["<think>", "hmm"], [True, True])
    assert (unclosed.thinking, unclosed.answer, unclosed.closed) == ("hmm", "", False)
    assert split_by_steps(["4", "2"], [False, False]).answer == "42"
    assert joined_text("six sevens", "42") == "<think>\nsix sevens\n</think>\n\n42"
    assert joined_text(None, "42") == "42"
    assert split_by_steps([joined_text("a", "b")], [True]).answer == "b"


def test_what_the_thinking_did_is_compared_from_the_first_token_where_the_answers_part() -> None:
    """On the real reasoning trace (tests/data/thinking_trace.json.gz): against itself the same answer; against an
    answer that draws another token at its third step, parted there; one that stops early parts where it ends."""
    from dataclasses import replace
    from pathlib import Path

    from logitscope.protocol.thinking_effect import answer_steps, thinking_effect
    from tests.helpers.scripted_engine import load_thinking

    (steps, _result), = load_thinking(Path("demo.gguf")).answers
    answer = answer_steps(steps)
    assert answer[0].text.strip() and not answer[0].thinking and "".join(s.text for s in answer) == "6 times 7 equals 42."
    same = thinking_effect(steps, steps)
    assert same.same and same.n_thinking == 16 and same.thinking_s == sum(s.latency_s for s in steps[:16])
    without = [*answer[:2], replace(answer[2], token=answer[2].token + 1), *answer[3:]]
    assert thinking_effect(steps, without).parting == 2            # an answer without any thinking block
    assert thinking_effect(steps, answer[:4]).parting == 4
    assert thinking_effect(steps[:16], answer).parting == 0       # the thinking answer had no answer at all


def test_harmony_channels_are_a_thinking_block_too() -> None:
    """gpt-oss: the analysis channel's message is the thinking, the final channel's the answer (the tags split
    across tokens as a vocabulary without them as special tokens writes them)."""
    from logitscope.protocol.reasoning import (
        HARMONY,
        ThinkingTracker,
        split_by_steps,
        split_thinking,
        syntax_for,
    )

    texts = ["<|channel|>", "analysis", "<|message|>", "six", " sevens", "<|end|>", "<|start|>", "assistant",
             "<|channel|>", "final", "<|message|>", "42"]
    tracker = ThinkingTracker(syntax=HARMONY)
    phases = [tracker.feed(t) for t in texts]
    assert phases == ["thinking"] * 11 + ["answer"] and tracker.closed
    whole = "".join(texts)
    split = split_thinking(whole, syntax=HARMONY)
    assert (split.thinking, split.answer, split.closed) == ("six sevens", "42", True)
    by_steps = split_by_steps(texts, [p == "thinking" for p in phases])
    assert (by_steps.thinking, by_steps.answer) == ("six sevens", "42")
    assert syntax_for("{{ '<|start|>assistant<|channel|>' }}") is HARMONY
    assert syntax_for("{{ '<|im_start|>assistant' }}").name == "deepseek"
