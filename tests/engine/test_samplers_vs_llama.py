"""The stages beyond the classic five (DRY, XTC, typical-p, top-n-sigma, Mirostat, ...), each against
llama.cpp's own sampler of the same name on real logits of the
demo model and of Gemma 3 (a 262k-token vocabulary): survivors and probabilities, stage by stage;
the stateful ones (Mirostat's mu, DRY's history) over a whole generation."""

from __future__ import annotations

import ctypes
import math

import llama_cpp
import numpy as np
import pytest

from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.sampling import stages as st
from logitscope.sampling.dry import build_breakers, dry
from logitscope.sampling.sampler import mirostat_update, run_stages, stage_functions
from logitscope.sampling.sampler_state import SamplerState
from tests.helpers.llama_reference import apply, assert_same, full, read_mu

pytestmark = pytest.mark.model  # imports llama.cpp at its top

PROMPTS = ["The capital of France is", "def fibonacci(n):", "Once upon a time, there was a", "1, 2, 3, 4,"]


@pytest.fixture(scope="module")
def real_logits(engine) -> list[np.ndarray]:
    rt = engine.runtime
    out = []
    for prompt in PROMPTS:
        rt.sync(rt.tokenize(prompt, True, True))
        out.append(rt.logits().copy())
    return out


def every_input(logits: np.ndarray) -> list[st.Candidates]:
    """The whole vocabulary, and the 40 best (where these stages sit in llama.cpp's default chain)."""
    return [full(logits), st.top_k(full(logits), 40)]


def ref(smpl, c: st.Candidates, accept=()) -> tuple[np.ndarray, np.ndarray]:
    ids, logits, _ = apply(smpl, c.ids.astype(np.int64), c.logits, accept)
    return ids, logits


@pytest.mark.parametrize("p", [0.2, 0.5, 0.9, 0.95])
def test_typical(real_logits, p):
    for logits in real_logits:
        for c in every_input(logits):
            assert_same(st.typical(c, p), *ref(llama_cpp.llama_sampler_init_typical(p, 0), c))


@pytest.mark.parametrize("n", [0.5, 1.0, 2.0, 3.0])
def test_top_n_sigma(real_logits, n):
    for logits in real_logits:
        for c in every_input(logits):
            assert_same(st.top_n_sigma(c, n), *ref(llama_cpp.llama_sampler_init_top_n_sigma(n), c))


@pytest.mark.parametrize("t,delta,exponent", [(0.8, 0.5, 1.0), (1.0, 1.0, 2.0), (0.3, 0.5, 0.5), (1.2, 0.3, 1.0)])
def test_dynamic_temperature(real_logits, t, delta, exponent):
    for logits in real_logits:
        for c in every_input(logits):
            ours, used = st.dynamic_temperature(c, t, delta, exponent)
            assert max(0.0, t - delta) <= used <= t + delta
            assert_same(ours, *ref(llama_cpp.llama_sampler_init_temp_ext(t, delta, exponent), c), rtol=1e-5)


@pytest.mark.parametrize("threshold,min_keep", [(0.05, 0), (0.1, 0), (0.3, 0), (0.02, 0), (0.05, 30)])
def test_xtc_always(real_logits, threshold, min_keep):
    """Probability 1: llama.cpp cuts every time; so does our stage once its draw says so."""
    cut_somewhere = False
    for logits in real_logits:
        for c in every_input(logits):
            ours = st.xtc(c, threshold, min_keep, True)
            cut_somewhere |= len(ours) < len(c)
            assert_same(ours, *ref(llama_cpp.llama_sampler_init_xtc(1.0, threshold, min_keep, 7), c))
    assert cut_somewhere or min_keep > 0 or threshold > 0.05  # two tokens above 5 % happen in these prompts


def test_xtc_never_and_off(real_logits):
    c = full(real_logits[0])
    for p, threshold in [(0.0, 0.1), (1.0, 0.6)]:
        s = SamplerSettings(xtc_probability=p, xtc_threshold=threshold)
        after, records = run_stages(c, s, [])
        assert "xtc" not in [r.name for r in records]
        assert_same(st.xtc(c, threshold, 0, p > 0 and threshold <= 0.5),
                    *ref(llama_cpp.llama_sampler_init_xtc(p, threshold, 0, 7), c))


def test_xtc_draws_once_per_step_with_the_generation_rng(real_logits):
    s = SamplerSettings(xtc_probability=0.5, xtc_threshold=0.05, top_k=40)
    outcomes = []
    for seed in range(40):
        state = SamplerState(np.random.default_rng(seed))
        _, records = run_stages(full(real_logits[0]), s, [], state=state)
        rec = next(r for r in records if r.name == "xtc")
        # the same draw, made by hand from the same seed
        assert rec.info["triggered"] == float(np.random.default_rng(seed).random() <= 0.5)
        outcomes.append(rec.info["triggered"])
        if rec.info["triggered"]:
            assert rec.n_out < rec.n_in and len(rec.removed_ids) > 0
    assert 5 < sum(outcomes) < 35


