"""Shared fixtures: the real demo model (fetched by scripts/setup.sh), a real engine, a real engine process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from logitscope.library.demo import demo_model_path, fetch_demo

# Property-based tests are derandomized by default, so the test command gives the same answer on every run;
# HYPOTHESIS_PROFILE=explore draws new examples on every run, to look for new failures.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture(scope="session")
def demo_model() -> Path:
    path = demo_model_path()
    if not path.exists():
        fetch_demo()
    return path


@pytest.fixture(scope="session")
def engine(demo_model: Path):
    """An in-process Engine (for engine-level tests; the app always uses the engine process)."""
    from logitscope.engine.core import Engine
    from logitscope.protocol.api import LoadSettings

    eng = Engine()
    eng.load(demo_model, LoadSettings(n_ctx=2048))
    yield eng
    eng.unload()


@pytest.fixture
def client(demo_model: Path):
    from logitscope.host.client import EngineClient
    from logitscope.protocol.api import LoadSettings

    env = dict(os.environ, LOGITSCOPE_ENGINE_CRASH_HOOKS="1")
    c = EngineClient(env=env)
    c.load(str(demo_model), LoadSettings(n_ctx=2048))
    yield c
    c.close()


@pytest.fixture
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo_model: Path) -> Path:
    """A fresh LOGITSCOPE_HOME whose models folder links the demo model (no second download)."""
    home = tmp_path / "home"
    (home / "models").mkdir(parents=True)
    (home / "models" / demo_model.name).symlink_to(demo_model)
    monkeypatch.setenv("LOGITSCOPE_HOME", str(home))
    return home
