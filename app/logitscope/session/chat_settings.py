"""A conversation's own settings, in the one form its `settings_json` keeps them (and the JSON export carries):

    {"system_preset": "Concise" | null,     the system prompt preset picked (null: none, or the user's own text)
     "system_prompt": "You are …" | "",     the system prompt the chat uses for its next answers ("": none)
     "sampler": {...SamplerSettings.to_dict()},
     "max_tokens": 512, "stop": ["###"],
     "reasoning_budget": -1}                  a reasoning model's thinking budget (protocol/reasoning.py)

The text is kept here, not only as the history's 'system' message: that message is the record of what
the model saw when the chat began (written with the first question, as the CLI does, and read by the
Markdown export and older versions), while the user may change the system prompt later on; rewriting the
first message would make the record lie, and a new root message would hide the turns under the old one.

Reading is tolerant: a chat exported by another version, or a hand-edited database, always opens. Unknown
keys are ignored; a value of the wrong type is left out (the window's default used) with a notice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from logitscope.base.messages import Message
from logitscope.protocol.reasoning import UNLIMITED
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.store.settings import read_sampler_settings

MAX_TOKENS_RANGE = (1, 1 << 20)


@dataclass(frozen=True)
class ChatSettings:
    """None in a field: not recorded (a chat saved before it had settings, or a value that was unusable);
    the window uses its default there."""

    system_preset: str | None = None
    system_prompt: str | None = None     # "" = no system prompt; None = not recorded (the 'system' message says)
    sampler: SamplerSettings | None = None
    max_tokens: int | None = None
    stop: tuple[str, ...] | None = None
    reasoning_budget: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"system_preset": self.system_preset}
        if self.system_prompt is not None:
            data["system_prompt"] = self.system_prompt
        if self.sampler is not None:
            data["sampler"] = self.sampler.to_dict()
        if self.max_tokens is not None:
            data["max_tokens"] = self.max_tokens
        if self.stop is not None:
            data["stop"] = list(self.stop)
        if self.reasoning_budget is not None:
            data["reasoning_budget"] = self.reasoning_budget
        return data


def read_chat_settings(raw: Any) -> tuple[ChatSettings, list[str]]:
    """ChatSettings from a stored dict (anything at all), and one notice per part left out."""
    notices: list[str] = []
    if raw is None:
        return ChatSettings(), notices
    if not isinstance(raw, dict):
        notices.append(Message("this chat's settings are not an object; the defaults are used"))
        return ChatSettings(), notices

    def text(key: str) -> str | None:
        value = raw.get(key)
        if value is None or isinstance(value, str):
            return value
        notices.append(Message("this chat's {key} is not a text; ignored", key=key))
        return None

    sampler = None
    if "sampler" in raw:
        sampler = read_sampler_settings(raw["sampler"], "this chat's sampler settings", notices)
    max_tokens = raw.get("max_tokens")
    if max_tokens is not None and not (isinstance(max_tokens, int) and not isinstance(max_tokens, bool)
                                       and MAX_TOKENS_RANGE[0] <= max_tokens <= MAX_TOKENS_RANGE[1]):
        notices.append(Message("this chat's max_tokens = {value!r} is invalid; ignored", value=max_tokens))
        max_tokens = None
    stop = raw.get("stop")
    if stop is not None and not (isinstance(stop, list) and all(isinstance(s, str) and s for s in stop)):
        notices.append(Message("this chat's stop sequences are not a list of texts; ignored"))
        stop = None
    budget = raw.get("reasoning_budget")
    if budget is not None and not (isinstance(budget, int) and not isinstance(budget, bool)
                                   and UNLIMITED <= budget <= MAX_TOKENS_RANGE[1]):
        notices.append(Message("this chat's reasoning_budget = {value!r} is invalid; ignored", value=budget))
        budget = None
    settings = ChatSettings(system_preset=text("system_preset") or None, system_prompt=text("system_prompt"),
                            sampler=sampler, max_tokens=max_tokens, stop=tuple(stop) if stop is not None else None,
                            reasoning_budget=budget)
    return settings, notices
