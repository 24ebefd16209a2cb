"""The diagnosis in the real window over the real engine: the badge under the answer, the Diagnosis dock,
the evidence marked in the chat and the timeline, and the one-click fix that makes a new version."""

from __future__ import annotations

import pytest

from tests.helpers.window import GEN_TIMEOUT_MS as BASE_TIMEOUT_MS

GEN_TIMEOUT_MS = 4 * BASE_TIMEOUT_MS   # two answers in a row on a machine shared with other test runs

pytestmark = pytest.mark.gui

LOOPING_QUESTION = "What is the capital of France?"   # the demo model loops on it at temperature 0


def kinds(diagnosis) -> list[str]:
    return [f.kind for f in diagnosis.findings] if diagnosis is not None else []


def test_loop_badge_dock_evidence_and_fix(real_window, qtbot):
    w = real_window
    w.sampler.max_tokens.setValue(64)   # the loop starts at step 23
    w.send(LOOPING_QUESTION)
    qtbot.waitUntil(lambda: not w.session.busy, timeout=GEN_TIMEOUT_MS)
    bubble = w.chat.answers[0]
    qtbot.waitUntil(lambda: bubble.badge.isVisible(), timeout=5_000)
    assert bubble.badge.property("severity") == "problem"
    assert "repetition loop" in bubble.badge.text()

    bubble.badge.click()   # the badge opens the dock on this answer
    dock, panel = w.docks["diagnosis"], w.diagnosis.panel
    qtbot.waitUntil(dock.isVisible, timeout=5_000)
    assert panel.turn_index == 0
    finding = panel.finding
    assert finding is not None and finding.kind == "loop"
    assert panel.fix_button.isEnabled()
    # at 1280x720 the findings list is as tall as its rows: the details and the fix button stay in view
    w.resize(1280, 720)
    w.reset_layout()
    dock.raise_()
    qtbot.wait(300)
    assert not panel.fix_button.visibleRegion().isEmpty() and not panel.details.visibleRegion().isEmpty()
    # the evidence: every step of the loop marked in the chat, one band on the timeline
    assert len(bubble.view.extraSelections()) == len(finding.steps)
    assert len(w.diagnosis.bands) == 1
    low, high = w.diagnosis.bands[0].getRegion()
    assert (low, high) == (finding.spans[0][0] - 0.5, finding.spans[0][1] - 0.5)

    notices: list[str] = []
    w.diagnosis.notice.connect(notices.append)
    panel.fix_button.click()   # DRY on, regenerated as a new version
    qtbot.waitUntil(lambda: w.session.busy, timeout=5_000)
    qtbot.waitUntil(lambda: not w.session.busy, timeout=GEN_TIMEOUT_MS)
    assert notices[-1] == "After the fix: the repetition loop is gone"   # the window says whether it worked
    turn = w.current.turns[0]
    assert len(turn.answers) == 2 and turn.active == 1
    new = turn.answer
    assert new is not None and new.settings["dry_multiplier"] == 0.8 and new.settings["temperature"] == 0.0
    assert w.sampler.settings().dry_multiplier == 0.8   # the controls show what the fix changed
    assert "loop" not in kinds(w.diagnosis.diagnose(new))   # the fix worked on the real model
    assert "loop" in kinds(w.diagnosis.diagnose(turn.answers[0]))   # the old version keeps its diagnosis
    bubble = w.chat.answers[0]
    assert "repetition loop" not in bubble.badge.text()


def test_clean_answer_has_a_clean_badge_and_selecting_nothing_clears_the_marks(real_window, qtbot):
    w = real_window
    w.sampler.max_tokens.setValue(48)
    w.send("Say hello.")
    qtbot.waitUntil(lambda: not w.session.busy, timeout=GEN_TIMEOUT_MS)
    bubble = w.chat.answers[0]
    qtbot.waitUntil(lambda: bubble.badge.isVisible(), timeout=5_000)
    assert bubble.badge.property("severity") == "clean"
    bubble.badge.click()
    panel = w.diagnosis.panel
    assert panel.finding is None and not panel.fix_button.isEnabled()
    assert bubble.view.extraSelections() == [] and w.diagnosis.bands == []


