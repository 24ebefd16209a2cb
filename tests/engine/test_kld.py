"""The KL divergence as llama-perplexity measures it (protocol/kld.py, engine/kld.py, cli/score_kl.py).

The fast part needs no model: glibc's expf reproduced bit for bit, the base file refused when cut short or
foreign, the disk check. The model part makes Q8_0 and Q4_0 from the demo model with `quantize` itself and
compares `logitscope score --kl` with llama-perplexity's printed lines (the tool itself when it is built here,
else the lines recorded from it in tests/data/kld/llama_perplexity_kld.json, with the commands beside them, with
weight repacking and without, as the engine loads models on this machine):
the chunk lines and the statistics block equal to the last digit, and the base file byte for byte."""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.cli.score_kl import CHUNK_HEADER, check_base_file_space
from logitscope.engine import kld
from logitscope.engine.kld import expf, fast_expf, quantize_rows
from logitscope.engine.rows import top_ids
from logitscope.protocol.kld import KldStats, KlTokens, kld_file_bytes, read_kld_header, row_width
from tests.helpers.cli import assert_clean_error, run
from tests.helpers.data import KLD_DATA, SCORE_TEXT_FILE, score_text_start
from tests.helpers.kernels import runs_the_recorded_kernels

REFERENCE = json.loads((KLD_DATA / "llama_perplexity_kld.json").read_text(encoding="utf-8"))
TOOLS = Path(os.environ.get("LLAMA_TOOLS_DIR", Path.home() / ".cache" / "llama-tools-0.3.36"))
PERPLEXITY = TOOLS / "llama-perplexity"
N_CTX = str(REFERENCE["n_ctx"])


def test_expf_is_glibcs_bit_for_bit() -> None:
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.expf.restype, libm.expf.argtypes = ctypes.c_float, [ctypes.c_float]
    rng = np.random.default_rng(1)
    xs = np.concatenate([rng.uniform(-110, 0, 60000), rng.uniform(-2, 0, 40000), [0.0, -16.0, -103.97, -104.0]]
                        ).astype(np.float32)
    ours = expf(xs)
    theirs = np.array([libm.expf(float(x)) for x in xs], dtype=np.float32)
    assert np.array_equal(ours.view(np.uint32), theirs.view(np.uint32))


def test_the_fast_expf_is_the_same_bits() -> None:
    # values near every rounding midpoint come up among 3 million; subnormal results and exact zeros too
    rng = np.random.default_rng(7)
    xs = np.concatenate([rng.uniform(-110, 0, 1_000_000), rng.uniform(-16, 0, 1_000_000), rng.uniform(-1, 0, 1_000_000),
                         [0.0, -16.0, -87.33, -87.34, -103.97, -104.0, -200.0]]).astype(np.float32)
    assert np.array_equal(fast_expf(xs).view(np.uint32), expf(xs).view(np.uint32))
    grid = xs[:-7].reshape(-1, 1000)   # rows, as the callers pass them
    assert np.array_equal(fast_expf(grid).view(np.uint32), expf(grid).view(np.uint32))


@pytest.mark.parametrize("order_error", [None, 1e-3])   # the module's bound; one that sends every row in order
def test_pairwise_sums_keep_the_floats_of_in_order_ones(monkeypatch: pytest.MonkeyPatch,
                                                       order_error: float | None) -> None:
    if order_error is not None:
        monkeypatch.setattr(kld, "_ORDER_ERROR", order_error)
    rng = np.random.default_rng(11)
    logits = (rng.standard_normal((400, 4099)) * rng.uniform(0.01, 8, (400, 1))).astype(np.float32)
    mx = logits.max(axis=1)
    e = expf(logits - mx[:, None])
    in_order = np.cumsum(e, axis=1, dtype=np.float64)[:, -1]
    expected = np.array([math.log(v) for v in in_order]).astype(np.float32)
    assert np.array_equal(kld._log_sum_exp(logits, mx).view(np.uint32), expected.view(np.uint32))
    terms = (e * (logits - logits[::-1])).astype(np.float32)   # of both signs, as KLD terms are
    want = np.cumsum(terms, axis=1, dtype=np.float64)[:, -1].astype(np.float32)
    assert np.array_equal(kld._kld_sums(terms).astype(np.float32).view(np.uint32), want.view(np.uint32))


