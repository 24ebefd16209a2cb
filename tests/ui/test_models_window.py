"""The Models page against the real library: local files with fit verdicts, and a local fake Hub."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


@pytest.fixture
def models_window(qtbot, isolated_home, tmp_path):
    from logitscope.ui.models.models_window import ModelsWindow

    (isolated_home / "models" / "broken.gguf").write_text("not a model")
    w = ModelsWindow(())
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: len(w.local) >= 2, timeout=20_000)
    return w


def test_local_models_are_listed_with_fit_and_reasons(qtbot, models_window):
    w = models_window
    names = {m.name: m for m in w.local}
    demo = next(m for m in w.local if m.card is not None)
    broken = next(m for m in w.local if m.card is None)
    assert demo.fit is not None and demo.fit.verdict in ("fits", "tight", "does not fit")
    assert "not a GGUF file" in broken.error
    table = w.local_table
    rows = {table.item(r, 0).text(): r for r in range(table.rowCount())}
    assert table.item(rows[demo.name], 1).text().startswith("Q4_1")
    assert table.item(rows[broken.name], 1).text() == "not usable"
    assert "usable" in w.status.text() and len(names) == len(w.local)
    assert table.item(rows[broken.name], 7).text() == "Logitscope"   # where it was found, in words (not "app")


def test_load_and_remove_from_the_page(qtbot, models_window):
    w = models_window
    demo_row = next(r for r, m in enumerate(w.local) if m.card is not None)
    w.local_table.selectRow(demo_row)
    with qtbot.waitSignal(w.loadRequested) as blocker:
        w.load_selected()
    assert blocker.args[0].endswith(".gguf")
    broken_row = next(r for r, m in enumerate(w.local) if m.card is None)
    w.local_table.selectRow(broken_row)
    before = len(w.local)
    w.remove_selected(confirm=False)
    qtbot.waitUntil(lambda: len(w.local) == before - 1, timeout=20_000)


def test_recommended_list_is_shown_before_any_search(models_window):
    w = models_window
    table = w.repo_table
    assert table.rowCount() == len(w.recommended) > 0
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["Recommended", "Parameters", "Size", "Quantization"]  # what the columns hold
    first = w.recommended[0]
    assert [table.item(0, c).text() for c in range(4)] == [first.repo_id, first.params,
                                                           table.item(0, 2).text(), first.quant]
    assert table.item(0, 2).text().startswith("~") and table.item(0, 2).text().endswith("B")


def test_search_list_and_download_from_the_hub(qtbot, hub):
    """Search, a repository's files with fit verdicts, and a download with progress, through the real
    huggingface_hub client against the local fake Hub."""
    from logitscope.ui.models.models_window import ModelsWindow

    w = ModelsWindow(())
    qtbot.addWidget(w)
    w.show()
    w.query.setText("GGUF")
    w.search()
    qtbot.waitUntil(lambda: any(r.repo_id == "test-org/Tiny-GGUF" for r in w.repos), timeout=20_000)
    headers = [w.repo_table.horizontalHeaderItem(c).text() for c in range(w.repo_table.columnCount())]
    assert headers == ["Repository", "Downloads", "Likes", "Updated"]
    row = next(i for i, r in enumerate(w.repos) if r.repo_id == "test-org/Tiny-GGUF")
    assert w.repo_table.item(row, 1).text() == f"{w.repos[row].downloads:,}"
    done = []
    w.show_files("test-org/Tiny-GGUF", lambda: done.append(True))
    # at once, before the listing arrives: the file list says it is coming
    assert w.file_table.rowCount() == 1 and w.file_table.item(0, 0).text() == "Listing files…"
    assert not w.download_button.isEnabled()
    qtbot.waitUntil(lambda: bool(done), timeout=20_000)
    assert w.file_table.columnSpan(0, 0) == 1 and w.download_button.isEnabled()
    assert {m.quant for m in w.remote} == {"Q4_K_M", "Q8_0"}
    assert w.file_table.item(0, 3).text() in ("fits", "tight", "does not fit", "unknown")  # English UI
    progress = []
    w._progress.connect(progress.append)
    w.download_selected(0)
    qtbot.waitUntil(lambda: not w.downloading, timeout=30_000)
    assert "SHA-256 verified" in w.progress_label.text(), w.progress_label.text()
    assert w.last_download.verified and w.last_download.paths[0].exists()
    assert w.progress.value() == 100


def test_hub_errors_are_clear_messages(qtbot, hub):
    from logitscope.ui.models.models_window import ModelsWindow

    w = ModelsWindow(())
    qtbot.addWidget(w)
    done = []
    w.show_files("test-org/Gated-GGUF", lambda: done.append(True))
    qtbot.waitUntil(lambda: bool(done), timeout=20_000)
    w.download_selected(0)  # the listing is public, the file is not
    qtbot.waitUntil(lambda: bool(w.last_error), timeout=20_000)
    assert "gated" in w.last_error.lower() and "token" in w.last_error.lower(), w.last_error
    assert w.download_button.isEnabled()  # the page keeps working
