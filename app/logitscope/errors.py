"""Errors whose message is meant for the user, as is: one clear sentence, no traceback."""

from __future__ import annotations


class LogitscopeError(Exception):
    """Base class. `str(err)` is shown to the user."""


class InvalidSettingsError(LogitscopeError, ValueError):
    """An option value is out of range (negative temperature, top-p outside (0, 1], ...)."""


class ModelFileError(LogitscopeError):
    """The model file is missing, unreadable, or not a valid GGUF file."""


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
    """The engine process died (native abort, segfault, killed). The caller can start a new one."""


class DownloadError(LogitscopeError):
    """A model download failed (network, hash mismatch, ...)."""
