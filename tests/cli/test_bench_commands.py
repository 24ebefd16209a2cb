"""`logitscope bench --window` and `--pipe` run and report every figure they promise (the figures themselves
are the README's, measured on a quiet machine: no speed is asserted here)."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

import pytest


def bench(*args: str, env: dict[str, str] | None = None) -> dict:
    proc = subprocess.run([sys.executable, "-m", "logitscope", "bench", *args, "--reps", "1", "--threads", "1",
                           "--json"], capture_output=True, text=True, timeout=300, env=env, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.model
def test_bench_pipe_compares_generate_json_with_the_bare_loop(demo_model):
    report = bench("--pipe", "--tokens", "8", "--prompt-tokens", "32", "--model", str(demo_model))
    assert report["bare_gen_tok_s"] > 0 and report["piped_gen_tok_s"] > 0
    assert report["ratio_of_medians"] == report["piped_gen_tok_s"] / report["bare_gen_tok_s"]
    assert len(report["pair_ratios"]) == report["reps"] == 1
    assert report["ratio"] == statistics.median(report["pair_ratios"]) == report["ratio_of_medians"]  # one pair


@pytest.mark.model
def test_bench_window_reports_each_variant(demo_model, isolated_home):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")  # the fastest display; Xvfb is used when there is one
    report = bench("--window", "--tokens", "12", "--model", str(demo_model), env=env)
    assert report["display"].startswith("offscreen")
    variants = {(v["size"], v["heatmap"]) for v in report["variants"]}
    assert variants == {(size, heat) for size in ("1280x720", "1920x1080") for heat in (False, True)}
    for v in report["variants"]:
        assert v["window_tok_s"] > 0 and v["cli_tok_s"] > 0 and v["gui_cpu_ms_per_token"] > 0
        assert v["ratio"] == v["window_tok_s"] / v["cli_tok_s"] and v["worst_step_ms"] > 0


@pytest.mark.model
def test_bench_window_replay_measures_the_window_alone(demo_model, isolated_home):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    report = bench("--window", "--replay", "--rate", "200", "--tokens", "12", "--model", str(demo_model), env=env)
    assert report["rate_tok_s"] == 200
    assert {(v["size"], v["heatmap"]) for v in report["variants"]} == {
        (size, heat) for size in ("1280x720", "1920x1080") for heat in (False, True)}
    assert all(v["gui_cpu_ms_per_token"] > 0 for v in report["variants"])


def test_bench_replay_flags_are_checked():
    for args in (["--replay"], ["--window", "--rate", "50"], ["--window", "--replay", "--rate", "-1"]):
        proc = subprocess.run([sys.executable, "-m", "logitscope", "bench", *args], capture_output=True, text=True,
                              timeout=60, check=False)
        assert proc.returncode == 2 and proc.stderr.startswith("error:") and "Traceback" not in proc.stderr, args


@pytest.mark.model
def test_bench_samplers_times_every_stage(demo_model):
    report = bench("--samplers", "--tokens", "4", "--model", str(demo_model))
    (model,) = report  # one entry per model
    assert model["stage_ms"]["grammar"] > 0 and set(model["sampler_ms_per_token"]) == {"default", "classic chain only"}


def test_bench_steering_and_cvector_flags_are_checked():
    for args, phrase in ((["--lora", "a.gguf"], "go with --steering"),
                         (["--control-vector-layer-range", "1", "2", "--steering"], "goes with --control-vector")):
        proc = subprocess.run([sys.executable, "-m", "logitscope", "bench", *args], capture_output=True, text=True,
                              timeout=60, check=False)
        assert proc.returncode == 2 and proc.stderr.startswith("error:") and "Traceback" not in proc.stderr, args
        assert phrase in proc.stderr, proc.stderr


def test_the_benchs_seeded_adapter_fits_the_model_it_is_made_for(demo_model, tmp_path):
    """bench --steering's LoRA adapter, made from the model's header: attn_q and attn_v of every layer, each
    lora_b as tall as the weight's output (576 for attn_q, 192 for attn_v in SmolLM2-135M)."""
    from gguf import GGUFReader

    from logitscope.bench.steering_files import lora_for, vector_for

    reader = GGUFReader(lora_for(demo_model, tmp_path / "a.gguf", rank=8))
    shapes = {t.name: tuple(int(n) for n in t.shape) for t in reader.tensors}  # ggml order: ne
    assert len(shapes) == 30 * 2 * 2
    assert shapes["blk.0.attn_q.weight.lora_a"] == (576, 8) and shapes["blk.0.attn_q.weight.lora_b"] == (8, 576)
    assert shapes["blk.29.attn_v.weight.lora_a"] == (576, 8) and shapes["blk.29.attn_v.weight.lora_b"] == (8, 192)
    from logitscope.gguf.control_vector import read_control_vector

    vector = read_control_vector(vector_for(demo_model, tmp_path / "v.gguf"))
    assert sorted(vector.directions) == list(range(1, 30)) and vector.n_embd == 576


