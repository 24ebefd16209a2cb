"""Inside the forward pass: the logit lens and attention weights of a step, computed in the
inspection context on the real demo model (and Gemma 3 when its file is on this machine)."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import llama_cpp
import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError, LogitscopeError, UnsupportedByServerError
from logitscope.engine.core import Engine
from logitscope.engine.forward import capture
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.forward import LENS_TOP_K, InspectRequest
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord
from tests.helpers.kernels import runs_the_recorded_kernels

pytestmark = pytest.mark.model  # imports llama.cpp at its top



def answer(engine: Engine, question: str, max_tokens: int = 8) -> tuple[list[StepRecord], GenerationResult]:
    request = GenerateRequest(messages=[ChatMessage("user", question)], settings=SamplerSettings(temperature=0),
                              options=DecodeOptions(max_tokens=max_tokens))
    events = list(engine.generate(request))
    return [e for e in events if isinstance(e, StepRecord)], events[-1]  # type: ignore[return-value]


def step_request(result: GenerationResult, i: int, **kwargs: bool) -> InspectRequest:
    """Inspect generated step i: the context it was predicted from, and the token chosen."""
    return InspectRequest(tuple(result.prompt_tokens + result.tokens[:i]), chosen=result.tokens[i], **kwargs)


# (probability, entropy in nats) between the lens's last layer and the step, with AVX-512 kernels and with
# others. Measured on an AMD EPYC with AVX2 only (2026-12-06): step 0's best token 0.1433 (entropy 3.6885) as the
# last row of the prompt's one batch, as the generation computed it, and 0.1511 (3.6355) as the lens computes it,
# the prompt less its last token in a batch and that token alone; the same split in a plain context gives 0.1511
# too (llama.cpp's batched and one-token kernels round apart, far more with AVX2 than with AVX-512); step 3, a
# token alone both ways, agrees to the last digit. Under 0.01 on the Xeons that recorded this test.
LENS_TOLERANCE = ((0.01, 0.01), (0.02, 0.1))


def assert_lens_is_the_raw_distribution(lens, step: StepRecord) -> None:  # noqa: ANN001 - LayerLens
    tolerance = LENS_TOLERANCE[0] if runs_the_recorded_kernels() else LENS_TOLERANCE[1]
    raw = dict(zip(step.raw_ids.tolist(), step.raw_probs.tolist(), strict=True))
    assert lens.top_ids[-1, 0] == step.raw_ids[0]
    for token, p in zip(lens.top_ids[-1].tolist(), lens.top_probs[-1].tolist(), strict=True):
        assert abs(p - raw[token]) < tolerance[0], (token, p, raw[token])
    assert lens.chosen == step.token and lens.chosen_rank[-1] == step.rank_raw
    assert abs(lens.chosen_prob[-1] - step.p_raw) < tolerance[0]


def test_the_last_layer_of_the_lens_is_the_engines_own_raw_distribution(engine):
    steps, result = answer(engine, "What is the capital of France?")
    n_layer = engine.card.n_layer
    for i in (0, 3, len(steps) - 1):
        inspection = engine.inspect(step_request(result, i))
        lens = inspection.lens
        assert lens is not None and inspection.unavailable == {}
        assert lens.layer_names == ["embd", *map(str, range(n_layer))]
        assert lens.top_ids.shape == lens.top_probs.shape == (n_layer + 1, LENS_TOP_K)
        assert lens.entropy.shape == lens.resid_norm.shape == (n_layer + 1,)
        assert lens.attn_norm.shape == lens.ffn_norm.shape == (n_layer,)
        assert np.all(np.isfinite(lens.attn_norm)) and np.all(lens.ffn_norm > 0)
        assert np.all(np.diff(lens.top_probs, axis=1) <= 0)  # best first
        assert_lens_is_the_raw_distribution(lens, steps[i])
        entropy_tolerance = LENS_TOLERANCE[0 if runs_the_recorded_kernels() else 1][1]
        assert abs(lens.entropy[-1] - steps[i].entropy_raw) < entropy_tolerance
        assert 0 < inspection.seconds and inspection.context_bytes > 0


def test_the_same_numbers_right_after_generating_and_after_another_request(engine):
    steps, result = answer(engine, "Name a colour.")
    first = engine.inspect(step_request(result, 4))
    answer(engine, "Count to three.")  # the generation context now holds another conversation
    engine.inspect(InspectRequest(tuple(engine.runtime.tokens[:20])))  # and the inspection context too
    again = engine.inspect(step_request(result, 4))
    assert engine.inspector.last_fill == "copied"  # the state the generation computed, saved when first copied
    np.testing.assert_allclose(again.lens.top_probs, first.lens.top_probs, atol=1e-6)
    np.testing.assert_array_equal(again.lens.top_ids, first.lens.top_ids)
    np.testing.assert_allclose(again.attention.weights, first.attention.weights, atol=1e-6)
    assert_lens_is_the_raw_distribution(again.lens, steps[4])


def test_attention_rows_are_distributions_over_earlier_positions(engine):
    _, result = answer(engine, "Say hello.", max_tokens=4)
    inspection = engine.inspect(step_request(result, 2, lens=False))
    row = inspection.attention
    assert inspection.lens is None and row is not None
    position = len(result.prompt_tokens) + 1
    card = engine.card
    assert row.position == position and row.weights.shape == (card.n_layer, card.n_head, position + 1)
    np.testing.assert_allclose(row.weights.sum(axis=-1), 1.0, atol=1e-3)
    assert row.weights.min() >= 0
    assert row.kv_head_of == [h * card.n_head_kv // card.n_head for h in range(card.n_head)]  # 9 heads over 3
    assert row.window == [None] * card.n_layer


def test_the_whole_context_matrix_is_causal_and_its_last_row_is_the_steps(engine):
    tokens = engine.tokenize("The cat sat on the mat because the cat was tired.", add_special=True)
    matrix = engine.attention_matrix(tokens, 5, 4)
    n = len(tokens)
    assert (matrix.layer, matrix.head, matrix.weights.shape) == (5, 4, (n, n))
    np.testing.assert_allclose(matrix.weights.sum(axis=1), 1.0, atol=1e-3)
    assert np.all(np.triu(matrix.weights, k=1) == 0)  # nothing after the query's own position
    row = engine.inspect(InspectRequest(tuple(tokens), lens=False)).attention
    np.testing.assert_allclose(matrix.weights[-1], row.weights[5, 4], atol=1e-4)


def test_copying_the_generation_state_and_evaluating_again_agree(engine):
    """For prompt positions (the generation evaluated the prompt in one batch, as the inspection context
    does), a copy of the generation context's state and a fresh evaluation give the same numbers."""
    _, result = answer(engine, "Why is the sky blue?", max_tokens=2)
    inspector = engine.inspector or engine._inspector()
    request = InspectRequest(tuple(result.prompt_tokens[:-3]))  # a prompt token: the lens follows the next one
    copied = inspector.inspect(request, fill="copy")
    assert inspector.last_fill == "copied"
    evaluated = inspector.inspect(request, fill="evaluate")
    assert inspector.last_fill == "evaluated"
    assert copied.lens.chosen == result.prompt_tokens[-3]
    np.testing.assert_allclose(copied.attention.weights, evaluated.attention.weights, atol=1e-4)
    np.testing.assert_allclose(copied.lens.top_probs, evaluated.lens.top_probs, atol=1e-4)
    np.testing.assert_allclose(copied.lens.chosen_prob, evaluated.lens.chosen_prob, atol=1e-4)


