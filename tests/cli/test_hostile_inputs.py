"""Hostile values and a hostile environment, run as a user runs the command (a subprocess): absurd
counts, bytes that are not UTF-8, a data folder that cannot be used, a full or closed output, a full
disk, a memory limit. Each ends with one `error:` line and exit code 2 (or a quiet exit), never a
traceback."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from logitscope.system.threads import max_threads
from tests.helpers.cli import CLI, assert_clean_error, run

GENERATE = ("generate", "--prompt", "hi", "--max-tokens", "2")


def run_bytes(*args: str | bytes, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess[str]:
    """Like `run`, but arguments may be raw bytes (what a shell passes for $'\\xff')."""
    argv = [os.fsencode(a) for a in (*CLI, *args)]
    return subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=timeout, **kwargs)


# -- item 9: absurd counts, contexts and text -------------------------------------------------------

@pytest.mark.parametrize("command", [GENERATE, ("chat",), ("bench", "--tokens", "1", "--reps", "1")])
def test_absurd_thread_count_is_refused(command):
    start = time.monotonic()
    proc = run(*command, "--threads", str(max_threads() + 1), input="")
    assert_clean_error(proc, f"--threads must be between 0 (automatic) and {max_threads()}")
    assert time.monotonic() - start < 30


@pytest.mark.model
def test_threads_at_the_bound_are_accepted(demo_model):
    proc = run(*GENERATE, "--threads", str(max_threads()))
    assert proc.returncode == 0, proc.stderr


@pytest.mark.model
def test_small_context_is_rounded_up_with_a_warning(demo_model):
    proc = run(*GENERATE, "--n-ctx", "64", "--json")
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "256" in warnings[0] and "64" in warnings[0], proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1])["kv"]["n_ctx"] == 256


@pytest.mark.model
def test_absurd_context_is_refused_from_the_estimate_before_allocating(demo_model):
    from logitscope.gguf.card import read_model_card
    from logitscope.gguf.memory import estimate
    from logitscope.system.machine import probe_machine

    n_ctx = 1 << 21
    ram = probe_machine(nvidia_smi=None).ram_total
    if ram is None or ram >= estimate(read_model_card(demo_model), n_ctx).total_bytes:
        pytest.skip("this machine could hold a 2M-token context of the demo model")
    start = time.monotonic()
    proc = run(*GENERATE, "--n-ctx", str(n_ctx))
    assert_clean_error(proc, "tokens needs about")
    assert time.monotonic() - start < 20


@pytest.mark.parametrize("args,what", [
    (("--prompt", b"\xff\xfe"), "the prompt"),
    (("--chat", b"caf\xe9"), "the user message"),
    (("--chat", "hi", "--system", b"\xff"), "the system prompt"),
    (("--prompt", "hi", "--stop", b"\xff"), "a stop sequence"),
], ids=["prompt", "chat", "system", "stop"])
def test_text_that_is_not_utf8_is_an_input_error(args, what):
    proc = run_bytes("generate", *args, "--max-tokens", "2")
    assert_clean_error(proc, f"{what} is not valid UTF-8 (byte 0x")
    assert "internal engine error" not in proc.stderr


# -- item 10: the data folder, the output, the disk, memory --------------------------------------

def _bad_homes(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    return {
        "a file": (a_file, "it is a file, not a folder"),
        "under a file": (a_file / "home", "a part of its path is a file"),
        "under /proc": (Path("/proc/logitscope-home"), "cannot be created"),
        "/proc itself": (Path("/proc"), "cannot be written to"),
    }


@pytest.mark.parametrize("where", ["a file", "under a file", "under /proc", "/proc itself"])
@pytest.mark.parametrize("command", [("history", "list"), ("models", "list"), GENERATE,
                                     ("chat",), ("window",)])
def test_a_data_folder_that_cannot_be_used(tmp_path, where, command):
    home, phrase = _bad_homes(tmp_path)[where]
    env = dict(os.environ, LOGITSCOPE_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    proc = run(*command, env=env, input="", timeout=60)
    if command == ("history", "list") and where == "/proc itself":  # a folder that cannot be written to:
        assert (proc.returncode, proc.stderr) == (0, "no saved conversations\n")  # read, as a read-only disk
        return
    assert_clean_error(proc, phrase)
    assert "the data folder" in proc.stderr or "the models folder" in proc.stderr


def test_the_window_entry_with_a_bad_data_folder(tmp_path):
    """`logitscope` with no arguments opens the window: a bad data folder is said, not a traceback."""
    home, phrase = _bad_homes(tmp_path)["a file"]
    env = dict(os.environ, LOGITSCOPE_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(CLI, capture_output=True, text=True, timeout=60, env=env)
    assert_clean_error(proc, phrase)


@pytest.mark.model
@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_a_full_output(demo_model, as_json):
    args = ["generate", "--prompt", "1, 2, 3,", "--temperature", "0", "--max-tokens", "300"]
    start = time.monotonic()
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*CLI, *args, *(["--json"] if as_json else [])], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert_clean_error(proc, "could not write the output: No space left on device")
    assert time.monotonic() - start < 30  # the engine was stopped, not left to write 300 tokens


@pytest.mark.parametrize("command", [("history", "list", "--json"), ("info",)])
def test_a_full_output_for_short_commands(demo_model, command):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*CLI, *command], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert_clean_error(proc, "could not write the output")


@pytest.mark.model
def test_a_closed_pipe_ends_quietly(demo_model):
    """`logitscope generate --json | head -1`: the reader goes away; no BrokenPipeError, no hang."""
    proc = subprocess.Popen([*CLI, "generate", "--prompt", "1, 2, 3,", "--temperature", "0", "--max-tokens", "300",
                             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert json.loads(proc.stdout.readline())["type"] == "step"
    proc.stdout.close()
    start = time.monotonic()
    stderr = proc.stderr.read().decode()
    assert proc.wait(30) == 0, stderr
    assert time.monotonic() - start < 15
    assert "Traceback" not in stderr and "Exception ignored" not in stderr and "error:" not in stderr, stderr


@pytest.fixture
def big_export(tmp_path_factory) -> Path:
    """A JSON export of 20 conversations, about 1.4 MB."""
    home = tmp_path_factory.mktemp("source-home")
    script = ("from logitscope.store.history import HistoryStore\n"
              "s = HistoryStore()\n"
              "for i in range(20):\n"
              "    s.add_message(s.create_conversation(f'c{i}'), 'user', ('hello world %d ' % i) * 5000)\n")
    env = dict(os.environ, LOGITSCOPE_HOME=str(home))
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=60)
    out = home / "export.json"
    subprocess.run([*CLI, "history", "export", "-o", str(out)], env=env, check=True, timeout=60)
    assert out.stat().st_size > 1_000_000
    return out


def _mount_small_tmpfs(where: Path, size: str) -> bool:
    where.mkdir()
    if os.geteuid() != 0:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True).returncode == 0


def _file_size_limit(limit: int):  # -> a preexec_fn
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an ignored signal stays ignored across exec: writes fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@pytest.mark.parametrize("how,phrase", [("tmpfs", "the disk is full"), ("file-size-limit", "disk I/O error")])
def test_disk_full_during_import(tmp_path, big_export, how, phrase):
    """A full disk in the middle of `history import`: one error line, and the history as it was before.
    On a full tmpfs SQLite says SQLITE_FULL; past RLIMIT_FSIZE a write fails with EFBIG, which SQLite
    reports as a disk I/O error."""
    disk = tmp_path / "disk"
    kwargs = {}
    if how == "tmpfs":
        if not _mount_small_tmpfs(disk, "2m"):
            pytest.skip("cannot mount a tmpfs here (needs root)")
    else:
        disk.mkdir()
        kwargs["preexec_fn"] = _file_size_limit(600_000)
    try:
        env = dict(os.environ, LOGITSCOPE_HOME=str(disk / "home"), PYTHONDONTWRITEBYTECODE="1")
        first = run("history", "import", str(big_export), env=env, timeout=60, **kwargs)
        assert_clean_error(first, phrase)
        after = run("history", "list", "--json", env=env, timeout=60)
        assert after.returncode == 0, after.stderr
        assert json.loads(after.stdout) == []  # the import was all or nothing: nothing half-imported
    finally:
        if how == "tmpfs":
            subprocess.run(["umount", str(disk)], check=False)


@pytest.mark.parametrize("command", [("history", "list"), ("models", "list"), GENERATE, ("chat",), ("info",),
                                     ("window",)])
def test_a_memory_limit_too_small_to_start(tmp_path, command):
    """`ulimit -v 150000`: what cannot be imported is said in one line (what can run, runs)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (150_000 * 1024, 150_000 * 1024))

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([*CLI, *command], capture_output=True, text=True, timeout=60, env=env, input="",
                          preexec_fn=limit, cwd=tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    if proc.returncode != 0:
        assert_clean_error(proc, "memory")


# -- item 13: the steps add up to the answer --------------------------------------------------------

@pytest.mark.model
def test_steps_add_up_when_max_tokens_cuts_inside_an_emoji(demo_model):
    """The demo model answers this with emoji, each of three tokens: two tokens end inside the first one."""
    proc = run("generate", "--chat", "Reply with only an emoji of a happy face.", "--temperature", "0",
               "--max-tokens", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    steps, done = lines[:-1], lines[-1]
    assert done["finish_reason"] == "length"
    assert bytes.fromhex("".join(s["bytes"] for s in steps)).decode("utf-8", "replace") == "\ufffd", \
        "the model's answer changed: pick another prompt that cuts inside a character"
    assert done["text"] == "".join(s["text"] for s in steps) == ""
    assert any("multi-byte" in n for n in done["notices"])


def test_a_library_that_exits_while_loading_becomes_an_error_not_an_exit(capsys):
    """shiboken's bootstrap prints a traceback and calls sys.exit(-1) when memory runs out: that must reach
    main() as an error it can put in one line, with shiboken's text held back."""
    from logitscope.base.fatal import quiet_on_failure

    with pytest.raises(MemoryError), quiet_on_failure():
        print("Problem importing shibokensupport:\nMemoryError: ", file=sys.stderr)
        sys.exit(-1)
    with pytest.raises(ImportError, match="the library exited"), quiet_on_failure():
        sys.exit(-1)
    with quiet_on_failure():
        print("a warning that is not lost", file=sys.stderr)
    assert capsys.readouterr().err == "a warning that is not lost\n"


def test_odd_errors_under_a_tight_memory_limit_are_called_out_of_memory(monkeypatch):
    """Under `ulimit -v 150000` Python's compiler itself fails oddly while importing (seen here: "ValueError:
    field 'target' is required for AnnAssign"): one line about memory. Without a tight limit, a bug stays a bug."""
    from logitscope.base import fatal

    odd = ValueError("field 'target' is required for AnnAssign")
    monkeypatch.setattr(fatal, "_address_space_limit", lambda: 146 << 20)
    assert (fatal.describe(odd) or "").startswith("out of memory while starting (Python: ValueError")
    monkeypatch.setattr(fatal, "_address_space_limit", lambda: None)
    assert fatal.describe(odd) is None
    monkeypatch.setattr(fatal, "_address_space_limit", lambda: 8 << 30)
    assert fatal.describe(odd) is None


def test_too_little_memory_even_to_describe_the_failure_is_still_one_line(monkeypatch, capsys):
    """Under a tight `ulimit -v` the description itself may fail to allocate (a codec to import): one line."""
    import logitscope.__main__ as entry

    def no_memory(_argv):  # noqa: ANN001, ANN202
        raise MemoryError

    def cannot_describe(_exc):  # noqa: ANN001, ANN202
        raise MemoryError

    monkeypatch.setattr(entry, "_dispatch", no_memory)
    monkeypatch.setattr(entry, "describe", cannot_describe)
    assert entry.main(["info"]) == 2
    assert capsys.readouterr().err.strip() == "error: out of memory"


# -- issue 31: no input may hang the app or eat the machine ------------------------------------------

@pytest.fixture
def endless_inputs(tmp_path) -> dict[str, tuple[Path, str]]:
    """What a user's file may be besides a file: read naively, /dev/zero never ends (11 GB in 7 s) and a
    named pipe without a writer waits forever."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    return {"dev-zero": (Path("/dev/zero"), "a character device, not a file"),
            "fifo": (fifo, "a named pipe, not a file")}


@pytest.mark.parametrize("what", ["dev-zero", "fifo"])
@pytest.mark.parametrize("command", [
    ("score", "{}"),
    ("generate", "--prompt", "hi", "--grammar-file", "{}"),
    ("generate", "--prompt", "hi", "--json-schema-file", "{}"),
    ("cvector", "--positive-file", "{}", "--negative-file", "{}", "-o", "out.gguf"),
    ("history", "import", "{}"),
    ("explain", "{}"),
], ids=["score", "grammar-file", "json-schema-file", "cvector", "history-import", "explain"])
def test_an_endless_input_file_is_refused_unread(tmp_path, endless_inputs, what, command):
    path, phrase = endless_inputs[what]
    env = dict(os.environ, LOGITSCOPE_HOME=str(tmp_path / "home"))
    proc = run(*(str(path) if a == "{}" else a for a in command), env=env, cwd=tmp_path, input="", timeout=60)
    assert_clean_error(proc, phrase)


@pytest.mark.parametrize("what", ["dev-zero", "fifo"])
def test_a_settings_file_that_never_ends_is_set_aside(tmp_path, endless_inputs, what):
    """settings.json a link to /dev/zero or a named pipe: `models list` warns once and goes on with the defaults."""
    home = tmp_path / "home"
    home.mkdir()
    target, phrase = endless_inputs[what]
    (home / "settings.json").symlink_to(target)
    proc = run("models", "list", env=dict(os.environ, LOGITSCOPE_HOME=str(home)), input="", timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    warnings = [line for line in proc.stderr.splitlines() if "settings.json" in line]
    assert len(warnings) == 1 and phrase in warnings[0] and "Traceback" not in proc.stderr, proc.stderr
    assert list(home.glob("settings.json.broken-*"))


@pytest.mark.model
@pytest.mark.parametrize("what", ["dev-zero", "fifo"])
@pytest.mark.parametrize("command", [
    ("score", "--kl-base", "{}"),
    ("quantize", "{model}", "out.gguf", "Q8_0", "--imatrix", "{}"),
], ids=["kl-base", "imatrix"])
def test_an_endless_file_read_by_structure_is_refused(tmp_path, demo_model, endless_inputs, what, command):
    """Files read by structure rather than whole (a base of log-probabilities, an importance matrix): a pipe
    is not opened (that waits for a writer) and /dev/zero is not read to its end."""
    path, _phrase = endless_inputs[what]
    args = [str(path) if a == "{}" else str(demo_model) if a == "{model}" else a for a in command]
    proc = run(*args, cwd=tmp_path, input="", timeout=120)
    assert_clean_error(proc, "not a file")


@pytest.mark.model
def test_an_integer_schema_keeps_the_answer_within_its_bounds(demo_model):
    """llama-cpp-python's converter ignores minimum/maximum: the demo model answered 10000000."""
    proc = run("generate", "--prompt", "Pick a big number:", "--temperature", "0", "--max-tokens", "12",
               "--json-schema", '{"type": "integer", "minimum": 5, "maximum": 9}', "--json")
    assert proc.returncode == 0, proc.stderr
    assert 5 <= int(json.loads(proc.stdout.splitlines()[-1])["text"]) <= 9


@pytest.mark.model
@pytest.mark.parametrize("schema,phrase", [
    ('{"type": "integer", "minimum": 5, "maximum": 2}', "allows no integer: it asks for one from 5 to 2"),
    ('{"type": "number", "minimum": 0.5}', "apply to \"type\": \"integer\" only"),
])
def test_a_schema_bound_that_cannot_hold_is_refused(demo_model, schema, phrase):
    proc = run("generate", "--prompt", "hi", "--max-tokens", "2", "--json-schema", schema)
    assert_clean_error(proc, phrase)


@pytest.mark.parametrize("args,phrase", [
    (("chat", "--temp", "-1"), "--temperature must be >= 0"),
    (("chat", "--max-tokens", "0"), "--max-tokens must be >= 1"),
    (("score", "--text", "hi", "--n-ctx", "-1"), "--n-ctx must be between 8 and"),
    (("cvector", "--positive-file", "p", "--negative-file", "n", "-o", "o.gguf", "--n-gpu-layers", "-3"),
     "--n-gpu-layers must be -1 (all)"),
    (("bench", "--threads", "100000"), "--threads must be between 0"),
], ids=["chat-temperature", "chat-max-tokens", "score-n-ctx", "cvector-gpu-layers", "bench-threads"])
def test_errors_name_the_option_as_typed(tmp_path, args, phrase):
    (tmp_path / "p").write_text("happy\n")
    (tmp_path / "n").write_text("sad\n")
    assert_clean_error(run(*args, cwd=tmp_path, input="", timeout=60), phrase)
