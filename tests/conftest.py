"""Shared fixtures: the real demo model (fetched by scripts/setup.sh), a real engine, a real engine process;
and the test tiers (markers declared in pyproject.toml):

- `model`: loads llama.cpp (the demo model, Gemma 3) or starts an engine process;
- `gui`: needs a QApplication (pytest-qt);
- `bundle`: builds or runs the frozen app (tests/packaging).

`pytest -m "not model"` is the fast tier, and it never loads llama.cpp: tests/helpers/llama_guard.py
makes a test not marked `model` fail when it (or a child process of it) imports llama_cpp."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression
from hypothesis import settings

from logitscope.library.demo import demo_model_path, fetch_demo
from tests.helpers.llama_guard import LlamaGuard

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


# -- the tiers ------------------------------------------------------------------------------------------

# Fixtures that run the real model (in this process, in an engine process or in a llama.cpp server):
# a test that uses one, directly or through another fixture, is a `model` test.
MODEL_FIXTURES = frozenset({"engine", "client", "fa_engine", "real_server", "generated", "real_window"})
GUI_FIXTURES = frozenset({"qtbot", "qapp"})
# A module marked `model` as a whole may import llama.cpp at its top: the fast tier does not even import it.
WHOLE_MODULE_MODEL = re.compile(r"^pytestmark = .*\bpytest\.mark\.model\b", re.MULTILINE)


GUARD = pytest.StashKey[LlamaGuard]()


def model_tests_deselected(config: pytest.Config) -> bool:
    """True when -m leaves out a test that has only the `model` marker (as `-m "not model"` does)."""
    expression = config.getoption("markexpr")
    return bool(expression) and not Expression.compile(expression).evaluate(lambda name, **_: name == "model")


def pytest_configure(config: pytest.Config) -> None:
    guard = LlamaGuard(Path(tempfile.mkdtemp(prefix="logitscope-llama-guard-")))
    guard.install()
    config.stash[GUARD] = guard
    if model_tests_deselected(config):
        guard.start()   # collecting the fast tier must not load llama.cpp either


def pytest_unconfigure(config: pytest.Config) -> None:
    if GUARD in config.stash:
        shutil.rmtree(config.stash[GUARD].folder, ignore_errors=True)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if (model_tests_deselected(config) and collection_path.suffix == ".py" and collection_path.name.startswith("test_")
            and WHOLE_MODULE_MODEL.search(collection_path.read_text())):
        return True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & MODEL_FIXTURES:
            item.add_marker(pytest.mark.model)
        if fixtures & GUI_FIXTURES:
            item.add_marker(pytest.mark.gui)


def pytest_collection_finish(session: pytest.Session) -> None:
    guard = session.config.stash[GUARD]
    guard.stop()
    if found := guard.findings():
        raise pytest.UsageError("collecting the tests loaded llama.cpp without the model tier: " + "; ".join(found))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    guard = item.config.stash[GUARD]
    guarded = item.get_closest_marker("model") is None
    if guarded:
        guard.start()
    try:
        return (yield)
    finally:
        guard.stop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    result = yield
    guard = item.config.stash[GUARD]
    if item.get_closest_marker("model") is None and (found := guard.findings()):
        pytest.fail("this test loads llama.cpp but is not marked `model` (tests/conftest.py: MODEL_FIXTURES, or "
                    "pytestmark = pytest.mark.model in its module): " + "; ".join(found), pytrace=False)
    return result