def test_logit_bias(real_logits):
    ids = np.array([0, 5, 5, 1000, 49151, 198], dtype=np.int64)
    biases = np.array([3.0, -2.0, -1.5, 10.0, -math.inf, -math.inf], dtype=np.float32)
    arr = (llama_cpp.llama_logit_bias * len(ids))(*[llama_cpp.llama_logit_bias(int(t), float(b)) for t, b in zip(ids, biases, strict=True)])
    for logits in real_logits:
        for c in every_input(logits):
            smpl = llama_cpp.llama_sampler_init_logit_bias(len(logits), len(ids), arr)
            ours = st.logit_bias(c, ids, biases)
            assert_same(ours, *ref(smpl, c))
            assert 198 not in ours.ids and 49151 not in ours.ids


def test_mirostat_over_a_whole_generation(engine):
    """llama.cpp's Mirostat picks its own tokens; ours truncates the same way at every step and, given llama.cpp's
    pick, updates mu to the same value (read from llama.cpp's sampler state)."""
    rt = engine.runtime
    for v2, tau, eta, temp in [(False, 5.0, 0.1, 0.8), (True, 5.0, 0.1, 0.8), (True, 3.0, 0.3, 1.0), (False, 2.0, 0.2, 1.0)]:
        smpl = (llama_cpp.llama_sampler_init_mirostat_v2(42, tau, eta) if v2
                else llama_cpp.llama_sampler_init_mirostat(rt.n_vocab, 42, tau, eta, 100))
        mu = 2 * tau
        assert read_mu(smpl, v2) == pytest.approx(mu)
        rt.sync(rt.tokenize("Once upon a time, in a small village by the sea,", True, True))
        mus = []
        for _ in range(30):
            c = st.temperature(full(rt.logits()), temp)
            ours = st.mirostat_v2(c, mu) if v2 else st.mirostat_v1(c, mu, rt.n_vocab)
            ids, logits, selected = apply(smpl, c.ids.astype(np.int64), c.logits, free=False)
            assert abs(len(ours) - len(ids)) <= max(1, len(ids) // 100), (len(ours), len(ids))  # float32 k rounding
            if len(ours) == len(ids):
                assert_same(ours, ids, logits)
            token = int(ids[selected])
            p = math.exp(float(logits[selected]) - float(np.logaddexp.reduce(logits.astype(np.float64))))
            mu = mirostat_update(mu, p, tau, eta)
            assert mu == pytest.approx(read_mu(smpl, v2), abs=1e-4)
            mus.append(mu)
            rt.eval([token])
        llama_cpp.llama_sampler_free(smpl)
        assert len(set(np.round(mus, 4))) > 5  # mu moved


@pytest.fixture(scope="module")
def pieces(engine) -> list[bytes]:
    return [engine.runtime.piece(t) for t in range(engine.runtime.n_vocab)]


@pytest.fixture(scope="module")
def looping_history(engine) -> np.ndarray:
    """A real repeating context: the demo model's greedy continuation, which loops ("I like pears, I like
    apples, I like pears, ...")."""
    rt = engine.runtime
    tokens = rt.tokenize("Repeat after me: I like apples, I like pears, I like apples, I like", True, True)
    rt.sync(tokens)
    out = list(tokens)
    for _ in range(80):
        t = int(np.argmax(rt.logits()))
        out.append(t)
        rt.eval([t])
    return np.array(out, dtype=np.int64)


@pytest.mark.parametrize("multiplier,base,allowed,last_n,breakers", [
    (0.8, 1.75, 2, 64, ("\n", ":", "\"", "*")),
    (0.8, 1.75, 2, -1, ()),
    (1.5, 1.1, 3, 40, ("\n",)),
    (0.5, 2.0, 1, 200, ("olo", ", ")),   # breakers longer than one byte: tails through the tokenizer
    (0.8, 1.75, 2, 0, ("\n",)),          # off
])
def test_dry_on_a_real_repeating_history(engine, pieces, looping_history, multiplier, base, allowed, last_n, breakers):
    rt = engine.runtime
    processed = build_breakers(breakers, pieces, lambda text: rt.tokenize(text, False, False))
    penalised = 0
    for end in (30, 55, 70, len(looping_history)):
        history = looping_history[:end]
        rt.sync(history.tolist())
        logits = rt.logits().copy()
        window = history[-(len(history) if last_n < 0 else last_n):] if last_n else history[:0]
        n = len(history) if last_n < 0 else last_n  # llama.cpp has no -1: it scans what it is given
        c_breakers = [b.encode() for b in breakers]
        arr = ctypes_char_p_array(c_breakers)
        smpl = llama_cpp.llama_sampler_init_dry(rt.vocab, multiplier, base, allowed, n, arr, len(c_breakers))
        for c in every_input(logits):
            ours, count = dry(c, window, multiplier, base, allowed, processed) if last_n else (c, 0)
            ids, ref_logits, _ = apply(smpl, c.ids.astype(np.int64), c.logits, accept=history if c.full else (), free=False)
            assert_same(ours, ids, ref_logits)
            penalised += count
        llama_cpp.llama_sampler_free(smpl)
    assert (penalised > 0) == (last_n != 0)


def ctypes_char_p_array(items: list[bytes]):
    return (ctypes.c_char_p * max(len(items), 1))(*items)


def test_dry_stage_through_the_pipeline_records_what_it_penalised(engine, pieces, looping_history):
    rt = engine.runtime
    rt.sync(looping_history.tolist())
    s = SamplerSettings(dry_multiplier=0.8, dry_penalty_last_n=-1, temperature=0)
    state = SamplerState(np.random.default_rng(0), rt.n_vocab)
    state.dry_breakers = build_breakers(s.dry_sequence_breakers, pieces, lambda text: rt.tokenize(text, False, False))
    _, records = run_stages(full(rt.logits()), s, looping_history, state=state)
    rec = next(r for r in records if r.name == "dry")
    assert rec.info["penalized"] > 0 and rec.n_out == rec.n_in


def test_the_default_chain_with_everything_on_matches_llama_stage_by_stage(engine, pieces, looping_history):
    """Every stage on, in llama.cpp's default order (logit bias first): ours and llama.cpp's, each applied to
    the previous stage's llama.cpp output."""
    rt = engine.runtime
    bias = ((198, -math.inf), (13, 2.0))
    s = SamplerSettings(temperature=0.9, top_k=60, top_p=0.95, min_p=0.02, repeat_penalty=1.1, repeat_last_n=32,
                        frequency_penalty=0.05, presence_penalty=0.05, dry_multiplier=0.8, dry_penalty_last_n=64,
                        xtc_probability=1.0, xtc_threshold=0.05, typical_p=0.95, top_n_sigma=3.0,
                        dynatemp_range=0.4, logit_bias=bias)
    breakers = build_breakers(s.dry_sequence_breakers, pieces, lambda text: rt.tokenize(text, False, False))
    arr = (llama_cpp.llama_logit_bias * 2)(*[llama_cpp.llama_logit_bias(t, b) for t, b in bias])
    c_breakers = [b.encode() for b in s.dry_sequence_breakers]
    for end in (40, len(looping_history)):
        history = looping_history[:end]
        rt.sync(history.tolist())
        logits = rt.logits().copy()
        state = SamplerState(np.random.default_rng(0), rt.n_vocab, bias_ids=np.array([198, 13]),
                             bias_values=np.array([-math.inf, 2.0], dtype=np.float32), dry_breakers=breakers)
        funcs = stage_functions(s, history, state)
        ours = full(logits)
        ids, ref_logits = np.arange(len(logits)), logits.copy()
        names = [n for n in s.chain() if n != "grammar"]
        assert names == ["logit_bias", "penalties", "dry", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p", "xtc",
                         "temperature"]
        for name in names:
            ours = funcs[name](ours)
            smpl, accept = {
                "logit_bias": (lambda: llama_cpp.llama_sampler_init_logit_bias(rt.n_vocab, 2, arr), ()),
                "penalties": (lambda: llama_cpp.llama_sampler_init_penalties(rt.n_vocab, 32, 1.1, 0.05, 0.05), history[-32:]),
                "dry": (lambda: llama_cpp.llama_sampler_init_dry(rt.vocab, 0.8, 1.75, 2, 64, ctypes_char_p_array(c_breakers),
                                                                 len(c_breakers)), history),
                "top_n_sigma": (lambda: llama_cpp.llama_sampler_init_top_n_sigma(3.0), ()),
                "top_k": (lambda: llama_cpp.llama_sampler_init_top_k(60), ()),
                "typ_p": (lambda: llama_cpp.llama_sampler_init_typical(0.95, 0), ()),
                "top_p": (lambda: llama_cpp.llama_sampler_init_top_p(0.95, 0), ()),
                "min_p": (lambda: llama_cpp.llama_sampler_init_min_p(0.02, 0), ()),
                "xtc": (lambda: llama_cpp.llama_sampler_init_xtc(1.0, 0.05, 0, 1), ()),
                "temperature": (lambda: llama_cpp.llama_sampler_init_temp_ext(0.9, 0.4, 1.0), ()),
            }[name]
            ids, ref_logits, _ = apply(smpl(), ids, ref_logits, accept=accept)
            assert_same(ours, ids, ref_logits, rtol=1e-5)