@pytest.mark.model
def test_bench_steering_reports_every_variant_side_by_side(demo_model):
    from logitscope.bench.llama_tools import tool_built
    from logitscope.bench.steering import VARIANTS

    report = bench("--steering", "--tokens", "8", "--prompt-tokens", "32", "--model", str(demo_model))
    assert report["gen_tokens"] == 8 and report["prompt_tokens"] == 32 and report["reps"] == 1
    assert list(report["variants"]) == list(VARIANTS)
    sides = ("engine", "bare", "completion") if tool_built("llama-completion") else ("engine", "bare")
    assert report["llama_completion"] == (len(sides) == 3)
    for name, row in report["variants"].items():
        for side in sides:
            for kind in ("prompt", "gen"):
                cell = row[f"{side}_{kind}"]
                assert cell["median"] > 0 and len(cell["runs"]) == 1 and cell["min"] <= cell["median"] <= cell["max"]
                if name == VARIANTS[0]:
                    assert cell["ratio"] == 1.0
        for side in ("engine", "bare"):
            fast = row[f"{side}_fast_step"]
            assert fast["tok_s"] > 0 and fast["steps"] == 7  # every token after the first
        assert row["our_work_ms_per_token"] > 0  # the engine's work per token outside llama_decode
        assert row["probe_answer"] and row["text_differs_from_unsteered"] == (name != VARIANTS[0])
    assert report["every_steering_changes_the_text"]
    assert "scale" in report["files"]["control_vector"] and "rank 8" in report["files"]["lora"]["file"]


@pytest.mark.model
def test_bench_cvector_builds_with_both_and_they_agree(demo_model):
    from logitscope.bench.llama_tools import tool_built

    report = bench("--cvector", "--pairs", "2", "--model", str(demo_model))
    assert report["pairs"] == 2 and report["tokens"] > 0 and set(report["methods"]) == {"mean", "pca"}
    built = tool_built("llama-cvector-generator")
    assert report["llama_cvector_generator"] == built
    for method, row in report["methods"].items():
        assert row["ours"]["wall_s"] > row["ours"]["eval_s"] > 0 and len(row["ours"]["wall_runs"]) == 1
        assert ("tool" in row) == built
        if built:
            assert row["tool"]["wall_s"] > 0 and row["layers"] == 29
            assert row["ratio_wall"] == pytest.approx(row["ours"]["wall_s"] / row["tool"]["wall_s"], abs=2e-3)
            if method == "mean":  # the same vector as the tool's (the method's own test: tests/engine/test_cvector_build)
                assert row["min_cosine"] >= 0.999


@pytest.mark.model
def test_bench_batched_prints_llama_batched_bench_s_table_for_each_batch_size(demo_model):
    report = bench("--batched", "-npp", "16", "-ntg", "6", "-npl", "1,3", "--model", str(demo_model))
    rows = report["rows"]
    assert [r["ours"]["pl"] for r in rows] == [1, 3]
    for r in rows:
        ours = r["ours"]
        assert ours["pp"] == 16 and ours["tg"] == 6 and ours["t_pp"] > 0 and ours["t_tg"] > 0
        assert ours["speed_tg"] == pytest.approx(ours["pl"] * 6 / ours["t_tg"])
        if report["tool"] == "built":  # llama-batched-bench ran beside it, on the same sizes
            tool = r["llama_batched_bench"]
            assert (tool["pp"], tool["tg"], tool["pl"]) == (16, 6, ours["pl"])
            assert r["s_tg_ratio"] == pytest.approx(ours["speed_tg"] / tool["speed_tg"])
        else:
            assert r["llama_batched_bench"] is None  # the recorded figures are for -npp 128 -ntg 128 only


def test_bench_batched_sizes_are_checked():
    for args in (["-npl", "0"], ["-npl", "9"], ["-npp", "0"], ["-npl", "x"]):
        proc = subprocess.run([sys.executable, "-m", "logitscope", "bench", "--batched", *args], capture_output=True,
                              text=True, timeout=60, check=False)
        assert proc.returncode == 2 and proc.stderr.startswith("error:") and "Traceback" not in proc.stderr, args
        assert "lambda" not in proc.stderr, proc.stderr                # argparse named our parser once
    assert "expected batch sizes separated by commas (1,2,4,8), not 'x'" in proc.stderr