def test_a_prompt_tokens_lens_follows_the_next_prompt_token_while_it_is_known(engine):
    _, result = answer(engine, "Is water wet?", max_tokens=2)
    request = InspectRequest(tuple(result.prompt_tokens[:10]))
    assert engine.inspect(request).lens.chosen == result.prompt_tokens[10]
    answer(engine, "Is fire hot?", max_tokens=2)  # another request: the saved state still knows it
    assert engine.inspect(request).lens.chosen == result.prompt_tokens[10]
    unknown = engine.inspect(InspectRequest(tuple(engine.tokenize("Zebras and quokkas", add_special=True)))).lens
    assert unknown.chosen == unknown.top_ids[-1, 0]  # no known continuation: the final top-1


def test_a_short_step_of_a_long_context_is_copied_too(engine):
    """The inspection context grows to take the generation context's whole state before cutting it."""
    long_prompt = "Here is a list: " + ", ".join(f"item {i}" for i in range(250))
    request = GenerateRequest(prompt=long_prompt, settings=SamplerSettings(temperature=0),
                              options=DecodeOptions(max_tokens=2))
    result = list(engine.generate(request))[-1]
    assert len(result.prompt_tokens) > 1000
    inspector = engine.inspector or engine._inspector()
    inspector.close()  # a small inspection context, as when the first inspection is of a short step
    row = engine.inspect(InspectRequest(tuple(result.prompt_tokens[:30]), lens=False)).attention
    assert inspector.last_fill == "copied" and inspector.n_ctx >= len(result.prompt_tokens) + 2
    evaluated = inspector.inspect(InspectRequest(tuple(result.prompt_tokens[:30]), lens=False), fill="evaluate")
    np.testing.assert_allclose(row.weights, evaluated.attention.weights, atol=1e-4)