@pytest.mark.model
def test_stored_answers_after_a_restart_show_their_badges_and_evidence(bare_window, qtbot, tmp_path):
    """No model loaded: answers imported into the window's history (the recorded real traces) are diagnosed
    from what the store kept; the fix cannot run without a model, so its button stays off while nothing
    can generate."""
    import gzip

    from logitscope.store.exchange import import_json
    from logitscope.store.import_check import load_export
    from tests.helpers.data import DIAGNOSIS_TRACES

    w = bare_window
    export = tmp_path / "traces.json"
    export.write_bytes(gzip.decompress(DIAGNOSIS_TRACES.read_bytes()))
    import_json(w.history.store, load_export(export))
    for title, expected in (("loop:", "problem"), ("clean: haiku", "clean"), ("guessing:", "problem")):   # guessing, and cut off
        conv = next(c for c in w.history.conversations() if c.title.startswith(title))
        assert w.session.open(conv)
        w._show_conversation()
        bubble = w.chat.answers[-1]
        assert bubble.badge.isVisibleTo(bubble) and bubble.badge.property("severity") == expected, title
    bubble.badge.click()   # the guessing answer, shown last
    panel = w.diagnosis.panel
    qtbot.waitUntil(w.docks["diagnosis"].isVisible, timeout=5_000)
    assert panel.finding is not None and panel.finding.kind == "cut_off"   # the worst first: its last step
    bubble = w.chat.answers[-1]
    assert len(bubble.view.extraSelections()) == 1
    panel.findings.setCurrentRow(1)   # the guesses: each marked in the chat and on the timeline
    finding = panel.finding
    assert finding is not None and finding.kind == "guessing"
    assert len(bubble.view.extraSelections()) == len(finding.steps)
    assert [tuple(b.getRegion()) for b in w.diagnosis.bands] == [(a - 0.5, b - 0.5) for a, b in finding.spans]
    w.sidebar.switched.emit()   # another conversation on screen: the marks go with the old one
    assert w.diagnosis.bands == [] and bubble.view.extraSelections() == [] and panel.diagnosis is None


def _pick(panel, kind: str):
    """Select the finding of `kind` in the dock (its evidence marked) and return it."""
    row = next(n for n, f in enumerate(panel.diagnosis.findings) if f.kind == kind)
    panel.findings.setCurrentRow(row)
    return panel.finding


def test_off_course_fix_forks_at_the_step_with_the_models_first_choice(real_window, qtbot):
    """Sampled hot and untruncated, the sampler draws a token the model gave < 2 % while it was sure of another:
    the fix regenerates from that step with the model's first choice forced, cooler, as a new version."""
    from logitscope.protocol.sampler_settings import SamplerSettings

    w = real_window
    w.sampler.set_settings(SamplerSettings(temperature=1.5, top_k=0, top_p=1.0, min_p=0.0, seed=1))
    w.sampler.max_tokens.setValue(48)
    w.send("Say hello.")
    qtbot.waitUntil(lambda: not w.session.busy, timeout=GEN_TIMEOUT_MS)
    old = w.current.turns[0].answer
    old_tokens = [s.token for s in old.steps]
    w.chat.answers[0].badge.click()
    panel = w.diagnosis.panel
    finding = _pick(panel, "off_course")
    step, token = finding.fix.fork
    assert finding.spans[0][0] == step and old.steps[step].rank_raw >= 2   # the first stray step
    assert int(old.steps[step].raw_ids[0]) == token != old_tokens[step]   # forced: the model's first choice
    assert panel.fix_button.isEnabled()

    panel.fix_button.click()
    qtbot.waitUntil(lambda: w.session.busy, timeout=5_000)
    qtbot.waitUntil(lambda: not w.session.busy, timeout=GEN_TIMEOUT_MS)
    turn = w.current.turns[0]
    assert len(turn.answers) == 2 and turn.active == 1
    new = turn.answer
    assert new.forked_at == step
    assert [s.token for s in new.steps[:step]] == old_tokens[:step]   # the same answer up to the fork ...
    assert new.steps[step].token == token                              # ... then the model's first choice
    assert new.settings["temperature"] == 0.5 and new.settings["top_p"] == 0.9
    assert [s.token for s in turn.answers[0].steps] == old_tokens        # the old version is kept as it was
    assert "off_course" in kinds(w.diagnosis.diagnose(turn.answers[0]))
    # the fork's own steps up to the fork were copied or forced, not drawn: they are never blamed on the sampler
    assert all(s > step for f in w.diagnosis.diagnose(new).of_kind("off_course") for s in f.steps)


