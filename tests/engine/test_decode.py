"""The recorded decoding loop on the real demo model."""

from __future__ import annotations

import numpy as np
import pytest

from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import LEGACY_ORDERS, PRESETS, SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord, pack_step, unpack_step


def run(engine, **kwargs) -> tuple[list[StepRecord], GenerationResult]:
    events = list(engine.generate(GenerateRequest(**kwargs)))
    result = events[-1]
    assert isinstance(result, GenerationResult)
    return events[:-1], result


def test_greedy_picks_the_raw_argmax_every_step(engine):
    steps, result = run(engine, prompt="The capital of France is", settings=PRESETS["Greedy"],
                        options=DecodeOptions(max_tokens=24))
    assert result.finish_reason in ("length", "stop")
    assert [s.token for s in steps] == result.tokens
    for s in steps:
        assert s.rank_raw == 0 and s.token == s.raw_ids[0]
        assert s.p == 1.0 and s.n_final == 1
    assert "Paris" in result.text


def test_same_seed_same_output_and_different_seed_differs(engine):
    settings = SamplerSettings(temperature=1.2, top_k=0, top_p=1.0, min_p=0.0, seed=1234)
    req = dict(prompt="My favourite colour is", options=DecodeOptions(max_tokens=30))
    _, a = run(engine, settings=settings, **req)
    _, b = run(engine, settings=settings, **req)
    assert a.tokens == b.tokens and a.settings["seed"] == 1234
    others = {tuple(run(engine, settings=SamplerSettings(temperature=1.2, top_k=0, top_p=1.0, min_p=0.0, seed=s),
                        **req)[1].tokens) for s in (1, 2, 3)}
    assert len(others | {tuple(a.tokens)}) > 1


def test_random_seed_is_recorded_and_replays(engine):
    _, first = run(engine, prompt="Hello", settings=SamplerSettings(temperature=1.0), options=DecodeOptions(max_tokens=20))
    seed = first.settings["seed"]
    assert isinstance(seed, int)
    _, again = run(engine, prompt="Hello", settings=SamplerSettings(temperature=1.0, seed=seed),
                   options=DecodeOptions(max_tokens=20))
    assert again.tokens == first.tokens


def test_step_records_are_consistent(engine):
    settings = SamplerSettings(temperature=0.9, top_k=40, top_p=0.9, min_p=0.05, repeat_penalty=1.1, seed=7)
    steps, result = run(engine, prompt="Write a list of fruits:", settings=settings, options=DecodeOptions(max_tokens=40))
    assert steps
    for s in steps:
        assert [st.name for st in s.stages] == ["penalties", "top_k", "top_p", "min_p", "temperature"]
        n = [st.n_out for st in s.stages]
        assert s.stages[0].n_in == 49152 and n[1] == 40 and n[2] <= 40 and n[3] <= n[2] and n[4] == n[3]
        assert n[-1] == s.n_final
        assert 0 < s.p <= 1 and 0 < s.p_raw <= 1 and 0 <= s.rank < s.n_final
        assert s.token in set(s.final_ids.tolist()) or s.rank >= len(s.final_ids)
        assert float(s.final_probs.sum()) == pytest.approx(1.0, abs=1e-3) or s.n_final > len(s.final_ids)
        raw = s.raw_probs
        assert np.all(np.diff(s.raw_logits) <= 0) and raw.sum() <= 1.0 + 1e-5
        if s.rank_raw < len(s.raw_ids):
            assert s.raw_ids[s.rank_raw] == s.token or raw[s.rank_raw] == pytest.approx(s.p_raw, rel=1e-4)
        assert s.entropy_raw > 0 and s.latency_s > 0 and s.kv_used > 0
        for st in s.stages:
            assert 0 < st.mass_kept <= 1.0
    assert result.timings.n_gen == len(steps)


