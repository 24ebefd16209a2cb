"""UTF-8 text: token bytes to text one token at a time, and text files read whole.

A CJK character or an emoji is often split across two or three tokens: each token's bytes go through
an incremental UTF-8 decoder, which holds back an incomplete character until its last byte arrives, so
the stream never shows U+FFFD for a character that was merely split.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.base.reading import NotAFileError, TooLargeError, read_bounded


class Utf8Stream:
    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, piece: bytes) -> str:
        """The complete characters that this piece finishes (may be "")."""
        return self._decoder.decode(piece)

    def flush(self) -> str:
        """End of stream: bytes of a character that never completed become U+FFFD."""
        return self._decoder.decode(b"", final=True)

    @property
    def pending(self) -> bool:
        return bool(self._decoder.getstate()[0])


def require_utf8(text: str, what: str) -> None:
    """InvalidSettingsError unless `text` can be written as UTF-8.

    Python turns command-line bytes that are not UTF-8 into lone surrogates ("surrogateescape"), and
    JSON can carry them too; the tokenizer needs UTF-8, so say so here rather than fail deep inside it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        what_is_bad = (f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF  # an undecodable input byte
                       else f"a lone surrogate U+{code:04X}")
        raise InvalidSettingsError("{what} is not valid UTF-8 ({what_is_bad} at character "
                                   "{value}); give the text in UTF-8", what=what, what_is_bad=what_is_bad, value=exc.start + 1) from None


MAX_TEXT_BYTES = 64 << 20    # a text file bigger than this is a mistake (about 15 M tokens)


def read_file_bytes(path: Path, max_bytes: int, folder: Message, too_large: Message) -> bytes:
    """A small file's bytes, read whole (base/reading.py: a pipe or a device is refused unread); `folder` /
    `too_large` are the errors when it is a folder or larger than `max_bytes`, and an unreadable file says why."""
    try:
        return read_bounded(path, max_bytes)
    except NotAFileError as exc:
        if exc.is_folder:
            raise InvalidSettingsError(folder) from None
        raise InvalidSettingsError("{path} is {kind}, not a file", path=str(path), kind=exc.kind) from None
    except TooLargeError:
        raise InvalidSettingsError(too_large) from None
    except OSError as exc:
        raise InvalidSettingsError("cannot read {path}: {reason}", path=str(path), reason=exc.strerror or str(exc)) from None


def read_text_file(path: Path) -> str:
    """A UTF-8 text file to score (the CLI's FILE, the window's Open file…): one clear error if it is not one."""
    path = path.expanduser()
    data = read_file_bytes(path, MAX_TEXT_BYTES, Message("{path} is a folder, not a text file", path=str(path)),
                           Message("{path} is larger than {limit} MiB: not a text to score", path=str(path),
                                   limit=MAX_TEXT_BYTES >> 20))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidSettingsError("{path} is not UTF-8 text (byte 0x{byte:02x} at offset {offset})", path=str(path),
                                   byte=data[exc.start], offset=exc.start) from None
