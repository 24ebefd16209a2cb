"""`logitscope generate --draft` and `bench --speculative`, run as a user runs them, on the real demo model."""

from __future__ import annotations

import json

import pytest

from tests.helpers.cli import assert_clean_error, run
from tests.helpers.kernels import runs_the_recorded_kernels

EDIT = ("Rewrite this text, replacing 'fox' with 'cat' and keeping everything else the same:\n\nThe quick brown "
        "fox jumps over the lazy dog. It was a sunny day in the small village of Millbrook, where everyone knew "
        "each other by name.")


@pytest.mark.model
def test_generate_with_lookup_equals_plain_greedy_and_reports_its_figures(demo_model):
    common = ("generate", "--chat", EDIT, "--temperature", "0", "--max-tokens", "48", "--flash-attn")
    plain = run(*common, "--json")
    drafted = run(*common, "--json", "--draft", "lookup", "--draft-max", "6")
    assert plain.returncode == 0 and drafted.returncode == 0, drafted.stderr
    a = [json.loads(line) for line in plain.stdout.splitlines()]
    b = [json.loads(line) for line in drafted.stdout.splitlines()]
    assert a[-1]["tokens"] == b[-1]["tokens"] and a[-1]["text"] == b[-1]["text"]
    assert a[-1]["speculative"] is None and not any(s["drafted"] for s in a[:-1])
    spec = b[-1]["speculative"]
    # the answer (and what of it the prompt drafts) depends on the CPU's kernels: 12+ drafts accepted on the
    # recording Xeons, 4 on an AMD EPYC with AVX2 only
    assert spec["draft"] == "lookup" and spec["draft_max"] == 6
    assert spec["accepted"] > (10 if runs_the_recorded_kernels() else 2)
    assert sum(s["drafted"] for s in b[:-1]) == spec["accepted"]
    text = run(*common, "--draft", "lookup")
    assert text.returncode == 0, text.stderr
    assert "drafts accepted" in text.stderr and "tokens per evaluation" in text.stderr


@pytest.mark.model
def test_without_flash_attention_a_note_says_why_output_may_differ(demo_model):
    proc = run("generate", "--prompt", "one two one two one", "--temperature", "0", "--max-tokens", "8",
               "--draft", "lookup")
    assert proc.returncode == 0, proc.stderr
    assert "note: speculative decoding without flash attention" in proc.stderr


@pytest.mark.parametrize("args, phrase", [
    (("--draft", "lookup", "--draft-max", "0"), "draft-max must be between 1 and 32"),
    (("--draft", "lookup", "--draft-max", "1000"), "draft-max must be between 1 and 32"),
    (("--draft-max", "4"), "--draft-max goes with --draft"),
    (("--draft", "/nonexistent/draft.gguf"), "draft.gguf"),
    (("--draft", "lookup", "--engine", "http://127.0.0.1:9"), "--draft needs the local engine"),
])
def test_bad_draft_arguments_give_one_clear_error(demo_model, args, phrase):
    assert_clean_error(run("generate", "--prompt", "Hello", "--max-tokens", "4", *args), phrase)


@pytest.mark.model
def test_a_draft_model_with_another_vocabulary_gives_one_clear_error(demo_model, gemma3):
    assert_clean_error(run("generate", "--prompt", "Hello", "--max-tokens", "4", "--draft", str(gemma3)),
                       "does not share the model's vocabulary")


@pytest.mark.model
def test_bench_speculative_prints_both_prompts_side_by_side(demo_model):
    proc = run("bench", "--speculative", "--tokens", "24", "--reps", "1", "--json", timeout=600)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data["prompts"]) == {"edit this text", "free writing"}
    for row in data["prompts"].values():
        assert row["identical"] and row["plain_tps"] > 0 and row["lookup_tps"] > 0
    assert data["prompts"]["edit this text"]["tokens_per_evaluation"] > 1.5
    assert_clean_error(run("bench", "--speculative", "--draft-max", "0"), "draft-max")
