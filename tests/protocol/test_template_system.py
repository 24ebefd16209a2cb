"""The system prompt a chat template writes by itself when the chat has none."""

from __future__ import annotations

from logitscope.protocol.api import ChatMessage
from logitscope.protocol.template_system import default_system_prompt

SMOLLM2_LIKE = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"


def chatml(default: str | None):  # noqa: ANN201
    def render(messages: list[ChatMessage], system: str | None) -> str:
        text = ""
        if system or default:
            text += f"<|im_start|>system\n{system or default}<|im_end|>\n"
        return text + "".join(f"<|im_start|>{m.role}\n{m.content}<|im_end|>\n" for m in messages)
    return render


def test_a_template_that_writes_its_own_is_found_and_one_that_does_not_is_not():
    assert default_system_prompt(chatml(SMOLLM2_LIKE)) == SMOLLM2_LIKE
    assert default_system_prompt(chatml(None)) is None


def test_a_template_that_ignores_the_system_prompt_has_none_of_its_own():
    assert default_system_prompt(lambda messages, _system: "".join(m.content for m in messages)) is None
