"""Causal tracing on the real engine (engine/forward/causal.py), the demo model and Gemma 3 (GQA, sliding
windows). The checks need no second implementation to pass: ablating nothing is the base exactly; every head of
a layer knocked out is that layer's attention block knocked out (no bias on the output projection); patching
the residual stream at every position is the clean run exactly, at no position the corrupted run; and one head
knocked out through another node of llama.cpp's graph (its attention weights, whose head axis is explicit, set
to zero) gives the same KL, which checks the head-major layout of `kqv_out` independently. Plus the output
projection from the GGUF weights (numpy) accounts for what a knocked-out head removes."""

from __future__ import annotations

import threading
import time

import gguf
import numpy as np
import pytest
from gguf.quants import dequantize

from logitscope.base.errors import InvalidSettingsError
from logitscope.engine.core import Engine
from logitscope.engine.forward.causal import _kl
from logitscope.engine.forward.edits import knockout, patched
from logitscope.protocol.api import LoadSettings
from logitscope.protocol.causal import AblateRequest, Ablation, HeadScanRequest, PatchRequest

pytestmark = pytest.mark.model

CLEAN, CORRUPTED = "The capital of France is", "The capital of Italy is"


def tokens(engine: Engine, text: str) -> tuple[int, ...]:
    return tuple(engine.tokenize(text, True, False))


def attention_zeroed(head: int):
    """An edit of kq_soft_max-L ([1, head, query, kv cell]): head `head` attends to nothing."""
    def edit(values: np.ndarray, _positions: np.ndarray) -> np.ndarray:
        out = values.copy()
        out.reshape(-1, *values.shape[-3:])[:, head] = 0.0
        return out
    return edit


def check_architecture(engine: Engine, layers: tuple[int, ...]) -> None:
    prompt = tokens(engine, CLEAN)
    tracer = engine._tracer(lambda: False)
    base_lp, _ = tracer._run(prompt, None)
    nothing = engine.ablate(AblateRequest(prompt, ()))
    assert nothing.kl == 0.0 and np.array_equal(nothing.base.top_probs, nothing.ablated.top_probs)
    again, _ = tracer._run(prompt, None)
    assert np.array_equal(again, base_lp)                     # the same evaluation, the same numbers
    n_head = engine.card.n_head
    for layer in layers:
        heads = engine.ablate(AblateRequest(prompt, tuple(Ablation(layer, head=h) for h in range(n_head))))
        block = engine.ablate(AblateRequest(prompt, (Ablation(layer, block="attn"),)))
        assert heads.kl > 0 and heads.kl == block.kl, (layer, heads.kl, block.kl)
        assert np.array_equal(heads.ablated.top_probs, block.ablated.top_probs)
        # one head, through the attention weights instead of kqv_out: the same numbers
        for head in (0, n_head - 1):
            effect = engine.ablate(AblateRequest(prompt, (Ablation(layer, head=head),)))
            lp, _ = tracer._run(prompt, None, edits={f"kq_soft_max-{layer}": attention_zeroed(head)})
            assert abs(_kl(base_lp, lp) - effect.kl) <= 1e-3 * effect.kl, (layer, head)
    # patching: the residual stream at every position is the clean run, at no position the corrupted one
    corrupted = tokens(engine, CORRUPTED)
    assert len(corrupted) == len(prompt)
    request = PatchRequest(prompt, corrupted)
    corrupted_lp, _ = tracer._run(corrupted, None)
    for layer in range(engine.card.n_layer):
        assert np.array_equal(tracer.patch_all_positions(request, "resid", layer), base_lp), layer
    _, clean = tracer._run(prompt, None, {f"l_out-{layers[0]}"})
    node = f"l_out-{layers[0]}"
    none, _ = tracer._run(corrupted, None, edits={node: patched(clean[node], (), len(prompt))})
    assert np.array_equal(none, corrupted_lp)


def test_ablation_and_patching_identities_on_the_demo_model(engine):
    check_architecture(engine, (0, 20, engine.card.n_layer - 1))


def test_ablation_and_patching_identities_on_gemma3(gemma3):
    gemma = Engine()
    try:
        gemma.load(gemma3, LoadSettings(n_ctx=1024))
        assert gemma.card.n_head_kv < gemma.card.n_head          # grouped-query attention
        check_architecture(gemma, (0, 5, gemma.card.n_layer - 1))
    finally:
        gemma.unload()