def test_a_fix_that_reloads_the_model_makes_the_new_version_after_the_reload(real_window, qtbot, demo_model):
    """The context (256 tokens, llama.cpp's smallest) fills while the model loops: the fix reloads the model
    with twice the context (the engine's settings say so), then regenerates; the first version stays, with its
    diagnosis."""
    from logitscope.protocol.api import LoadSettings

    w = real_window
    with qtbot.waitSignal(w.bridge.loaded, timeout=30_000):
        w.open_model(str(demo_model), LoadSettings(n_ctx=256), ask=False)
    qtbot.waitUntil(lambda: not w.bridge.busy, timeout=10_000)
    w.sampler.max_tokens.setValue(400)
    w.send(LOOPING_QUESTION)   # it loops until the context is full
    qtbot.waitUntil(lambda: not w.session.busy, timeout=2 * GEN_TIMEOUT_MS)
    old = w.current.turns[0].answer
    old_text = old.text
    w.chat.answers[0].badge.click()
    panel = w.diagnosis.panel
    finding = _pick(panel, "cut_off")
    assert "context window (256 tokens) filled up" in str(finding.text)
    assert dict(finding.fix.load) == {"n_ctx": 512}

    with qtbot.waitSignal(w.bridge.loaded, timeout=30_000):
        panel.fix_button.click()
    assert w.bridge.info.load.n_ctx == 512   # reloaded with the fix's settings
    turn = w.current.turns[0]
    qtbot.waitUntil(lambda: len(turn.answers) == 2 and len(turn.answer.steps) >= 4, timeout=GEN_TIMEOUT_MS)
    w.session.stop()   # the new version exists: no need to watch it loop again
    qtbot.waitUntil(lambda: not w.session.busy, timeout=GEN_TIMEOUT_MS)
    assert turn.active == 1 and turn.answers[0].text == old_text   # the old version is kept
    assert "cut_off" in kinds(w.diagnosis.diagnose(turn.answers[0]))
    new = turn.answer
    assert new.result is not None and new.result.kv.n_ctx == 512   # generated by the reloaded model


def test_slow_fix_loads_the_smaller_quantization_in_one_click(real_window, qtbot, demo_model, isolated_home, tmp_path):
    """The library holds a Q4_0 of the loaded Q4_1 (requantized by llama.cpp): the window finds it, and the slow
    finding's fix loads it (same load settings) and makes the new version with it; the old version stays."""
    from logitscope.diagnosis import Context, diagnose
    from logitscope.diagnosis.quants import quant_of
    from tests.helpers.quantize import quantize

    w = real_window
    smaller = quantize(demo_model, tmp_path, "Q4_0")
    (isolated_home / "models" / smaller.name).symlink_to(smaller)
    w.sampler.max_tokens.setValue(40)
    w.send(LOOPING_QUESTION)
    qtbot.waitUntil(lambda: not w.session.busy, timeout=GEN_TIMEOUT_MS)
    old, info = w.current.turns[0].answer, w.bridge.info
    qtbot.waitUntil(lambda: w.diagnosis.smaller_quant(info) is not None, timeout=30_000)   # a worker looks it up
    found = w.diagnosis.smaller_quant(info)
    assert found is not None and found.file_type == "Q4_0" and found.path.endswith(smaller.name)
    # slow against a reference three times this answer's speed (the window's own reference needs three stored
    # answers of this model at normal speed and a slow one: not something a test machine makes on demand)
    context = Context(reference_tps=old.result.timings.gen_tps * 3, load=info.load, gpu_offload=False,
                      quant=quant_of(info.card), smaller=found)
    panel = w.diagnosis.panel
    panel.show_diagnosis(diagnose(old.steps, old.result, w.bridge.vocab, context, settings=old.result.settings), 0)
    finding = _pick(panel, "slow")
    assert finding.fix.model == found.path and smaller.name in finding.text

    with qtbot.waitSignal(w.bridge.loaded, timeout=30_000):
        panel.fix_button.click()
    assert w.bridge.info.card.path == found.path and w.bridge.info.card.file_type == "Q4_0"
    assert w.bridge.info.load == info.load   # the same settings, the smaller file
    turn = w.current.turns[0]
    qtbot.waitUntil(lambda: len(turn.answers) == 2 and not w.session.busy, timeout=GEN_TIMEOUT_MS)
    assert turn.active == 1 and turn.answers[0] is old
    store = w.history.store   # each version saved with the file that wrote it
    assert store.message(turn.answer.store_id).model.file_name == smaller.name
    assert store.message(old.store_id).model.file_name == demo_model.name


