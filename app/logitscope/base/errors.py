"""Errors whose message is meant for the user, as is: one clear sentence, no traceback."""

from __future__ import annotations

from typing import Any

from logitscope.base.messages import Message


class LogitscopeError(Exception):
    """Base class. `str(err)` is shown to the user (in English; the CLI and logs print it).

    `LogitscopeError("cannot read {path}: {reason}", path=p, reason=r)`: the message is a template (a stable
    English sentence, collected into the translation catalogue) with named parameters; `err.message` is
    the Message the window translates. A plain sentence without parameters works the same way."""

    def __init__(self, message: str = "", /, **params: Any) -> None:
        self.message = message if isinstance(message, Message) and not params else Message(message, **params)
        super().__init__(str(self.message))


class InvalidSettingsError(LogitscopeError, ValueError):
    """An option value is out of range (negative temperature, top-p outside (0, 1], ...)."""


class ModelFileError(LogitscopeError):
    """The model file is missing, unreadable, or not a valid GGUF file."""


class DamagedModelError(ModelFileError):
    """The header reads, but it is inconsistent in a way llama.cpp cannot load (truncated data, counts or
    shapes that do not match). `card`: the ModelCard as read, its `problems` listing each; None when the
    error was rebuilt from its message (across the engine process boundary)."""

    def __init__(self, message: str, /, card: object | None = None, **params: Any) -> None:
        super().__init__(message, **params)
        self.card = card


class ModelLoadError(LogitscopeError):
    """llama.cpp refused to load the model (the reason is taken from its log)."""


class LoadCancelledError(LogitscopeError):
    """The user cancelled a model load."""


class NoModelLoadedError(LogitscopeError):
    """A request needs a model but none is loaded."""


class ContextOverflowError(LogitscopeError):
    """The prompt cannot fit in the context window, even after trimming old turns."""


class ChatTemplateError(LogitscopeError):
    """The model's chat template failed to render (or took too long)."""


class EngineCrashedError(LogitscopeError):
    """The engine process died (native abort, segfault, killed). The caller can start a new one.
    `log_tail`: the last non-blank lines of the engine's log, when known."""

    def __init__(self, message: str, /, log_tail: list[str] | None = None, **params: Any) -> None:
        super().__init__(message, **params)
        self.log_tail = log_tail or []


class EngineUnresponsiveError(EngineCrashedError):
    """The engine process gave no sign of life for too long (stopped, frozen) and was ended. A kind of crash:
    the caller can start a new one. `silent_s`: how long it was quiet."""

    def __init__(self, message: str, /, silent_s: float = 0.0, **params: Any) -> None:
        super().__init__(message, **params)
        self.silent_s = silent_s


class DownloadError(LogitscopeError):
    """A model download failed (network, hash mismatch, ...)."""


class DownloadCancelledError(DownloadError):
    """The user cancelled a download; the partial file is kept, so the next pull resumes it."""


class HubError(LogitscopeError):
    """A Hugging Face Hub request failed: unreachable, gated or private, not found, or a server error."""


class LibraryError(LogitscopeError):
    """A model library request was refused: an unknown model, or deleting a file Logitscope does not own."""


class StoreError(LogitscopeError):
    """The history or settings storage cannot do what was asked (unknown conversation, unreadable file, ...)."""


class AttachmentError(LogitscopeError):
    """A file cannot be attached to a message: a folder, missing or unreadable, too large, binary, or not
    UTF-8 text; or the message with its files does not fit in the model's context."""


class RemoteEngineError(LogitscopeError):
    """A remote engine (llama-server, vLLM, an OpenAI-compatible server) failed: unreachable, refused,
    timed out, an HTTP error, or an answer broken off mid-stream.

    `partial`: when an answer failed once it was asked for, the GenerationResult of what arrived before,
    maybe no token (finish_reason "error", the reason in its notices); its steps were already handed to
    `on_step`. None otherwise.
    """

    def __init__(self, message: str, /, partial: object | None = None, **params: Any) -> None:
        super().__init__(message, **params)
        self.partial = partial


class UnsupportedByServerError(RemoteEngineError):
    """The remote server cannot do what was asked (tokenize, list its vocabulary, force tokens, ...)."""
