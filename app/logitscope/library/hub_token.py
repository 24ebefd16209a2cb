"""The Hugging Face token for gated and private repositories.

Kept in the OS keyring when the optional `keyring` module is importable and has a working backend,
otherwise in the data folder as `hf_token`, readable by the owner only (0600). Without a token of ours,
huggingface_hub falls back to its own (HF_TOKEN, `hf auth login`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import ModuleType

from logitscope.base.errors import HubError
from logitscope.base.paths import data_dir
from logitscope.base.reading import read_bounded

KEYRING_SERVICE = "logitscope"
KEYRING_USER = "huggingface-token"
TOKEN_FILE = "hf_token"
MAX_TOKEN_FILE_BYTES = 4096   # a token is a few dozen characters
NO_KEYRING_ENV = "LOGITSCOPE_NO_KEYRING"  # "1": always use the file (tests, headless machines)
TOKEN_RE = re.compile(r"^[A-Za-z0-9_\-.]{8,512}$")


def _keyring() -> ModuleType | None:
    if os.environ.get(NO_KEYRING_ENV) == "1":
        return None
    try:
        import keyring
    except ImportError:
        return None
    module: ModuleType = keyring
    return module


def token_file() -> Path:
    return data_dir() / TOKEN_FILE


def set_token(token: str) -> str:
    """Store the token; return where ("the OS keyring" or the file path)."""
    token = token.strip()
    if not TOKEN_RE.match(token):
        raise HubError("that does not look like a Hugging Face token (one word like hf_..., from "
                       "huggingface.co/settings/tokens)")
    keyring = _keyring()
    if keyring is not None:
        try:
            keyring.set_password(KEYRING_SERVICE, KEYRING_USER, token)
            token_file().unlink(missing_ok=True)  # one place only
            return "the OS keyring"
        except Exception:  # keyring.errors.KeyringError and backend-specific failures: use the file
            pass
    path = token_file()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        if hasattr(os, "fchmod"):  # POSIX: an older file may have had wider permissions
            os.fchmod(fh.fileno(), 0o600)
        fh.write(token + "\n")
    return str(path)


def get_token() -> str | None:
    keyring = _keyring()
    if keyring is not None:
        try:
            token: str | None = keyring.get_password(KEYRING_SERVICE, KEYRING_USER)
            if token:
                return token
        except Exception:
            pass
    try:   # bounded: a token file that is a pipe or /dev/zero is no token, not a hang
        return read_bounded(token_file(), MAX_TOKEN_FILE_BYTES).decode("utf-8").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def clear_token() -> None:
    keyring = _keyring()
    if keyring is not None:
        try:
            keyring.delete_password(KEYRING_SERVICE, KEYRING_USER)
        except Exception:  # nothing stored there, or no backend
            pass
    token_file().unlink(missing_ok=True)
