"""Loaded by every Python child of the test run (this folder is first on PYTHONPATH): while a test not
marked `model` runs, refuses llama_cpp and the engine process's module, and reports the attempt to the
test run (tests/helpers/llama_guard.py), so a CLI run or an engine process cannot load llama.cpp unseen."""

import os
import sys

FORBIDDEN = ("llama_cpp", "logitscope.host.server")   # as in tests/helpers/llama_guard.py


def _guarded(folder):
    try:
        with open(os.path.join(folder, "state")) as fh:
            return fh.read().strip() == "guard"
    except OSError:
        return False


class _RefuseInChild:
    def __init__(self, folder):
        self.folder = folder

    def find_spec(self, fullname, path=None, target=None):
        if not any(fullname == n or fullname.startswith(n + ".") for n in FORBIDDEN):
            return None
        report = os.path.join(self.folder, f"child-{os.getpid()}-{fullname}")
        with open(report, "w") as fh:
            fh.write(f"a child process ({' '.join(sys.argv) or 'python'}) imported {fullname}")
        raise ImportError(f"{fullname} is imported by a test not marked `model` (tests/helpers/llama_guard.py)")


_folder = os.environ.get("LOGITSCOPE_TEST_LLAMA_GUARD")
if _folder and _guarded(_folder):   # read once, at start: a child started by a `model` test stays free
    sys.meta_path.insert(0, _RefuseInChild(_folder))
