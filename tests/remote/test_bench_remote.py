"""`logitscope bench --remote URL` runs the remote-path benchmark against the real llama-cpp-python server and
reports the figures it promises (no speed is asserted: the README's figures are measured on a quiet machine)."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def test_bench_remote_compares_the_remote_engine_with_a_bare_client(real_server):
    env = dict(os.environ, LOGITSCOPE_API_KEY=real_server.api_key or "")
    proc = subprocess.run([sys.executable, "-m", "logitscope", "bench", "--remote", real_server.url, "--tokens", "8",
                           "--reps", "1", "--top-n", "5", "--json"], capture_output=True, text=True, timeout=300,
                          env=env, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    assert report["top_logprobs"] == 5
    for row in (report["bare"], report["remote"]):
        assert row["tokens"] > 0 and row["e2e_tps"] > 0
    assert report["ratio_e2e"] > 0


def test_remote_options_without_remote_are_refused():
    proc = subprocess.run([sys.executable, "-m", "logitscope", "bench", "--top-n", "5"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ") and "--remote URL" in proc.stderr
