"""`logitscope inspect`, run as a user runs it, on the real demo model."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

from tests.helpers.cli import CLI, assert_clean_error, run

pytestmark = pytest.mark.model  # starts an engine process (the CLI, the window or EngineClient)

SHORT_ANSWER = "What is 2+2? Answer with a number only."  # the demo model answers "2 + 2 = 4" and stops


def test_inspect_json_agrees_with_generate(demo_model):
    generated = run("generate", "--chat", "What is the capital of France?", "--temperature", "0",
                    "--max-tokens", "4", "--json", "--threads", "1")
    assert generated.returncode == 0, generated.stderr
    step = json.loads(generated.stdout.splitlines()[3])
    proc = run("inspect", "--chat", "What is the capital of France?", "--step", "3", "--json", "--threads", "1")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["schema"] == 1 and data["step"] == 3 and data["model"] == demo_model.name
    assert (data["token"], data["text"]) == (step["token"], step["text"])
    layers = data["lens"]["layers"]
    assert [layer["layer"] for layer in layers] == ["embd", *map(str, range(30))]
    last = layers[-1]
    assert last["top"][0]["token"] == step["top_raw"][0]["token"]
    assert abs(last["top"][0]["p"] - step["top_raw"][0]["p"]) < 0.01
    assert last["chosen_rank"] == 0 and layers[0]["attn_norm"] is None and layers[1]["ffn_norm"] > 0
    attention = data["attention"]
    position = attention["position"]
    assert position == len(data["context"]) - 1 and data["context"][0]["position"] == 0
    weights = np.array(attention["weights"])
    assert weights.shape == (30, 9, position + 1)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, atol=1e-3)
    assert attention["kv_head_of"] == [0, 0, 0, 1, 1, 1, 2, 2, 2] and attention["window"] == [None] * 30
    assert data["unavailable"] == {} and data["context_bytes"] > 0


def test_inspect_text_shows_the_views_asked_for(demo_model):
    proc = run("inspect", "--prompt", "The capital of France is", "--layers", "--threads", "1")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("step 0: ' Paris'")
    assert any(line.startswith(" embd  ") for line in lines) and any(line.startswith("   29  ") for line in lines)
    assert "attention of position" not in proc.stdout
    proc = run("inspect", "--prompt", "The capital of France is", "--attention", "--threads", "1")
    assert proc.returncode == 0, proc.stderr
    assert "attention of position" in proc.stdout and "layers:" not in proc.stdout
    assert sum(1 for line in proc.stdout.splitlines() if "@" in line) == 30  # one line per layer


def test_inspect_refuses_bad_input_in_one_line(demo_model, tmp_path):
    assert_clean_error(run("inspect", "--chat", SHORT_ANSWER, "--step", "40", "--threads", "1"),
                       "past the answer")
    assert_clean_error(run("inspect", "--prompt", "Hi", "--step", "-1"), "--step must be >= 0")
    # past the context: refused before the answer is generated (it took ~90 s at the default --n-ctx)
    proc = run("inspect", "--prompt", "Hi", "--step", "256", "--n-ctx", "256", "--threads", "1")
    assert_clean_error(proc, "step 256 cannot be reached: the context holds 256 tokens and the prompt takes 1, so "
                             "the answer ends by step 254")
    assert_clean_error(run("inspect", "--prompt", "Hi", "--system", "Be brief"), "--system needs --chat")
    assert_clean_error(run("inspect", "--prompt", "Hi", "--model", str(tmp_path / "missing.gguf")))
    assert_clean_error(run("inspect", "--step", "1"), "--prompt")  # neither --prompt nor --chat


def test_inspect_to_a_full_disk_says_so(demo_model):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*CLI, "inspect", "--prompt", "Hi", "--json", "--threads", "1"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert_clean_error(proc, "could not write the output")


def test_bench_inspect_reports_opening_costs_and_generation_with_and_without(demo_model):
    proc = run("bench", "--inspect", "--tokens", "8", "--prompt-tokens", "40", "--reps", "2", "--threads", "1",
               "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["model"] == demo_model.name and report["reps"] == 2 and report["threads"] == 1
    opening = report["opening"]
    assert 90 <= opening["context_tokens"] <= 110   # ~100 tokens: the question and the answer so far
    assert 0 < opening["copied_s"] < opening["first_s"] and 0 < opening["cached_s"] and 0 < opening["evaluated_s"]
    assert 0 < opening["context_create_s"] < opening["first_s"] and opening["head_load_s"] > 0
    assert opening["context_bytes"] > 0 and opening["head_bytes"] >= 49152 * 576 * 4  # the tied head, float32
    generation = report["generation"]
    assert generation["prompt_tokens"] == 40 and generation["gen_tokens"] == 8
    assert generation["tok_s_without_inspection_context"] > 0 and generation["tok_s_with_inspection_context"] > 0
    text = run("bench", "--inspect", "--window", "--tokens", "8")
    assert_clean_error(text, "not allowed with argument")