def test_the_output_projection_accounts_for_what_a_knocked_out_head_removes(engine, demo_model):
    """numpy, from the GGUF weights: attn_out drops by W_o[:, head] @ kqv_out[head] (to 1 % of that drop:
    llama.cpp quantizes the activations of a quantized matmul to 8 bits)."""
    layer, head = 23, 4
    prompt = tokens(engine, CLEAN)
    tracer = engine._tracer(lambda: False)
    nodes = {f"kqv_out-{layer}", f"attn_out-{layer}"}
    _, base = tracer._run(prompt, None, nodes)
    _, ablated = tracer._run(prompt, None, nodes, edits={f"kqv_out-{layer}": knockout([head], engine.card.n_head, None, None)})
    weight = next(t for t in gguf.GGUFReader(str(demo_model)).tensors if t.name == f"blk.{layer}.attn_output.weight")
    w_o = dequantize(weight.data, weight.tensor_type).reshape(int(weight.shape[1]), int(weight.shape[0]))
    cols = slice(head * 64, (head + 1) * 64)
    removed = base[f"kqv_out-{layer}"][:, cols] @ w_o[:, cols].T
    drop = base[f"attn_out-{layer}"] - ablated[f"attn_out-{layer}"]
    assert np.linalg.norm(drop - removed) <= 0.01 * np.linalg.norm(removed)
    assert np.abs(ablated[f"kqv_out-{layer}"][:, cols]).max() == 0.0


def test_mean_ablation_positions_and_the_head_scan(engine):
    prompt = tokens(engine, CLEAN)
    zero = engine.ablate(AblateRequest(prompt, (Ablation(23, head=4),)))
    mean = engine.ablate(AblateRequest(prompt, (Ablation(23, head=4),), mode="mean"))
    assert zero.kl > 0 and mean.kl > 0 and mean.kl != zero.kl
    last = engine.ablate(AblateRequest(prompt, (Ablation(23, head=4),), positions=(len(prompt) - 1,)))
    first = engine.ablate(AblateRequest(prompt, (Ablation(23, head=4),), positions=(0,)))
    assert last.kl > first.kl   # what the last token's head reads carries more of the next token
    started = time.perf_counter()
    progress: list[float] = []
    scan = engine.head_scan(HeadScanRequest(prompt, blocks=True), on_progress=progress.append)
    seconds = time.perf_counter() - started
    n_layer, n_head = engine.card.n_layer, engine.card.n_head
    assert scan.kl.shape == (n_layer, n_head) and scan.block_kl.shape == (n_layer, 2)
    assert len(progress) == n_layer * (n_head + 2) and progress[-1] == 1.0
    top = scan.ranked()[0]
    assert abs(top[3]) == np.abs(scan.delta_logprob).max()   # the largest change, a drop or a rise
    single = engine.ablate(AblateRequest(prompt, (Ablation(top[0], head=top[1]),)))
    assert single.kl == pytest.approx(top[2], abs=0) and single.delta_logprob == pytest.approx(top[3], abs=0)
    assert scan.block_kl[20, 0] == engine.ablate(AblateRequest(prompt, (Ablation(20, block="attn"),))).kl
    assert seconds < 120   # a sanity bound only; the figure itself is `bench --causal`'s
    # a range of layers: those rows are the whole scan's, the others NaN (top-1 -1), ranked among themselves
    progress.clear()
    part = engine.head_scan(HeadScanRequest(prompt, blocks=True, layers=(22, 24)), on_progress=progress.append)
    assert part.scanned == range(22, 25) and len(progress) == 3 * (n_head + 2)
    assert np.array_equal(part.delta_logprob[22:25], scan.delta_logprob[22:25])
    assert np.array_equal(part.block_kl[22:25], scan.block_kl[22:25]) and np.array_equal(part.top1[22:25], scan.top1[22:25])
    assert np.isnan(part.kl[:22]).all() and np.isnan(part.block_delta[25:]).all() and (part.top1[:22] == -1).all()
    assert [r[:2] for r in part.ranked()] == [r[:2] for r in scan.ranked() if 22 <= r[0] <= 24]
    for bad in ((5, 4), (-1, 3), (0, n_layer)):
        with pytest.raises(InvalidSettingsError, match=f"between 0 and {n_layer - 1}"):
            engine.head_scan(HeadScanRequest(prompt, layers=bad))


def test_the_patch_heatmap_points_at_the_subject(engine):
    clean, corrupted = tokens(engine, CLEAN), tokens(engine, CORRUPTED)
    differ = [i for i, (a, b) in enumerate(zip(clean, corrupted, strict=True)) if a != b]
    result = engine.patch(PatchRequest(clean, corrupted, kinds=("resid", "attn", "ffn")))
    assert result.ld_clean > 0 > result.ld_corrupted
    resid = result.scores["resid"]
    assert resid.shape == (engine.card.n_layer, len(clean))
    # the early layers at the token that differs carry the whole answer; positions before it carry nothing
    assert resid[0, differ[0]] == pytest.approx(1.0, abs=0.05)
    assert np.abs(resid[:, :differ[0]]).max() < 1e-9
    assert resid[-1, -1] == pytest.approx(1.0, abs=1e-9)     # the last layer at the last token is the clean run
    cell = engine.patch(PatchRequest(clean, corrupted, cell=("resid", 10, differ[0])))
    assert cell.cell_score == resid[10, differ[0]] and cell.patched is not None


