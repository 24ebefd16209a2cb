"""The built artefacts under dist/ (./scripts/package). Without them the bundle tests skip, saying how to
build; with LOGITSCOPE_TEST_BUNDLE=1 they are built first (about a minute on two cores when the machine is
quiet; see packaging/README.md)."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.helpers.bundle import BUILD_ENV, BUILD_TIMEOUT_S, ROOT, Artefacts, artefacts


@pytest.fixture(scope="session")
def built() -> Artefacts:
    if os.environ.get(BUILD_ENV) == "1":
        # packed at the fastest levels: the same files, ~15 s sooner (scripts/package)
        proc = subprocess.run([str(ROOT / "scripts" / "package")], cwd=ROOT, capture_output=True, text=True,
                              timeout=BUILD_TIMEOUT_S, env=dict(os.environ, LOGITSCOPE_PACKAGE_QUICK="1"))
        assert proc.returncode == 0, f"./scripts/package failed:\n{proc.stderr[-4000:]}"
    return artefacts()


