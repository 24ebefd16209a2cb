"""The built artefacts under dist/ (./scripts/package). Without them the bundle tests skip, saying how to
build; with LOGITSCOPE_TEST_BUNDLE=1 they are built first (about a minute on two cores when the machine is
quiet; see packaging/README.md)."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from logitscope import __version__

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
BUILD_ENV = "LOGITSCOPE_TEST_BUNDLE"
BUILD_TIMEOUT_S = 3600  # a first build of llama-cpp-python (scripts/setup.sh) can be part of it


@dataclass(frozen=True)
class Artefacts:
    app_dir: Path
    app: Path
    tarball: Path
    deb: Path


def artefacts() -> Artefacts:
    app_dir = DIST / "Logitscope"
    return Artefacts(app_dir, app_dir / "Logitscope", DIST / f"Logitscope-{__version__}-linux-x86_64.tar.gz",
                     DIST / f"logitscope_{__version__}_amd64.deb")


@pytest.fixture(scope="session")
def built() -> Artefacts:
    if os.environ.get(BUILD_ENV) == "1":
        proc = subprocess.run([str(ROOT / "scripts" / "package")], cwd=ROOT, capture_output=True, text=True,
                              timeout=BUILD_TIMEOUT_S)
        assert proc.returncode == 0, f"./scripts/package failed:\n{proc.stderr[-4000:]}"
    return artefacts()


def require(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"no {path.relative_to(ROOT)}: build it with ./scripts/package "
                    f"(or run {BUILD_ENV}=1 ./scripts/test to build it first)")
    return path
