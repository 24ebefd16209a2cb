"""The diagnosis on REAL traces of the demo model (tests/data/diagnosis_traces.json.gz, recorded by
scripts/record_diagnosis_traces.py through the history store): each problem case shows its finding, and
no clean answer shows any (false positives matter more than misses)."""

from __future__ import annotations

import gzip
import math
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from logitscope.base.messages import Message
from logitscope.diagnosis import Context, diagnose
from logitscope.diagnosis.checks import longest_repeat, notice_pattern
from logitscope.diagnosis.stored import DiagnosedAnswer, diagnose_export, diagnose_message
from logitscope.diagnosis.thresholds import LOOP_MIN_TOKENS, SLOW_MIN_TOKENS
from logitscope.protocol.api import DecodeOptions, LoadSettings
from logitscope.protocol.notices import CONTEXT_FULL_NOTICE, TRIMMED_NOTICE
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.store.exchange import import_json
from logitscope.store.history import HistoryStore
from logitscope.store.import_check import load_export
from logitscope.store.results import stored_result
from logitscope.store.traces import PieceVocab
from tests.helpers.data import DIAGNOSIS_TRACES


@pytest.fixture(scope="module")
def export_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("diagnosis") / "traces.json"
    path.write_bytes(gzip.decompress(DIAGNOSIS_TRACES.read_bytes()))
    return path


@pytest.fixture(scope="module")
def answers(export_file) -> dict[str, DiagnosedAnswer]:
    return {a.title: a for a in diagnose_export(export_file)}


def cases(answers: dict[str, DiagnosedAnswer], prefix: str) -> list[DiagnosedAnswer]:
    found = [a for title, a in answers.items() if title.startswith(prefix)]
    assert found, f"no recorded case {prefix!r}"
    return found


def kinds(a: DiagnosedAnswer) -> list[str]:
    return [f.kind for f in a.diagnosis.findings]


def test_clean_answers_have_no_finding(answers):
    clean = cases(answers, "clean:")
    assert len(clean) >= 8
    for a in clean:
        assert a.diagnosis.findings == (), (a.title, a.message.content, [str(f.text) for f in a.diagnosis.findings])


def test_greedy_loop_is_found_with_its_span_and_fix(answers):
    (a,) = cases(answers, "loop:")
    (loop,) = a.diagnosis.of_kind("loop")
    assert loop.severity == "problem"
    (start, end), = loop.spans
    assert end - start >= LOOP_MIN_TOKENS and end == a.diagnosis.n_steps  # it ran to the end ...
    assert "cut_off" not in kinds(a)   # ... so the loop, not max tokens, is the cause
    assert "the model was sure of each repeated token" in loop.text
    assert loop.fix is not None and dict(loop.fix.sampler) == {"dry_multiplier": 0.8}
    fixed = loop.fix.sampler_settings(SamplerSettings(temperature=0.0))
    assert fixed.dry_multiplier == 0.8 and fixed.temperature == 0.0
    fixed.validate()


def test_made_up_facts_are_guesses(answers):
    (a,) = cases(answers, "guessing:")
    (guess,) = a.diagnosis.of_kind("guessing")
    assert guess.severity == "warning" and len(guess.steps) >= 2
    steps = {s for s in guess.steps}
    assert all(0 <= i < a.diagnosis.n_steps for i in steps)
    assert guess.fix is None  # greedy already: nothing a setting changes


def test_guesses_are_quoted_as_whole_words_not_token_pieces(store):
    """The uncertain tokens are often pieces of a word (" Cit" of "Cité", " Sh" of "Shakespeares"): the text
    quotes the words that hold them, as they stand in the answer."""
    expected = {"loop:": ["Cité", "Nation", "Géologie", "Culture", "Femme"],
                "guessing:": ["Shakespeares", "Globe", "King's"]}
    for prefix, words in expected.items():
        steps, result, vocab = trace(store, prefix)
        (guess,) = diagnose(steps, result, vocab).of_kind("guessing")
        quoted = re.findall(r'"([^"]+)"', guess.text[guess.text.index("rivals ("):])
        assert quoted == words, (prefix, guess.text)
        for word in quoted:   # each a whole word of the answer: no word character on either side
            assert re.search(rf"(?<![\w'’-]){re.escape(word)}(?!\w|['’-]\w)", result.text), word
        tokens = [steps[i].text.strip() for i in guess.steps]
        assert any(t not in words for t in tokens), tokens   # some were pieces, merged into their word