def test_the_best_few_of_each_row_are_found() -> None:
    rng = np.random.default_rng(3)
    for n in (49152, 1000, 37, 5, 300):   # whole blocks, a tail, fewer blocks than asked for, rows of zeros
        q = rng.integers(0, 65536, (9, n)).astype(np.uint16)
        q[2] = 0
        q[3, :] = 0
        q[3, 1] = 9                        # one value above a row of zeros: padding must not be picked
        ids = top_ids(q, 5)
        assert ids.shape == (9, 5) and (ids < n).all()
        assert (np.sort(np.take_along_axis(q, ids, axis=1), axis=1)
                == np.sort(q, axis=1)[:, -5:]).all()
        assert all(len(set(row)) == 5 for row in ids.tolist())


def test_a_row_is_quantized_as_the_tool_does() -> None:
    logits = np.array([[3.0, 1.0, -20.0, 2.5, 3.0]], dtype=np.float32)
    row = quantize_rows(logits, 5)
    assert row.shape == (1, row_width(5)) == (1, 10)
    scale, min_log_prob = row[0, :4].copy().view("<f4")
    assert scale == np.float32(16) / np.float32(65535)  # max - 16 nats is the floor here
    assert row[0, 4 + 2] == 0 and row[0, 4] == row[0, 8] == 65535 and row[0, 9] == 0  # padding stays 0
    lp = scale * row[0, 4:9].astype(np.float32) + min_log_prob
    exact = logits[0] - np.log(np.exp(logits[0].astype(np.float64)).sum())
    assert np.allclose(lp[[0, 1, 3, 4]], exact[[0, 1, 3, 4]], atol=2 * scale)


def test_bad_base_files_and_a_full_disk_get_one_clear_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.kld"
    junk.write_bytes(b"not a logits file at all")
    with pytest.raises(InvalidSettingsError, match="not a file of base log-probabilities"):
        read_kld_header(str(junk))
    short = tmp_path / "short.kld"
    short.write_bytes(b"_logits_" + np.array([16, 10], dtype="<u4").tobytes() + np.array([2], dtype="<i4").tobytes())
    with pytest.raises(InvalidSettingsError, match="cut short"):
        read_kld_header(str(short))
    with pytest.raises(InvalidSettingsError, match="cannot read"):
        read_kld_header(str(tmp_path / "missing.kld"))
    free = shutil.disk_usage(tmp_path).free
    with pytest.raises(InvalidSettingsError, match="free"):
        check_base_file_space(str(tmp_path / "base.kld"), free * 2 + (1 << 30))
    with pytest.raises(InvalidSettingsError, match="folder does not exist"):
        check_base_file_space(str(tmp_path / "nowhere" / "base.kld"), 10)
    assert kld_file_bytes(256, 49152, 11) == REFERENCE["base_file_bytes"]


def test_the_statistics_of_two_identical_models_are_zero() -> None:
    n = 150
    kl = KlTokens.empty(n)
    kl.scored[:], kl.kld[:], kl.p_diff[:], kl.same_top[:] = True, 0.0, 0.0, True
    kl.nll[:] = kl.nll_base[:] = np.linspace(0.5, 3.0, n, dtype=np.float32)
    stats = KldStats.of(kl)
    block = stats.statistics_block()
    assert "Mean    KLD:   0.000000 ±   0.000000" in block and "Same top p: 100.000 ± 0.000 %" in block
    assert stats.log_ppl_ratio[0] == 0
    assert KldStats.of(KlTokens.empty(50)).statistics_block() == []  # llama-perplexity prints none under 100


# -- against llama-perplexity, on the real demo model --------------------------------------------------------
def _repacking() -> bool:
    """Whether the engine lets llama.cpp repack weights (not on AMX builds, engine/handles.py). Repacked Q4_0
    runs other kernels (llama-perplexity's Mean KLD 0.264828 repacked, 0.265500 with -nr): the tool is run, and
    its lines were recorded, both ways."""
    from logitscope.engine.handles import use_extra_buffers

    return use_extra_buffers()


