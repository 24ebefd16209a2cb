"""Token bytes to text, one token at a time.

A CJK character or an emoji is often split across two or three tokens: each token's bytes go through
an incremental UTF-8 decoder, which holds back an incomplete character until its last byte arrives, so
the stream never shows U+FFFD for a character that was merely split.
"""

from __future__ import annotations

import codecs


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
