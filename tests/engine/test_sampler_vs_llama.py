"""Each numpy sampler stage against llama.cpp's own sampler of the same name, on real logits.

For every stage we build the same candidates twice: as our Candidates and as a llama_token_data_array,
apply our stage and `llama_sampler_apply`, and compare the survivors and their probabilities.
"""

from __future__ import annotations

import ctypes
import math

import llama_cpp
import numpy as np
import pytest

from logitscope.protocol.sampler_settings import LEGACY_ORDERS, SamplerSettings, is_on
from logitscope.sampling import sampler as S
from logitscope.sampling import stages

pytestmark = pytest.mark.model  # imports llama.cpp at its top

PROMPTS = ["The capital of France is", "def fibonacci(n):", "Once upon a time, there was a", "1, 2, 3, 4,"]


@pytest.fixture(scope="module")
def real_logits(engine) -> list[tuple[np.ndarray, np.ndarray]]:
    """(logits, recent context tokens) after a few real prompts."""
    rt = engine.runtime
    out = []
    for prompt in PROMPTS:
        tokens = rt.tokenize(prompt, True, True)
        rt.sync(tokens)
        out.append((rt.logits().copy(), np.array(tokens, dtype=np.int32)))
    return out


def llama_apply(smpl, ids: np.ndarray, logits: np.ndarray, accept: list[int] = ()) -> tuple[np.ndarray, np.ndarray]:
    n = len(ids)
    data = (llama_cpp.llama_token_data * n)()
    for i in range(n):
        data[i].id, data[i].logit, data[i].p = int(ids[i]), float(logits[i]), 0.0
    arr = llama_cpp.llama_token_data_array(data, n, -1, False)
    for tok in accept:
        llama_cpp.llama_sampler_accept(smpl, int(tok))
    llama_cpp.llama_sampler_apply(smpl, ctypes.byref(arr))
    llama_cpp.llama_sampler_free(smpl)
    size = arr.size
    out_ids = np.array([data[i].id for i in range(size)], dtype=np.int64)
    out_logits = np.array([data[i].logit for i in range(size)], dtype=np.float32)
    finite = np.isfinite(out_logits)  # temperature 0 marks the losers with -inf instead of removing them
    return out_ids[finite], out_logits[finite]


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x.astype(np.float64) - x.max())
    return e / e.sum()


def assert_same(ours: stages.Candidates, ref_ids: np.ndarray, ref_logits: np.ndarray) -> None:
    assert len(ours) == len(ref_ids), f"{len(ours)} survivors vs llama.cpp's {len(ref_ids)}"
    a = np.argsort(ours.ids)
    b = np.argsort(ref_ids)
    np.testing.assert_array_equal(ours.ids[a], ref_ids[b])
    np.testing.assert_allclose(ours.logits[a], ref_logits[b], rtol=1e-6, atol=1e-5)
    np.testing.assert_allclose(softmax(ours.logits[a]), softmax(ref_logits[b]), atol=1e-6)


def full(logits: np.ndarray) -> stages.Candidates:
    return stages.Candidates(np.arange(len(logits), dtype=np.int32), logits.copy(), False, True)


@pytest.mark.parametrize("k", [1, 5, 40, 300, 0])
def test_top_k(real_logits, k):
    for logits, _ in real_logits:
        ours = stages.top_k(full(logits), k)
        assert_same(ours, *llama_apply(llama_cpp.llama_sampler_init_top_k(k), np.arange(len(logits)), logits))


@pytest.mark.parametrize("p", [0.05, 0.5, 0.9, 0.95, 0.999, 1.0])
def test_top_p_on_full_vocabulary(real_logits, p):
    for logits, _ in real_logits:
        ours = stages.top_p(full(logits), p)
        assert_same(ours, *llama_apply(llama_cpp.llama_sampler_init_top_p(p, 1), np.arange(len(logits)), logits))


