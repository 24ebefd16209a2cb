"""The window and the store's files: exports never destroy nor hang on what they write to, the import
reads bounded and checked files and reports gaps, a bad settings file is backed up and reported once."""

from __future__ import annotations

import json
import os
import time

import pytest

from tests.helpers.window import ask, make_window

pytestmark = pytest.mark.gui


def saved_conversation() -> None:
    """A conversation already in the history (of LOGITSCOPE_HOME) when the window opens."""
    from logitscope.store.history import HistoryStore

    with HistoryStore() as store:
        store.add_message(store.create_conversation("Saved"), "user", "hello there")


@pytest.mark.model
@pytest.mark.timeout(120)
@pytest.mark.skipif(os.name != "posix", reason="named pipes and modes are POSIX")
def test_exports_never_hang_on_a_pipe_nor_change_a_files_mode(qtbot, tmp_path, isolated_home, demo_model):
    import stat

    saved_conversation()
    window = make_window(qtbot, tmp_path, demo_model, load=False)
    try:
        fifo = tmp_path / "pipe.md"
        os.mkfifo(fifo)
        started = time.monotonic()
        assert not window.export_conversation(str(fifo))          # nobody reads it: an error, not a hang
        assert time.monotonic() - started < 5
        assert window.last_error[0] == "Export failed" and "no program is reading" in window.last_error[1]
        assert stat.S_ISFIFO(fifo.lstat().st_mode)
        kept = tmp_path / "kept.md"
        kept.write_text("old")
        kept.chmod(0o644)
        assert window.export_conversation(str(kept))
        assert kept.read_text(encoding="utf-8").startswith("# Saved") and stat.S_IMODE(kept.stat().st_mode) == 0o644
    finally:
        window.close()


@pytest.mark.skipif(os.name != "posix", reason="/dev/zero")
def test_import_in_the_window_is_bounded_checked_and_reports_gaps(qtbot, real_window, tmp_path):
    assert real_window.import_conversations("/dev/zero") == 0             # refused at once, not read forever
    assert real_window.last_error == ("Import failed", "Cannot import /dev/zero: it is a character device, not a file")
    ask(qtbot, real_window, "What is 2+2?", max_tokens=6)
    exported = tmp_path / "chat.json"
    assert real_window.export_conversation(str(exported))
    document = json.loads(exported.read_text(encoding="utf-8"))
    bad = json.loads(json.dumps(document))
    bad["conversations"][0]["created_at"] = float("nan")
    (tmp_path / "nan.json").write_text(json.dumps(bad))
    assert real_window.import_conversations(str(tmp_path / "nan.json")) == 0
    assert real_window.last_error[0] == "Import failed" and '"created_at" must be a time' in real_window.last_error[1]
    answer = document["conversations"][0]["messages"][1]
    n = len(answer["trace"]["steps"])
    del answer["trace"]["steps"][2:]
    document["conversations"][0]["title"] = "Cut short"   # another conversation than the one exported
    (tmp_path / "cut.json").write_text(json.dumps(document))
    assert real_window.import_conversations(str(tmp_path / "cut.json")) == 1   # imported, and said
    assert real_window.last_error == ("Notice", f"Conversation 1, message 2: the trace has only 2 of {n} steps "
                                           f"(missing: 2-{n - 1}); it was imported as it is")


@pytest.mark.model
def test_a_settings_file_with_bad_values_is_backed_up_and_reported_once(qtbot, tmp_path, isolated_home, demo_model):
    (isolated_home / "settings.json").write_text(json.dumps(
        {"schema": 1, "app": {"theme": "purple", "language": "en"}, "sampler_presets": {"Mine": {"top_k": -2,
                                                                                                 "seed": 5}}}))
    window = make_window(qtbot, tmp_path, demo_model, load=False)
    try:
        qtbot.waitUntil(lambda: hasattr(window, "last_error"), timeout=5_000)
        title, message = window.last_error
        (backup,) = isolated_home.glob("settings.json.bak-*")
        assert title == "Notice" and "theme = 'purple' is invalid" in message and f"kept as {backup.name}" in message
        assert window.app_settings.preset("Mine").seed == 5 and window.app_settings.app.language == "en"
    finally:
        window.close()
    again = make_window(qtbot, tmp_path, demo_model, load=False)    # the file is clean now: no notice again
    try:
        qtbot.wait(200)
        assert not hasattr(again, "last_error")
        assert len(list(isolated_home.glob("settings.json.bak-*"))) == 1
    finally:
        again.close()
