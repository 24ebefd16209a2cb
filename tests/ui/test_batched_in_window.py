"""Regenerate xN in the real window, on the real engine (demo model): the Regenerate arrow's entry decodes the
versions together, each is a version to flip through with its own seed, and the KV cache map shows the prompt's
cells once and each answer's own."""

from __future__ import annotations

import pytest

from logitscope.protocol.sampler_settings import SamplerSettings

pytestmark = pytest.mark.model


def test_regenerate_two_versions_at_once_from_the_answer_s_menu(qtbot, real_window) -> None:
    w = real_window
    w.sampler.set_settings(SamplerSettings(temperature=0.9, seed=5))
    w.docks["memory"].show()
    w.docks["memory"].raise_()
    with qtbot.waitSignal(w.session.answerEnded, timeout=60_000):
        w.send("Name a colour.")
    bubble = w.chat.answers[0]
    many = next(a for a in bubble.regenerate_menu.actions() if a.text() == "2 versions at once")
    notices: list[str] = []
    w.session.notice.connect(notices.append)
    with qtbot.waitSignal(w.session.answerEnded, timeout=60_000):
        many.trigger()
    turn = w.current.turns[0]
    assert len(turn.answers) == 3 and turn.active == 1
    first, second = turn.answers[1:]
    assert first.status == second.status == "done" and first.steps and second.steps
    assert second.settings["seed"] == first.settings["seed"] + 1
    assert any(n.startswith("2 answers in") and "decoded together" in n for n in notices), notices
    w.switch_branch(0, 2)
    assert w.current.turns[0].answer is second
    # the map: the prompt's cells once, shared by both, then each answer's own
    kv_map = w.memory.kv_map
    qtbot.waitUntil(lambda: kv_map.kv is not None and bool(kv_map.kv.beam_cells), timeout=30_000)
    runs = kv_map.kv.beam_cells
    assert runs[0].seqs == (0, 1) and all(len(r.seqs) == 1 for r in runs[1:])
    assert "shared by all 2 answers" in kv_map.beams.summary.text()
    assert "answers decoded together" in kv_map.beams.title.text()
    # the engine's own cache still holds the version asked before the batch (a batch has a context of its own):
    # its map is that version's, and a batch version's strip is not that map under its name
    w.switch_branch(0, 0)
    qtbot.waitUntil(lambda: bool(kv_map.strip.runs), timeout=30_000)
    assert "not in the engine's KV cache" not in kv_map.summary.text()
    assert sum(r.count for r in kv_map.strip.runs) == turn.answers[0].result.kv.used_cells
    w.switch_branch(0, 1)
    qtbot.waitUntil(lambda: not kv_map.strip.runs, timeout=30_000)
    assert "decoded in one batch" in kv_map.summary.text() and kv_map.kv is not None and kv_map.kv.beam_cells
    assert kv_map.cache_part.isHidden() and not kv_map.beams.isHidden()   # the batch's cells, not an empty strip
    w.switch_branch(0, 0)
    assert not kv_map.cache_part.isHidden()
