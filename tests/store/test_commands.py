"""`logitscope history list | export | import`, through the functions cli/main.py wires in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from logitscope.base.errors import StoreError
from logitscope.store.history import HistoryStore
from tests.helpers.cli import parse_command, run_command
from tests.helpers.store import save_answer

ROOT = Path(__file__).resolve().parents[2]

# The CLI in a process of its own (what `logitscope ARGV` runs).
HARNESS = "import sys; from logitscope.cli.main import main; sys.exit(main(sys.argv[1:]))"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, generated) -> Path:
    """A LOGITSCOPE_HOME with two saved conversations."""
    home = tmp_path / "home"
    monkeypatch.setenv("LOGITSCOPE_HOME", str(home))
    with HistoryStore() as store:
        save_answer(store, generated, generated.answers[0])
        save_answer(store, generated, generated.answers[1])
    return home


def test_list(home: Path, capsys: pytest.CaptureFixture[str]):
    assert run_command("history", "list", "--json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert [c["title"] for c in listed] == ["请用中文介绍一下你自己。", "Why is the sky blue?"]
    assert all(c["n_messages"] == 2 for c in listed)
    assert run_command("history", "list") == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[1].split()[0] == "1" and lines[1].endswith("Why is the sky blue?")


def test_export_json_then_import_elsewhere(home: Path, tmp_path: Path, monkeypatch, capsys):
    out = tmp_path / "all.json"
    assert run_command("history", "export", "-o", str(out)) == 0
    assert capsys.readouterr().out == ""
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["format"] == "logitscope-history" and len(exported["conversations"]) == 2

    monkeypatch.setenv("LOGITSCOPE_HOME", str(tmp_path / "elsewhere"))
    assert run_command("history", "import", str(out)) == 0
    assert capsys.readouterr().out.startswith("imported 2 conversations")
    assert run_command("history", "export", "1", "--format", "json") == 0
    (conv,) = json.loads(capsys.readouterr().out)["conversations"]
    assert conv["title"] == "Why is the sky blue?" and conv["messages"][1]["trace"]["steps"]


def test_the_same_export_imported_twice_adds_its_conversations_once(home: Path, tmp_path: Path, capsys):
    out = tmp_path / "all.json"
    assert run_command("history", "export", "-o", str(out)) == 0
    assert run_command("history", "import", str(out)) == 0   # into the history it came from
    assert capsys.readouterr().out == "imported 0 conversations; 2 already in the history, not imported again\n"
    with HistoryStore() as store:
        first, second = store.list_conversations()
        store.add_message(first.id, "user", "One more question")   # written to since
        store.delete(second.id)                                     # in the trash
    assert run_command("history", "import", str(out)) == 0
    assert capsys.readouterr().out.startswith("imported 2 conversations (ids ")
    assert run_command("history", "import", str(out)) == 0
    assert capsys.readouterr().out.startswith("imported 0 conversations; 2 already")


def test_export_markdown(home: Path, capsys):
    assert run_command("history", "export", "2", "--format", "md") == 0
    text = capsys.readouterr().out
    assert text.startswith("# 请用中文介绍一下你自己。\n") and "## Assistant" in text and "Why is the sky" not in text
    assert run_command("history", "export", "--format", "md") == 0
    assert capsys.readouterr().out.count("\n---\n") == 1


def test_mistakes_are_clear_errors(home: Path, tmp_path: Path):
    with pytest.raises(StoreError, match="no conversation with id 42"):
        run_command("history", "export", "42")
    with pytest.raises(StoreError, match="cannot read"):
        run_command("history", "import", str(tmp_path / "missing.json"))
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(StoreError, match="is not a JSON file"):
        run_command("history", "import", str(tmp_path / "notes.txt"))
    (tmp_path / "other.json").write_text('{"hello": 1}')
    with pytest.raises(StoreError, match="not a Logitscope history export"):
        run_command("history", "import", str(tmp_path / "other.json"))
    with pytest.raises(StoreError, match="cannot write"):
        run_command("history", "export", "-o", str(tmp_path / "no" / "such" / "folder.json"))
    with pytest.raises(SystemExit):
        parse_command("history", "export", "--format", "xml")
    with pytest.raises(SystemExit):
        parse_command("history")


def test_through_a_real_process(home: Path, tmp_path: Path):
    env = {"LOGITSCOPE_HOME": str(home), "PYTHONPATH": os.pathsep.join([str(ROOT / "app"), str(ROOT)]),
           "PATH": "/usr/bin:/bin"}

    def cli(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", HARNESS, *argv], env=env, capture_output=True, text=True,
                              timeout=60)

    proc = cli("history", "list")
    assert proc.returncode == 0 and "Why is the sky blue?" in proc.stdout, proc.stderr
    proc = cli("history", "export", "1", "--format", "md", "-o", str(tmp_path / "one.md"))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "one.md").read_text(encoding="utf-8").startswith("# Why is the sky blue?")


def test_a_broken_database_is_reported_and_set_aside_by_the_next_write(tmp_path: Path, monkeypatch, capsys):
    home = tmp_path / "home"
    home.mkdir()
    (home / "history.sqlite3").write_bytes(b"garbage" * 1000)
    monkeypatch.setenv("LOGITSCOPE_HOME", str(home))
    with pytest.raises(StoreError, match="cannot be read"):   # not "no saved conversations", exit 0
        run_command("history", "list")
    assert [p.name for p in home.iterdir()] == ["history.sqlite3"]     # list only reads: nothing moved
    assert run_command("history", "import", str(write_empty_export(tmp_path))) == 0   # a write sets it aside
    assert "could not be used" in capsys.readouterr().err
    assert len(list(home.glob("history.sqlite3.broken-*"))) == 1


def write_empty_export(folder: Path) -> Path:
    path = folder / "empty.json"
    path.write_text(json.dumps({"format": "logitscope-history", "version": 1, "conversations": []}))
    return path


def test_export_from_a_damaged_database_fails_and_writes_nothing(tmp_path: Path, generated):
    """A backup script must see it: before, `history export` exited 0 with an empty export (over the last
    good backup, with -o)."""
    from tests.helpers.cli import assert_clean_error

    home = tmp_path / "home"
    db = home / "history.sqlite3"
    home.mkdir()
    with HistoryStore(db) as store:
        save_answer(store, generated, generated.answers[0])
    with db.open("r+b") as fh:  # a damaged page in the middle of the file
        fh.seek(2 * 4096)
        fh.write(os.urandom(4096))
    damaged = db.read_bytes()
    backup = tmp_path / "backup.json"
    backup.write_text("the last good backup")
    env = {**os.environ, "LOGITSCOPE_HOME": str(home),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "app"), str(ROOT)])}
    for argv in (["history", "export"], ["history", "export", "-o", str(backup)],
                 ["history", "export", "--format", "md"], ["history", "list"], ["history", "list", "--json"],
                 ["explain"]):   # (a list said "no saved conversations", `[]` with --json, and exit 0)
        proc = subprocess.run([sys.executable, "-c", HARNESS, *argv], env=env, capture_output=True, text=True,
                              timeout=60)
        assert_clean_error(proc, "the history database")
        assert "cannot be read (it is damaged: " in proc.stderr and proc.stdout == "", proc.stderr
        assert len(proc.stderr.splitlines()) == 1, proc.stderr
    assert backup.read_text() == "the last good backup"
    assert db.read_bytes() == damaged and not list(home.glob("history.sqlite3.*-*"))  # left as it is


def test_a_read_only_data_folder_can_be_listed_and_exported(tmp_path: Path, generated):
    """A read-only mount (a backup, another machine's disk): before, every `history` command failed with
    "the data folder ... cannot be written to"."""
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a read-only folder")
    source, home = tmp_path / "source", tmp_path / "home"
    source.mkdir()
    home.mkdir()
    with HistoryStore(source / "history.sqlite3") as store:
        save_answer(store, generated, generated.answers[0])
        save_answer(store, generated, generated.answers[1])
        expected = json.dumps([c.title for c in store.list_conversations()])
    before = sorted(p.name for p in source.iterdir())
    if subprocess.run(["mount", "--bind", str(source), str(home)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here")
    try:
        assert subprocess.run(["mount", "-o", "remount,bind,ro", str(home)], capture_output=True).returncode == 0
        env = {**os.environ, "LOGITSCOPE_HOME": str(home),
               "PYTHONPATH": os.pathsep.join([str(ROOT / "app"), str(ROOT)])}

        def cli(*argv: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-c", HARNESS, *argv], env=env, capture_output=True, text=True,
                                  timeout=60)

        listed = cli("history", "list", "--json")
        assert listed.returncode == 0 and listed.stderr == "", listed.stderr
        assert json.dumps([c["title"] for c in json.loads(listed.stdout)]) == expected
        exported = cli("history", "export", "-o", str(tmp_path / "out.json"))
        assert exported.returncode == 0 and exported.stderr == "", exported.stderr
        document = json.loads((tmp_path / "out.json").read_text())
        assert len(document["conversations"]) == 2
        assert all(c["messages"][1]["trace"] for c in document["conversations"])
        markdown = cli("history", "export", "2", "--format", "md")
        assert markdown.returncode == 0 and markdown.stdout.startswith("# "), markdown.stderr
        refused = cli("history", "import", str(tmp_path / "out.json"))
        assert refused.returncode == 2 and "read-only" in refused.stderr.lower(), refused.stderr
    finally:
        subprocess.run(["umount", str(home)], check=False)
    assert sorted(p.name for p in source.iterdir()) == before


def _cli(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {"LOGITSCOPE_HOME": str(home), "PYTHONPATH": os.pathsep.join([str(ROOT / "app"), str(ROOT)]),
           "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-c", HARNESS, *argv], env=env, capture_output=True, text=True, timeout=60)


def test_an_id_beyond_sqlites_integers_is_not_found(home: Path):
    """SQLite's integers end at 2**63 - 1: a longer id was an OverflowError traceback."""
    from tests.helpers.cli import assert_clean_error

    huge = "99999999999999999999999999"
    assert_clean_error(_cli(home, "history", "export", huge), f"no conversation with id {huge}")
    assert_clean_error(_cli(home, "explain", huge), f"no conversation with id {huge}")
    assert_clean_error(_cli(home, "explain", "--message", huge), f"no message with id {huge}")


@pytest.mark.parametrize(("column", "value"), [
    ("sampler_json", "'{bad'"), ("timings_json", "'[1,2]'"), ("threads_json", "'nonsense'"),
    ("created_at", "'abc'"), ("content", "x'00ff41'")],
    ids=["sampler-not-json", "timings-a-list", "threads-not-json", "time-not-a-number", "content-bytes"])
def test_a_damaged_field_of_an_answer_reads_as_unknown_and_the_rest_is_exported(home: Path, tmp_path: Path, column,
                                                                                   value):
    """A hand-edited or damaged row (valid SQLite): the answer's other fields, and the other conversations, are
    still listed, exported and explained; the damaged field reads as unknown. Each was a traceback."""
    import sqlite3

    with sqlite3.connect(home / "history.sqlite3") as db:
        db.execute(f"UPDATE messages SET {column} = {value} WHERE role = 'assistant' AND conversation_id = 1")
    for argv in (("history", "export", "-o", str(tmp_path / "all.json")),
                 ("history", "export", "--format", "md", "-o", str(tmp_path / "all.md")), ("explain", "1")):
        proc = _cli(home, *argv)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, (argv, proc.stderr[-1500:])
    exported = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    assert len(exported["conversations"]) == 2
    assert "Why is the sky blue?" in (tmp_path / "all.md").read_text(encoding="utf-8")


def test_a_damaged_trace_is_one_clear_error(home: Path):
    import sqlite3

    from tests.helpers.cli import assert_clean_error

    with sqlite3.connect(home / "history.sqlite3") as db:
        db.execute("UPDATE trace_steps SET data = x'0102030405' WHERE message_id IN "
                   "(SELECT id FROM messages WHERE conversation_id = 1)")
    for argv in (("history", "export", "1"), ("explain", "1")):
        assert_clean_error(_cli(home, *argv), "trace")