def test_a_step_evaluated_afresh_still_agrees_with_the_generation(engine):
    """With no saved state the context is evaluated again in batches: llama.cpp computes a batch with other
    kernels than one token at a time, so generated positions can differ a little, but not in substance."""
    steps, result = answer(engine, "What is two plus two?")
    inspector = engine.inspector or engine._inspector()
    evaluated = inspector.inspect(step_request(result, 5), fill="evaluate")
    copied = inspector.inspect(step_request(result, 5), fill="copy")
    assert evaluated.lens.top_ids[-1, 0] == steps[5].raw_ids[0]
    assert np.abs(evaluated.lens.top_probs[-1] - copied.lens.top_probs[-1]).max() < 0.05
    assert np.abs(evaluated.attention.weights - copied.attention.weights).max() < 0.05


def test_a_step_evaluated_afresh_with_its_prompt_known_is_the_generations_to_the_digit(engine):
    """Told where the prompt ends, the inspection evaluates the answer's tokens one at a time after the prompt's
    batch, as the generation did: the same kernels, the same numbers (a user saw the lens's last row at 20.5 %
    and the step's raw p at 23.6 %: the answer evaluated in one batch, on AVX2)."""
    steps, result = answer(engine, "Name three colours.", max_tokens=10)
    inspector = engine.inspector or engine._inspector()
    for i in (1, 6, 9):
        request = replace(step_request(result, i), n_prompt=len(result.prompt_tokens))
        evaluated = inspector.inspect(request, fill="evaluate")
        assert inspector.last_fill == "evaluated"
        copied = inspector.inspect(request, fill="copy")
        np.testing.assert_allclose(evaluated.lens.top_probs, copied.lens.top_probs, atol=1e-5)
        np.testing.assert_allclose(evaluated.attention.weights, copied.attention.weights, atol=1e-5)
        assert abs(evaluated.lens.chosen_prob[-1] - steps[i].p_raw) < 1e-5


def test_answer_tokens_held_from_a_batch_are_evaluated_again_one_at_a_time(engine):
    """Causal tracing (and a whole attention matrix) leave the context evaluated in batches: the next inspection
    of that step found it 'cached' and showed the batch's numbers again."""
    steps, result = answer(engine, "Name three colours.", max_tokens=10)
    answer(engine, "Count to three.")   # the generation context holds another answer: nothing to copy
    inspector = engine.inspector or engine._inspector()
    request = replace(step_request(result, 6), n_prompt=len(result.prompt_tokens))
    inspector.evaluate(request.tokens, None, set())   # causal tracing's baseline: every token in batches
    again = inspector.inspect(request)
    assert inspector.last_fill != "cached"   # evaluated (or copied from a state an earlier test saved): exact
    assert abs(again.lens.chosen_prob[-1] - steps[6].p_raw) < 1e-5


def test_the_generation_context_has_no_callback_and_flash_attention_as_loaded(demo_model, monkeypatch):
    """Generation speed is untouched: only the inspection context gets the graph callback."""
    created = []
    real = llama_cpp.llama_init_from_model

    def spy(model, params):  # noqa: ANN001, ANN202 - llama.cpp's own types
        created.append((bool(params.cb_eval), params.flash_attn_type))
        return real(model, params)

    monkeypatch.setattr(llama_cpp, "llama_init_from_model", spy)
    own = Engine()
    try:
        own.load(demo_model, LoadSettings(n_ctx=512, flash_attn=True))
        assert created == [(False, llama_cpp.LLAMA_FLASH_ATTN_TYPE_ENABLED)]
        own.inspect(InspectRequest(tuple(own.tokenize("Hello there", add_special=True))))
        assert created[1] == (True, llama_cpp.LLAMA_FLASH_ATTN_TYPE_DISABLED)
        assert len(created) == 2 and own.inspector is not None
    finally:
        own.unload()
    assert own.inspector is None


