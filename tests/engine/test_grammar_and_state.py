"""The grammar through llama.cpp's grammar sampler, the settings checks, the stateful stages inside a real
generation (records, determinism), and replaying them from a stored step."""

from __future__ import annotations

import json

import llama_cpp
import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.grammars import ready_grammar
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.sampling import stages as st
from logitscope.sampling.replay import replay_step
from tests.helpers.llama_reference import apply, assert_same, full

pytestmark = pytest.mark.model  # imports llama.cpp at its top

GREEDY = dict(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0)
ASK_JSON = [ChatMessage("user", "Describe a cat as a JSON object with its name and age.")]
SCHEMA = json.dumps({"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
                     "required": ["name", "age"], "additionalProperties": False})


def run(engine, **kwargs) -> tuple[list[StepRecord], GenerationResult]:
    events = list(engine.generate(GenerateRequest(**kwargs)))
    assert isinstance(events[-1], GenerationResult)
    return events[:-1], events[-1]


def grammar_allowed_by_llama(engine, text: str, accepted: list[int]) -> np.ndarray:
    """Which tokens llama.cpp's own grammar sampler allows after `accepted`, over the whole vocabulary."""
    rt = engine.runtime
    smpl = llama_cpp.llama_sampler_init_grammar(rt.vocab, text.encode(), b"root")
    ids, _, _ = apply(smpl, np.arange(rt.n_vocab), np.zeros(rt.n_vocab, dtype=np.float32), accept=accepted)
    return ids


