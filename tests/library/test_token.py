"""The Hugging Face token: in the OS keyring when one works, else in a 0600 file in the data folder."""

from __future__ import annotations

import stat
import sys
import types

import pytest

from logitscope.base.errors import HubError
from logitscope.library.hub_token import KEYRING_SERVICE, clear_token, get_token, set_token, token_file


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_file_store_is_private(sealed):
    assert get_token() is None
    token_file().write_text("old\n")
    token_file().chmod(0o644)
    assert set_token("  hf_abcdefgh12345678\n") == str(token_file())
    assert mode(token_file()) == 0o600 and get_token() == "hf_abcdefgh12345678"
    clear_token()
    assert get_token() is None and not token_file().exists()
    clear_token()  # clearing twice is fine


@pytest.mark.parametrize("bad", ["", "hf_with space inside", "short", "hf_abc\nhf_def"])
def test_not_a_token(sealed, bad):
    with pytest.raises(HubError, match="does not look like a Hugging Face token"):
        set_token(bad)
    assert get_token() is None


def keyring_module(fail: bool = False) -> types.ModuleType:
    """A stand-in for the optional `keyring` package (not installed here), with its three calls."""
    store: dict[tuple[str, str], str] = {}
    module = types.ModuleType("keyring")

    def set_password(service: str, user: str, value: str) -> None:
        if fail:
            raise RuntimeError("No recommended backend was available")
        store[service, user] = value

    module.set_password = set_password  # type: ignore[attr-defined]
    module.get_password = lambda service, user: store.get((service, user))  # type: ignore[attr-defined]
    module.delete_password = lambda service, user: store.pop((service, user))  # type: ignore[attr-defined]
    module.store = store  # type: ignore[attr-defined]
    return module


def test_keyring_is_used_when_it_works(sealed, monkeypatch):
    keyring = keyring_module()
    monkeypatch.setitem(sys.modules, "keyring", keyring)
    monkeypatch.delenv("LOGITSCOPE_NO_KEYRING")
    assert set_token("hf_abcdefgh12345678") == "the OS keyring"
    assert not token_file().exists() and list(keyring.store.values()) == ["hf_abcdefgh12345678"]
    assert next(iter(keyring.store))[0] == KEYRING_SERVICE and get_token() == "hf_abcdefgh12345678"
    clear_token()
    assert keyring.store == {} and get_token() is None


def test_a_broken_keyring_falls_back_to_the_file(sealed, monkeypatch):
    monkeypatch.setitem(sys.modules, "keyring", keyring_module(fail=True))
    monkeypatch.delenv("LOGITSCOPE_NO_KEYRING")
    assert set_token("hf_abcdefgh12345678") == str(token_file())
    assert mode(token_file()) == 0o600 and get_token() == "hf_abcdefgh12345678"


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_token_file_that_never_ends_is_no_token(sealed, kind):
    """A named pipe would wait for a writer forever, /dev/zero would be read without end: no token, at once."""
    import os

    if kind == "fifo":
        os.mkfifo(token_file())
    else:
        token_file().symlink_to("/dev/zero")
    assert get_token() is None
