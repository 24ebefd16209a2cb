"""`logitscope bench --window` and `--pipe` run and report every figure they promise (the figures themselves
are the README's, measured on a quiet machine: no speed is asserted here)."""

from __future__ import annotations

import json
import os
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
    assert report["ratio"] == report["piped_gen_tok_s"] / report["bare_gen_tok_s"]


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
