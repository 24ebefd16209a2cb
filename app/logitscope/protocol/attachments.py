"""Text files attached to a user message, and the one way a message with its files becomes the text the
model reads (the chat template gets it as the message's content).

A file is sent as plain text after what the user typed, in a fenced block headed by its name, as chat
apps do for plain text files (Open WebUI, LM Studio). The history keeps the typed text and the files
apart; everything that builds a prompt from them (the window, a reloaded chat, the terminal chat) calls
`render_message`, so the model reads the same prompt whichever way the message came back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_BACKTICK_RUN = re.compile(r"`{3,}")
_LANGUAGE = re.compile(r"[A-Za-z0-9+#-]{1,20}")


@dataclass(frozen=True)
class Attachment:
    """One text file as it was attached: its name (no folder) and its whole text."""

    name: str
    text: str

    @property
    def size(self) -> int:
        """Its size in bytes, as UTF-8."""
        return len(self.text.encode("utf-8", "surrogatepass"))

    def to_dict(self) -> dict[str, str]:
        """What the history store keeps (messages.attachments_json, the JSON export)."""
        return {"name": self.name, "text": self.text}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Attachment:
        return cls(str(d.get("name", "")), str(d.get("text", "")))


def attachments_of(stored: Sequence[Mapping[str, Any]] | None) -> tuple[Attachment, ...]:
    """The attachments a stored message lists (the store's list of {name, text})."""
    return tuple(Attachment.from_dict(d) for d in stored or () if isinstance(d, Mapping))


def render_attachment(attachment: Attachment) -> str:
    """One file as the model reads it: its name on a line, then its text in a fence longer than any run of
    backticks inside it (a Markdown file's own code blocks cannot close it early)."""
    longest = max((len(m.group()) for m in _BACKTICK_RUN.finditer(attachment.text)), default=0)
    fence = "`" * max(3, longest + 1)
    suffix = attachment.name.rsplit(".", 1)[1] if "." in attachment.name.strip(".") else ""
    language = suffix if _LANGUAGE.fullmatch(suffix) else ""
    body = attachment.text if attachment.text.endswith("\n") or not attachment.text else attachment.text + "\n"
    return f"{attachment.name}\n{fence}{language}\n{body}{fence}"


def render_message(text: str, attachments: Sequence[Attachment] = ()) -> str:
    """The content of a user message as the model reads it: the typed text, then each file, a blank line
    between each part. Without attachments it is the typed text, unchanged."""
    if not attachments:
        return text
    parts = [text] if text else []
    return "\n\n".join(parts + [render_attachment(a) for a in attachments])
