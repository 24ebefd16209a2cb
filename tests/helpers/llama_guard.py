"""Keeps llama.cpp out of tests not marked `model`: the fast tier (`pytest -m "not model"`) must run
without it. A test that imports llama_cpp, or starts an engine process (`python -m logitscope.host.server`,
which owns llama.cpp), without the `model` marker fails loudly at its teardown.

Two halves: an import finder in the pytest process, and child_guard/sitecustomize.py in every Python
child process (it is put first on PYTHONPATH), so a CLI run or an engine process is caught too. Children
learn whether the running test is guarded from a state file, not from their environment, because tests
often hand children environments copied earlier.

Its one blind spot: a child whose environment drops or replaces PYTHONPATH (bundle_runs.user_env, a few
`PYTHONPATH=app` runs in tests/cli/test_explain.py) never loads the sitecustomize; those tests are marked
`model` by hand where they start the engine."""

from __future__ import annotations

import importlib.abc
import os
import sys
from pathlib import Path

FORBIDDEN = ("llama_cpp", "logitscope.host.server")
FOLDER_ENV = "LOGITSCOPE_TEST_LLAMA_GUARD"    # the folder of the state file and of the children's reports
STATE_FILE = "state"                          # "guard" while a test not marked `model` runs, else "off"
CHILD_GUARD = Path(__file__).with_name("child_guard")


def is_forbidden(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in FORBIDDEN)


class RefuseLlama(importlib.abc.MetaPathFinder):
    """While `active`: a first import of a forbidden module is refused and remembered."""

    def __init__(self) -> None:
        self.active = False
        self.refused: list[str] = []

    def find_spec(self, fullname, path=None, target=None):  # noqa: ANN001, ANN201 - importlib's protocol
        if self.active and is_forbidden(fullname):
            self.refused.append(fullname)
            raise ImportError(f"{fullname} is imported by a test not marked `model` (tests/helpers/llama_guard.py)")
        return None


class LlamaGuard:
    """The pytest side: install once, then `start()` before and `findings()` after each unmarked test."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.finder = RefuseLlama()

    def install(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        os.environ[FOLDER_ENV] = str(self.folder)
        paths = os.environ.get("PYTHONPATH", "")
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(CHILD_GUARD), paths) if p)
        sys.meta_path.insert(0, self.finder)
        self.stop()

    def start(self) -> None:
        self.finder.active = True
        self.finder.refused.clear()
        for report in self.folder.glob("child-*"):
            report.unlink()
        (self.folder / STATE_FILE).write_text("guard")

    def stop(self) -> None:
        self.finder.active = False
        (self.folder / STATE_FILE).write_text("off")

    def findings(self) -> list[str]:
        """What the test (and its children) tried to import, one line each."""
        found = [f"this process imported {name}" for name in self.finder.refused]
        found += [report.read_text() for report in sorted(self.folder.glob("child-*"))]
        return found
