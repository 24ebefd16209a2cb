"""A file the user names for a command to write is refused, before any work, when writing it would destroy
something: one of the command's own inputs (the model, the text, the prompt files, the history database) or a
device or a named pipe (a file written by rename replaced /dev/full with a regular file). Each refusal is one
`error:` line, exit 2, and the file is as it was."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from logitscope.store.history import HistoryStore
from tests.helpers.cli import assert_clean_error, run

FAKE_MODEL = b"GGUF" + bytes(60)   # refused before the model is read: any bytes do


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {"model": tmp_path / "model.gguf", "text": tmp_path / "text.txt", "pos": tmp_path / "pos.txt",
            "neg": tmp_path / "neg.txt"}
    made["model"].write_bytes(FAKE_MODEL)
    made["text"].write_text("The quick brown fox jumps over the lazy dog. " * 40)
    made["pos"].write_text("I love this\n")
    made["neg"].write_text("I hate this\n")
    return made


def test_a_control_vector_never_replaces_its_model_or_a_prompt_file(files):
    before = {name: digest(path) for name, path in files.items()}
    cvector = ("cvector", "--model", str(files["model"]), "--positive-file", str(files["pos"]),
               "--negative-file", str(files["neg"]))
    for victim in ("model", "pos"):
        assert_clean_error(run(*cvector, "-o", str(files[victim])), "which this command reads")
    link = files["model"].with_name("link.gguf")
    link.symlink_to(files["model"])
    assert_clean_error(run(*cvector, "-o", str(link)), "which this command reads")   # the same file by a link
    assert {name: digest(path) for name, path in files.items()} == before


@pytest.mark.parametrize("victim", ["model", "text"])
def test_a_base_file_of_distributions_never_replaces_the_model_or_the_text(files, victim):
    """The model mapped by llama.cpp was truncated under it: a bus error, and a 0-byte model left."""
    before = digest(files[victim])
    proc = run("score", "--model", str(files["model"]), str(files["text"]), "--chunks", "--n-ctx", "128",
               "--save-logits", str(files[victim]))
    assert_clean_error(proc, "which this command reads")
    assert digest(files[victim]) == before


def test_devices_pipes_and_folders_are_refused_before_any_work(files, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cvector = ("cvector", "--model", str(files["model"]), "--positive-file", str(files["pos"]),
               "--negative-file", str(files["neg"]))
    assert_clean_error(run(*cvector, "-o", str(fifo)), "named pipe")
    assert_clean_error(run(*cvector, "-o", str(tmp_path)), "folder")
    assert_clean_error(run("score", "--model", str(files["model"]), str(files["text"]), "--chunks", "--n-ctx",
                           "128", "--save-logits", "/dev/null"), "character device")
    assert_clean_error(run("quantize", str(files["model"]), "/dev/null", "Q8_0", "--overwrite"),
                       "character device")
    assert fifo.exists() and not fifo.is_file() and Path("/dev/null").is_char_device()


def test_a_history_export_never_replaces_the_history(tmp_path, monkeypatch):
    monkeypatch.setenv("LOGITSCOPE_HOME", str(tmp_path / "home"))
    with HistoryStore() as store:
        database = store.path
        store.list_conversations()
    before = digest(database)
    assert_clean_error(run("history", "export", "-o", str(database)), "which this command reads")
    assert digest(database) == before