def test_temperature_order_is_recorded_and_changes_the_stages(engine):
    first = SamplerSettings(temperature=1.5, top_k=0, top_p=0.9, min_p=0.0, seed=3, samplers=LEGACY_ORDERS["temperature_first"])
    steps, result = run(engine, prompt="Hi", settings=first, options=DecodeOptions(max_tokens=3))
    assert [st.name for st in steps[0].stages] == ["penalties", "temperature", "top_k", "top_p", "min_p"]
    assert tuple(result.settings["samplers"]) == LEGACY_ORDERS["temperature_first"]
    last = SamplerSettings(temperature=1.5, top_k=0, top_p=0.9, min_p=0.0, seed=3)
    steps_last, _ = run(engine, prompt="Hi", settings=last, options=DecodeOptions(max_tokens=1))
    # A hot temperature before top-p flattens the distribution, so top-p keeps more candidates.
    assert steps[0].n_final > steps_last[0].n_final


def test_max_tokens_and_eos(engine):
    _, result = run(engine, prompt="Count: 1, 2, 3,", settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=5))
    assert result.finish_reason == "length" and len(result.tokens) == 5
    steps, chat = run(engine, messages=[ChatMessage("user", "Say just: yes")], settings=PRESETS["Greedy"],
                      options=DecodeOptions(max_tokens=200))
    assert chat.finish_reason == "stop"
    assert steps[-1].token in (0, 2) and steps[-1].text == ""  # the end-of-turn token, recorded, not shown


def test_stop_sequence_spanning_tokens_is_never_emitted(engine):
    greedy = dict(prompt="The capital of France is", settings=PRESETS["Greedy"])
    steps, free = run(engine, options=DecodeOptions(max_tokens=40), **greedy)
    # choose a stop string that starts inside one token and ends inside a later one
    texts = [s.text for s in steps]
    boundary = len(texts[0]) + len(texts[1]) + len(texts[2])
    full_text = "".join(texts)
    stop = full_text[boundary - 2:boundary + 3]
    assert len(stop) == 5
    stop_at = full_text.index(stop)
    steps2, cut = run(engine, options=DecodeOptions(max_tokens=40, stop=(stop,)), **greedy)
    assert cut.finish_reason == "stop"
    assert cut.text == full_text[:stop_at]
    assert stop not in "".join(s.text for s in steps2)
    assert "".join(s.text for s in steps2) == cut.text


def test_forced_tokens_are_used_and_still_recorded(engine):
    forced = tuple(engine.tokenize(" Berlin"))
    steps, result = run(engine, prompt="The capital of France is", settings=PRESETS["Greedy"],
                        options=DecodeOptions(max_tokens=6, forced=forced))
    assert result.tokens[:len(forced)] == list(forced)
    assert result.text.startswith(" Berlin")
    assert steps[0].rank > 0 or steps[0].p == 0.0  # not what the model itself would pick
    assert steps[0].rank_raw > 0


def test_trace_is_compact_and_round_trips(engine):
    steps, _ = run(engine, prompt="Once upon a time", settings=SamplerSettings(seed=5),
                   options=DecodeOptions(max_tokens=30))
    sizes = [len(pack_step(s)) for s in steps]
    assert max(sizes) <= 2048, sizes
    for s in steps:
        back = unpack_step(pack_step(s))
        assert back.token == s.token and back.text == s.text and back.piece == s.piece
        np.testing.assert_array_equal(back.raw_ids, s.raw_ids)
        np.testing.assert_allclose(back.raw_logits, s.raw_logits)
        assert [st.name for st in back.stages] == [st.name for st in s.stages]
        assert back.p == pytest.approx(s.p) and back.kv_used == s.kv_used


@pytest.mark.model
def test_context_full_stops_with_a_notice(demo_model):
    from logitscope.engine.core import Engine
    from logitscope.protocol.api import LoadSettings

    eng = Engine()
    eng.load(demo_model, LoadSettings(n_ctx=256))
    try:
        events = list(eng.generate(GenerateRequest(prompt="1, 2, 3, 4, 5,", settings=PRESETS["Greedy"],
                                                   options=DecodeOptions(max_tokens=1000))))
        result = events[-1]
        assert result.finish_reason == "length"
        assert any("context window is full" in n for n in result.notices)
        assert result.kv.used_cells == 256
    finally:
        eng.unload()


def test_prompt_longer_than_the_context_is_a_clear_error(engine):
    from logitscope.base.errors import ContextOverflowError

    with pytest.raises(ContextOverflowError, match="tokens but the context holds 2048"):
        run(engine, prompt="word " * 3000, options=DecodeOptions(max_tokens=5))
