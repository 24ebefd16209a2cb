"""The samplers in the window: the engine's verdict on a grammar beside the control and a refused send, the
waterfall's new stages in the order applied with their info, the distribution's masked tokens, the chat's
validity mark, the preview saying what it cannot replay.

The scripted engine replays answers recorded from the real demo model; `stages` adds the records of the
new stages to each step (what the engine records for them, StageRecord.info / removed_ids)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.grammars import ready_grammar
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import GenerationResult, KvInfo, StageRecord, StepRecord, Timings
from logitscope.sampling.replay import Replay
from logitscope.session.conversation import Answer, Turn
from logitscope.ui.chat.output_check import check_output
from logitscope.ui.inspector.state import StepView
from tests.helpers.window import ask

BAD_GRAMMAR = 'root ::= "yes" | undefined-rule'
BAD_REASON = "the grammar does not parse: expecting name at line 1"


def _stage(name: str, n_in: int, n_out: int, step: StepRecord, info: dict[str, float] | None = None,
           removed: list[int] | None = None, mass: float = 1.0) -> StageRecord:
    return StageRecord(name, n_in, n_out, mass, step.raw_ids[:4].astype(np.int32), np.full(4, 0.25, np.float32),
                       info or {}, np.asarray(removed or [], dtype=np.int32))


def with_new_stages(step: StepRecord) -> StepRecord:
    """The step as a chain with logit bias, grammar, DRY, XTC and dynamic temperature would record it."""
    n = step.stages[0].n_in
    raw = step.raw_ids.tolist()
    stages = [_stage("logit_bias", n, n, step), _stage("grammar", n, 1200, step, {"allowed": 1200.0}, raw[1:3], 0.4),
              replace(step.stages[0], n_in=1200, n_out=1200),
              _stage("dry", 1200, 1200, step, {"penalized": 3.0}),
              _stage("top_k", 1200, 40, step, mass=0.9),
              _stage("xtc", 40, 37, step, {"triggered": 1.0}, raw[3:4], 0.5),
              _stage("temperature", 37, 37, step, {"temperature": 0.73})]
    return replace(step, stages=stages)


def with_mirostat(step: StepRecord) -> StepRecord:
    n = step.stages[0].n_in
    return replace(step, stages=[_stage("temperature", n, n, step),
                                 _stage("mirostat_v2", n, 12, step, {"mu": 10.0, "mu_next": 9.62}, mass=0.8)])


@pytest.fixture
def scripted(scripted_window):
    return scripted_window.bridge.local


def test_a_grammar_the_engine_refuses_is_shown_beside_it_and_not_sent(qtbot, scripted_window, scripted):
    w = scripted_window
    scripted.refuse[BAD_GRAMMAR] = InvalidSettingsError(BAD_REASON)
    box = w.sampler.constraint
    w.sampler.sections["constraint"].expand()
    box.mode.setCurrentIndex(box.mode.findData("custom"))
    box.text.setPlainText(BAD_GRAMMAR)
    qtbot.waitUntil(lambda: box.problem.isVisible(), timeout=5_000)
    assert box.problem.text() == "T" + BAD_REASON[1:]  # shown on its own: a sentence
    assert any(s.grammar == BAD_GRAMMAR for s in scripted.checked)   # asked through the engine, off the GUI thread
    status = []
    w.statusMessage.connect(status.append)
    turns, requests = len(w.current.turns), len(scripted.requests)
    w.send("Answer yes or no.")
    assert len(w.current.turns) == turns and len(scripted.requests) == requests   # refused: nothing was sent
    assert status and status[-1].startswith("Not sent") and BAD_REASON in status[-1]
    box.text.setPlainText('root ::= "yes" | "no"')   # fixed: the line goes, the send goes through
    qtbot.waitUntil(lambda: not box.problem.isVisible(), timeout=5_000)
    ask(qtbot, w, "Answer yes or no.", max_tokens=4)
    assert scripted.requests[-1].settings.grammar == 'root ::= "yes" | "no"'


def test_the_engine_refusing_at_generate_also_shows_beside_the_control(qtbot, scripted_window, scripted):
    w = scripted_window
    scripted.refuse["7"] = InvalidSettingsError("logit bias: token 7 is not in the vocabulary")
    w.sampler.bias.add_row(7, -1.0)
    with qtbot.waitSignal(w.bridge.generationFailed, timeout=10_000):   # sent before the check answered
        w.send("Hi")
    qtbot.waitUntil(lambda: w.sampler.bias.problem.isVisible(), timeout=5_000)
    assert "not in the vocabulary" in w.sampler.bias.problem.text()
    assert w.sampler.sections["bias"].expanded


def test_the_waterfall_shows_the_new_stages_in_order_with_their_info(qtbot, scripted_window, scripted):
    w = scripted_window
    scripted.stages = with_new_stages
    answer = ask(qtbot, w, "Say hi.", max_tokens=4)
    w.select_step(len(w.current.turns) - 1, 1)
    ticks = [name.strip() for _x, name in w.waterfall.counts.getAxis("bottom")._tickLevels[0]]
    assert ticks == ["vocabulary", "logit bias", "grammar", "penalties", "DRY", "top-k", "XTC", "temperature"]
    assert list(w.waterfall.count_bars.opts["x"]) == list(range(8))
    caption = w.waterfall.caption.text()
    assert "as recorded" in caption and "Chain: logit bias → grammar → penalties → DRY → top-k → XTC → temperature" in caption
    info = w.waterfall.info.text()
    assert info == ("the grammar allowed 1,200 tokens · DRY penalized 3 tokens · XTC removed the top choices · "
                    "dynamic temperature T = 0.73")
    assert w.waterfall.info.isVisible()
    # the distribution marks what the grammar masked and XTC removed among the tokens the model wanted
    step = answer.steps[1]
    rows = w.distribution.model.rows
    assert [r.removed_by for r in rows[:4]] == ["", "grammar", "grammar", "xtc"]
    assert w.distribution.model.data(w.distribution.model.index(1, 1)).startswith("⊘")
    assert "grammar does not allow" in w.distribution.model.data(w.distribution.model.index(1, 1), 3)
    assert "masked by the grammar" in w.distribution.legend.text() and "removed by XTC" in w.distribution.legend.text()
    assert step.stages[1].info["allowed"] == 1200


def test_mirostat_shows_its_mu_for_the_step(qtbot, scripted_window, scripted):
    w = scripted_window
    scripted.stages = with_mirostat
    ask(qtbot, w, "Say hi.", max_tokens=3)
    w.select_step(len(w.current.turns) - 1, 0)
    assert w.waterfall.info.text() == "Mirostat 2: μ 10.00 → 9.62"
    assert "Chain: temperature → Mirostat 2" in w.waterfall.caption.text()


def test_the_preview_says_what_it_cannot_replay(qtbot, scripted_window):
    w = scripted_window
    answer = ask(qtbot, w, "Say hi.", max_tokens=3)
    step = answer.steps[0]
    replay = Replay(step.final_ids, step.final_probs, step.stages, 0.0)
    replay.not_replayed = [Message("a changed grammar cannot be replayed from the stored head")]  # type: ignore[attr-defined]
    view = StepView(step, answer.settings, SamplerSettings(temperature=1.0), [], _replay=replay)
    w.waterfall.show_step(view)
    w.distribution.show_step(view)
    assert "not replayed: a changed grammar cannot be replayed from the stored head" in w.waterfall.info.text()
    assert "not replayed: a changed grammar" in w.distribution.caption.text()
    # nothing left to replay (the grammar allows none of the stored head): said, with the reason
    empty = Replay(np.empty(0, np.int32), np.empty(0, np.float32), [], 0.0)
    empty.not_replayed = [Message("the grammar allows none of the stored head's tokens")]  # type: ignore[attr-defined]
    w.waterfall.show_step(StepView(step, answer.settings, SamplerSettings(temperature=1.0), [], _replay=empty))
    assert "no candidate is left to preview" in w.waterfall.caption.text()
    assert "not replayed: the grammar allows none of the stored head's tokens" in w.waterfall.info.text()
    # a stage the replay refuses: said plainly, the recorded step shown
    failing = StepView(step, answer.settings, SamplerSettings(temperature=1.0), [])
    failing.preview_error = Message("the {name} sampler is not available yet", name="dry")
    w.waterfall.show_step(failing)
    assert "could not be computed: the dry sampler is not available yet" in w.waterfall.info.text()


def _answer(settings: dict[str, object], text: str, finish: str = "stop") -> Turn:
    result = GenerationResult(text=text, tokens=[], finish_reason=finish, timings=Timings(n_gen=3),
                              kv=KvInfo(2048, 10, 23040.0, 0), settings=settings, prompt_tokens=[])
    return Turn("q", [Answer(settings=settings, result=result, status="done")], 0)


SCHEMA = '{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}'


@pytest.mark.parametrize(("settings", "text", "finish", "mark"), [
    ({"json_schema": SCHEMA}, '{"n": 3}', "stop", "✓ valid JSON, matches the schema"),
    ({"json_schema": SCHEMA}, '{"n": "three"}', "stop", "✗ does not match the schema: 'three' is not of type 'integer'"),
    ({"grammar": ready_grammar("json")}, '{"a": [1, 2]}', "stop", "✓ valid JSON"),
    ({"grammar": ready_grammar("json")}, '{"a": [1, ', "length", "✗ cut off before the grammar was complete"),
    ({"grammar": ready_grammar("yes_no")}, "yes", "stop", "✓ complete under the grammar"),
    ({}, "anything", "stop", None),
])
def test_the_chat_marks_an_answer_under_a_grammar_or_schema(qtbot, settings, text, finish, mark):
    from logitscope.ui.chat.chat_view import AnswerBubble

    bubble = AnswerBubble(_answer(settings, text, finish), lambda _answer: [], False, "probability", False)
    qtbot.addWidget(bubble)
    status = bubble.status.text()
    if mark is None:
        assert "✓" not in status and "✗" not in status and check_output(settings, text, finish) is None
    else:
        assert status.startswith(mark), status


def test_a_schema_that_is_no_schema_is_said_so():
    verdict = check_output({"json_schema": '{"type": 12}'}, "{}", "stop")
    assert verdict is not None and verdict.kind == "bad_schema" and not verdict.ok


def test_a_real_window_sends_the_chain_the_controls_show(qtbot, real_window):
    """The real engine process: the reordered chain and the new settings travel with the request and are
    recorded with the answer (stages the engine does not apply yet stay off here)."""
    settings = SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0,
                               samplers=("temperature", "min_p", "top_k", "penalties"), seed=3)
    real_window.sampler.set_settings(settings)
    answer = ask(qtbot, real_window, "Name a colour.", max_tokens=4)
    assert tuple(answer.settings["samplers"]) == settings.samplers
    real_window.select_step(len(real_window.current.turns) - 1, 0)
    ticks = [name.strip() for _x, name in real_window.waterfall.counts.getAxis("bottom")._tickLevels[0]]
    assert ticks == ["vocabulary", "temperature", "min-p", "top-k", "penalties"]


def test_the_real_engine_refuses_a_bad_grammar_beside_the_control_and_the_send(qtbot, real_window):
    box = real_window.sampler.constraint
    box.mode.setCurrentIndex(box.mode.findData("custom"))
    box.text.setPlainText(BAD_GRAMMAR)
    qtbot.waitUntil(lambda: not box.problem.isHidden(), timeout=20_000)   # its section may be folded
    assert "grammar" in box.problem.text().lower(), box.problem.text()
    turns = len(real_window.current.turns)
    real_window.send("Answer yes or no.")
    assert len(real_window.current.turns) == turns
    real_window.sampler.set_settings(SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0, json_schema=SCHEMA))
    qtbot.waitUntil(lambda: box.problem.isHidden(), timeout=20_000)
    answer = ask(qtbot, real_window, "Give a number n as JSON.", max_tokens=40)
    bubble = real_window.chat.answers[-1]
    assert answer.result.finish_reason == "stop", answer.text
    assert bubble.status.text().startswith("✓ valid JSON, matches the schema"), (answer.text, bubble.status.text())
    real_window.select_step(len(real_window.current.turns) - 1, 0)
    assert "the grammar allowed" in real_window.waterfall.info.text()
