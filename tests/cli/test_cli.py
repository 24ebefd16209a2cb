"""The `logitscope` command, run as a user runs it (a subprocess), on the real demo model."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from logitscope import TRACE_SCHEMA_VERSION
from tests.helpers import gguf_corpus
from tests.helpers.cli import CLI, assert_clean_error, run


def test_info_text_and_json(demo_model):
    proc = run("info")
    assert proc.returncode == 0, proc.stderr
    assert "Q4_1" in proc.stdout and "45.00 MiB" in proc.stdout  # KV cache at n_ctx 2048
    data = json.loads(run("info", "--model", str(demo_model), "--json").stdout)
    assert data["n_layer"] == 30 and data["n_vocab"] == 49152
    assert data["kv_cache_bytes"]["2048"]["f16"] == 45 * 2**20
    assert data["problems"] == []


@pytest.mark.model
def test_generate_json_lines_schema(demo_model):
    proc = run("generate", "--chat", "What is 2+2?", "--temperature", "0", "--max-tokens", "12", "--json")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    steps, done = lines[:-1], lines[-1]
    assert steps and all(s["type"] == "step" for s in steps)
    for key in ("i", "token", "text", "p", "p_raw", "top_raw", "top_final", "entropy"):
        assert key in steps[0]
    assert {"token", "text", "p"} <= set(steps[0]["top_raw"][0])
    assert done["type"] == "done" and done["schema"] == TRACE_SCHEMA_VERSION == 3
    assert done["finish_reason"] in ("stop", "length")
    assert done["tokens"] == [s["token"] for s in steps]
    assert done["text"] == "".join(s["text"] for s in steps)
    for key in ("n_prompt", "prompt_tps", "gen_tps", "ttft_s"):
        assert key in done
    assert set(done["kv"]) == {"n_ctx", "used_cells", "bytes_per_token", "allocated_bytes"}
    assert done["kv"]["bytes_per_token"] == 23040


@pytest.mark.model
def test_json_lines_are_flushed_as_tokens_are_produced(demo_model):
    # 160 tokens: still running when the first line arrives (1.6 s here), done within the test's timeout on a
    # machine so loaded that the demo model makes ~1 token a second (400 took over 300 s there)
    proc = subprocess.Popen([*CLI, "generate", "--prompt", "1, 2, 3,", "--temperature", "0", "--max-tokens", "160",
                             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = json.loads(proc.stdout.readline())
    assert first["type"] == "step"
    assert proc.poll() is None  # still generating when the first step arrived
    rest = proc.stdout.read().splitlines()
    proc.wait(60)
    assert json.loads(rest[-1])["type"] == "done"


@pytest.mark.model
def test_text_streams_and_top_table(demo_model):
    proc = run("generate", "--prompt", "The capital of France is", "--temperature", "0", "--max-tokens", "8",
               "--top", "3")
    assert proc.returncode == 0, proc.stderr
    assert "Paris" in proc.stdout
    assert "top 3" in proc.stdout
    assert "tok/s" in proc.stderr


@pytest.mark.model
def test_seed_makes_runs_repeatable(demo_model):
    args = ("generate", "--prompt", "Tell me a story", "--temperature", "1.0", "--seed", "42", "--max-tokens", "20",
            "--json")
    a, b = (json.loads(run(*args).stdout.splitlines()[-1]) for _ in range(2))
    assert a["tokens"] == b["tokens"] and a["settings"]["seed"] == 42


@pytest.mark.model
def test_stop_sequence(demo_model):
    proc = run("generate", "--prompt", "1, 2, 3, 4,", "--temperature", "0", "--max-tokens", "40",
               "--stop", " 7", "--json")
    done = json.loads(proc.stdout.splitlines()[-1])
    assert done["finish_reason"] == "stop"
    assert " 7" not in done["text"] and " 6" in done["text"]


@pytest.mark.parametrize("args,phrase", [
    (["--temperature", "-1"], "--temperature must be >= 0"),
    (["--top-p", "0"], "top-p"),
    (["--top-p", "1.5"], "top-p"),
    (["--min-p", "2"], "min-p"),
    (["--top-k", "-3"], "top-k"),
    (["--repeat-penalty", "0"], "--repeat-penalty must be > 0"),
    (["--max-tokens", "0"], "--max-tokens must be >= 1"),
    (["--n-ctx", "-5"], "--n-ctx must be between 0"),
    (["--temperature", "warm"], "invalid float"),
    (["--stop", ""], "stop sequence"),
])
def test_invalid_options(args, phrase):
    assert_clean_error(run("generate", "--prompt", "hi", *args), phrase)


def test_missing_prompt_is_a_usage_error():
    assert_clean_error(run("generate"), "required")


@pytest.mark.parametrize("args,phrase", [(["--prompt", ""], "the prompt is empty"),
                                         (["--chat", "  "], "the question is empty")])
def test_an_empty_prompt_or_question_is_refused(args, phrase):
    assert_clean_error(run("generate", *args), phrase)


def test_the_windows_options_alone_open_the_window(monkeypatch):
    """`logitscope --model X.gguf` (as llama.cpp's tools take it) is `logitscope window --model X.gguf`."""
    from logitscope.cli import main as cli_main
    from logitscope.cli import window

    seen = []
    monkeypatch.setattr(window, "run", lambda args: seen.append((args.command, args.model)) or 0)
    monkeypatch.setattr(cli_main, "_command", lambda args: window.run)
    assert cli_main.main(["--model", "x.gguf"]) == 0 and seen == [("window", "x.gguf")]


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory, demo_model) -> dict[str, tuple[Path, str]]:
    return gguf_corpus.build(tmp_path_factory.mktemp("corpus"), demo_model)