def test_a_generation_context_with_flash_attention_is_evaluated_instead_of_copied(demo_model):
    """Its V cache has another layout, which llama.cpp refuses to load into the inspection context."""
    own = Engine()
    try:
        own.load(demo_model, LoadSettings(n_ctx=512, flash_attn=True))
        steps, result = answer(own, "Hi!", max_tokens=3)
        inspection = own.inspect(step_request(result, 2))
        assert own.inspector.last_fill == "evaluated"
        assert inspection.lens.top_ids[-1, 0] == steps[2].raw_ids[0]
        np.testing.assert_allclose(inspection.attention.weights.sum(axis=-1), 1.0, atol=1e-3)
    finally:
        own.unload()


def test_an_error_in_the_graph_callback_is_reported_and_leaves_no_trace(engine, monkeypatch):
    """Never a silently truncated graph: the error comes out after the decode, and the next inspection is right."""
    steps, result = answer(engine, "Hello!", max_tokens=3)
    real = capture.read_tensor

    def failing(tensor):  # noqa: ANN001, ANN202
        if capture.tensor_name(tensor) == b"l_out-7":
            raise RuntimeError("boom")
        return real(tensor)

    monkeypatch.setattr(capture, "read_tensor", failing)
    with pytest.raises(LogitscopeError, match="reading the forward pass failed: RuntimeError: boom"):
        engine.inspect(step_request(result, 2))
    monkeypatch.setattr(capture, "read_tensor", real)
    assert_lens_is_the_raw_distribution(engine.inspect(step_request(result, 2)).lens, steps[2])


def test_missing_tensors_make_a_view_unavailable_instead_of_wrong(engine, monkeypatch):
    """An architecture without one softmax per head (or without a named residual stream) says so."""
    real_begin = capture.GraphCapture.begin
    monkeypatch.setattr(capture.GraphCapture, "begin",
                        lambda self, names, edits=None: real_begin(self, {n for n in names if not n.startswith("kq_soft_max")}, edits))
    inspection = engine.inspect(InspectRequest(tuple(engine.tokenize("One two three", add_special=True))))
    assert inspection.attention is None and "attention" in inspection.unavailable
    assert engine.card.architecture in inspection.unavailable["attention"]
    assert inspection.lens is not None and "lens" not in inspection.unavailable


def test_a_long_inspection_stops_when_the_engine_is_asked_to_cancel(engine):
    """The engine process's cancel (Runtime.abort) reaches the inspection context's evaluation too."""
    tokens = engine.tokenize("and then " * 800, add_special=True)[:1500]
    timer = threading.Timer(0.3, engine.runtime.abort)
    timer.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(InterruptedError):
            engine.inspect(InspectRequest(tuple(tokens)))
    finally:
        timer.cancel()
    assert time.perf_counter() - t0 < 3
    row = engine.inspect(InspectRequest(tuple(tokens[:12]))).attention  # and the next one is whole
    np.testing.assert_allclose(row.weights.sum(axis=-1), 1.0, atol=1e-3)


@pytest.mark.parametrize("tokens, layer, head, message", [
    ([], 0, 0, "no token"), ([10**9], 0, 0, "not in the vocabulary"), ([1, 2], 30, 0, "layer must be"),
    ([1, 2], 0, 9, "head must be"), ([1, -1], 0, 0, "not in the vocabulary")])
def test_bad_requests_are_refused_clearly(engine, tokens, layer, head, message):
    with pytest.raises(InvalidSettingsError, match=message):
        engine.attention_matrix(tokens, layer, head)
    if layer == 0 and head == 0:
        with pytest.raises(InvalidSettingsError, match=message):
            engine.inspect(InspectRequest(tuple(tokens)))


def test_a_context_longer_than_the_models_is_refused(engine):
    with pytest.raises(InvalidSettingsError, match="do not fit"):
        engine.inspect(InspectRequest((1,) * (engine.runtime.n_ctx + 1)))


def test_inspection_over_the_engine_process_and_its_capability(client):
    request = GenerateRequest(prompt="The capital of Italy is", settings=SamplerSettings(temperature=0),
                              options=DecodeOptions(max_tokens=2))
    result = client.generate(request)
    assert client.capabilities()["forward_pass"] is True
    inspection = client.inspect(InspectRequest(tuple(result.prompt_tokens), chosen=result.tokens[0]))
    assert inspection.lens.top_ids[-1, 0] == result.tokens[0] and inspection.attention.weights.dtype == np.float32
    matrix = client.attention_matrix(result.prompt_tokens, 0, 0)
    assert matrix.weights.shape == (len(result.prompt_tokens),) * 2
    with pytest.raises(InvalidSettingsError, match="layer must be"):
        client.attention_matrix(result.prompt_tokens, -1, 0)