def test_the_library_lookup_never_blocks_the_window_and_the_fix_appears_when_it_returns(
        real_window, qtbot, demo_model, isolated_home, tmp_path, monkeypatch):
    """The first slow answer for a file looks for a smaller quantization in the library (every header read):
    while that lookup waits, the GUI thread keeps running; when it returns, the dock's slow finding offers it."""
    import threading

    from PySide6.QtCore import QTimer

    from logitscope.ui.controllers import diagnosis as diagnosis_controller
    from tests.helpers.quantize import quantize
    from tests.helpers.window import ask

    smaller = quantize(demo_model, tmp_path, "Q4_0")
    (isolated_home / "models" / smaller.name).symlink_to(smaller)
    release, threads = threading.Event(), []
    real_lookup = diagnosis_controller.library_smaller

    def slow_lookup(card, folders=()):
        threads.append(threading.current_thread())
        release.wait(5)   # on the GUI thread (the defect) this froze the window for the whole wait
        return real_lookup(card, folders)

    monkeypatch.setattr(diagnosis_controller, "library_smaller", slow_lookup)
    # every answer is slow against this reference (the window's own needs several stored answers of the model)
    monkeypatch.setattr(diagnosis_controller, "reference_tps", lambda _store, _id: 1e9)
    w = real_window
    ask(qtbot, w, LOOPING_QUESTION, max_tokens=40)   # long enough to be judged (never ends before: it loops)
    qtbot.waitUntil(lambda: bool(threads), timeout=5_000)
    assert threads[0] is not threading.main_thread()
    ticks: list[int] = []
    timer = QTimer(interval=20)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    w.diagnosis.show_turn(0)   # the dock on the slow answer while the lookup still waits
    qtbot.wait(400)
    timer.stop()
    assert len(ticks) >= 5 and not release.is_set()   # the GUI thread ran its timer meanwhile
    slow = _pick(w.diagnosis.panel, "slow")
    assert slow.fix is None or slow.fix.model is None   # nothing to load yet

    release.set()
    qtbot.waitUntil(lambda: (f := _pick(w.diagnosis.panel, "slow")).fix is not None
                    and f.fix.model is not None, timeout=30_000)
    slow = w.diagnosis.panel.finding
    assert slow is not None and slow.kind == "slow" and slow.fix is not None
    assert slow.fix.model is not None and slow.fix.model.endswith(smaller.name) and smaller.name in slow.text
    assert len(threads) == 1   # looked up once for the loaded file


def test_a_dock_behind_another_tab_is_filled_when_it_comes_to_the_front(real_window, qtbot):
    """Filling the dock (its list, the first finding's marks in the chat and the timeline) costs ~10 ms an
    answer: behind another tab it waits, and nothing is marked that the user cannot see explained."""
    w = real_window
    w.reset_layout()   # the Diagnosis dock is a tab behind the Timeline
    dock, panel = w.docks["diagnosis"], w.diagnosis.panel
    w.docks["timeline"].raise_()
    qtbot.wait(100)
    assert dock.isVisible() and dock.visibleRegion().isEmpty()
    w.sampler.max_tokens.setValue(48)
    w.send("Say hello.")
    qtbot.waitUntil(lambda: not w.session.busy, timeout=GEN_TIMEOUT_MS)
    bubble = w.chat.answers[0]
    qtbot.waitUntil(lambda: bubble.badge.isVisible(), timeout=5_000)
    assert panel.diagnosis is None   # not filled behind the tab
    dock.raise_()
    qtbot.waitUntil(lambda: panel.diagnosis is not None, timeout=5_000)
    assert panel.turn_index == 0
