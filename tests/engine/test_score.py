"""Scoring a text on the real demo model: the batched scores agree with what token-by-token
generation saw, the numbers are consistent with each other, the sliding window and the chunked protocol score
what they say they score, and bad requests get one clear error."""

from __future__ import annotations

import math

import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError, UnsupportedByServerError
from logitscope.protocol.api import DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.score import (
    RANK_BUCKET_NAMES,
    ScoreRequest,
    ScoreResult,
    rank_bucket,
    summary_to_json,
    token_to_json,
    window_stride,
)
from logitscope.protocol.trace import GenerationResult, StepRecord

TEXT = ("The old lighthouse keeper climbed the stairs every evening at dusk. He lit the lamp, wound the clock, "
        "and wrote one line in the logbook: the weather, the ships he saw, and whether the gulls were quiet. "
        "In forty years he never missed a night.")


def _generate(engine, settings: SamplerSettings, n: int) -> tuple[list[int], list[StepRecord]]:
    request = GenerateRequest(prompt="Once upon a time, in a small village by the sea,", settings=settings,
                              options=DecodeOptions(max_tokens=n))
    prompt = engine.prepare(request)[0]
    events = list(engine.generate(request))
    assert isinstance(events[-1], GenerationResult)
    return prompt, [e for e in events if isinstance(e, StepRecord)]


@pytest.mark.parametrize("settings", [SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0),
                                      SamplerSettings(temperature=1.5, top_k=0, top_p=1.0, min_p=0.0, seed=7)],
                         ids=["greedy", "sampled"])