def test_answer_at_max_tokens_is_cut_off(answers):
    (a,) = cases(answers, "cut_off:")
    (cut,) = a.diagnosis.of_kind("cut_off")
    assert cut.spans == ((a.diagnosis.n_steps - 1, a.diagnosis.n_steps),)
    assert cut.fix is not None and dict(cut.fix.decode) == {"max_tokens": 80}
    assert cut.fix.decode_options(DecodeOptions(max_tokens=40)).max_tokens == 80


def test_full_context_is_cut_off_with_a_larger_context(answers):
    (a,) = cases(answers, "context_full:")
    (cut,) = a.diagnosis.of_kind("cut_off")
    assert "context window" in cut.text
    # 160 asked for, 256 given (llama.cpp's minimum): the notice names the real size, the fix doubles it
    assert "(256 tokens)" in cut.text
    assert cut.fix is not None and cut.fix.needs_reload and dict(cut.fix.load) == {"n_ctx": 512}
    assert cut.fix.load_settings(LoadSettings(n_ctx=256)).n_ctx == 512


def test_hot_sampling_is_off_course_with_a_fork_at_the_first_stray(answers):
    (a,) = cases(answers, "off_course:")
    (off,) = a.diagnosis.of_kind("off_course")
    first = off.spans[0][0]
    assert off.fix is not None and off.fix.fork is not None and off.fix.fork[0] == first
    assert dict(off.fix.sampler) == {"temperature": 0.5, "top_p": 0.9}


def test_turn_header_in_a_raw_answer_is_a_missed_end_of_turn(answers):
    (a,) = cases(answers, "stop_missed:")
    (missed,) = a.diagnosis.of_kind("stop_missed")
    assert missed.fix is not None and dict(missed.fix.decode)["stop"][-1] in ("User:", "Assistant:")


def test_trimmed_conversation(answers):
    (a,) = cases(answers, "trimmed:")
    (trimmed,) = a.diagnosis.of_kind("trimmed")
    assert trimmed.fix is not None and dict(trimmed.fix.load) == {"n_ctx": 512}


def test_notice_patterns_read_the_engines_own_notices():
    text = Message(TRIMMED_NOTICE, n_ctx=256, trimmed=3)
    m = notice_pattern(TRIMMED_NOTICE).search(str(text))
    assert m is not None and (m["n_ctx"], m["trimmed"]) == ("256", "3")
    assert notice_pattern(CONTEXT_FULL_NOTICE).search(str(Message(CONTEXT_FULL_NOTICE, n_ctx=160)))


def test_stored_answers_after_a_restart_give_the_same_diagnosis(export_file, answers, tmp_path):
    db = tmp_path / "history.sqlite3"
    with HistoryStore(db) as store:
        import_json(store, load_export(export_file))
    with HistoryStore(db, read_only=True) as store:   # a new process reading what an earlier one saved
        for conv in store.list_conversations():
            for m in store.active_path(conv.id):
                if m.role == "assistant" and m.n_steps:
                    again = diagnose_message(store, m.id, judge_speed=False)   # as explain FILE
                    assert [f.kind for f in again.findings] == kinds(answers[conv.title]), conv.title


def test_a_stored_fork_is_not_blamed_for_the_steps_it_was_given(export_file, tmp_path):
    """A fork's steps up to where it left its source were copied or forced, not drawn: read back from the
    history, it is diagnosed knowing that, as the window's fresh fork is."""
    with HistoryStore(tmp_path / "history.sqlite3") as store:
        import_json(store, load_export(export_file))
        m = answer_message(store, "off_course:")
        (off,) = diagnose_message(store, m.id, judge_speed=False).of_kind("off_course")
        last_stray = max(off.steps)
        store.connection.execute("UPDATE messages SET forked_at = ?, prefix_steps = ? WHERE id = ?",
                                 (last_stray, last_stray, m.id))
        assert diagnose_message(store, m.id, judge_speed=False).of_kind("off_course") == []


