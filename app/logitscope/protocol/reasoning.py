"""Reasoning models: the thinking block before the answer, recognised as llama.cpp's `--reasoning-format deepseek`
does — the answer opens with `<think>` (or the chat template opened it at the end of the prompt) and the block
ends at `</think>`; everything after is the answer. `--reasoning-format none` leaves the text whole.

The budget is llama.cpp's `--reasoning-budget` (-1 unlimited, 0 no thinking), extended to N > 0: after N
tokens of thinking the engine closes the block itself (CLOSE_TEXT is forced token by token) and the answer
follows. ThinkingTracker follows a stream of step texts (the engine counts with it; the history and the window
split finished answers with split_thinking)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from logitscope.base.errors import InvalidSettingsError

REASONING_FORMATS = ("none", "deepseek")
DEFAULT_REASONING_FORMAT = "deepseek"
UNLIMITED = -1
OPEN_TAG, CLOSE_TAG = "<think>", "</think>"
CLOSE_TEXT = "\n" + CLOSE_TAG + "\n\n"   # what the engine writes when the budget is spent
THINKING, ANSWER = "thinking", "answer"


@dataclass(frozen=True)
class ThinkingSyntax:
    """How a family of models writes its thinking: the tags around the block, and what the engine writes to close
    it when the budget is spent."""

    name: str          # the trace's reasoning `format`
    open_tag: str
    close_tag: str
    close_text: str
    trailer: str = ""  # the block's last text before close_tag that is a header, not thinking


DEEPSEEK = ThinkingSyntax("deepseek", OPEN_TAG, CLOSE_TAG, CLOSE_TEXT)
# gpt-oss's Harmony channels: the thinking is the `analysis` channel's message, the answer the `final` channel's
# (llama.cpp's gpt-oss chat format; the tags are special tokens there, plain text in a vocabulary without them)
HARMONY = ThinkingSyntax("harmony", "<|channel|>analysis<|message|>", "<|channel|>final<|message|>",
                         "<|end|><|start|>assistant<|channel|>final<|message|>", trailer="<|end|><|start|>assistant")
SYNTAXES = (DEEPSEEK, HARMONY)


def syntax_for(template: str | None) -> ThinkingSyntax:
    """The template's thinking syntax: Harmony where it writes channels, else DeepSeek's tags."""
    return HARMONY if template is not None and "<|channel|>" in template else DEEPSEEK


def syntax_named(name: object) -> ThinkingSyntax:
    """A trace's recorded format as its syntax (DeepSeek's for any other: a remote server's, an unknown one)."""
    return HARMONY if name == HARMONY.name else DEEPSEEK
# How the block ended: the model wrote the tag, the budget closed it, or it never ended (the answer stopped first).
BY_MODEL, BY_BUDGET, UNCLOSED = "model", "budget", "unclosed"


def validate_reasoning(reasoning_format: str, budget: int) -> None:
    if reasoning_format not in REASONING_FORMATS:
        raise InvalidSettingsError("the reasoning format must be one of {formats}, not {value!r}",
                                   formats=", ".join(REASONING_FORMATS), value=reasoning_format)
    if budget < UNLIMITED:
        raise InvalidSettingsError("the reasoning budget must be -1 (unlimited), 0 (no thinking) or a number of "
                                   "tokens, not {value}", value=budget)
    if reasoning_format == "none" and budget != UNLIMITED:
        raise InvalidSettingsError("a reasoning budget needs the deepseek reasoning format: with none the "
                                   "thinking is not recognised")


# A template variable that turns the thinking off (Qwen3's): rendered false, the template closes the block itself.
THINKING_SWITCH = "enable_thinking"


def template_switches_thinking(template: str | None) -> bool:
    return template is not None and THINKING_SWITCH in template


def template_thinks(template: str | None) -> bool:
    """Whether a chat template knows the thinking block (it writes or strips `<think>`, or writes channels)."""
    return template is not None and (OPEN_TAG in template or CLOSE_TAG in template or "<|channel|>" in template)


def prompt_opens_block(prompt_text: str, syntax: ThinkingSyntax = DEEPSEEK) -> bool:
    """The template opened the block itself (DeepSeek-R1's, QwQ's): the answer starts inside it."""
    return prompt_text.rstrip().endswith(syntax.open_tag)