def test_scores_agree_with_token_by_token_generation(engine, settings: SamplerSettings) -> None:
    """Generation evaluates the prompt in one batch, then one token at a time; scoring evaluates them all in
    one batch. llama.cpp computes a batch with other kernels than a single token, and the small differences in
    the cached keys and values add up along a generated answer. Measured on the demo model: the scorer gives
    exactly what the generation context gives for the same tokens evaluated as one batch, the first generated
    token (predicted from the batched prompt) exactly what generation saw, and later tokens differ from the
    step-by-step numbers by up to ~0.1 in probability (mean |d logprob| about 0.05 over 16 tokens)."""
    prompt, steps = _generate(engine, settings, 16)
    tokens = prompt + [s.token for s in steps]
    result = engine.score(ScoreRequest(tokens=tuple(tokens), n_ctx=256))
    assert [t.token for t in result.tokens] == tokens
    rt = engine.runtime
    ranks_seen, diffs = set(), []
    for k, step in enumerate(steps):
        n = len(prompt) + k
        scored = result.tokens[n]
        assert scored.scored and scored.n_context == n
        rt.truncate(0)  # the generation context, evaluating the same tokens in one batch
        rt.sync(tokens[:n])
        x = rt.logits().astype(np.float64)
        lse = x.max() + math.log(np.exp(x - x.max()).sum())
        assert scored.logprob == pytest.approx(x[tokens[n]] - lse, abs=1e-3), k
        assert scored.entropy == pytest.approx(lse - float(np.exp(x - lse) @ x), abs=1e-3), k
        assert scored.rank == int(np.count_nonzero(x > x[tokens[n]])), k
        # against the step-by-step numbers generation recorded
        assert scored.p == pytest.approx(step.p_raw, abs=0.12), k
        assert abs(scored.rank - step.rank_raw) <= (1 if step.p_raw > 0.1 else 3 + step.rank_raw // 3), k
        diffs.append(abs(scored.logprob - math.log(step.p_raw)))
        ranks_seen.add(step.rank_raw)
    rt.truncate(0)
    assert diffs[0] < 1e-4  # predicted from the prompt, which generation evaluated as one batch too
    assert sum(diffs) / len(diffs) < 0.1
    if settings.temperature > 1:
        assert max(ranks_seen) > 0  # the sampled case really compares tokens that were not the top choice


def _check_consistent(result: ScoreResult, n_vocab: int) -> None:
    scored = result.scored
    assert scored
    for t in scored:
        assert 0 <= t.rank < n_vocab
        assert 0 <= t.entropy <= math.log(n_vocab) + 1e-6
        assert t.logprob <= 0 and t.p == pytest.approx(math.exp(t.logprob))
        lps = t.top_logprobs.astype(np.float64)
        assert np.all(np.diff(lps) <= 1e-7), "alternatives best first"
        assert np.exp(lps).sum() <= 1 + 1e-5
        # the rank is the number of tokens more likely than the actual one: visible among the alternatives
        above = int(np.count_nonzero(lps > t.logprob + 1e-5))
        if t.rank < len(lps):
            assert abs(above - t.rank) <= 1
            assert t.top_ids[t.rank] == t.token or abs(float(lps[t.rank]) - t.logprob) < 1e-4
        else:
            assert above == len(lps) and t.token not in t.top_ids
        assert rank_bucket(t.rank) == sum(t.rank >= b for b in (10, 100, 1000))
    buckets = result.rank_buckets()
    assert list(buckets) == list(RANK_BUCKET_NAMES) and sum(buckets.values()) == len(scored)
    mean = -sum(t.logprob for t in scored) / len(scored)
    assert result.perplexity == pytest.approx(math.exp(mean), rel=1e-9)
    assert result.bits_per_token == pytest.approx(mean / math.log(2), rel=1e-9)


def test_a_text_that_fits_is_scored_in_one_pass(engine) -> None:
    result = engine.score(ScoreRequest(text=TEXT, n_ctx=512))
    rt = engine.runtime
    assert [t.token for t in result.tokens] == rt.tokenize(TEXT, True, False)
    assert result.n_passes == 1 and result.n_evaluated == len(result.tokens)
    first = 0 if result.bos else 1  # without BOS the first token has nothing to be predicted from
    assert [t.scored for t in result.tokens] == [i >= first for i in range(len(result.tokens))]
    assert "".join(t.text for t in result.tokens) == TEXT
    _check_consistent(result, rt.n_vocab)
    assert 1 < result.perplexity < 200  # plain English under a small instruct model
    assert result.rank_buckets()["top10"] > len(result.scored) / 2
    json_token = token_to_json(result.tokens[5], engine.vocab())
    assert set(json_token) >= {"i", "token", "text", "piece", "bytes", "p", "rank", "entropy", "top_raw", "logprob"}
    assert summary_to_json(result)["n_scored"] == len(result.scored)


def test_the_sliding_window_scores_every_token_once_with_the_context_it_says(engine) -> None:
    n_ctx = 16
    whole = engine.score(ScoreRequest(text=TEXT, n_ctx=512))
    windowed = engine.score(ScoreRequest(text=TEXT, n_ctx=n_ctx))
    n = len(whole.tokens)
    assert n > 3 * n_ctx
    bos = windowed.bos
    cap = n_ctx - (1 if bos else 0)
    stride = window_stride(n_ctx, bos)
    assert windowed.stride == stride and windowed.n_passes == 1 + math.ceil((n - (1 if bos else 0) - cap) / stride)
    assert [t.scored for t in windowed.tokens] == [t.scored for t in whole.tokens]
    for t, ref in zip(windowed.tokens, whole.tokens, strict=True):
        if not t.scored:
            continue
        if t.i < n_ctx:  # the first window: the same context as the whole text
            assert t.n_context == t.i
            assert t.logprob == pytest.approx(ref.logprob, abs=2e-3)
        else:  # later windows: BOS (if any) plus between cap - stride and cap - 1 text tokens before it
            assert (1 if bos else 0) + cap - stride <= t.n_context <= n_ctx - 1
    later = [t for t in windowed.tokens if t.i >= n_ctx]
    assert any(abs(t.logprob - whole.tokens[t.i].logprob) > 1e-2 for t in later)  # less context, other numbers
    _check_consistent(windowed, engine.runtime.n_vocab)


def test_chunks_follow_llama_perplexity(engine) -> None:
    n_ctx = 16
    text = TEXT + " " + TEXT
    seq = engine.runtime.tokenize(text, True, False)
    result = engine.score(ScoreRequest(text=text, n_ctx=n_ctx, mode="chunks"))
    n_chunk = len(seq) // n_ctx
    first = n_ctx // 2
    assert result.n_passes == n_chunk and result.n_scored == n_chunk * (n_ctx - first - 1)
    for t in result.tokens:
        within = t.i % n_ctx
        expected = t.i < n_chunk * n_ctx and within > first
        assert t.scored == expected, t.i
        if expected:
            assert t.n_context == within
    _check_consistent(result, engine.runtime.n_vocab)
    with pytest.raises(InvalidSettingsError, match="at least"):
        engine.score(ScoreRequest(text=TEXT, n_ctx=512, mode="chunks"))


@pytest.mark.parametrize("request_, match", [
    (ScoreRequest(text=""), "empty"),
    (ScoreRequest(text="  \n "), "empty"),
    (ScoreRequest(text="abc \udcff"), "UTF-8"),
    (ScoreRequest(text=TEXT, n_ctx=2), "between"),
    (ScoreRequest(text=TEXT, n_ctx=10 ** 9), "between"),
    (ScoreRequest(text=TEXT, mode="beam"), "mode"),  # type: ignore[arg-type]
    (ScoreRequest(tokens=(1,)), "at least 2"),
    (ScoreRequest(tokens=(1, 10 ** 7)), "vocabulary"),
    (ScoreRequest(), "either"),
])
def test_bad_requests_get_one_clear_error(engine, request_: ScoreRequest, match: str) -> None:
    with pytest.raises(InvalidSettingsError, match=match):
        engine.score(request_)


def test_the_engine_process_scores_reports_progress_and_keeps_the_chat_cache(client) -> None:
    request = GenerateRequest(prompt="Hello there", settings=SamplerSettings(temperature=0.0, top_k=0),
                              options=DecodeOptions(max_tokens=4))
    client.generate(request)
    before = client.kv_map()
    fractions: list[float] = []
    result = client.score(ScoreRequest(text=TEXT, n_ctx=32), on_progress=fractions.append)
    assert result.n_scored == len(result.tokens) - (0 if result.bos else 1)
    assert fractions and fractions[-1] == 1.0 and fractions == sorted(fractions)
    assert client.kv_map().n_reused == before.n_reused  # the scoring context is its own
    assert client.capabilities()["score"] is True


def test_a_remote_engine_says_it_cannot_score() -> None:
    from logitscope.host.remote import RemoteEngine

    engine = RemoteEngine("http://127.0.0.1:9")
    try:
        with pytest.raises(UnsupportedByServerError, match="cannot score texts"):
            engine.score(ScoreRequest(text=TEXT))
    finally:
        engine.close()


def test_a_long_scoring_can_be_cancelled_and_the_engine_goes_on(client) -> None:
    from pathlib import Path

    from logitscope.host.client import CancelledError

    text = (Path(__file__).resolve().parents[1] / "data" / "score" / "lighthouse.txt").read_text()
    with pytest.raises(CancelledError):
        client.score(ScoreRequest(text=text, n_ctx=64), on_progress=lambda _f: client.cancel())
    result = client.score(ScoreRequest(text=TEXT, n_ctx=64))  # the same engine process, still usable
    assert result.n_scored > 0 and math.isfinite(result.perplexity)