def test_remote_trace_without_probabilities_skips_those_checks_and_says_so(store):
    """As a server without probabilities reports it: NaN and -1, no ids, the bytes in the step."""
    steps, result, _vocab = trace(store, "loop:")
    remote = [replace(s, token=-1, p_raw=math.nan, rank_raw=-1, entropy_raw=math.nan, p=math.nan, rank=-1,
                      raw_ids=np.empty(0, np.int32), raw_logits=np.empty(0, np.float32), stages=[],
                      raw_pieces=[], final_pieces=[]) for s in steps]
    assert result is not None
    d = diagnose(remote, replace(result, timings=replace(result.timings, gen_s=math.nan)), None)
    assert [f.kind for f in d.findings] == ["loop"]   # found from the tokens' bytes
    assert "was sure" not in d.findings[0].text
    assert any("no raw probability or entropy" in s for s in d.skipped)
    assert any("no generation time" in s for s in d.skipped)


def test_unfinished_answer_says_what_was_not_checked(store):
    steps, result, vocab = trace(store, "cut_off:")
    d = diagnose(steps, None, vocab)
    assert "cut_off" not in [f.kind for f in d.findings]
    assert any("did not finish" in s for s in d.skipped)


def test_slow_against_this_machines_reference(store):
    steps, result, vocab = trace(store, "cut_off:")
    assert result is not None and len(steps) >= SLOW_MIN_TOKENS
    tps, load = result.timings.gen_tps, LoadSettings()
    same = diagnose(steps, result, vocab, Context(reference_tps=tps, load=load, gpu_offload=True))
    assert same.of_kind("slow") == []
    slow = diagnose(steps, result, vocab, Context(reference_tps=tps * 3, load=load, gpu_offload=True))
    (finding,) = slow.of_kind("slow")
    assert finding.fix is not None and dict(finding.fix.load) == {"n_gpu_layers": -1}
    cpu = diagnose(steps, result, vocab, Context(reference_tps=tps * 3, load=load, gpu_offload=False))
    fix = cpu.of_kind("slow")[0].fix
    assert fix is not None and dict(fix.load) == {"type_k": "q8_0", "type_v": "q8_0", "flash_attn": True}
    fix.load_settings(load).validate()
    unknown = diagnose(steps, result, vocab)   # no reference: speed is not judged, and that is said
    assert unknown.of_kind("slow") == [] and any("speed" in s for s in unknown.skipped)
    short, short_result, _ = trace(store, "clean: arithmetic")   # 12 tokens: too few to judge
    assert diagnose(short, short_result, None, Context(reference_tps=1e6)).of_kind("slow") == []


def test_loop_search_finds_the_smallest_period_and_ignores_short_repeats():
    keys = np.array([1, 2, 3] + [7, 8] * 20 + [4])
    assert longest_repeat(keys) == (3, 43, 2)
    assert longest_repeat(np.array([1, 2, 3, 4] * 5)) is None   # 20 tokens: below LOOP_MIN_TOKENS
    assert longest_repeat(np.arange(500)) is None


@pytest.fixture(scope="module")
def store(export_file, tmp_path_factory):
    with HistoryStore(tmp_path_factory.mktemp("store") / "history.sqlite3") as s:
        import_json(s, load_export(export_file))
        yield s


def answer_message(store: HistoryStore, prefix: str):
    conv = next(c for c in store.list_conversations() if c.title.startswith(prefix))
    return store.active_path(conv.id)[-1]


def trace(store: HistoryStore, prefix: str):
    m = answer_message(store, prefix)
    steps, pieces = store.load_trace(m.id)
    return steps, stored_result(m, steps), PieceVocab(pieces)
