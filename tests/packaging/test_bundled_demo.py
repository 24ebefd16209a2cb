"""The demo model inside a frozen app (sys._MEIPASS/models): used while the user's models folder has
none, never written to, never preferred over the user's own copy."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from logitscope.library.demo import (
    DEMO_FILE_NAME,
    bundled_demo_path,
    demo_model_path,
    fetch_demo,
    user_demo_path,
)


@pytest.fixture
def frozen_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo_model: Path) -> Path:
    """A pretend PyInstaller bundle holding the real demo model, and an empty user data folder."""
    bundle = tmp_path / "bundle"
    (bundle / "models").mkdir(parents=True)
    (bundle / "models" / DEMO_FILE_NAME).symlink_to(demo_model)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    monkeypatch.setenv("LOGITSCOPE_HOME", str(tmp_path / "home"))
    return bundle / "models" / DEMO_FILE_NAME


def test_from_source_there_is_no_bundled_copy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.delattr(sys, "_MEIPASS", raising=False)
    monkeypatch.setenv("LOGITSCOPE_HOME", str(tmp_path / "home"))
    assert bundled_demo_path() is None
    assert demo_model_path() == user_demo_path()


def test_the_bundled_copy_is_used_without_a_download(frozen_app: Path):
    assert bundled_demo_path() == frozen_app
    assert demo_model_path() == frozen_app
    messages: list[str] = []
    assert fetch_demo(log=messages.append) == frozen_app  # verified, not copied, nothing fetched
    assert not messages
    assert not any(user_demo_path().parent.iterdir())


def test_the_users_copy_wins(frozen_app: Path, demo_model: Path):
    user_demo_path().symlink_to(demo_model)
    assert demo_model_path() == user_demo_path()
    assert fetch_demo(log=lambda _m: None) == user_demo_path()


def test_a_bundle_without_the_model_falls_back_to_the_users_folder(frozen_app: Path):
    frozen_app.unlink()
    assert bundled_demo_path() is None
    assert demo_model_path() == user_demo_path()