def test_bad_requests_get_one_clear_error(engine):
    prompt = tokens(engine, CLEAN)
    for text in ("99.1", "3.99", "x.y", "3", "3.mlp"):
        with pytest.raises(InvalidSettingsError):
            engine.ablate(AblateRequest(prompt, (Ablation.parse(text),)))
    with pytest.raises(InvalidSettingsError, match="same number of tokens"):
        engine.patch(PatchRequest(prompt, prompt[:-1]))
    with pytest.raises(InvalidSettingsError, match="nothing to patch"):
        engine.patch(PatchRequest(prompt, prompt))
    other = (*prompt[:-1], prompt[-1] + 1)
    with pytest.raises(InvalidSettingsError, match="same token"):  # a grid of 0 / 0 otherwise
        engine.patch(PatchRequest(prompt, other, answer=prompt[0], versus=prompt[0]))
    with pytest.raises(InvalidSettingsError, match="not in the prompt"):
        engine.ablate(AblateRequest(prompt, (Ablation(1, head=1),), positions=(len(prompt),)))
    with pytest.raises(InvalidSettingsError, match="vocabulary"):
        engine.ablate(AblateRequest((1, 10**9), (Ablation(1, head=1),)))


def test_a_head_scan_in_the_engine_process_is_cancelled_and_the_engine_answers_on(client):
    from logitscope.host.client import CancelledError

    prompt = tuple(client.tokenize(CLEAN, True, False))
    seen: list[float] = []
    started = threading.Event()

    def progress(fraction: float) -> None:
        seen.append(fraction)
        started.set()

    def cancel_soon() -> None:
        started.wait(60)
        client.cancel()

    threading.Thread(target=cancel_soon, daemon=True).start()
    with pytest.raises(CancelledError):
        client.head_scan(HeadScanRequest(prompt), on_progress=progress)
    assert seen and seen[-1] < 1.0
    effect = client.ablate(AblateRequest(prompt, (Ablation(20, head=3),)))
    assert effect.kl > 0


def test_an_answer_with_a_head_kept_knocked_out_and_back(engine):
    """Generation on the knockout context: its first step is the ablation's distribution, the trace records
    the head, the inspection of a step is knocked out as the answer was, and the next plain request is the
    model's own answer again, token for token."""
    from logitscope.protocol.api import DecodeOptions, GenerateRequest
    from logitscope.protocol.forward import InspectRequest
    from logitscope.protocol.sampler_settings import SamplerSettings
    from logitscope.protocol.trace import GenerationResult, StepRecord

    def run(knockouts: tuple[Ablation, ...]) -> tuple[list[StepRecord], GenerationResult]:
        events = list(engine.generate(GenerateRequest(prompt=CLEAN, settings=SamplerSettings(temperature=0),
                                                      options=DecodeOptions(max_tokens=6), knockouts=knockouts)))
        return [e for e in events if isinstance(e, StepRecord)], events[-1]  # type: ignore[return-value]

    plain_steps, plain = run(())
    head = (Ablation(23, head=4),)
    steps, result = run(head)
    assert result.steering is not None and result.steering["knockouts"] == ["23.4"]
    assert plain.steering is None
    effect = engine.ablate(AblateRequest(tokens(engine, CLEAN), head, chosen=steps[0].token))
    assert steps[0].token == int(effect.ablated.top_ids[0]) != plain_steps[0].token
    assert abs(steps[0].p_raw - np.exp(effect.ablated.chosen_logprob)) < 1e-4
    lens = engine.inspect(InspectRequest(tuple(result.prompt_tokens + result.tokens[:2]), chosen=result.tokens[2],
                                         attention=False, knockouts=head)).lens
    assert int(lens.top_ids[-1, 0]) == steps[2].token and abs(float(lens.chosen_prob[-1]) - steps[2].p_raw) < 0.01
    again_steps, again = run(())
    assert again.tokens == plain.tokens and again.steering is None
    assert [s.p_raw for s in again_steps] == pytest.approx([s.p_raw for s in plain_steps], abs=1e-6)


def test_the_whole_context_attention_matrix_of_a_knocked_out_answer_is_knocked_out(engine):
    """A knocked-out answer's matrix is computed knocked out, as its step's attention row was: the row of the
    knocked-out inspection is the matrix's last row, and a later layer attends otherwise than unablated. Nothing
    of the knocked-out run stays: the next plain matrix is the model's own again."""
    from logitscope.protocol.forward import InspectRequest

    prompt = list(tokens(engine, CLEAN))
    knocked = (Ablation(3, block="attn"),)
    plain = engine.attention_matrix(prompt, 10, 2)
    ablated = engine.attention_matrix(prompt, 10, 2, knockouts=knocked)
    row = engine.inspect(InspectRequest(tuple(prompt), lens=False, knockouts=knocked)).attention
    np.testing.assert_allclose(ablated.weights[-1], row.weights[10, 2], atol=1e-4)
    assert np.abs(ablated.weights - plain.weights).max() > 1e-3
    np.testing.assert_array_equal(engine.attention_matrix(prompt, 10, 2).weights, plain.weights)
    with pytest.raises(InvalidSettingsError):
        engine.attention_matrix(prompt, 10, 2, knockouts=(Ablation(99, head=0),))
