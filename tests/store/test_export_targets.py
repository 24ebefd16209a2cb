"""`history export -o TARGET` writes the way `cp` does and never destroys what TARGET is: a link stays a
link, a pipe or a device is written through (never replaced by a file), a folder or a disk is refused,
and an existing file keeps its permissions."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from logitscope.base.errors import StoreError
from logitscope.store import import_check
from logitscope.store.files import atomic_write_bytes, write_export
from logitscope.store.history import HistoryStore
from tests.helpers.cli import run_command

POSIX_ONLY = pytest.mark.skipif(os.name != "posix", reason="pipes, devices and modes are POSIX")
pytestmark = POSIX_ONLY


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A LOGITSCOPE_HOME with one short conversation (no model needed)."""
    home = tmp_path / "home"
    monkeypatch.setenv("LOGITSCOPE_HOME", str(home))
    with HistoryStore() as store:
        store.add_message(store.create_conversation("Exported"), "user", "hello there")
    return home


def export_to(target: Path) -> int:
    return run_command("history", "export", "--format", "md", "-o", str(target))


def device(tmp_path: Path, name: str, major: int, minor: int, kind: int = stat.S_IFCHR) -> Path:
    """A device node to write to. As root, a twin of the real one made in tmp_path (so a regression can
    only replace the twin, never the real /dev entry); otherwise the real one, which a user cannot
    replace anyway."""
    if os.geteuid() != 0:
        if kind != stat.S_IFCHR:
            pytest.skip("block devices need root")
        return Path("/dev") / name
    node = tmp_path / name
    try:
        os.mknod(node, kind | 0o666, os.makedev(major, minor))
    except PermissionError:
        pytest.skip("this container cannot make device nodes")
    return node


def test_an_existing_file_keeps_its_permissions(home: Path, tmp_path: Path):
    target = tmp_path / "shared.md"
    target.write_text("old")
    target.chmod(0o644)
    assert export_to(target) == 0
    assert target.read_text(encoding="utf-8").startswith("# Exported")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_a_new_file_gets_the_usual_permissions(home: Path, tmp_path: Path):
    old = os.umask(0o022)
    try:
        assert export_to(tmp_path / "new.md") == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.md").stat().st_mode) == 0o644   # 0666 less the umask, as cp does


def test_a_symlink_stays_a_link_and_its_file_gets_the_export(home: Path, tmp_path: Path):
    real = tmp_path / "notes" / "real.md"
    real.parent.mkdir()
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.md"
    link.symlink_to(real)
    assert export_to(link) == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8").startswith("# Exported")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.md"]  # no temporary file left


def test_a_named_pipe_is_written_through_to_its_reader(home: Path, tmp_path: Path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert export_to(fifo) == 0
    reader.join(10)
    assert received and received[0].decode("utf-8").startswith("# Exported")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)                       # still a pipe


def test_a_pipe_nobody_reads_is_an_error_when_asked_not_to_wait(tmp_path: Path):
    """The window must not hang on a pipe without a reader: it asks not to wait."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def attempt() -> None:
        try:
            write_export(fifo, b"data", wait_for_reader=False)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 (handed to the test thread)
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(5)
    if worker.is_alive():  # unblock the writer so the test run can go on, then fail
        with open(fifo, "rb") as fh:
            fh.read()
        pytest.fail("writing to a pipe without a reader hung")
    assert isinstance(outcome[0], StoreError) and "no program is reading" in str(outcome[0])
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_dev_full_is_a_clear_error_and_stays_a_device(home: Path, tmp_path: Path):
    full = device(tmp_path, "full", 1, 7)
    before = full.lstat()
    with pytest.raises(StoreError, match=f"cannot write {full}: No space left on device"):
        export_to(full)
    after = full.lstat()
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_dev_null_takes_the_export(home: Path, tmp_path: Path):
    null = device(tmp_path, "null", 1, 3)
    assert export_to(null) == 0
    assert stat.S_ISCHR(null.lstat().st_mode)


def test_a_folder_is_refused_and_left_alone(home: Path, tmp_path: Path):
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    with pytest.raises(StoreError, match="it is a folder"):
        export_to(folder)
    assert [p.name for p in folder.iterdir()] == ["keep.txt"]


def test_a_disk_is_refused(home: Path, tmp_path: Path):
    disk = device(tmp_path, "disk-twin", 60, 0, stat.S_IFBLK)  # 60: "local/experimental", no driver
    with pytest.raises(StoreError, match="block device"):
        export_to(disk)
    assert stat.S_ISBLK(disk.lstat().st_mode)


def test_an_export_too_big_to_import_says_so(home: Path, tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setattr(import_check, "MAX_EXPORT_BYTES", 100)
    assert run_command("history", "export", "-o", str(tmp_path / "all.json")) == 0
    assert "note: this export is 0 MiB; 'history import' reads at most 0 MiB" in capsys.readouterr().err
    with pytest.raises(StoreError, match="larger than 0 MiB, the most a history import reads"):
        run_command("history", "import", str(tmp_path / "all.json"))


def test_the_app_files_atomic_writes_follow_links_and_refuse_pipes(tmp_path: Path):
    """settings.json written by the app: a link (a dotfiles folder) stays a link, its mode stays."""
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text("{}")
    real.chmod(0o640)
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    atomic_write_bytes(link, b'{"schema": 1}')
    assert link.is_symlink() and real.read_bytes() == b'{"schema": 1}'
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="it is a named pipe, not a file"):
        atomic_write_bytes(fifo, b"{}")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
