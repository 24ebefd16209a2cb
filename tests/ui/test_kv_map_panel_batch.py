"""The KV map panel and the versions of a batch (Regenerate ×N): a batch version never shows an earlier
request's batch or beam cells as its own, says when its cells come, and shows them when they came."""

from __future__ import annotations

import pytest

from logitscope.protocol.beams import BeamCellRun
from logitscope.protocol.kv_map import SHARED_BY_ANSWERS, KvCell, KvMap
from logitscope.ui.inspector.kv_map import KvMapPanel

pytestmark = pytest.mark.gui


def kv_map(batch: list[BeamCellRun]) -> KvMap:
    return KvMap(n_ctx=256, runs=[KvCell(0, 40, "answer", False)], n_reused=0, n_evaluated=40, bytes_per_cell=1024,
                 bytes_per_cell_by_layer=[32] * 32, beam_cells=batch, beam_n_ctx=512 if batch else 0,
                 shared_by=SHARED_BY_ANSWERS)


def test_a_batch_version_shows_its_own_batchs_cells_never_an_earlier_ones(qtbot):
    panel = KvMapPanel()
    qtbot.addWidget(panel)
    first = [BeamCellRun(0, 20, (0, 1)), BeamCellRun(20, 5, (0,)), BeamCellRun(25, 5, (1,))]
    panel.set_map(kv_map(first))                              # after a first Regenerate ×2
    panel.show_cached(False, True, in_batch=True)
    assert panel.kv is not None and panel.kv.beam_cells == first
    panel.batch_started()                                     # a second batch: the first's cells are not its own
    panel.show_cached(False, True, in_batch=True)
    assert panel.kv is None and "shown when the batch ends" in panel.summary.text()
    assert not panel.cache_part.isHidden()
    panel.set_map(kv_map([]))                                 # stopped before its first step: no cells at all
    assert panel.kv is None and "not in the engine's KV cache" in panel.summary.text()
    second = [BeamCellRun(0, 20, (0, 1, 2)), BeamCellRun(20, 3, (0,))]
    panel.set_map(kv_map(second))
    assert panel.kv is not None and panel.kv.beam_cells == second and panel.cache_part.isHidden()
    panel.show_cached(True)                                   # the version the engine's own cache holds
    assert not panel.cache_part.isHidden() and panel.strip.runs == panel.kv.runs
