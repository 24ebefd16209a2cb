"""Issue 31 on REAL traces of the demo model (tests/data/diagnosis_traces.json.gz): a short answer that opens
on a long shot is a guess, a confident right one is not; a loop's fix is replayed over the loop's recorded
steps before it is offered (DRY as it is cannot break a list whose items start with its breaker "*"), and
one real-engine test that the offered fix breaks that loop."""

from __future__ import annotations

import gzip
from dataclasses import replace

import numpy as np
import pytest

from logitscope.cli.explain import diagnosis_json
from logitscope.diagnosis import Context, diagnose
from logitscope.diagnosis.checks import longest_repeat, token_keys
from logitscope.diagnosis.fix_check import first_change
from logitscope.diagnosis.thresholds import OPENING_FIX_TEMPERATURE, OPENING_ODDS
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import DRY_BREAKERS, SamplerSettings
from logitscope.protocol.trace import GenerationResult
from logitscope.store.exchange import import_json
from logitscope.store.history import HistoryStore
from logitscope.store.import_check import load_export
from logitscope.store.results import stored_result
from logitscope.store.traces import PieceVocab
from tests.helpers.data import DIAGNOSIS_TRACES


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fix_check")
    export = folder / "traces.json"
    export.write_bytes(gzip.decompress(DIAGNOSIS_TRACES.read_bytes()))
    with HistoryStore(folder / "history.sqlite3") as s:
        import_json(s, load_export(export))
        yield s


def recorded(store: HistoryStore, prefix: str):
    conv = next(c for c in store.list_conversations() if c.title.startswith(prefix))
    m = store.active_path(conv.id)[-1]
    steps, pieces = store.load_trace(m.id)
    return steps, stored_result(m, steps), PieceVocab(pieces), dict(m.sampler or {})


def kinds(diagnosis) -> list[str]:
    return [f.kind for f in diagnosis.findings]


# -- a long-shot opening ---------------------------------------------------------------------------------

def test_a_short_answer_opening_on_a_long_shot_is_a_guess(store):
    """"Estée Lauder, the capital of France, is Bastia." at the default settings: "Est" drawn 7th (p 0.04)
    where "L", "The", "La" were likelier, then "ée" 4th: the finding names them, their p, rank and rivals."""
    steps, result, vocab, settings = recorded(store, "guessed_opening:")
    assert settings["temperature"] == 0.8 and result.finish_reason == "stop" and len(steps) < 20
    (guess,) = diagnose(steps, result, vocab).of_kind("guessing")
    assert guess.severity == "warning" and guess.steps == [0, 1]
    assert '"Est" (p 0.04, rank 7; more likely: "L" 0.15, "The" 0.14, "La" 0.11)' in guess.text
    assert '"ée" (p 0.05, rank 4;' in guess.text and 'opening "Estée Lauder, the"' in guess.text
    odds = float(guess.text.split(" times less likely")[0].rsplit(" ", 1)[1])
    assert odds >= OPENING_ODDS
    assert guess.fix is not None and dict(guess.fix.sampler) == {"temperature": 0.0}
    # the two one-click fixes: greedy, or (greedy may loop on a small model) a lower temperature
    (cooler,) = guess.other_fixes
    assert dict(cooler.sampler) == {"temperature": OPENING_FIX_TEMPERATURE} and "0.3" in str(cooler.label)
    entry = diagnosis_json(diagnose(steps, result, vocab))["findings"][0]
    assert entry["other_fixes"][0]["options"] == "--temperature 0.3"


def test_a_confident_right_answer_at_the_same_settings_is_not_a_guess(store):
    """"The capital of France is Paris.": "The" was drawn 2nd (p 0.14, the first 0.15) from the same flat
    first step, then the model was sure: no finding."""
    steps, result, vocab, settings = recorded(store, "clean: France at the default settings")
    assert "Paris" in result.text and settings["temperature"] == 0.8 and steps[0].rank_raw == 1
    assert diagnose(steps, result, vocab).findings == ()


def test_the_opening_of_a_fork_was_forced_not_drawn(store):
    steps, result, vocab, _settings = recorded(store, "guessed_opening:")
    assert "guessing" not in kinds(diagnose(steps, result, vocab, Context(forked_at=1)))


# -- a loop's fix, checked ---------------------------------------------------------------------------------

