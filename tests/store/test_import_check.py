"""`history import` of hostile or damaged files: bounded reading, every value checked before anything is
written, one clear error (exit 2) instead of a traceback, and incomplete traces reported."""

from __future__ import annotations

import base64
import copy
import json
import os
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from logitscope.base.errors import StoreError
from logitscope.cli.main import main
from logitscope.store.exchange import export_json, export_markdown, import_json
from logitscope.store.history import HistoryStore
from logitscope.store.import_check import MAX_EXPORT_BYTES, check_export, load_export
from tests.helpers.store import save_answer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("LOGITSCOPE_HOME", str(home))
    return home


@pytest.fixture
def document(tmp_path: Path, generated) -> dict:
    """A real export: one conversation, a question and its 16-step answer."""
    with HistoryStore(tmp_path / "source.sqlite3") as source:
        save_answer(source, generated, generated.answers[0])
        return export_json(source)


def cli_import(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["history", "import", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def cli_error(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code, _, err = cli_import(path, capsys)
    return code, err


def assert_one_error(code: int, err: str, phrase: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
    assert phrase in lines[0], lines[0]


def stored_rows(home: Path) -> int:
    with HistoryStore() as store:
        return store.connection.execute("SELECT (SELECT count(*) FROM conversations) + "
                                        "(SELECT count(*) FROM messages)").fetchone()[0]


def answer(doc: dict) -> dict:
    return doc["conversations"][0]["messages"][1]


def set_in_first_step(doc: dict, offset: int, fmt: str, value: float) -> None:
    """Overwrite one number in the header of the answer's first step record (engine.trace._HEAD)."""
    steps = answer(doc)["trace"]["steps"]
    blob = bytearray(base64.b64decode(steps[0]))
    struct.pack_into(fmt, blob, offset, value)
    steps[0] = base64.b64encode(bytes(blob)).decode("ascii")


@pytest.mark.parametrize("damage, phrase", [
    (lambda d: answer(d).update(seed=2**63), '"seed" must be between'),
    (lambda d: answer(d).update(selected_seq=-(2**64)), '"selected_seq" must be between'),
    (lambda d: answer(d)["model"].update(size=2**64), '"size" must be between'),
    (lambda d: d["conversations"][0].update(created_at=2**63), '"created_at" must be a time'),
    (lambda d: d["conversations"][0].update(updated_at=float("inf")), '"updated_at" must be a time'),
    (lambda d: answer(d).update(created_at=float("nan")), '"created_at" must be a time'),
    (lambda d: d["conversations"][0].update(deleted_at=-5), '"deleted_at" must be a time'),
    (lambda d: answer(d)["timings"].update(n_gen=10**30), '"n_gen" must be between'),
    (lambda d: answer(d)["timings"].update(gen_s="fast"), '"gen_s" must be int or float'),
    (lambda d: answer(d)["kv"].pop("n_ctx"), '"n_ctx" is missing'),
    (lambda d: answer(d)["sampler"].update(extra=[[[[[[[[[[1]]]]]]]]]]), "nested more than"),
    (lambda d: answer(d)["sampler"].update(big=2**70), "larger than a 64-bit integer"),
    (lambda d: answer(d)["sampler"].update(temperature=float("nan")), "sampler, 'temperature' holds NaN, not a finite"),
    (lambda d: answer(d)["sampler"].update(logit_bias=[[5, float("inf")]]), "holds Infinity, not a finite number"),
    (lambda d: d["conversations"][0].update(title="bad \ud800 title"), "unpaired UTF-16 surrogate (\\ud800)"),
    (lambda d: answer(d).update(content="\udfff"), '"content" holds an unpaired'),
    (lambda d: answer(d).update(notices=["ok", "x\udc00"]), "notice 2 holds an unpaired"),
    (lambda d: answer(d)["sampler"].update({"k\ud801": 1}), "a key holds an unpaired"),
    (lambda d: answer(d)["trace"]["pieces"].update({"abc": "AA=="}), "piece key 'abc' is not a token id"),
    (lambda d: answer(d)["trace"]["pieces"].update({"\u00b2": "AA=="}), "is not a token id"),        # "²".isdigit()
    (lambda d: answer(d)["trace"]["pieces"].update({"9" * 30: "AA=="}), "is not a token id"),
    (lambda d: answer(d)["trace"]["steps"].append(answer(d)["trace"]["steps"][0]), "repeats step 0"),
    (lambda d: d.update(version="1"), "version '1'"),
    (lambda d: set_in_first_step(d, 28, "<f", 5.0), "a probability out of range (5)"),
    (lambda d: set_in_first_step(d, 12, "<f", -1e30), "a probability out of range (inf)"),
    (lambda d: set_in_first_step(d, 20, "<f", float("inf")), "its entropy is inf"),
    (lambda d: answer(d).update(forked_at=-1), '"forked_at" must be between'),
    (lambda d: answer(d).update(forked_at="3"), '"forked_at" must be int or null'),
    (lambda d: answer(d).update(prefix_steps=2**40), '"prefix_steps" must be between'),
    (lambda d: answer(d).update(prefix_steps=True), '"prefix_steps" must be int'),
], ids=["seed", "selected_seq", "model-size", "huge-time", "inf-time", "nan-time", "negative-time", "n_gen",
        "gen_s", "kv-field", "deep-sampler", "big-in-sampler", "nan-in-sampler", "inf-in-sampler", "surrogate-title", "surrogate-content",
        "surrogate-notice", "surrogate-key", "piece-key", "piece-key-superscript", "piece-key-huge",
        "duplicate-step", "version-string", "step-p", "step-lse", "step-entropy", "forked_at-negative",
        "forked_at-string", "prefix_steps-huge", "prefix_steps-bool"])
def test_bad_values_are_clear_errors_and_add_nothing(document, home, tmp_path, capsys, damage, phrase):
    damage(document)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")   # NaN and Infinity as JSON writes them
    code, _, err = cli_import(path, capsys)
    assert_one_error(code, err, phrase)
    assert stored_rows(home) == 0


def test_deep_nesting_is_a_clear_error(home, tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text('{"format": "logitscope-history", "version": 1, "conversations": '
                    + "[" * 100_000 + "]" * 100_000 + "}")
    code, _, err = cli_import(path, capsys)
    assert_one_error(code, err, "nested too deeply")


def test_a_number_with_thousands_of_digits_is_a_clear_error(home, tmp_path, capsys):
    path = tmp_path / "digits.json"
    path.write_text('{"format": "logitscope-history", "version": ' + "9" * 5000 + "}")
    code, _, err = cli_import(path, capsys)
    assert_one_error(code, err, "thousands of digits")


def test_not_json_not_utf8(home, tmp_path, capsys):
    (tmp_path / "latin1.json").write_bytes(b'{"title": "caf\xe9"}')
    assert_one_error(*cli_error(tmp_path / "latin1.json", capsys), "not UTF-8 text (byte 14)")
    (tmp_path / "bom.json").write_bytes(b'\xef\xbb\xbf{"format": "something"}')   # a BOM is fine
    assert_one_error(*cli_error(tmp_path / "bom.json", capsys), "not a Logitscope history export")


@pytest.mark.skipif(os.name != "posix", reason="pipes and devices")
def test_pipes_devices_and_folders_are_refused_without_reading(home, tmp_path, capsys):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    assert_one_error(*cli_error(fifo, capsys), "it is a named pipe, not a file")   # no writer: no wait
    assert_one_error(*cli_error(Path("/dev/zero"), capsys), "it is a character device, not a file")
    assert_one_error(*cli_error(tmp_path, capsys), "it is a folder, not a file")
    assert time.monotonic() - started < 5


def test_a_file_over_the_size_limit_is_refused_before_reading(home, tmp_path, capsys):
    big = tmp_path / "big.json"
    with big.open("wb") as fh:       # sparse: nothing is written, and nothing may be read
        fh.truncate(MAX_EXPORT_BYTES + 1)
    code, _, err = cli_import(big, capsys)
    assert_one_error(code, err, f"larger than {MAX_EXPORT_BYTES // 2**20} MiB")


@pytest.mark.skipif(os.name != "posix", reason="/dev/zero")
def test_dev_zero_through_a_real_process_is_quick_and_small(home, tmp_path):
    """The issue measured 4.4 GB of memory in 10 s; now: refused at once, one line, exit 2."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "app"), str(ROOT)])}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "logitscope", "history", "import", "/dev/zero"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < 30
    assert_one_error(proc.returncode, proc.stderr, "it is a character device, not a file")


def test_a_trace_missing_steps_is_imported_and_reported(document, home, tmp_path, capsys):
    steps = answer(document)["trace"]["steps"]
    n = len(steps)
    del steps[5:]                                 # 5 of n: the end is missing
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code, out, err = cli_import(path, capsys)
    assert code == 0 and out.startswith("imported 1 conversation")
    assert err.strip() == (f"note: conversation 1, message 2: the trace has only 5 of {n} steps "
                           f"(missing: 5-{n - 1}); it was imported as it is")
    with HistoryStore() as store:
        (cid,) = [c.id for c in store.list_conversations()]
        stored = store.messages(cid)[1]
        assert stored.n_steps == 5 and stored.status == "done"
        assert f"imported with only 5 of {n} steps (missing: 5-{n - 1})" in stored.notices
        again = export_json(store)
    assert check_export(again).notices  # still incomplete, still said; the answer's notice is not doubled
    assert answer(check_export(again))["notices"].count(f"imported with only 5 of {n} steps "
                                                                 f"(missing: 5-{n - 1})") == 1


def test_a_gap_in_the_middle_is_reported(document):
    steps = answer(document)["trace"]["steps"]
    del steps[3], steps[7]                        # steps 3 and 8
    checked = check_export(document)
    assert checked.notices == [f"conversation 1, message 2: the trace has only {len(steps)} of {len(steps) + 2} "
                               "steps (missing: 3, 8); it was imported as it is"]


def test_a_stop_sequence_held_back_is_not_a_gap(document):
    """Tokens of a stop sequence are generated (n_gen counts them) but never shown: no step, no gap."""
    answer(document)["timings"]["n_gen"] += 2
    assert check_export(document).notices == []
    answer(document)["content"] += " and more"    # but text no step accounts for is
    assert "the trace has only" in check_export(document).notices[0]


def test_a_complete_export_has_no_notices_and_round_trips(document, tmp_path):
    path = tmp_path / "good.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    checked = load_export(path)
    assert checked.notices == [] and checked == document
    with HistoryStore(tmp_path / "target.sqlite3") as target:
        (cid,) = import_json(target, checked)
        assert export_markdown(target, [cid]).startswith("# Why is the sky blue?")


def test_the_window_and_the_cli_share_the_checks(document, home, tmp_path):
    """import_json itself checks a raw document (the window used to parse and import without bounds)."""
    damaged = copy.deepcopy(document)
    damaged["conversations"][0]["created_at"] = float("nan")
    with HistoryStore() as store, pytest.raises(StoreError, match='"created_at" must be a time'):
        import_json(store, damaged)