def _tool_lines(folder: Path, other: str, extra: list[str]) -> dict[str, list[str]]:
    env = dict(os.environ, LD_LIBRARY_PATH=str(TOOLS))
    base = ["-c", N_CTX, "-t", "2", "--kl-divergence-base", "tool-base.kld", *([] if _repacking() else ["-nr"])]
    if not (folder / "tool-base.kld").exists():
        subprocess.run([str(PERPLEXITY), "-m", "demo.gguf", "-f", str(SCORE_TEXT_FILE), *base], cwd=folder,
                       check=True, capture_output=True, timeout=900, env=env)
    proc = subprocess.run([str(PERPLEXITY), "-m", other, *base, "--kl-divergence", *extra], cwd=folder,
                          capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return _lines(proc.stdout + proc.stderr)


def _lines(output: str) -> dict[str, list[str]]:
    chunks = [line for line in output.splitlines() if re.match(r"^\s*\d+\s+[\d.]+ ±", line)]
    start = output.index("====== Perplexity statistics")
    block = output[start:].split("\n")
    end = next(i for i, line in enumerate(block) if line.startswith("Same top p"))
    return {"chunk_lines": chunks, "statistics": block[:end + 1]}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory, demo_model: Path) -> Path:
    from logitscope.host.quantize_job import quantize_model
    from logitscope.protocol.quantize import QuantizeRequest

    folder = tmp_path_factory.mktemp("kld")
    shutil.copyfile(demo_model, folder / "demo.gguf")
    for qtype in ("Q8_0", "Q4_0"):
        quantize_model(QuantizeRequest(str(folder / "demo.gguf"), str(folder / f"{qtype}.gguf"), qtype,
                                       allow_requantize=True, threads=2))
    return folder


def _expected(models: Path, pair: str) -> dict[str, list[str]] | None:
    """llama-perplexity's lines: the tool run now where it is built, else the recorded ones (None where this CPU
    runs other kernels than the recording's, tests/helpers/kernels.py: then the figures differ)."""
    if not PERPLEXITY.exists():
        if not runs_the_recorded_kernels():
            return None
        return dict(REFERENCE["pairs" if _repacking() else "pairs_without_repacking"][pair])
    if pair == "kv_q8_0":
        return _tool_lines(models, "demo.gguf", ["-ctk", "q8_0", "-ctv", "q8_0", "-fa", "on"])
    return _tool_lines(models, f"{pair}.gguf", [])


def _assert_lines(ours: dict[str, list[str]], models: Path, pair: str) -> None:
    """llama-perplexity's lines, digit for digit; with other kernels and no tool, the recorded lines' layout."""
    expected = _expected(models, pair)
    if expected is not None:
        assert ours == expected, pair
        return
    recorded = REFERENCE["pairs"][pair]
    assert len(ours["chunk_lines"]) == len(recorded["chunk_lines"]), pair
    assert [line.split(":")[0] for line in ours["statistics"]] == \
        [line.split(":")[0] for line in recorded["statistics"]], pair


