"""The KV cache map draws the last beam search's cells: a real 4-beam search in the real
window (engine process, demo model), then the map's beam strip is read back as drawn: its shared and one-beam
cells match the figures the search tree gives, the pixels have the legend's colours, and a prefix cell's tooltip
names every beam that holds it."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from logitscope.ui.inspector.beam_cells import ALONE_COLOR, SHARED_COLOR
from logitscope.ui.inspector.cell_strip import free_color
from tests.helpers.beams_view import SEARCH_TIMEOUT_MS

pytestmark = pytest.mark.gui


def _tree_figures(result) -> tuple[int, int]:
    """(shared, one-beam) distinct cells, from the tree alone: the prompt is held by every live beam; a generated
    token's cell by the live beams whose hypothesis contains it."""
    holders: dict[int, set[int]] = {}
    for memory in result.memory:
        for node in result.path(memory.node):
            holders.setdefault(node, set()).add(memory.seq)
    n_prompt = len(result.prompt_tokens)
    shared = (n_prompt if len(result.memory) > 1 else 0) + sum(1 for seqs in holders.values() if len(seqs) > 1)
    alone = sum(1 for seqs in holders.values() if len(seqs) == 1) + (n_prompt if len(result.memory) == 1 else 0)
    return shared, alone


def _pixel(image, strip, cell: int) -> QColor:
    center = strip._rects(cell, 1)[0].center()
    return image.pixelColor(int(center.x()), int(center.y()))


def test_the_kv_map_draws_the_cells_the_beams_share(qtbot, real_window) -> None:
    real_window.docks["memory"].show()
    real_window.docks["memory"].raise_()
    panel = real_window.memory.kv_map
    assert not panel.beams.isVisible()  # no beam search yet: no beam strip
    real_window.beams_action.trigger()
    dialog = real_window.beams_dialog
    dialog.question.setText("Name three colours.")
    dialog.beams.setValue(4)
    dialog.max_tokens.setValue(10)
    dialog.run_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=SEARCH_TIMEOUT_MS)
    result = dialog.beam_result
    assert result is not None and len(result.memory) == 4, dialog.status.text()
    qtbot.waitUntil(lambda: panel.kv is not None and bool(panel.kv.beam_cells), timeout=30_000)
    real_window.docks["memory"].raise_()
    qtbot.waitUntil(panel.beams.isVisible, timeout=5_000)

    strip = panel.beams.strip
    shared, alone = _tree_figures(result)
    assert shared > len(result.prompt_tokens) - 1 and alone >= 4  # the prompt is shared; each beam has its own
    assert (strip.count(True), strip.count(False)) == (shared, alone)
    assert shared + alone == result.steps[-1].n_cells  # the engine's own count of distinct cells
    assert strip.n_ctx == result.n_ctx and strip.free_cells() == result.n_ctx - result.steps[-1].n_cells
    assert f"{shared} cells shared by several beams" in panel.beams.summary.text()

    # drawn as counted: a prefix cell in the shared colour, a beam's own cell in the other, a free cell in neither
    qtbot.waitUntil(lambda: strip.width() > 100 and strip.height() >= strip.heightForWidth(strip.width()),
                    timeout=5_000)  # laid out once shown
    image = strip.grab().toImage()
    own = next(p.cell for p in strip.placed if len(p.run.seqs) == 1)
    assert _pixel(image, strip, 0) == QColor(SHARED_COLOR)
    assert _pixel(image, strip, own) == QColor(ALONE_COLOR)
    assert _pixel(image, strip, strip.n_ctx - 1) not in (QColor(SHARED_COLOR), QColor(ALONE_COLOR))
    assert _pixel(image, strip, strip.n_ctx - 1) == free_color(strip.palette())

    seqs = sorted(m.seq for m in result.memory)
    tip = strip.tooltip_at(0)
    assert "shared by 4 beams" in tip and f"sequences {', '.join(map(str, seqs))}" in tip, tip
    assert "one beam" in strip.tooltip_at(own) and "free" in strip.tooltip_at(strip.n_ctx - 1)
