"""Multi-turn chat prompts: the model's own Jinja chat template (sandboxed, rendered with a time limit),
a plain fallback when the GGUF has none, and oldest-first trimming to fit the context window."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from llama_cpp.llama_chat_format import Jinja2ChatFormatter
from llama_cpp.llama_types import ChatCompletionRequestMessage

from logitscope.base.errors import ChatTemplateError, ContextOverflowError
from logitscope.base.messages import Message
from logitscope.protocol.api import ChatMessage
from logitscope.protocol.notices import FALLBACK_NOTICE, TRIMMED_NOTICE
from logitscope.protocol.reasoning import THINKING_SWITCH, sent_back, template_switches_thinking

T = TypeVar("T")

RENDER_TIMEOUT_S = 2.0


class ChatTemplate:
    """Renders messages with the GGUF's `tokenizer.chat_template` (jinja2's ImmutableSandboxedEnvironment,
    through llama-cpp-python's Jinja2ChatFormatter), or a plain fallback."""

    def __init__(self, template: str | None, bos_token: str, eos_token: str) -> None:
        self.source = template
        self.fallback = not template
        self.stop: tuple[str, ...] = ("\nUser:",) if self.fallback else ()
        self._formatter: Jinja2ChatFormatter | None = None
        if template:
            try:
                self._formatter = Jinja2ChatFormatter(template, eos_token=eos_token, bos_token=bos_token)
            except Exception as exc:  # a template that does not even parse
                raise ChatTemplateError("the model's chat template is invalid: {exc}", exc=exc) from None

    def render(self, messages: Sequence[ChatMessage], thinking_off: bool = False) -> str:
        """`thinking_off`: a budget of 0; a template with a thinking switch (Qwen3's `enable_thinking`) gets it
        false and closes the block itself."""
        formatter = self._formatter
        if formatter is None:
            return _render_plain(messages)
        switch: dict[str, Any] = ({THINKING_SWITCH: False} if thinking_off and template_switches_thinking(self.source)
                                  else {})
        # the template sees plain role/content dicts; ChatMessage's role is a str, not the TypedDicts' literals
        payload = cast(list[ChatCompletionRequestMessage],
                       [_payload(m) for m in messages])
        try:
            result = _with_timeout(lambda: formatter(messages=payload, **switch), RENDER_TIMEOUT_S)
        except TimeoutError:
            raise ChatTemplateError("the model's chat template took longer than "
                                    "{RENDER_TIMEOUT_S:.0f} s to render", RENDER_TIMEOUT_S=RENDER_TIMEOUT_S) from None
        except ChatTemplateError:
            raise
        except Exception as exc:
            raise ChatTemplateError("the model's chat template failed: {exc}", exc=exc) from None
        return result.prompt


def _payload(message: ChatMessage) -> dict[str, str]:
    """What the template sees of a message; `reasoning_content` only where there is thinking to give back."""
    payload = {"role": message.role, "content": message.content}
    if message.thinking:
        payload["reasoning_content"] = message.thinking
    return payload


def _render_plain(messages: Sequence[ChatMessage]) -> str:
    parts = []
    for m in messages:
        if m.role == "system":
            parts.append(f"{m.content}\n\n")
        else:
            parts.append(f"{'User' if m.role == 'user' else 'Assistant'}: {m.content}\n")
    parts.append("Assistant:")
    return "".join(parts)


def _with_timeout(fn: Callable[[], T], seconds: float) -> T:
    """Run fn with a time limit. In the main thread SIGALRM interrupts pure-Python rendering; elsewhere a
    worker thread is abandoned after the limit (the engine process can be restarted)."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def on_alarm(_sig: int, _frame: object) -> None:
            raise TimeoutError

        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return fn()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    values: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            values.append(fn())
        except BaseException as exc:  # handed back to the caller
            errors.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise TimeoutError
    if errors:
        raise errors[0]
    return values[0]


@dataclass
class ChatPrompt:
    text: str
    tokens: list[int]
    trimmed_messages: int
    notices: list[str]
    messages: list[ChatMessage]     # what was rendered: the system prompt and the messages kept


def build_chat_prompt(template: ChatTemplate, messages: Sequence[ChatMessage], system: str | None,
                      tokenize: Callable[[str], list[int]], n_ctx: int, reserve: int,
                      thinking_off: bool = False) -> ChatPrompt:
    """Render and tokenize; while the prompt leaves fewer than `reserve` tokens for the answer, drop the
    oldest turns (never the system prompt, never the last user message)."""
    head = [ChatMessage("system", system)] if system else []
    body = [ChatMessage(m.role, *sent_back(m.content, template.source, m.thinking)) if m.role == "assistant" else m
            for m in messages if m.role != "system" or not system]
    budget = n_ctx - reserve
    trimmed = 0
    notices: list[str] = [FALLBACK_NOTICE] if template.fallback else []
    while True:
        text = template.render(head + body, thinking_off)
        tokens = tokenize(text)
        if len(tokens) <= budget:
            break
        if len(body) <= 1:
            raise ContextOverflowError(
                "the message is too long: the prompt needs {n_tokens} tokens but the context "
                "holds {n_ctx} and {reserve} are kept for the answer; shorten it or load the "
                "model with a larger context", n_tokens=len(tokens), n_ctx=n_ctx, reserve=reserve)
        drop = 2 if len(body) > 2 and body[0].role == "user" and body[1].role == "assistant" else 1
        body = body[drop:]
        trimmed += drop
    if trimmed:
        notices.append(Message(TRIMMED_NOTICE, n_ctx=n_ctx, trimmed=trimmed))
    return ChatPrompt(text, tokens, trimmed, notices, head + body)
