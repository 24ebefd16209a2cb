"""Shared fixtures: the real demo model (fetched by scripts/setup.sh), a real engine, a real engine process;
and the test tiers (markers declared in pyproject.toml):

- `model`: loads llama.cpp (the demo model, Gemma 3) or starts an engine process;
- `gui`: needs a QApplication (pytest-qt);
- `bundle`: builds or runs the frozen app (tests/packaging).

`pytest -m "not model"` is the fast tier, and it never loads llama.cpp: tests/helpers/llama_guard.py
makes a test not marked `model` fail when it (or a child process of it) imports llama_cpp."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import huggingface_hub.constants
import pytest
from _pytest.mark.expression import Expression  # what -m uses, to read the tier asked for
from hypothesis import settings

from logitscope.library.demo import DEMO_FILE_NAME, DEMO_SHA256, demo_model_path, fetch_demo
from tests.helpers.fake_hub import GATED_TOKEN, FakeFile, FakeHub
from tests.helpers.llama_guard import LlamaGuard
from tests.helpers.real_server import RealServer, llama_cpp_server
from tests.helpers.small_ggufs import split_gguf, tiny_gguf

# The window fills the screen it opens on (ui/window/screen_fit.py). Qt's offscreen screen is 800x800; the
# tests' is 1400x860, the size the window opened at before, which the UI tests were written for (read by
# Qt when the QApplication is made; the subprocesses that ask for plain "offscreen" get Qt's).
if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={Path(__file__).parent / 'helpers' / 'offscreen_screen.json'}"

# A test run started in the background by a shell without job control (`cmd &` in a script, nohup) inherits
# SIGINT ignored, and so does every command a test starts: a CLI child would then never see the Ctrl+C a test sends
# it (a test waiting on a hung server hung for 60 s). The tests press Ctrl+C as a terminal does: Python's handler.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

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
def gemma3() -> Path:
    """Gemma 3 270M, a second architecture and vocabulary (fetched by scripts/setup.sh, here if it was not)."""
    from tests.helpers.gemma import fetch_gemma3

    return fetch_gemma3()


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


# -- the model library's sealed home and fake Hub (tests/library, and the window's Models page) -------------

MEDIUM_FLOATS = 2_000_000  # an 8 MB GGUF: several 1 MiB chunks, for cancel and resume


@pytest.fixture
def sealed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """LOGITSCOPE_HOME, HF cache and HOME all in tmp; the keyring and any Hugging Face login unused."""
    monkeypatch.setenv("LOGITSCOPE_HOME", str(tmp_path / "logitscope"))
    monkeypatch.setenv("LOGITSCOPE_NO_KEYRING", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    # huggingface_hub reads its own login token from this path (resolved at import): point it at nothing.
    monkeypatch.setattr(huggingface_hub.constants, "HF_TOKEN_PATH", str(tmp_path / "no-hf-token"))
    (tmp_path / "user").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "user"))  # no real LM Studio / Ollama / HF cache
    return tmp_path


@pytest.fixture(scope="session")
def gguf_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ggufs")
    files = {
        "tiny-q4": tiny_gguf(folder / "tiny-Q4_K_M.gguf", seed=1),
        "tiny-q8": tiny_gguf(folder / "tiny-Q8_0.gguf", n_layer=3, seed=2),
        "medium": tiny_gguf(folder / "medium-F32.gguf", extra_floats=MEDIUM_FLOATS, seed=3),
    }
    for i, part in enumerate(split_gguf(folder / "big-Q8_0.gguf"), 1):
        files[f"split-{i}"] = part
    return files


@pytest.fixture
def hub(sealed: Path, demo_model: Path, gguf_files: dict[str, Path],
        monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    """The fake Hub, started, with HF_ENDPOINT pointing at it (read by logitscope at call time)."""
    fake = FakeHub()
    fake.add_repo("test-org/Tiny-GGUF", [
        FakeFile.of("tiny-Q4_K_M.gguf", gguf_files["tiny-q4"]),
        FakeFile.of("tiny-Q8_0.gguf", gguf_files["tiny-q8"]),
        FakeFile.of("README.md", b"# Tiny\n", lfs=False),
    ], downloads=500, likes=10, last_modified="2024-03-01T00:00:00.000Z")
    fake.add_repo("test-org/SmolLM2-Demo-GGUF", [FakeFile.of(DEMO_FILE_NAME, demo_model, sha256=DEMO_SHA256)],
                  downloads=9000, likes=3, last_modified="2024-01-01T00:00:00.000Z")
    fake.add_repo("test-org/Split-GGUF", [
        FakeFile.of(f"Q8_0/{gguf_files[f'split-{i}'].name}", gguf_files[f"split-{i}"]) for i in (1, 2, 3)
    ] + [FakeFile.of("big-F32.gguf", gguf_files["tiny-q8"])],
        downloads=50, likes=70, last_modified="2024-09-01T00:00:00.000Z")
    fake.add_repo("test-org/Medium-GGUF", [FakeFile.of("medium-F32.gguf", gguf_files["medium"])], downloads=5)
    fake.add_repo("test-org/Gated-GGUF", [FakeFile.of("tiny-Q4_K_M.gguf", gguf_files["tiny-q4"])],
                  gated=True, token=GATED_TOKEN, downloads=40)
    fake.add_repo("test-org/BadHash-GGUF", [FakeFile.of("tiny-Q4_K_M.gguf", gguf_files["tiny-q4"])], downloads=1)
    fake.file("test-org/BadHash-GGUF", "tiny-Q4_K_M.gguf").claimed_sha256 = "0" * 64
    fake.add_repo("test-org/Forbidden-GGUF", [FakeFile.of("tiny-Q4_K_M.gguf", gguf_files["tiny-q4"])],
                  fault_status=403)
    fake.add_repo("test-org/Broken-GGUF", [FakeFile.of("tiny-Q4_K_M.gguf", gguf_files["tiny-q4"])],
                  fault_status=500)
    fake.add_repo("test-org/Plain-Model", [FakeFile.of("model.safetensors", b"\0" * 64)], downloads=10**6)
    with fake:
        monkeypatch.setenv("HF_ENDPOINT", fake.endpoint)
        yield fake


# -- llama.cpp's own server with the demo model (tests/remote, and the window's remote engine) ----------

@pytest.fixture(scope="module")
def real_server(demo_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealServer]:
    log = tmp_path_factory.mktemp("llama-cpp-server") / "server.log"
    with llama_cpp_server(demo_model, log) as server:
        yield server


# -- the tiers ------------------------------------------------------------------------------------------

# Fixtures that run the real model (in this process, in an engine process or in a llama.cpp server):
# a test that uses one, directly or through another fixture, is a `model` test.
MODEL_FIXTURES = frozenset({"engine", "client", "fa_engine", "real_server", "generated", "real_window"})
GUI_FIXTURES = frozenset({"qtbot", "qapp"})
# The built bundle (tests/packaging): the frozen app carries llama.cpp and runs it, so it is a `model` test too.
BUNDLE_FIXTURES = frozenset({"built"})
# A module marked `model` as a whole may import llama.cpp at its top: the fast tier does not even import it.
WHOLE_MODULE_MODEL = re.compile(r"^pytestmark = .*\bpytest\.mark\.model\b", re.MULTILINE)


GUARD = pytest.StashKey[LlamaGuard]()


def model_tests_deselected(config: pytest.Config) -> bool:
    """True when -m leaves out every `model` test, whatever its other markers (as `-m "not model"` does)."""
    expression = config.getoption("markexpr")
    if not expression:
        return False
    compiled = Expression.compile(expression)
    others = sorted(set(re.findall(r"[A-Za-z_]\w*", expression)) - {"and", "or", "not", "model"})
    combos = (combo for n in range(len(others) + 1) for combo in itertools.combinations(others, n))
    return not any(compiled.evaluate(markers_present({"model", *combo})) for combo in combos)


def markers_present(names: set[str]):  # noqa: ANN201 - the matcher -m's Expression calls
    """A test with exactly these markers, as -m's expression sees it."""
    return lambda name, **_: name in names


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
        if fixtures & BUNDLE_FIXTURES:
            item.add_marker(pytest.mark.bundle)
        if fixtures & (MODEL_FIXTURES | BUNDLE_FIXTURES):
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
