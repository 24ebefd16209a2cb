"""`inspect --ablate`, `inspect --head-scan` and `patch` (cli/causal.py, cli/patch.py) on the real engine and the
demo model, as a user runs them: JSON that says what the engine measured, and one clear line for bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.helpers.cli import assert_clean_error, run
from tests.helpers.kernels import runs_the_recorded_kernels

pytestmark = pytest.mark.model

PROMPT = "The capital of France is"
HEADS = 9   # the demo model's heads per layer


def inspect_json(*extra: str) -> dict:
    proc = run("inspect", "--prompt", PROMPT, "--json", *extra)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_every_head_of_a_layer_knocked_out_is_its_attention_block_and_the_text_table():
    heads = inspect_json(*[arg for h in range(HEADS) for arg in ("--ablate", f"20.{h}")])
    block = inspect_json("--ablate", "20.attn")
    assert heads["kind"] == block["kind"] == "ablate" and heads["kl"] > 0
    assert heads["kl"] == block["kl"] and heads["ablated"] == block["ablated"]
    assert heads["chosen"]["text"] == " Paris" and block["ablations"] == ["20.attn"]
    proc = run("inspect", "--prompt", PROMPT, "--ablate", "23.4")
    assert proc.returncode == 0, proc.stderr
    assert "KL(base || ablated)" in proc.stdout and "top-1 changes: ' Paris' -> ' the'" in proc.stdout


def test_the_head_scan_ranks_every_head():
    proc = run("inspect", "--prompt", PROMPT, "--head-scan", "--json", timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    scan = json.loads(proc.stdout)
    delta = np.array(scan["delta_logprob"])
    assert delta.shape == (30, HEADS) and np.array(scan["kl"]).shape == (30, HEADS)
    top = scan["ranked"][0]
    assert top["delta_logprob"] == delta.min() and (top["layer"], top["head"]) == (23, 4)
    assert "heads knocked out: 100 %" in proc.stderr     # progress, one line per 10 % when not a terminal
    assert scan["layers"] == [0, 29]
    one = json.loads(run("inspect", "--prompt", PROMPT, "--head-scan", "--scan-layers", "23", "--json").stdout)
    assert one["layers"] == [23, 23] and one["kl"][22] is None and one["top1"][24] is None
    assert one["delta_logprob"][23] == scan["delta_logprob"][23] and len(one["ranked"]) == HEADS
    text = run("inspect", "--prompt", PROMPT, "--head-scan", "--scan-layers", "22-23")
    assert text.returncode == 0 and f"{2 * HEADS} heads of layers 22-23 knocked out" in text.stdout


def test_patch_finds_the_subject_and_says_why_it_cannot_run():
    proc = run("patch", "--clean", PROMPT, "--corrupted", "The capital of Italy is", "--json", timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout)
    scores = np.array(result["scores"]["resid"])
    assert scores.shape == (30, 5)
    assert result["answer"]["text"] == " Paris" and result["versus"]["text"] == " Rome"
    strongest = result["strongest"][0]
    assert strongest["position"] == 3 and result["clean"][3]["text"] == " France"   # where the prompts differ
    assert np.abs(scores[:, :3]).max() < 1e-9                # before the subject: nothing to patch
    assert_clean_error(run("patch", "--clean", PROMPT, "--corrupted", "The capital city of Italy is"),
                       "same number of tokens, here 5 and 6")
    assert_clean_error(run("patch", "--clean", PROMPT, "--corrupted", "The capital of Italy is", "--answer",
                           " Paris Rome"), "not one")


def test_bad_ablations_are_one_clear_line():
    assert_clean_error(run("inspect", "--prompt", PROMPT, "--ablate", "99.1"), "layer must be between 0 and 29")
    assert_clean_error(run("inspect", "--prompt", PROMPT, "--ablate", "3.x"), "names no head or block")
    assert_clean_error(run("inspect", "--prompt", PROMPT, "--ablate", "1.1", "--head-scan"), "two different runs")
    assert_clean_error(run("inspect", "--prompt", PROMPT, "--ablate-mode", "mean"), "go with --ablate")
    assert_clean_error(run("inspect", "--prompt", PROMPT, "--scan-layers", "3-5"), "goes with --head-scan")
    assert_clean_error(run("inspect", "--prompt", PROMPT, "--head-scan", "--scan-layers", "3-x"), "a first and a last")
    assert_clean_error(run("inspect", "--prompt", PROMPT, "--head-scan", "--scan-layers", "28-40"), "between 0 and 29")


def test_a_past_answer_from_the_history_is_inspected_and_knocked_out_as_it_was(isolated_home, tmp_path):
    question, system = "What is the capital of France?", "Be brief."
    chat = run("chat", "--n-ctx", "256", "--max-tokens", "8", "--temperature", "0", "--system", system,
               input=question + "\nAnd of Italy?\n", timeout=180)
    assert chat.returncode == 0, chat.stderr
    # the stored answer's step, its prompt rebuilt through the template, is the freshly generated one's
    past = inspect_json_of("--history", "1:1", "--step", "3", "--layers")
    fresh = inspect_json_of("--chat", question, "--system", system, "--step", "3", "--layers")
    # (which answer: it depends on the CPU's kernels: "The capital of France is Paris." on the Xeons that
    # recorded this test, "La femme de France, ..." on an AMD EPYC with AVX2, 'La' 0.295 against 'The' 0.283)
    assert past["context"] == fresh["context"] and past["text"] == fresh["text"] and past["text"].strip()
    assert past["text"] in chat.stdout
    if runs_the_recorded_kernels():
        assert past["text"] == " France"
    # the same step (its numbers round apart a little: the prompt is evaluated in one batch here, after the
    # generation's one-token steps there; llama.cpp's CPU kernels round the two differently)
    last, again = past["lens"]["layers"][-1], fresh["lens"]["layers"][-1]
    assert abs(last["chosen_p"] - again["chosen_p"]) < 0.02
    assert past["lens"]["layers"][-1]["chosen_rank"] == 0
    # the last question (the default) is read with the first exchange before it
    second = inspect_json_of("--history", "1", "--step", "0", "--layers")
    texts = "".join(t["text"] for t in second["context"])
    assert question in texts and "And of Italy?" in texts and len(second["context"]) > len(past["context"])
    fifth = inspect_json_of("--history", "1:1", "--step", "5", "--layers")["text"]
    effect = inspect_json_of("--history", "1:1", "--step", "5", "--ablate", "23.4")
    assert effect["kind"] == "ablate" and effect["chosen"]["text"] == fifth and effect["kl"] > 0.1  # 0.24 on AVX2
    if runs_the_recorded_kernels():
        assert fifth == " Paris"
    assert_clean_error(run("inspect", "--history", "7"), "no conversation 7")
    assert_clean_error(run("inspect", "--history", "1:9"), "no answered question 9")
    assert_clean_error(run("inspect", "--history", "1", "--step", "99"), "past the answer")
    assert_clean_error(run("inspect", "--history", "one"), "12 or 12:3")
    other = tmp_path / "other.gguf"
    other.write_bytes(b"GGUF")
    assert_clean_error(run("inspect", "--history", "1", "--model", str(other)), "did not write this answer")
    from logitscope.bench.steering_files import lora_adapter

    adapter = lora_adapter(tmp_path / "adapter.gguf", rank=2)   # a real one: a file that is none is said first
    assert_clean_error(run("inspect", "--history", "1", "--lora", str(adapter)), "steered as it was")


def inspect_json_of(*args: str) -> dict:
    proc = run("inspect", "--json", *args)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)
