"""User-facing text of the lower layers (engine, host, library, store), translatable without Qt.

A `Message` is the English text (it *is* a `str`: the CLI, logs, JSON and existing comparisons see the
same text as before) that also carries its template (a stable English sentence, like gettext's msgid)
and its parameters, each already rendered. The window translates the template
(`ui/common/messages.py`) and puts the parameters back in. `scripts/i18n.py catalog` collects every template
written as `Message("...", ...)` or `SomeLogitscopeError("...", ...)` into the translation catalogue.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

_FORMATTER = string.Formatter()


def fields(template: str) -> list[tuple[str, str, str]]:
    """(name, format spec, conversion) of each `{field}` of `template`, in order."""
    return [(name, spec or "", conversion or "")
            for _literal, name, spec, conversion in _FORMATTER.parse(template) if name is not None]


def render(template: str, params: Mapping[str, str]) -> str:
    """`template` with each field replaced by its rendered parameter (spec and conversion already applied)."""
    out: list[str] = []
    for literal, name, _spec, _conversion in _FORMATTER.parse(template):
        out.append(literal)
        if name is not None:
            out.append(params[name])
    return "".join(out)


class Message(str):
    """English text with its template and rendered parameters: `Message("{n} tokens", n=3) == "3 tokens"`.

    A parameter that is itself a Message keeps its template, so the window translates it too."""

    template: str
    params: dict[str, str]

    def __new__(cls, template: str, /, **params: Any) -> Message:
        rendered: dict[str, str] = {}
        for name, spec, conversion in fields(template) if params else []:
            value = params[name]
            if isinstance(getattr(value, "message", None), Message):
                value = value.message  # a LogitscopeError as a parameter: its Message, translatable
            if not spec and not conversion and isinstance(value, str):
                rendered[name] = value  # a Message stays one (translated in its turn)
            else:
                converted = _FORMATTER.convert_field(value, conversion or None)
                rendered[name] = _FORMATTER.format_field(converted, spec)
        return cls.rendered(template, rendered)

    @classmethod
    def rendered(cls, template: str, params: Mapping[str, str]) -> Message:
        """The Message of `template` whose parameters are already rendered (spec and conversion applied)."""
        self = super().__new__(cls, render(template, params) if params else template)
        self.template = template
        self.params = dict(params)
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickled across the engine process boundary with its template
        return (Message.rendered, (self.template, self.params))


def join_messages(separator: str, messages: list[Message]) -> Message:
    """`messages` joined by `separator` (no words of its own: the window translates each part)."""
    template = separator.replace("{", "{{").replace("}", "}}").join(f"{{m{k}}}" for k in range(len(messages)))
    return Message.rendered(template, {f"m{k}": m for k, m in enumerate(messages)})


def as_message(value: object) -> Message:
    """`value` as a Message: itself if it is one, else its text as a template without parameters."""
    if isinstance(value, Message):
        return value
    return Message.rendered(str(value), {})