@pytest.mark.model
@pytest.mark.parametrize("name", ["missing", "directory", "empty.gguf", "text.gguf", "truncated-in-header.gguf",
                                  "truncated-in-tensors.gguf", "bad-version.gguf", "absurd-kv-count.gguf",
                                  "absurd-tensor-count.gguf", "absurd-string.gguf", "bad-value-type.gguf",
                                  "no-architecture.gguf", "unknown-architecture", "too-many-layers", "absurd-heads",
                                  *gguf_corpus.DAMAGED])
@pytest.mark.parametrize("command", ["info", "generate"])
def test_bad_model_files(bad_files, name, command, tmp_path):
    path, phrase = bad_files[name]
    args = ["info", "--model", str(path)] if command == "info" else \
        ["generate", "--model", str(path), "--prompt", "hi", "--max-tokens", "4"]
    start = time.monotonic()
    proc = run(*args, timeout=30, cwd=tmp_path)
    elapsed = time.monotonic() - start
    if command == "info" and name == "unknown-architecture":
        # the header is well-formed and consistent: info shows it; only llama.cpp knows its architectures
        assert proc.returncode == 0, proc.stderr
        return
    assert_clean_error(proc, phrase)
    assert elapsed < 10
    assert not list(tmp_path.glob("core*")), "a core dump was written"


@pytest.mark.parametrize("name", gguf_corpus.DAMAGED)
def test_info_shows_a_damaged_file_with_its_problems(bad_files, name):
    """The card as read stays on stdout (text and --json, with `problems`); the error line says what is wrong."""
    path, phrase = bad_files[name]
    proc = run("info", "--model", str(path))
    assert_clean_error(proc, phrase)
    assert "architecture: llama" in proc.stdout and "Damaged" in proc.stdout and phrase in proc.stdout
    assert "KV cache" not in proc.stdout  # no memory table for a model that cannot exist
    proc = run("info", "--model", str(path), "--json")
    assert_clean_error(proc, phrase)
    data = json.loads(proc.stdout)
    assert data["architecture"] == "llama" and data["kv_cache_bytes"] is None
    assert data["problems"] and phrase in data["problems"][0]
    if name == "zero-kv-heads":
        assert data["n_head_kv"] == 0  # as stored, not replaced by the query head count


@pytest.mark.model
def test_engine_crash_is_an_error_line_not_a_traceback(demo_model, tmp_path):
    """A native abort in the engine process: one error line, exit 2 (simulated with the crash hook)."""
    script = (
        "import os, sys\n"
        "from logitscope.cli.main import main\n"
        "from logitscope.host import client\n"
        "orig = client.EngineClient.generate\n"
        "def crash(self, request, on_step=None):\n"
        "    self.call('crash', how='abort')\n"
        "client.EngineClient.generate = crash\n"
        "sys.exit(main(['generate', '--prompt', 'hi']))\n")
    env = dict(os.environ, LOGITSCOPE_ENGINE_CRASH_HOOKS="1")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env,
                          cwd=tmp_path)
    assert_clean_error(proc, "crashed (SIGABRT")


class _FlushLog(io.StringIO):
    """A stdout that remembers what had been flushed: what a reader at the other end of a pipe has."""

    def __init__(self) -> None:
        super().__init__()
        self.flushed = ""

    def flush(self) -> None:
        self.flushed = self.getvalue()


@pytest.mark.model
def test_json_answer_reaches_the_reader_before_the_engine_shuts_down(demo_model, monkeypatch):
    # the engine's shutdown takes ~0.1 s; steps written since the last throttled flush, and the done line, waited
    # for it (a reader timing the steps saw the last ones late: 4 % of a 128-token answer)
    from logitscope.cli.main import main
    from logitscope.host.client import EngineClient

    out = _FlushLog()
    at_close: list[str] = []
    real_close = EngineClient.close

    def close(self: EngineClient) -> None:
        at_close.append(out.flushed)
        real_close(self)

    monkeypatch.setattr(EngineClient, "close", close)
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["generate", "--model", str(demo_model), "--prompt", "1, 2, 3,", "--temperature", "0",
                 "--max-tokens", "24", "--json"]) == 0
    lines = at_close[0].splitlines()
    assert len(lines) == 25 and json.loads(lines[-1])["type"] == "done"
    assert at_close[0] == out.getvalue()


def test_the_summary_line_counts_like_people_do():
    """'prompt 1 tokens at 0 tok/s' for a one-token prompt read at 0.3 tok/s."""
    from logitscope.cli.generate import _rate, _tokens

    assert (_tokens(1), _tokens(2), _tokens(0)) == ("1 token", "2 tokens", "0 tokens")
    assert (_rate(0.3), _rate(9.96), _rate(230.4)) == ("0.3", "10.0", "230")


def test_which_command_a_command_line_names():
    """One answer for the entry point (which checks the window's memory need first) and the parser."""
    from logitscope.base.command_line import with_command

    assert with_command([]) == ["window"]
    assert with_command(["--model", "x.gguf"]) == ["window", "--model", "x.gguf"]
    assert with_command(["--version"]) == ["--version"] and with_command(["-h"]) == ["-h"]
    assert with_command(["generate", "--prompt", "hi"]) == ["generate", "--prompt", "hi"]
