"""The system prompt a chat template writes by itself when the chat has none (SmolLM2's: "You are a helpful AI
assistant named SmolLM, trained by Hugging Face"): a chat whose system prompt is "None" still sends it, and the
window says so. Found by rendering one user turn twice, with a marker as the system prompt and without one: what
the second has where the first has the marker is the template's own."""

from __future__ import annotations

from collections.abc import Callable

from logitscope.protocol.api import ChatMessage

# private-use characters: in no template's own text
USER_MARK, SYSTEM_MARK = "\ue000user\ue000", "\ue000system\ue000"

Render = Callable[[list[ChatMessage], "str | None"], str]   # messages, system prompt -> the rendered prompt


def default_system_prompt(render: Render) -> str | None:
    """The template's own system prompt (stripped), or None when it writes none without one."""
    turn = [ChatMessage("user", USER_MARK)]
    with_mark = render(turn, SYSTEM_MARK)
    without = render(turn, None)
    head, found, tail = with_mark.partition(SYSTEM_MARK)
    if not found or len(head) + len(tail) > len(without) or not (without.startswith(head) and without.endswith(tail)):
        return None   # the block is gone without one (or the template wrote the marker elsewhere)
    own = without[len(head):len(without) - len(tail)].strip()
    return own or None
