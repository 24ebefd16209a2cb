"""`logitscope quantize` and the quantize job on the real demo model: every file byte for byte what llama.cpp's own
llama-quantize writes with the same arguments (the tool itself when it is built here, else the checksums
recorded from it in tests/data/quantize/llama_quantize.json, with the command that regenerates them), with both
importance-matrix formats; a cancel leaves nothing; bad requests get one clear line."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from logitscope.host.client import CancelledError
from logitscope.host.quantize_job import quantize_model
from logitscope.protocol.quantize import QuantizeRequest, model_size
from tests.helpers.cli import assert_clean_error, run
from tests.helpers.data import QUANTIZE_DATA
from tests.helpers.imatrix_files import write_gguf_imatrix, write_legacy_imatrix

pytestmark = pytest.mark.model  # starts an engine process

REFERENCE = json.loads((QUANTIZE_DATA / "llama_quantize.json").read_text())
TOOLS = Path(os.environ.get("LLAMA_TOOLS_DIR", Path.home() / ".cache" / "llama-tools-0.3.36"))
TOOL = TOOLS / "llama-quantize"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def expected_sha(folder: Path, qtype: str, imatrix: str | None = None) -> str:
    """llama-quantize's file for these arguments, run in `folder` (which holds demo.gguf and the imatrix)."""
    if not TOOL.exists():
        return str(REFERENCE["imatrix"][imatrix]["sha256"] if imatrix else REFERENCE["types"][qtype]["sha256"])
    out = folder / f"tool-{qtype}.gguf"
    args = [str(TOOL), "--allow-requantize", *(["--imatrix", imatrix] if imatrix else []), "demo.gguf", out.name,
            qtype, "2"]
    proc = subprocess.run(args, cwd=folder, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, LD_LIBRARY_PATH=str(TOOLS)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    digest = sha256(out)
    out.unlink()
    return digest


@pytest.fixture
def workdir(tmp_path: Path, demo_model: Path) -> Path:
    shutil.copyfile(demo_model, tmp_path / "demo.gguf")
    return tmp_path


@pytest.mark.parametrize("qtype", list(REFERENCE["types"]))
def test_each_type_is_the_file_llama_quantize_writes(workdir: Path, qtype: str) -> None:
    fractions: list[float] = []
    estimates: list[int] = []
    request = QuantizeRequest(str(workdir / "demo.gguf"), str(workdir / f"ours-{qtype}.gguf"), qtype,
                              allow_requantize=True, threads=2)
    result = quantize_model(request, fractions.append, on_estimate=estimates.append)
    out = Path(result.target)
    assert sha256(out) == expected_sha(workdir, qtype)
    assert not request.part.exists()
    assert result.after == model_size(out) and result.before == model_size(workdir / "demo.gguf")
    assert result.after.file_bytes == out.stat().st_size == REFERENCE["types"][qtype]["bytes"]
    # the disk check's estimate holds the file, and is not wildly above it
    assert out.stat().st_size <= estimates[0] <= out.stat().st_size * 1.03 + (2 << 20)
    assert fractions and fractions == sorted(fractions) and fractions[-1] == 1.0


@pytest.mark.parametrize("imatrix", list(REFERENCE["imatrix"]))
def test_an_importance_matrix_is_used_as_llama_quantize_uses_it(workdir: Path, imatrix: str) -> None:
    writer = write_gguf_imatrix if imatrix.endswith(".gguf") else write_legacy_imatrix
    writer(workdir / "demo.gguf", workdir / imatrix)
    proc = run("quantize", "demo.gguf", "ours.gguf", "Q4_K_M", "--allow-requantize", "--imatrix", imatrix,
               "--threads", "2", "--json", cwd=workdir, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout.splitlines()[-1])
    assert summary["type"] == "Q4_K_M" and summary["target_bytes"] == (workdir / "ours.gguf").stat().st_size
    assert sha256(workdir / "ours.gguf") == expected_sha(workdir, "Q4_K_M", imatrix)
    assert sha256(workdir / "ours.gguf") != REFERENCE["types"]["Q4_K_M"]["sha256"]   # it changed the file


def test_a_cancel_ends_the_quantization_and_leaves_no_file(workdir: Path) -> None:
    """IQ4_XS takes ~10 s here: cancelled after its first tensors, nothing is left but the source."""
    seen: list[float] = []
    request = QuantizeRequest(str(workdir / "demo.gguf"), str(workdir / "out.gguf"), "IQ4_XS",
                              allow_requantize=True, threads=2)
    with pytest.raises(CancelledError):
        quantize_model(request, seen.append, should_cancel=lambda: bool(seen) and seen[-1] > 0.05)
    assert sorted(p.name for p in workdir.iterdir()) == ["demo.gguf"]
    assert 0 < seen[-1] < 1


def test_the_command_line_refuses_bad_requests_with_one_clear_line(workdir: Path) -> None:
    (workdir / "notes.txt").write_text("not a model\n")
    (workdir / "junk.imatrix").write_bytes(b"\x01\x00\x00\x00" + os.urandom(64))
    (workdir / "exists.gguf").write_bytes(b"keep me")
    shutil.copyfile(workdir / "demo.gguf", workdir / "copy.gguf")
    cases = [
        (("demo.gguf", "a.gguf", "Q4_0"), "--allow-requantize"),
        (("demo.gguf", "a.gguf", "Q9_9"), "not a quantization type"),
        (("demo.gguf", "exists.gguf", "Q4_0", "--allow-requantize"), "exists already"),
        (("demo.gguf", "demo.gguf", "Q4_0", "--allow-requantize", "--overwrite"), "cannot replace"),
        (("demo.gguf", ".", "Q4_0"), "folder"),
        (("demo.gguf", "missing/a.gguf", "Q4_0"), "does not exist"),
        (("missing.gguf", "a.gguf", "Q4_0"), "not a file"),
        (("notes.txt", "a.gguf", "Q4_0"), "GGUF"),
        (("demo.gguf", "a.gguf", "Q4_0", "--allow-requantize", "--imatrix", "junk.imatrix"), "importance matrix"),
        (("demo.gguf", "a.gguf", "Q4_0", "--allow-requantize", "--imatrix", "copy.gguf"), "imatrix metadata"),
        (("demo.gguf", "a.gguf", "Q4_0", "--threads", "-3"), "threads"),
        # refused before any work (a size estimate was printed first, then llama.cpp's "requires an imatrix!")
        (("demo.gguf", "a.gguf", "IQ2_XXS", "--allow-requantize"), "IQ2_XXS needs an importance matrix made with "
                                                                   "llama-imatrix: give its file (llama-quantize's "
                                                                   "--imatrix FILE)"),
        (("demo.gguf", "n" * 300 + ".gguf", "Q4_0", "--allow-requantize"), "File name too long"),
    ]
    for args, phrase in cases:
        assert_clean_error(run("quantize", *args, cwd=workdir, timeout=300), phrase)
    assert (workdir / "exists.gguf").read_bytes() == b"keep me"
    assert sorted(p.name for p in workdir.iterdir()) == ["copy.gguf", "demo.gguf", "exists.gguf", "junk.imatrix",
                                                        "notes.txt"]
