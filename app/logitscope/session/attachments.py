"""Attaching a text file to a message (Qt-free: the window and the terminal chat share it): what is refused,
and how many of the context's tokens the message takes with its files, asked of the engine.

A refusal is one AttachmentError that says why (a folder, missing or unreadable, over MAX_ATTACHMENT_BYTES,
binary, not UTF-8); the caller keeps everything the user typed. The token counts call the engine: run them
where the engine may be called (the window's engine worker, never its GUI thread).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from logitscope.base.errors import AttachmentError, ContextOverflowError
from logitscope.base.reading import NotAFileError, TooLargeError, read_bounded
from logitscope.gguf.memory import format_bytes
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, answer_reserve
from logitscope.protocol.attachments import Attachment, render_attachment, render_message
from logitscope.protocol.engine_like import EngineLike

MAX_ATTACHMENT_BYTES = 1 << 20   # 1 MiB of text: more than the context of most local models holds


def read_attachment(path: str | Path) -> Attachment:
    """The text file at `path`, to attach; AttachmentError (saying why) when it cannot be."""
    path = Path(path)
    name = path.name or str(path)
    try:
        data = read_bounded(path, MAX_ATTACHMENT_BYTES)   # a pipe or a device is refused unread
    except NotAFileError as exc:
        if exc.is_folder:
            raise AttachmentError("{name} is a folder: attach a text file", name=name) from None
        raise AttachmentError("{name} is {kind}, not a file: attach a text file", name=name, kind=exc.kind) from None
    except TooLargeError:
        raise AttachmentError("{name} is {size}: files of at most {limit} can be attached", name=name,
                              size=format_bytes(_size(path)), limit=format_bytes(MAX_ATTACHMENT_BYTES)) from None
    except FileNotFoundError:
        raise AttachmentError("{name} does not exist", name=name) from None
    except OSError as exc:
        raise AttachmentError("{name} cannot be read: {reason}", name=name, reason=exc.strerror or str(exc)) from None
    return Attachment(name, decode_text(name, data))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return MAX_ATTACHMENT_BYTES + 1


def decode_text(name: str, data: bytes) -> str:
    """The file's bytes as text (a UTF-8 byte order mark dropped, Windows line ends made plain), or the
    AttachmentError of a binary file (NUL bytes) or of one that is not UTF-8."""
    if b"\0" in data:
        raise AttachmentError("{name} is a binary file (it has NUL bytes): only text files can be attached",
                              name=name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise AttachmentError("{name} is not UTF-8 text (byte {offset} is not valid UTF-8): only UTF-8 text "
                              "files can be attached", name=name, offset=exc.start) from None
    return text.replace("\r\n", "\n")


def message_tokens(engine: EngineLike, text: str, attachments: Sequence[Attachment], system: str | None) -> int:
    """The tokens the model reads for this user message alone (its files rendered in, the chat template
    and the system prompt around it): what must fit in the context, whatever older turns are dropped.
    A message larger than the whole context is counted as its text plus the template's own tokens."""
    message = ChatMessage("user", render_message(text, attachments))
    try:
        return len(engine.prompt_tokens(_alone(message, system)))
    except ContextOverflowError:
        frame = len(engine.prompt_tokens(_alone(ChatMessage("user", ""), system)))
        return frame + len(engine.tokenize(message.content, False, True))


def attachment_tokens(engine: EngineLike, attachment: Attachment) -> int:
    """The tokens one file adds to a message (its name and fence with it), for its chip."""
    return len(engine.tokenize(render_attachment(attachment), False, True))


def _alone(message: ChatMessage, system: str | None) -> GenerateRequest:
    return GenerateRequest(messages=[message], system=system, options=DecodeOptions(max_tokens=1))


def fit_problem(needed: int, n_ctx: int, max_tokens: int) -> AttachmentError | None:
    """Why a message of `needed` tokens cannot be sent (the engine keeps room for the answer, and drops
    older turns, never the new message, to make the rest fit); None when it fits."""
    reserve = answer_reserve(n_ctx, max_tokens)
    left = n_ctx - reserve
    if needed <= left:
        return None
    return AttachmentError("the message with its attachments needs {needed} tokens, but {left} of the "
                           "context's {n_ctx} are left for it ({reserve} are kept for the answer): remove an "
                           "attachment, or load the model with a larger context",
                           needed=needed, left=left, n_ctx=n_ctx, reserve=reserve)