class ThinkingTracker:
    """The phase of each step of an answer, as its texts arrive. A step that writes (part of) a tag belongs to the
    block; whitespace before `<think>` does not. Until the answer's first characters show whether it opens with
    the tag, a step that could still be the tag's start counts as thinking (as streamed: step_phases corrects a
    finished answer that turned out not to open with it)."""

    def __init__(self, inside: bool = False, syntax: ThinkingSyntax = DEEPSEEK) -> None:
        self.syntax = syntax
        self.inside = inside           # in the block now
        self.opened = inside           # the answer has a block at all
        self.closed = False            # the block has ended
        self.n_thinking = 0            # steps inside the block (the budget counts these)
        self._head = ""                # the answer's text while it may still open with the tag
        self._tail = ""                # the block's last characters: a closing tag split across tokens

    def feed(self, text: str) -> str:
        """This step's phase (THINKING or ANSWER)."""
        if self.closed:
            return ANSWER
        if not self.opened:
            self._head += text
            head = self._head.lstrip()
            if head.startswith(self.syntax.open_tag):
                self.inside = self.opened = True
                self._seek_close(head[len(self.syntax.open_tag):])
                return self._thinking()
            if self.syntax.open_tag.startswith(head):
                return self._thinking() if head else ANSWER   # the tag's first characters, or whitespace alone
            self.closed, self.n_thinking = True, 0            # no block: the answer began
            return ANSWER
        self._seek_close(text)
        return self._thinking()

    def _seek_close(self, text: str) -> None:
        """Only the new text and the characters before it that a tag could span are searched: a long block costs
        the same per token as a short one."""
        window = self._tail + text
        if self.syntax.close_tag in window:
            self.inside, self.closed = False, True
        self._tail = window[-(len(self.syntax.close_tag) - 1):]

    def _thinking(self) -> str:
        self.n_thinking += 1
        return THINKING


@dataclass(frozen=True)
class ThinkingSplit:
    thinking: str      # the block's text, tags and surrounding whitespace taken off ("" without a block)
    answer: str        # the rest
    has_block: bool
    closed: bool       # the block ended (by the model or the budget)


def split_thinking(text: str, inside: bool = False, syntax: ThinkingSyntax = DEEPSEEK) -> ThinkingSplit:
    """An answer's text split as --reasoning-format deepseek splits it; `inside`: the prompt opened the block."""
    body = text
    if not inside:
        stripped = text.lstrip()
        if not stripped.startswith(syntax.open_tag):
            return ThinkingSplit("", text, False, False)
        body = stripped[len(syntax.open_tag):]
    thinking, tag, answer = body.partition(syntax.close_tag)
    if not tag:
        return ThinkingSplit(body.strip(), "", True, False)
    thinking = thinking.strip()
    if syntax.trailer and thinking.endswith(syntax.trailer):
        thinking = thinking[:-len(syntax.trailer)].rstrip()
    return ThinkingSplit(thinking, answer.lstrip(), True, True)


def step_phases(texts: Sequence[str], inside: bool = False, syntax: ThinkingSyntax = DEEPSEEK) -> list[str]:
    """Each step's phase for a finished answer; steps taken for the tag's start when the answer turned out not to
    open with it are answer steps."""
    tracker = ThinkingTracker(inside, syntax)
    phases = [tracker.feed(t) for t in texts]
    if not tracker.opened:
        return [ANSWER] * len(phases)
    return phases


def split_by_steps(texts: Sequence[str], thinking: Sequence[bool]) -> ThinkingSplit:
    """An answer split by its steps' phases (the engine's `thinking` flags): its leading thinking steps are the
    block. What the history stores apart; a text after the closing tag within the same token is the answer's."""
    n = 0
    while n < len(texts) and thinking[n]:
        n += 1
    rest = "".join(texts[n:])
    if not n:
        return ThinkingSplit("", rest, False, False)
    block = "".join(texts[:n])
    syntax = HARMONY if HARMONY.open_tag in block or HARMONY.close_tag in block else DEEPSEEK
    inner = split_thinking(block, inside=not block.lstrip().startswith(syntax.open_tag), syntax=syntax)
    return ThinkingSplit(inner.thinking, (inner.answer + rest).lstrip(), True, inner.closed)


def joined_text(thinking: str | None, answer: str, opened_by_prompt: bool = False, closed: bool = True,
                syntax: ThinkingSyntax = DEEPSEEK) -> str:
    """An answer's whole text again from its two stored parts (None: no block), as the model wrote them but for the
    whitespace around the tags."""
    if thinking is None:
        return answer
    head = "" if opened_by_prompt else syntax.open_tag + ("\n" if syntax is DEEPSEEK else "")
    return f"{head}{thinking}{syntax.close_text}{answer}" if closed else f"{head}{thinking}"


def sent_back(content: str, template: str | None, thinking: str = "") -> tuple[str, str]:
    """An earlier answer as it goes back into the prompt, as (content, thinking): without its thinking block, as
    llama-server sends it; the thinking is "" unless the template reads it itself (a `reasoning_content` field:
    GLM's, gpt-oss's), which then gets it apart. `thinking` given: `content` is the answer alone already."""
    reads_thinking = template is not None and "reasoning_content" in template
    if thinking:
        return content, thinking if reads_thinking else ""
    # a block the template opened has no opening tag in the answer's text
    syntax = syntax_for(template)
    opened_by_prompt = template_thinks(template) and not content.lstrip().startswith(syntax.open_tag)
    split = split_thinking(content, inside=opened_by_prompt and syntax.close_tag in content, syntax=syntax)
    if not (split.has_block and split.closed):
        return content, ""
    return split.answer, split.thinking if reads_thinking else ""