@pytest.mark.model
def test_the_base_file_is_llama_perplexitys_and_comparisons_print_its_lines(models: Path) -> None:
    """The base's distributions saved once (the tool's file, byte for byte), the quantizations compared with
    it without loading the base again."""
    proc = run("score", "--model", "demo.gguf", str(SCORE_TEXT_FILE), "--chunks", "--n-ctx", N_CTX, "--flash-attn",
               "--threads", "2", "--save-logits", "base.kld", cwd=models, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "the base distributions take 130.99 MiB" in proc.stderr
    digest = hashlib.sha256((models / "base.kld").read_bytes()).hexdigest()
    if PERPLEXITY.exists():
        _expected(models, "Q4_0")  # the tool writes its own base file
        assert digest == hashlib.sha256((models / "tool-base.kld").read_bytes()).hexdigest()
    elif runs_the_recorded_kernels():
        assert digest == REFERENCE["base_file_sha256"]
    else:
        assert (models / "base.kld").stat().st_size == REFERENCE["base_file_bytes"]
    for pair in ("Q4_0", "Q8_0"):
        again = run("score", "--kl-base", "base.kld", f"{pair}.gguf", "--flash-attn", "--threads", "2", cwd=models,
                    timeout=900)
        assert again.returncode == 0, again.stderr[-2000:]
        assert CHUNK_HEADER in again.stdout
        _assert_lines(_lines(again.stdout), models, pair)


@pytest.mark.model
def test_two_configurations_of_one_model_compare_in_one_command(models: Path, tmp_path: Path) -> None:
    """--compare-kv-type on the text's first four chunks: llama-perplexity's lines for them; the whole text's
    figures for this pair (f16 against q8_0 KV cache) against the tool's are tests/host/test_kl_job_engine.py's,
    which runs the same two configurations through the Score dialog's job."""
    # a temporary folder of its own: another run killed on this machine may have left its file in /tmp
    temp = tmp_path / "temp"
    temp.mkdir()
    text = score_text_start(tmp_path)
    proc = run("score", "--model", "demo.gguf", str(text), "--chunks", "--n-ctx", N_CTX, "--flash-attn",
               "--threads", "2", "--kl", "--compare-kv-type", "q8_0", cwd=models, timeout=900,
               env=dict(os.environ, TMPDIR=str(temp)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    ours = _lines(proc.stdout)
    assert len(ours["chunk_lines"]) == 4
    expected = _expected(models, "kv_q8_0")
    if expected is not None:   # the running figures after four chunks are the whole text's first four lines
        assert ours["chunk_lines"] == expected["chunk_lines"][:4]
    recorded = REFERENCE["pairs"]["kv_q8_0"]["statistics"]
    assert [line.split(":")[0] for line in ours["statistics"]] == [line.split(":")[0] for line in recorded]
    assert not list(temp.iterdir())  # the temporary base file went, with its folder


@pytest.mark.model
def test_the_json_carries_each_tokens_kl_and_the_figures(models: Path, tmp_path: Path) -> None:
    text = score_text_start(tmp_path, 2600)   # four chunks of 128 are enough for the JSON's shape and sums
    proc = run("score", "--model", "demo.gguf", str(text), "--chunks", "--n-ctx", "128", "--flash-attn",
               "--threads", "2", "--kl", "--compare", "Q8_0.gguf", "--json", cwd=models, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    scored = [r for r in rows if r["type"] == "token" and "kl" in r]
    summary = rows[-1]
    assert summary["type"] == "summary" and summary["kld"]["count"] == len(scored) == summary["n_scored"]
    mean = sum(r["kl"]["kld"] for r in scored) / len(scored)
    assert abs(mean - summary["kld"]["mean_kld"]) < 1e-6 and 0 < mean < 0.05
    same = sum(r["kl"]["same_top"] for r in scored) / len(scored)
    assert abs(same - summary["kld"]["same_top_p"]) < 1e-12 and same > 0.85


@pytest.mark.model
def test_kl_requests_that_cannot_be_measured_get_one_clear_line(models: Path, gemma3: Path) -> None:
    text = str(SCORE_TEXT_FILE)
    cases = [
        (("score", "--model", "demo.gguf", text, "--kl"), "--compare"),
        (("score", "--model", "demo.gguf", text, "--kl", "--compare", "Q8_0.gguf"), "--chunks"),
        (("score", "--model", "demo.gguf", text, "--chunks", "--kl", "--compare", "Q8_0.gguf",
          "--compare-kv-type", "q8_0"), "one of them"),
        (("score", "--model", "demo.gguf", text, "--chunks", "--kl", "--compare-kv-type", "q4_0"), "flash attention"),
        (("score", "--kl-base", "missing.kld", "demo.gguf"), "cannot read"),
        (("score", "--kl-base", "demo.gguf", "Q8_0.gguf"), "base log-probabilities"),
        (("score", "--model", "demo.gguf", text, "--chunks", "--save-logits", "nowhere/base.kld"), "does not exist"),
        (("score", "--model", "demo.gguf", text, "--chunks", "--kl", "--compare", str(gemma3)),
         "vocabulary (262,144 tokens, 49,152 in demo.gguf)"),
        (("score", "--model", "demo.gguf", text, "--compare", str(gemma3)), "49,152 in demo.gguf"),
        # too short for two chunks: it said what the base file would take (20 B) first
        (("score", "--model", "demo.gguf", text, "--chunks", "--kl", "--compare", "Q8_0.gguf", "--n-ctx", "8192"),
         "needs at least 16384 tokens"),
    ]
    for args, phrase in cases:
        proc = run(*args, cwd=models, timeout=600)
        assert_clean_error(proc, phrase)
        # refused before the base model scored the text (it once took a whole pass to learn this)
        assert "distributions take" not in proc.stderr and "scoring with" not in proc.stderr, args
    assert not list(models.glob("*.kld.part")) and not (models / "nowhere").exists()


def test_the_best_few_of_float_rows_of_any_width_are_found() -> None:
    """Rows of shifted logits (<= 0) whose width is no multiple of the block: the padding never wins."""
    rng = np.random.default_rng(5)
    values = (rng.standard_normal((6, 50_257)) * 3).astype(np.float32)
    values -= values.max(axis=1, keepdims=True)
    ids = top_ids(values, 10)
    expected = np.argsort(-values, axis=1, kind="stable")[:, :10]
    assert (np.sort(ids, axis=1) == np.sort(expected, axis=1)).all()