def test_replaying_the_answers_own_settings_changes_no_greedy_step(store):
    """The check is only as good as the replay: the settings the answer was made with (greedy, DRY 0.8 with
    its default breakers) must give back every recorded token, the loop's included."""
    steps, result, vocab, settings = recorded(store, "dry_loop:")
    assert settings["dry_multiplier"] == 0.8 and tuple(settings["dry_sequence_breakers"]) == DRY_BREAKERS
    assert first_change(steps, (0, len(steps)), settings, vocab=vocab) is None


def test_dry_with_a_breaker_inside_the_repeat_is_not_offered_and_a_fix_that_works_is(store):
    """"List colors." greedy with DRY 0.8 loops: every item starts with "*", a sequence breaker, so DRY never
    sees a repeat longer than an item. The fix offered drops the breakers in the block and is shown to change
    a step of the loop."""
    steps, result, vocab, settings = recorded(store, "dry_loop:")
    (loop,) = diagnose(steps, result, vocab).of_kind("loop")
    assert loop.fix is not None
    fixed = dict(loop.fix.sampler)
    assert fixed["dry_multiplier"] == 0.8 and set(fixed["dry_sequence_breakers"]) == set(DRY_BREAKERS) - {"\n", "*"}
    assert "checked on the recorded steps: the fix makes step" in loop.text
    start, end = loop.spans[0]
    change = first_change(steps, (start, end), {**settings, **fixed}, vocab=vocab)
    assert change is not None and start <= change.step < end and change.now != change.was
    SamplerSettings.from_dict({**settings, **fixed})   # a valid setting


def test_plain_dry_that_cannot_help_is_said_to_fail_and_the_next_fix_is_offered(store):
    """The same loop made without DRY: DRY as it is would change nothing, and the text says so."""
    steps, result, vocab, settings = recorded(store, "dry_loop:")
    off = {**settings, "dry_multiplier": 0.0}
    (loop,) = diagnose(steps, replace(result, settings=off), vocab, settings=off).of_kind("loop")
    assert ("turn on DRY (multiplier 0.8), which penalizes repeating a sequence would not change any step of "
            "the loop") in loop.text
    assert loop.fix is not None and dict(loop.fix.sampler)["dry_sequence_breakers"]


def test_a_loop_no_fix_can_change_gets_no_fix_and_says_why(store):
    """Heads cut to the looping token alone: no setting can put another token first."""
    steps, result, vocab, _settings = recorded(store, "dry_loop:")
    alone = [replace(s, raw_ids=s.raw_ids[:1], raw_logits=s.raw_logits[:1]) for s in steps]
    (loop,) = diagnose(alone, result, vocab).of_kind("loop")
    assert loop.fix is None and "no fix is offered: none of these would change a recorded step" in loop.text


def test_a_trace_without_token_ids_offers_the_fix_unchecked(store):
    steps, result, vocab, _settings = recorded(store, "loop:")
    remote = [replace(s, token=-1, raw_ids=np.full_like(s.raw_ids, -1)) for s in steps]
    (loop,) = diagnose(remote, result, vocab).of_kind("loop")
    assert loop.fix is not None and "the fix could not be checked on the recorded steps" in loop.text


def test_the_greedy_france_loop_keeps_dry_and_says_where_it_acts(store):
    steps, result, vocab, _settings = recorded(store, "loop:")
    (loop,) = diagnose(steps, result, vocab).of_kind("loop")
    assert loop.fix is not None and dict(loop.fix.sampler) == {"dry_multiplier": 0.8}
    assert "checked on the recorded steps" in loop.text


# -- the real engine ----------------------------------------------------------------------------------------

def _generate(engine, settings: SamplerSettings) -> tuple[list, GenerationResult]:
    request = GenerateRequest(messages=[ChatMessage("user", "List colors.")], settings=settings,
                              options=DecodeOptions(max_tokens=200))
    steps, result = [], None
    for item in engine.generate(request):
        if isinstance(item, GenerationResult):
            result = item
        else:
            steps.append(item)
    assert result is not None
    return steps, result


def test_the_offered_fix_breaks_the_list_colors_loop_on_the_real_model(engine):
    settings = SamplerSettings(temperature=0.0, dry_multiplier=0.8)
    steps, result = _generate(engine, settings)
    vocab = engine.vocab()
    (loop,) = diagnose(steps, result, vocab).of_kind("loop")
    assert loop.fix is not None and "dry_sequence_breakers" in dict(loop.fix.sampler)
    new_steps, new_result = _generate(engine, loop.fix.sampler_settings(settings))
    assert new_result.text != result.text
    assert "loop" not in kinds(diagnose(new_steps, new_result, vocab))
    assert longest_repeat(token_keys(new_steps)) is None