@pytest.mark.parametrize("p,min_keep", [(0.05, 1), (0.5, 1), (0.9, 1), (0.95, 1), (0.999, 1), (0.5, 12),
                                        (0.95, 0), (0.999, 40)])
def test_top_p_on_the_sorted_head(real_logits, p, min_keep):
    # after top-k (the default chain) the candidates are sorted and top-p takes a bisection of their running sum
    for logits, _ in real_logits:
        head = stages.top_k(full(logits), 40)
        ours = stages.top_p(head, p, min_keep)
        assert ours.sorted
        assert_same(ours, *llama_apply(llama_cpp.llama_sampler_init_top_p(p, min_keep), head.ids, head.logits))
        unsorted = stages.Candidates(head.ids[::-1].copy(), head.logits[::-1].copy())  # the general path
        np.testing.assert_array_equal(ours.ids, stages.top_p(unsorted, p, min_keep).ids)


@pytest.mark.parametrize("p", [0.0, 0.01, 0.05, 0.2, 0.9])
def test_min_p(real_logits, p):
    for logits, _ in real_logits:
        ours = stages.min_p(full(logits), p)
        assert_same(ours, *llama_apply(llama_cpp.llama_sampler_init_min_p(p, 1), np.arange(len(logits)), logits))


@pytest.mark.parametrize("t", [0.0, 0.3, 1.0, 1.7])
def test_temperature(real_logits, t):
    for logits, _ in real_logits:
        ours = stages.temperature(full(logits), t)
        assert_same(ours, *llama_apply(llama_cpp.llama_sampler_init_temp(t), np.arange(len(logits)), logits))


@pytest.mark.parametrize("repeat,freq,present,last_n", [
    (1.3, 0.0, 0.0, 64), (0.8, 0.0, 0.0, 64), (1.1, 0.5, 0.3, 8), (1.0, 0.2, 0.0, 3), (1.5, 0.0, 1.0, 0)])
def test_penalties(real_logits, repeat, freq, present, last_n):
    for logits, recent in real_logits:
        window = recent[-last_n:] if last_n else recent[:0]
        # Count repeats too: the window holds a token twice in one of the prompts.
        window = np.concatenate([window, window[-2:]]) if last_n > 4 else window
        ours = stages.penalties(full(logits), window[-last_n:] if last_n else window, repeat, freq, present)
        smpl = llama_cpp.llama_sampler_init_penalties(len(logits), last_n, repeat, freq, present)
        assert_same(ours, *llama_apply(smpl, np.arange(len(logits)), logits, accept=list(window)))


@pytest.mark.parametrize("order", list(LEGACY_ORDERS))
def test_whole_chain_stage_by_stage(real_logits, order):
    """Run our pipeline and llama.cpp's samplers one after the other on llama.cpp's own output."""
    settings = SamplerSettings(temperature=0.7, top_k=30, top_p=0.9, min_p=0.03, repeat_penalty=1.2,
                                 repeat_last_n=16, frequency_penalty=0.1, presence_penalty=0.1, samplers=LEGACY_ORDERS[order])
    for logits, recent in real_logits:
        n_vocab = len(logits)
        window = recent[-settings.repeat_last_n:]
        funcs = S.stage_functions(settings, window)
        ours = full(logits)
        ref_ids, ref_logits = np.arange(len(logits)), logits.copy()
        for name in (n for n in LEGACY_ORDERS[order] if is_on(n, settings)):
            ours = funcs[name](ours)
            smpl = {
                "penalties": lambda: llama_cpp.llama_sampler_init_penalties(n_vocab, 16, 1.2, 0.1, 0.1),  # noqa: B023
                "top_k": lambda: llama_cpp.llama_sampler_init_top_k(30),
                "top_p": lambda: llama_cpp.llama_sampler_init_top_p(0.9, 1),
                "min_p": lambda: llama_cpp.llama_sampler_init_min_p(0.03, 1),
                "temperature": lambda: llama_cpp.llama_sampler_init_temp(0.7),
            }[name]()
            ref_ids, ref_logits = llama_apply(smpl, ref_ids, ref_logits, accept=list(window) if name == "penalties" else [])
            assert_same(ours, ref_ids, ref_logits)