def test_json_grammar_greedy_answer_parses_and_every_step_masks_what_llama_masks(engine):
    grammar = ready_grammar("json")
    steps, result = run(engine, messages=ASK_JSON, settings=SamplerSettings(**GREEDY, grammar=grammar),
                        options=DecodeOptions(max_tokens=160))
    assert result.finish_reason == "stop", result.text
    json.loads(result.text)
    for i in (0, 1, len(steps) // 2, len(steps) - 1):
        rec = steps[i].stages[0]
        assert rec.name == "grammar"
        allowed = grammar_allowed_by_llama(engine, grammar, [s.token for s in steps[:i]])
        assert rec.info["allowed"] == len(allowed) == rec.n_out < rec.n_in
        head = steps[i].raw_ids
        np.testing.assert_array_equal(np.sort(rec.removed_ids), np.sort(head[~np.isin(head, allowed)]))
        assert steps[i].token in allowed


def test_json_schema_answer_validates(engine):
    steps, result = run(engine, messages=ASK_JSON, settings=SamplerSettings(**GREEDY, json_schema=SCHEMA),
                        options=DecodeOptions(max_tokens=120))
    assert result.finish_reason == "stop", result.text
    value = json.loads(result.text)
    assert set(value) == {"name", "age"} and isinstance(value["name"], str) and isinstance(value["age"], int)
    assert all(s.stages[0].name == "grammar" for s in steps)


def test_a_fork_continues_the_grammar_from_its_prefix(engine):
    prefix = tuple(engine.tokenize('{"name": "Tom'))
    _, result = run(engine, messages=ASK_JSON, assistant_prefix=prefix,
                    settings=SamplerSettings(**GREEDY, json_schema=SCHEMA), options=DecodeOptions(max_tokens=120))
    value = json.loads('{"name": "Tom' + result.text)
    assert value["name"].startswith("Tom") and isinstance(value["age"], int)
    with pytest.raises(InvalidSettingsError, match="grammar"):
        run(engine, messages=ASK_JSON, assistant_prefix=tuple(engine.tokenize("Hello")),
            settings=SamplerSettings(**GREEDY, json_schema=SCHEMA), options=DecodeOptions(max_tokens=5))
    with pytest.raises(InvalidSettingsError, match="grammar"):
        run(engine, messages=ASK_JSON, settings=SamplerSettings(**GREEDY, json_schema=SCHEMA),
            options=DecodeOptions(max_tokens=5, forced=tuple(engine.tokenize("Hello"))))


@pytest.mark.parametrize("settings,match", [
    (SamplerSettings(grammar='root ::= "a" | ('), "does not parse: expecting '\\)' at the end of the grammar$"),
    (SamplerSettings(grammar="root ::= item\n"), "does not parse: (?i:undefined)"),
    (SamplerSettings(grammar='item ::= "a"'), "does not parse: .*root"),
    (SamplerSettings(json_schema="{not json"), "not valid JSON"),
    (SamplerSettings(logit_bias=((10**6, 1.0),)), "not in the vocabulary"),
])
def test_bad_settings_fail_before_anything_is_evaluated(engine, settings, match):
    rt = engine.runtime
    run(engine, prompt="Hello there", settings=SamplerSettings(**GREEDY), options=DecodeOptions(max_tokens=1))
    before = list(rt.tokens)
    with pytest.raises(InvalidSettingsError, match=match):
        engine.check_settings(settings)
    with pytest.raises(InvalidSettingsError, match=match):
        run(engine, prompt="Something else entirely", settings=settings, options=DecodeOptions(max_tokens=3))
    assert rt.tokens == before  # nothing was evaluated


def test_check_settings_through_the_engine_process(client):
    with pytest.raises(InvalidSettingsError, match="does not parse"):
        client.check_settings(SamplerSettings(grammar="root ::= nothing-here"))
    client.check_settings(SamplerSettings(grammar=ready_grammar("yes_no")))
    caps = client.capabilities()
    assert caps["grammar"] is True and {"dry", "xtc", "mirostat_v2", "grammar"} <= set(caps["samplers"])


def test_a_text_bias_bans_every_token_of_the_text(engine):
    prompt = "The capital of France is"
    _, plain = run(engine, prompt=prompt, settings=SamplerSettings(**GREEDY), options=DecodeOptions(max_tokens=4))
    assert "Paris" in plain.text
    steps, banned = run(engine, prompt=prompt, settings=SamplerSettings(**GREEDY, logit_bias=((" Paris", float("-inf")),)),
                        options=DecodeOptions(max_tokens=4))
    assert "Paris" not in banned.text
    assert steps[0].stages[0].name == "logit_bias" and steps[0].stages[0].n_out < steps[0].stages[0].n_in


def test_mirostat_records_its_state_step_by_step(engine):
    s = SamplerSettings(mirostat=2, mirostat_tau=4.0, mirostat_eta=0.2, temperature=0.9, seed=5)
    steps, result = run(engine, prompt="Once upon a time", settings=s, options=DecodeOptions(max_tokens=25))
    recs = [next(r for r in step.stages if r.name == "mirostat_v2") for step in steps]
    assert [step.stages[0].name for step in steps[:1]] == ["temperature"]
    assert recs[0].info["mu"] == pytest.approx(8.0)
    for a, b in zip(recs, recs[1:], strict=False):
        assert b.info["mu"] == a.info["mu_next"]
    _, again = run(engine, prompt="Once upon a time", settings=s, options=DecodeOptions(max_tokens=25))
    assert again.tokens == result.tokens
    # replay from the stored head and the recorded mu: the head's own normaliser makes each token a little
    # more likely (the tail's mass is missing), so the cut keeps at least as many, and the same best ones
    for step, rec in zip(steps, recs, strict=True):
        replay = replay_step(step, s)
        assert len(replay.ids) >= min(rec.n_out, len(step.raw_ids))
        np.testing.assert_array_equal(replay.ids[:3], step.final_ids[:3])


def test_everything_on_is_seeded_and_recorded(engine):
    s = SamplerSettings(temperature=1.0, dynatemp_range=0.5, dry_multiplier=0.8, xtc_probability=0.5,
                        xtc_threshold=0.05, typical_p=0.9, top_n_sigma=2.0, logit_bias=((13, -1.0),), seed=11,
                        repeat_penalty=1.1)
    req = dict(prompt="Repeat after me: I like apples, I like pears, I like apples, I like",
               options=DecodeOptions(max_tokens=30))
    steps, a = run(engine, settings=s, **req)
    _, b = run(engine, settings=s, **req)
    assert a.tokens == b.tokens
    names = [r.name for r in steps[0].stages]
    assert names == ["logit_bias", "penalties", "dry", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p", "xtc",
                     "temperature"]
    triggered = [next(r for r in step.stages if r.name == "xtc").info["triggered"] for step in steps]
    assert set(triggered) <= {0.0, 1.0}
    temps = [next(r for r in step.stages if r.name == "temperature").info["temperature"] for step in steps]
    assert all(0.5 <= t <= 1.5 for t in temps) and len(set(temps)) > 1
    assert any(next(r for r in step.stages if r.name == "dry").info["penalized"] > 0 for step in steps)


def test_replay_reproduces_dry_and_xtc_and_says_what_it_cannot(engine):
    s = SamplerSettings(temperature=0.8, dry_multiplier=0.8, xtc_probability=1.0, xtc_threshold=0.05, seed=3,
                        grammar="")
    prompt = engine.tokenize("Repeat after me: I like apples, I like pears, I like apples, I like", True)
    steps, result = run(engine, prompt="Repeat after me: I like apples, I like pears, I like apples, I like",
                        settings=s, options=DecodeOptions(max_tokens=12))
    vocab = engine.vocab()
    context = list(prompt)
    for step in steps:
        replay = replay_step(step, s, recent=context, vocab=vocab)
        np.testing.assert_array_equal(replay.ids[:8], step.final_ids[:8])
        np.testing.assert_allclose(replay.probs[:8], step.final_probs[:8], atol=2e-3)
        assert any("XTC" in n for n in replay.not_replayed)
        context.append(step.token)
    assert result.tokens == [s_.token for s_ in steps]


def test_replay_of_a_grammar_step_applies_its_recorded_mask(engine):
    s = SamplerSettings(temperature=0.7, top_k=20, seed=2, grammar=ready_grammar("json"))
    steps, _ = run(engine, messages=ASK_JSON, settings=s, options=DecodeOptions(max_tokens=6))
    for step in steps:
        replay = replay_step(step, s)
        assert not set(replay.ids.tolist()) & set(step.stages[0].removed_ids.tolist())
        assert any("grammar" in n for n in replay.not_replayed)
    unconstrained = replay_step(steps[0], SamplerSettings(temperature=0.7, top_k=20))
    assert unconstrained.not_replayed == [] and len(unconstrained.ids) <= 20
    assert set(unconstrained.ids.tolist()) & set(steps[0].stages[0].removed_ids.tolist())  # what the grammar kept out


def test_gemma3_262k_vocabulary_stages_and_grammar_match_llama(gemma3):
    from logitscope.engine.core import Engine

    gemma = Engine()
    try:
        gemma.load(gemma3, LoadSettings(n_ctx=512))
        rt = gemma.runtime
        assert rt.n_vocab > 260_000
        rt.sync(rt.tokenize("The three primary colours are", True, True))
        logits = rt.logits().copy()
        c = full(logits)
        for ours, smpl in [(st.typical(st.top_k(c, 100), 0.9), (llama_cpp.llama_sampler_init_typical(0.9, 0), 100)),
                           (st.top_n_sigma(c, 1.5), (llama_cpp.llama_sampler_init_top_n_sigma(1.5), 0)),
                           (st.dynamic_temperature(c, 0.8, 0.5, 1.0)[0], (llama_cpp.llama_sampler_init_temp_ext(0.8, 0.5, 1.0), 0))]:
            src = st.top_k(c, smpl[1]) if smpl[1] else c
            ids, ref_logits, _ = apply(smpl[0], src.ids.astype(np.int64), src.logits)
            assert_same(ours, ids, ref_logits, rtol=1e-5)
        grammar = ready_grammar("json")
        steps, result = run(gemma, messages=ASK_JSON, settings=SamplerSettings(**GREEDY, grammar=grammar),
                            options=DecodeOptions(max_tokens=60))
        for i in (0, len(steps) - 1):
            allowed = grammar_allowed_by_llama(gemma, grammar, [s.token for s in steps[:i]])
            assert steps[i].stages[0].info["allowed"] == len(allowed)
        if result.finish_reason == "stop":
            json.loads(result.text)
    finally:
        gemma.unload()


def test_the_grammar_is_freed_at_the_end_on_cancel_and_when_abandoned(engine, monkeypatch):
    from logitscope.engine import grammar as grammar_module

    freed: list[int] = []
    original = grammar_module.Grammar.close

    def counting_close(self):
        if self._handle:
            freed.append(1)
        original(self)

    monkeypatch.setattr(grammar_module.Grammar, "close", counting_close)
    s = SamplerSettings(**GREEDY, grammar=ready_grammar("json"))
    run(engine, messages=ASK_JSON, settings=s, options=DecodeOptions(max_tokens=3))
    assert len(freed) == 1
    calls = iter(range(100))
    result = list(engine.generate(GenerateRequest(messages=ASK_JSON, settings=s),
                                  should_cancel=lambda: next(calls) >= 2))[-1]
    assert isinstance(result, GenerationResult) and result.finish_reason == "cancelled" and len(freed) == 2
    gen = engine.generate(GenerateRequest(messages=ASK_JSON, settings=s, options=DecodeOptions(max_tokens=50)))
    next(gen)
    gen.close()  # the caller stopped reading
    assert len(freed) == 3