def test_cancelling_a_long_inspection_over_the_engine_process(client):
    from logitscope.host.client import CancelledError

    tokens = client.tokenize("and then " * 800)[:1500]
    pid = client.pid
    timer = threading.Timer(0.5, client.cancel)
    timer.start()
    try:
        with pytest.raises(CancelledError):
            client.inspect(InspectRequest(tuple(tokens), lens=False))
    finally:
        timer.cancel()
    assert client.inspect(InspectRequest(tuple(tokens[:8]), lens=False)).attention.position == 7
    assert client.pid == pid  # stopped, not ended


def test_a_remote_engine_says_it_cannot_show_the_forward_pass():
    from logitscope.host.remote import RemoteEngine

    remote = RemoteEngine("127.0.0.1:9")
    try:
        with pytest.raises(UnsupportedByServerError, match="not available on a remote engine"):
            remote.inspect(InspectRequest((1, 2)))
        with pytest.raises(UnsupportedByServerError, match="not available on a remote engine"):
            remote.attention_matrix([1, 2], 0, 0)
    finally:
        remote.close()


def test_gemma3_lens_and_sliding_window_attention(gemma3):
    """Gemma 3 scales its embeddings, norms after each block and uses a 512-token window on 5 layers in 6."""
    gemma = Engine()
    try:
        gemma.load(gemma3, LoadSettings(n_ctx=1024))
        steps, result = answer(gemma, "What is the capital of France?", max_tokens=3)
        inspection = gemma.inspect(step_request(result, 2))
        assert inspection.unavailable == {}
        assert_lens_is_the_raw_distribution(inspection.lens, steps[2])
        row = inspection.attention
        np.testing.assert_allclose(row.weights.sum(axis=-1), 1.0, atol=1e-3)
        assert row.window == [None if layer % 6 == 5 else 512 for layer in range(gemma.card.n_layer)]
        long = gemma.tokenize("one two three four five six seven eight nine ten " * 60, add_special=True)[:600]
        far = gemma.inspect(InspectRequest(tuple(long), lens=False)).attention.weights[:, :, :600 - 512]
        assert far[[i for i, w in enumerate(row.window) if w]].max() == 0  # out of the window: nothing
        assert far[[i for i, w in enumerate(row.window) if w is None]].sum() > 0
    finally:
        gemma.unload()


def test_a_big_head_kept_in_float16_gives_the_same_lens(demo_model, monkeypatch):
    """Heads over FLOAT32_HEAD_LIMIT are stored in float16 (half the memory) and multiplied in slices."""
    from logitscope.engine.forward import lens as lens_module

    full = lens_module.load_output_head(demo_model, "llama")
    monkeypatch.setattr(lens_module, "FLOAT32_HEAD_LIMIT", 1 << 20)
    monkeypatch.setattr(lens_module, "HEAD_SLICE_ROWS", 5000)  # slices that do not divide the vocabulary
    half = lens_module.load_output_head(demo_model, "llama")
    assert half.weight.dtype == np.float16 and half.nbytes < full.nbytes * 0.51
    rows = np.random.default_rng(0).normal(size=(3, full.weight.shape[1])).astype(np.float32) * 5
    np.testing.assert_allclose(half.logits(rows), full.logits(rows), atol=0.02)


def test_the_head_is_dequantized_alike_by_ggml_and_by_the_gguf_package(demo_model, monkeypatch):
    from logitscope.engine.forward import lens as lens_module

    by_ggml = lens_module.load_output_head(demo_model, "llama")
    monkeypatch.setattr(lens_module, "dequantize_into", lambda *_args: False)  # as where ggml has no to_float
    by_gguf = lens_module.load_output_head(demo_model, "llama")
    np.testing.assert_array_equal(by_ggml.weight, by_gguf.weight)
    np.testing.assert_array_equal(by_ggml.norm_weight, by_gguf.norm_weight)
    assert by_ggml.tied and by_ggml.act_block == 32 and by_ggml.weight.shape == (49152, 576)
