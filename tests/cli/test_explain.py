"""`logitscope explain` (saved answers, an export file) and `generate --explain` (the real engine)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from logitscope.cli.main import main
from logitscope.store.exchange import import_json
from logitscope.store.history import HistoryStore
from logitscope.store.import_check import load_export
from tests.helpers.data import DIAGNOSIS_TRACES

APP = Path(__file__).resolve().parents[2] / "app"


@pytest.fixture
def export_file(tmp_path) -> Path:
    path = tmp_path / "traces.json"
    path.write_bytes(gzip.decompress(DIAGNOSIS_TRACES.read_bytes()))
    return path


@pytest.fixture
def saved(isolated_home, export_file) -> dict[str, int]:
    """The recorded answers in the (isolated) user history: conversation title -> id."""
    with HistoryStore() as store:
        ids = import_json(store, load_export(export_file))
        return {store.conversation(cid).title: cid for cid in ids}


def test_explain_an_export_file(export_file, capsys):
    assert main(["explain", str(export_file)]) == 0
    out = capsys.readouterr().out
    assert sum(line.startswith("conversation ") for line in out.splitlines()) == 18   # every recorded case
    assert "[problem] repetition loop: the answer repeats itself" in out
    assert "fix: turn on DRY (multiplier 0.8), which penalizes repeating a sequence (--dry-multiplier 0.8)" in out
    assert "[problem] cut off: the answer was cut off: the context window (256 tokens) filled up" in out
    assert "--n-ctx 512" in out
    assert "no problem found" in out
    # a checked fix that drops DRY's sequence breakers, as generate's repeatable option
    assert "--dry-multiplier 0.8 --dry-sequence-breaker : --dry-sequence-breaker '\"'" in out


def test_explain_a_saved_conversation_by_id_and_as_json(saved, capsys):
    cid = saved[next(t for t in saved if t.startswith("loop:"))]
    assert main(["explain", str(cid)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"conversation {cid} ") and "repetition loop" in out
    assert main(["explain", str(cid), "--json"]) == 0
    (answer,) = json.loads(capsys.readouterr().out)
    assert answer["findings"][0]["kind"] == "loop" and answer["findings"][0]["severity"] == "problem"
    assert answer["findings"][0]["fix"]["sampler"] == {"dry_multiplier": 0.8}
    start, end = answer["findings"][0]["spans"][0]
    assert end == answer["n_steps"] and end - start >= 24


def test_explain_one_message_and_the_latest_conversation(saved, capsys):
    cid = saved[next(t for t in saved if t.startswith("clean: haiku"))]
    with HistoryStore(read_only=True) as store:
        answer_id = store.active_path(cid)[-1].id
    assert main(["explain", "--message", str(answer_id)]) == 0
    out = capsys.readouterr().out
    assert "no problem found" in out
    assert "not checked: no speed of this model on this machine" in out   # imported answers are no reference
    assert main(["explain"]) == 0   # the most recent conversation
    assert "conversation " in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["explain", "999999"], "error: there is no conversation"),
    (["explain", "/nonexistent/trace.json"], "error: "),
    (["explain", "--message", "1", "3"], "error: give a conversation, a file or --message ID, not two of them"),
])
def test_bad_targets_are_one_error_line(saved, capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_a_question_is_not_an_answer(saved, capsys):
    with HistoryStore(read_only=True) as store:
        question = store.active_path(next(iter(saved.values())))[0].id
    assert main(["explain", "--message", str(question)]) == 2
    assert "is a user message, not an answer" in capsys.readouterr().err


@pytest.mark.model
def test_generate_explain_on_the_real_engine(demo_model, isolated_home):
    env = dict(os.environ, PYTHONPATH=str(APP))
    proc = subprocess.run(
        [sys.executable, "-m", "logitscope", "generate", "--model", str(demo_model), "--chat",
         "What is the capital of France?", "--temperature", "0", "--max-tokens", "80", "--n-ctx", "512",
         "--explain"], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    diagnosis = proc.stderr[proc.stderr.index("diagnosis:"):]
    assert "[problem] repetition loop" in diagnosis and "--dry-multiplier 0.8" in diagnosis
    assert "not checked: no speed of this model" in diagnosis


# -- `generate --json` traces: `generate --explain --json` and `explain FILE|-` -----------------------------

@pytest.fixture(scope="module")
def looping_trace(demo_model, tmp_path_factory) -> list[str]:
    """`generate --json --explain` on the real engine (the demo model loops at temperature 0): its stdout lines."""
    home = tmp_path_factory.mktemp("home")
    env = dict(os.environ, PYTHONPATH=str(APP), LOGITSCOPE_HOME=str(home))
    proc = subprocess.run(
        [sys.executable, "-m", "logitscope", "generate", "--model", str(demo_model), "--chat",
         "What is the capital of France?", "--temperature", "0", "--max-tokens", "80", "--n-ctx", "512",
         "--json", "--explain"], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "diagnosis:" not in proc.stderr   # with --json the diagnosis is a line of the output, not prose
    return proc.stdout.splitlines()


@pytest.mark.model
def test_generate_explain_json_ends_with_one_diagnosis_line(looping_trace):
    lines = [json.loads(line) for line in looping_trace]
    assert [line["type"] for line in lines] == ["step"] * 80 + ["done", "diagnosis"]
    diagnosis = lines[-1]
    assert diagnosis["n_steps"] == 80
    loop = diagnosis["findings"][0]
    assert loop["kind"] == "loop" and loop["severity"] == "problem" and loop["title"] == "repetition loop"
    assert loop["text"].startswith("the answer repeats itself")
    start, end = loop["spans"][0]
    assert loop["steps"] == list(range(start, end)) and end == 80
    assert loop["fix"]["sampler"] == {"dry_multiplier": 0.8} and loop["fix"]["options"] == "--dry-multiplier 0.8"
    assert any("no speed of this model" in s for s in diagnosis["skipped"])


@pytest.mark.model
def test_explain_reads_a_generate_json_trace_file(looping_trace, tmp_path, capsys):
    live = json.loads(looping_trace[-1])
    path = tmp_path / "trace.jsonl"
    path.write_text("\n".join(looping_trace[:-1]) + "\n")   # as `generate --json` alone writes it
    assert main(["explain", str(path), "--json"]) == 0
    (answer,) = json.loads(capsys.readouterr().out)
    assert answer["trace"] == 1 and answer["finish_reason"] == "length"
    # the same findings as the live diagnosis, from the JSON's rounded probabilities and 10 candidates a step
    assert [(f["kind"], f["spans"], f["fix"]) for f in answer["findings"]] == \
        [(f["kind"], f["spans"], f["fix"]) for f in live["findings"]]
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"trace 1 ({path}): 80 tokens, finished (length)")
    assert "[problem] repetition loop: the answer repeats itself" in out


@pytest.mark.model
def test_explain_reads_a_trace_on_stdin_piped_from_generate(looping_trace):
    """`generate --json --explain ... | logitscope explain -`: the diagnosis line is skipped (worked out again);
    two traces one after the other are two answers; one cut before its "done" line did not finish."""
    text = "\n".join(looping_trace) + "\n" + "\n".join(looping_trace[:70]) + "\n"
    proc = subprocess.run([sys.executable, "-m", "logitscope", "explain", "-"], input=text, capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=str(APP)), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "trace 1 (stdin): 80 tokens, finished (length)" in proc.stdout
    assert "trace 2 (stdin): 70 tokens, did not finish" in proc.stdout
    assert proc.stdout.count("[problem] repetition loop") == 2
    assert "not checked: the answer did not finish" in proc.stdout


@pytest.mark.parametrize("content, message", [
    ('{"type":"step","i":0}\n', "error: bad.jsonl, line 1 is not a valid trace step line: no "),
    ('{"type":"step"\n', "error: bad.jsonl, line 1 is not JSON: "),
    ('{"type":"note"}\n', "error: bad.jsonl, line 1 is not a trace line"),
    ('\n\n', "error: bad.jsonl is not a JSON file"),
    ('{"type":"diagnosis"}\n', "error: bad.jsonl holds no trace"),
    ('{"type":"done","n_gen":0,"finish_reason":"stop","kv":[1]}\n',
     "error: bad.jsonl, line 1 is not a valid trace done line: "),
])
def test_a_bad_trace_file_is_one_error_line(tmp_path, capsys, content, message):
    (tmp_path / "bad.jsonl").write_text(content)
    assert main(["explain", str(tmp_path / "bad.jsonl")]) == 2
    err = capsys.readouterr().err.replace(str(tmp_path) + "/", "")
    assert err.startswith(message) and err.count("\n") == 1


def test_a_folder_a_pipe_or_a_huge_file_is_refused_in_explains_words(tmp_path, capsys, monkeypatch):
    """Not 'cannot import' or 'the most a history import reads': explain reads, it imports nothing."""
    import logitscope.store.import_check as import_check

    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "big.jsonl").write_text('{"type":"note"}\n' * 10)
    monkeypatch.setattr(import_check, "MAX_EXPORT_BYTES", 100)
    for target, message in ((tmp_path, "error: cannot explain . : it is a folder, not a file"),
                            (tmp_path / "pipe", "error: cannot explain pipe: it is a named pipe, not a file"),
                            (tmp_path / "big.jsonl", "error: big.jsonl is larger than 0 MiB, the most explain reads")):
        assert main(["explain", str(target)]) == 2
        err = capsys.readouterr().err.replace(str(tmp_path) + "/", "").replace(str(tmp_path), ". ")
        assert err == message + "\n"