def test_top_indices_matches_a_full_sort(real_logits):
    for logits, _ in real_logits:
        for k in (1, 10, 128, 3000):
            np.testing.assert_array_equal(np.sort(logits[stages.top_indices(logits, k)])[::-1],
                                          np.sort(logits)[::-1][:k])



def test_top_indices_stays_exact_on_flat_peaked_and_spread_distributions(real_logits):
    # the threshold comes from a strided sample: a head far ahead of a sample that misses it, a flat
    # distribution where thousands tie near the top, NaN in the sample (falls back to the full sort)
    rng = np.random.default_rng(7)
    flat = rng.normal(0.0, 0.3, 49152).astype(np.float32)   # every value within a small gap of the top
    peaked = flat.copy()
    peaked[rng.choice(49152, 5, replace=False) | 1] += 30.0  # a few far ahead of the rest, none sampled
    spread = (rng.standard_normal(49152) * 12).astype(np.float32)
    ties = np.round(spread / 8).astype(np.float32)            # a few distinct values: big ties at the cut
    sequence = [flat, peaked, spread, ties, *(logits for logits, _ in real_logits), peaked, flat, spread]
    for logits in sequence:
        for k in (8, 128, 3000):  # best first
            np.testing.assert_array_equal(logits[stages.top_indices(logits, k)], np.sort(logits)[::-1][:k])
    nan_sampled = spread.copy()
    nan_sampled[::16] = np.nan
    best = stages.top_indices(nan_sampled, 128)
    np.testing.assert_array_equal(nan_sampled[best], np.sort(nan_sampled[~np.isnan(nan_sampled)])[::-1][:128])


def test_softmax_kernel_is_llama_cpps_and_agrees_with_numpy(real_logits):
    """The raw distribution's statistics come from ggml-cpu's vectorised softmax (found in this build), the
    same as numpy's float32 within rounding; odd lengths use its scalar tail; -inf weighs nothing, NaN
    poisons the statistics as numpy's do."""
    from logitscope.engine.softmax_kernel import GGML_SOFT_MAX, exp_sum, softmax_stats

    assert GGML_SOFT_MAX is not None
    for logits, _ in real_logits:
        for x in (logits, logits[:12345].copy()):
            ours, theirs = np.empty_like(x), np.empty_like(x)
            top, lse, entropy = softmax_stats(x, ours)
            np_top, np_lse, np_entropy = softmax_stats(x, theirs, use_ggml=False)
            x64 = x.astype(np.float64)
            e64 = np.exp(x64 - x64.max())
            assert top == np_top == float(x.max())
            assert abs(lse - (x64.max() + np.log(e64.sum()))) < 1e-6
            assert abs(lse - np_lse) < 1e-6 and abs(entropy - np_entropy) < 1e-3
            np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-30)
    masked = np.array([0.0, -np.inf, 1.0] * 7, dtype=np.float32)
    out = np.empty_like(masked)
    assert exp_sum(masked, 1.0, out) == pytest.approx(7 * (1 + math.exp(-1)), rel=1e-6)
    assert out[1] == 0.0
    poisoned = masked.copy()
    poisoned[4] = np.nan
    assert all(math.isnan(v) for v in softmax_stats(poisoned, out))


def test_settings_validation():
    bad = [dict(temperature=-0.1), dict(top_p=0.0), dict(top_p=1.5), dict(min_p=-0.1), dict(top_k=-1),
           dict(repeat_penalty=0.0), dict(repeat_last_n=-1), dict(samplers=("sideways",)), dict(temperature=float("nan"))]
    for kwargs in bad:
        with pytest.raises(ValueError):
            SamplerSettings(**kwargs).validate()
    SamplerSettings().validate()
