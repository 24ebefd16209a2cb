"""`logitscope --selftest` from the source tree: the real engine process, the real demo model, the real
window offscreen. The same checks run against the built bundle in test_bundle.py."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from logitscope.cli.selftest import SelftestError, check_step, greedy_request
from tests.helpers.bundle_runs import assert_one_clear_error, run, user_env
from tests.helpers.gguf_corpus import with_metadata_patched
from tests.helpers.pictures import assert_window_picture

SELFTEST = [sys.executable, "-m", "logitscope", "--selftest"]


@pytest.mark.model
def test_selftest_passes_and_draws_the_window(tmp_path: Path, demo_model: Path):
    shot = tmp_path / "shots" / "window.png"
    env = user_env(tmp_path / "home")
    (tmp_path / "home" / "models").mkdir()
    (tmp_path / "home" / "models" / demo_model.name).symlink_to(demo_model)
    proc = run([*SELFTEST, "--screenshot", shot], env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "self-test: ok (from source" in out
    assert f"({tmp_path / 'home' / 'models' / demo_model.name})" in out
    assert re.search(r"backend: +\w+ \(GPU offload", out), out  # what the engine's llama.cpp build reports
    assert "tokens:     8 greedy" in out and "probabilities checked at every step" in out
    assert "tok/s" in out
    assert "on 'offscreen'" in out  # no display: the self-test chose offscreen by itself
    assert str(shot) in out
    assert_window_picture(shot)
    # the window's history and settings went to a scratch folder, not into the user's data folder
    assert sorted(p.name for p in (tmp_path / "home").iterdir()) == ["models"]


@pytest.mark.model
def test_explicit_model_and_token_count(tmp_path: Path, demo_model: Path):
    shot = tmp_path / "w.png"
    proc = run([*SELFTEST, "--model", demo_model, "--tokens", "3", "--screenshot", shot],
               user_env(tmp_path / "home"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "tokens:     3 greedy" in proc.stdout
    assert_window_picture(shot)


@pytest.mark.parametrize(("name", "content", "phrase"), [
    ("missing.gguf", None, "not found"),
    ("folder.gguf", "dir", "folder"),
    ("text.gguf", b"not a model\n" * 20, "not a GGUF file"),
    ("empty.gguf", b"", "empty"),
])
def test_a_bad_model_file_is_one_error_line(tmp_path: Path, name: str, content: bytes | str | None, phrase: str):
    path = tmp_path / name
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    proc = run([*SELFTEST, "--model", path], user_env(tmp_path / "home"), cwd=tmp_path)
    assert_one_clear_error(proc, phrase)
    assert proc.stdout == ""


@pytest.mark.model
def test_a_model_that_crashes_llama_cpp_is_one_error_line(tmp_path: Path, demo_model: Path):
    """A header the reader accepts but llama.cpp aborts on: the engine process dies, the self-test says so."""
    # a BOS token id past the vocabulary: the header check lets it through, llama.cpp's loader throws
    # std::out_of_range, which nothing catches (abort)
    bad = with_metadata_patched(demo_model, tmp_path / "bad-bos.gguf", "tokenizer.ggml.bos_token_id", 4_000_000_000)
    proc = run([*SELFTEST, "--model", bad], user_env(tmp_path / "home"), cwd=tmp_path)
    assert_one_clear_error(proc, "the engine process crashed")


def test_no_demo_model_is_reported_never_downloaded(tmp_path: Path):
    home = tmp_path / "home"
    proc = run(SELFTEST, user_env(home), cwd=tmp_path)
    assert_one_clear_error(proc, "fetch-demo")
    assert not any((home / "models").iterdir())


@pytest.mark.parametrize("args", [["--tokens", "0"], ["--bogus"], ["--tokens", "many"]])
def test_bad_arguments_are_one_error_line(tmp_path: Path, args: list[str]):
    assert_one_clear_error(run([*SELFTEST, *args], user_env(tmp_path / "home"), cwd=tmp_path))


def test_the_step_check_rejects_what_is_not_a_greedy_distribution(client):
    """check_step on real steps: they pass; tampered copies fail."""
    steps = []
    client.generate(greedy_request(2), on_step=steps.append)
    assert len(steps) == 2
    for step in steps:
        check_step(step)
    step = steps[0]
    for broken in (replace(step, rank_raw=3), replace(step, p=0.0), replace(step, p_raw=1.5),
                   replace(step, final_probs=step.final_probs[:0]),
                   replace(step, raw_logits=step.raw_logits + 50.0)):  # raw mass far above 1
        with pytest.raises(SelftestError):
            check_step(broken)
