"""The built artefacts under dist/ (./scripts/package) the bundle tests run; without them those tests skip,
saying how to build them."""

from __future__ import annotations

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


def require(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"no {path.relative_to(ROOT)}: build it with ./scripts/package "
                    f"(or run {BUILD_ENV}=1 ./scripts/test to build it first)")
    return path
