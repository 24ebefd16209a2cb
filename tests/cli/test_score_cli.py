"""`logitscope score`, run as a user runs it (a subprocess), on the real demo model: errors, the --json shape,
and --chunks against llama.cpp's own llama-perplexity (the tool when it is built here, else its recorded
figures in tests/data/score/llama_perplexity.json, with the command that regenerates them)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import CLI, assert_clean_error, run
from tests.helpers.data import SCORE_DATA, SCORE_TEXT_FILE

pytestmark = pytest.mark.model  # starts an engine process (the CLI, the window or EngineClient)

REFERENCE = SCORE_DATA / "llama_perplexity.json"
TOOLS = Path(os.environ.get("LLAMA_TOOLS_DIR", Path.home() / ".cache" / "llama-tools-0.3.36"))
TOLERANCE = 0.005  # the 0.5 %


def test_errors_are_one_clear_line(tmp_path: Path, demo_model: Path) -> None:
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("caf\u00e9 cr\u00e8me".encode("latin-1"))
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    model = ("--model", str(demo_model))
    cases = [
        (("score", *model, "--text", ""), "empty"),
        (("score", *model, str(empty)), "empty"),
        (("score", *model, str(latin1)), "not UTF-8"),
        (("score", *model, str(tmp_path / "missing.txt")), "cannot read"),
        (("score", *model, str(tmp_path)), "folder"),
        (("score", *model, "--text", "hello", "--n-ctx", "0"), "between"),
        (("score", *model, "--text", "hello", "--n-ctx", "999999999"), "between"),
        (("score", *model, "--text", "hello", "--top", "-1"), "--top"),
        (("score", *model), "FILE or with --text"),
        (("score", *model, str(SCORE_TEXT_FILE), "--text", "hello"), "one of them"),
        (("score", *model, "--text", "hello world", "--chunks", "--n-ctx", "64"), "at least 128 tokens"),
    ]
    for args, phrase in cases:
        assert_clean_error(run(*args), phrase)


def test_json_lines_shape(demo_model: Path) -> None:
    text = "The lamp was lit at dusk. The gulls were quiet."
    proc = run("score", "--model", str(demo_model), "--text", text, "--json", "--n-ctx", "8")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    tokens, summary = lines[:-1], lines[-1]
    assert summary["type"] == "summary" and all(t["type"] == "token" for t in tokens)
    assert "".join(t["text"] for t in tokens) == text
    assert [t["i"] for t in tokens] == list(range(len(tokens)))
    scored = [t for t in tokens if t["rank"] is not None]
    assert summary["n_tokens"] == len(tokens) and summary["n_scored"] == len(scored) >= len(tokens) - 1
    for t in scored:  # the trace's keys where they apply, and the scoring's own
        assert set(t) >= {"token", "text", "piece", "bytes", "p", "rank", "entropy", "top_raw", "logprob", "bits",
                          "n_context"}
        assert len(t["top_raw"]) == 10 and set(t["top_raw"][0]) == {"token", "text", "p"}
        assert t["p"] == pytest.approx(2 ** -t["bits"], rel=1e-3, abs=1e-6)
    assert sum(summary["rank_buckets"].values()) == len(scored)
    assert summary["stride"] == 4 and summary["n_passes"] > 1  # 8-token windows over a longer text
    assert summary["perplexity"] > 1 and summary["bits_per_token"] > 0


def test_text_output_ends_with_a_summary_line(demo_model: Path) -> None:
    proc = run("score", "--model", str(demo_model), "--text", "One, two, three, four, five, six.")
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.splitlines()[-1]
    assert re.search(r"\d+ tokens, \d+ scored: perplexity [\d.]+, [\d.]+ bits per token, ranks top10 \d+", last)


def _reference() -> dict[str, object]:
    """llama-perplexity's final estimate: from the tool when it is built, else as recorded."""
    recorded = json.loads(REFERENCE.read_text())
    tool = TOOLS / "llama-perplexity"
    if not tool.exists():
        return recorded
    args = [str(tool), "-m", "{model}", "-f", str(SCORE_TEXT_FILE), "-c", str(recorded["n_ctx"]), "-t", "2", "--no-repack"]
    from logitscope.library.demo import demo_model_path

    args[2] = str(demo_model_path())
    proc = subprocess.run(args, capture_output=True, text=True, timeout=900,
                          env=dict(os.environ, LD_LIBRARY_PATH=str(TOOLS)))
    match = re.search(r"Final estimate: PPL = ([\d.]+) \+/- ([\d.]+)", proc.stdout + proc.stderr)
    assert match, (proc.stdout + proc.stderr)[-2000:]
    return recorded | {"final_estimate": float(match.group(1)), "source": "tool"}


def test_chunks_reproduce_llama_perplexity(demo_model: Path) -> None:
    ref = _reference()
    args = ["score", "--model", str(demo_model), str(SCORE_TEXT_FILE), "--chunks", "--n-ctx", str(ref["n_ctx"]), "--json"]
    if ref.get("flash_attn", True):
        args.append("--flash-attn")  # llama-perplexity's default on CPU ("auto")
    proc = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.splitlines()[-1])
    expected = float(ref["final_estimate"])  # type: ignore[arg-type]
    assert summary["perplexity"] == pytest.approx(expected, rel=TOLERANCE), (summary, ref)
    assert summary["n_passes"] == ref["n_chunks"]


def test_compare_needs_the_same_vocabulary(demo_model: Path, gemma3: Path) -> None:
    same = run("score", "--model", str(demo_model), "--text", "The gulls were quiet.", "--compare", str(demo_model),
               "--json")
    assert same.returncode == 0, same.stderr
    lines = [json.loads(line) for line in same.stdout.splitlines()]
    summary = lines[-1]
    assert summary["compare"]["perplexity"] == pytest.approx(summary["perplexity"], rel=1e-6)
    assert all(t["compare"]["bits_diff"] in (None, 0.0) for t in lines[:-1])
    assert_clean_error(run("score", "--model", str(demo_model), "--text", "The gulls were quiet.",
                           "--compare", str(gemma3), timeout=300), "another vocabulary")
