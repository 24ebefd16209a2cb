"""Beam search with llama.cpp sequences in one context. Real engine, demo model."""

from __future__ import annotations

import math

import llama_cpp
import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.engine.beams import BeamSearch
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.beams import FINISHED, KEPT, PRUNED, BeamRequest, BeamResult, beam_score
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import GenerationResult

pytestmark = pytest.mark.model  # imports llama.cpp at its top

QUESTION = "What is the capital of France?"
OPEN_QUESTION = "Name three colours."
# Beams' cells interleave in the shared cache, so llama.cpp sums attention in another order than for one
# sequence laid out from cell 0; with activations quantized inside the matmuls that moves probabilities by up to
# ~0.01 and at times more (as batched against one-token kernels do, FACTS.md); measured on this test: mean
# 0.01, at most 0.086 (a token at p 0.74 vs 0.83). Greedy (one beam) is exact.
PROB_TOLERANCE = 0.1


def _request(max_tokens: int, question: str = QUESTION) -> GenerateRequest:
    return GenerateRequest(messages=[ChatMessage("user", question)], settings=PRESETS["Greedy"],
                           options=DecodeOptions(max_tokens=max_tokens))


def _greedy(engine, max_tokens: int, question: str = QUESTION) -> GenerationResult:
    result = list(engine.generate(_request(max_tokens, question)))[-1]
    assert isinstance(result, GenerationResult)
    return result


def _assert_tree_consistent(result: BeamResult) -> None:
    """Every kept or finished node's parent was kept at the step before; at most N kept per step; the kept
    nodes of a step are the best non-ending candidates of that step; sums add up."""
    n = result.n_beams
    by_step: dict[int, list[int]] = {}
    for i, node in enumerate(result.nodes):
        by_step.setdefault(node.step, []).append(i)
        assert node.logprob <= 1e-9
        parent = result.nodes[node.parent] if node.parent >= 0 else None
        if parent is None:
            assert node.step == 0
            assert node.cum_logprob == pytest.approx(node.logprob)
        else:
            assert parent.status == KEPT and parent.step == node.step - 1, (i, node, parent)
            assert node.cum_logprob == pytest.approx(parent.cum_logprob + node.logprob)
        assert node.status in (KEPT, FINISHED, PRUNED)
    for step, indices in by_step.items():
        kept = [result.nodes[i] for i in indices if result.nodes[i].status == KEPT]
        assert len(kept) <= n
        assert len({k.seq for k in kept}) == len(kept) and all(0 <= k.seq < n for k in kept)
        if kept and step < len(result.steps) - 1:
            worst_kept = min(k.cum_logprob for k in kept)
            pruned = [result.nodes[i] for i in indices if result.nodes[i].status == PRUNED]
            # a pruned candidate better than a kept one can only be an end-of-generation token
            assert all(p.cum_logprob <= worst_kept + 1e-9 or p.text in ("<|im_end|>", "<|endoftext|>")
                       for p in pruned), step


def test_one_beam_is_greedy_token_for_token(engine) -> None:
    for question, max_tokens in ((QUESTION, 32), (OPEN_QUESTION, 16)):
        greedy = _greedy(engine, max_tokens, question)
        result = engine.beam_search(BeamRequest(_request(max_tokens, question), n_beams=1))
        assert result.winner.tokens == greedy.tokens, (result.winner.text, greedy.text)
        assert result.winner.text == greedy.text
        assert result.winner.finish == ("eog" if greedy.finish_reason == "stop" else "length")
        assert len(result.hypotheses) == 1
        _assert_tree_consistent(result)


def test_the_winner_has_the_best_score_of_those_kept(engine) -> None:
    for alpha in (0.0, 1.0, 2.5):
        result = engine.beam_search(BeamRequest(_request(20, OPEN_QUESTION), n_beams=4, length_penalty=alpha))
        hyps = result.hypotheses
        assert len(hyps) >= 1 and len(hyps) <= 4 + 4  # N ended ones, or the live beams at max tokens
        for h in hyps:
            path = result.path(h.node)
            assert h.length == len(path)
            assert h.logprob == pytest.approx(sum(result.nodes[i].logprob for i in path))
            assert h.score == pytest.approx(beam_score(h.logprob, h.length, alpha))
            assert result.nodes[h.node].status == FINISHED
            assert h.tokens == [result.nodes[i].token for i in path][:len(h.tokens)]
        assert result.winner.score == max(h.score for h in hyps)
        assert [h.score for h in hyps] == sorted((h.score for h in hyps), reverse=True)
        _assert_tree_consistent(result)
    assert beam_score(-6.0, 3, 1.0) == pytest.approx(-2.0) and beam_score(-6.0, 3, 0.0) == -6.0


def test_the_beams_log_probabilities_are_those_of_their_own_text(engine) -> None:
    """Each beam sees only its own sequence: the kept hypotheses' per-token log-probabilities, recomputed by
    evaluating each text alone, one token at a time as the beams were, in the generation context, agree."""
    result = engine.beam_search(BeamRequest(_request(16, OPEN_QUESTION), n_beams=3))
    rt = engine.runtime
    assert len(result.hypotheses) >= 2
    diffs: list[float] = []
    for hyp in result.hypotheses[:3]:
        path = result.path(hyp.node)
        tokens = [result.nodes[i].token for i in path]
        rt.truncate(0)
        rt.sync(result.prompt_tokens)
        for k, i in enumerate(path):
            if k:
                rt.eval([tokens[k - 1]])
            logits = rt.logits().astype(np.float64)
            lse = logits.max() + math.log(np.exp(logits - logits.max()).sum())
            diffs.append(abs(math.exp(result.nodes[i].logprob) - math.exp(logits[tokens[k]] - lse)))
    assert max(diffs) < PROB_TOLERANCE and sum(diffs) / len(diffs) < PROB_TOLERANCE / 5, diffs


def test_beams_share_their_cells_in_llama_cpp(engine) -> None:
    """The cells are shared, not copied: each sequence spans the prompt and its tokens, and the whole context's
    state grows by the distinct cells the tree says, far fewer than one copy per beam would take."""
    prompt = engine.prepare(_request(8, OPEN_QUESTION))[0]
    bpc = round(engine.info.kv_bytes_per_token)
    search = BeamSearch(engine.runtime, len(prompt), 4, 8, bpc)
    try:
        result = search.run(prompt, 8, 1.0)
        last = result.steps[-1]
        assert len(search.live) == 4 and last.n_cells < last.n_cells_unshared
        for beam, memory in zip(search.live, result.memory, strict=True):
            assert llama_cpp.llama_memory_seq_pos_min(search.seqs.mem, beam.seq) == 0
            assert llama_cpp.llama_memory_seq_pos_max(search.seqs.mem, beam.seq) == len(prompt) + beam.depth - 1
            assert memory.n_cells == len(prompt) + beam.depth and memory.n_shared >= len(prompt)
        one = search.live[0]
        whole = llama_cpp.llama_state_get_size(search.seqs.ptr)
        alone = llama_cpp.llama_state_seq_get_size(search.seqs.ptr, one.seq)
        extra_cells = (whole - alone) / bpc
        assert extra_cells == pytest.approx(last.n_cells - (len(prompt) + one.depth), abs=1.0)
    finally:
        search.close()
    # the runs tile each beam's cells, and count the distinct cells once
    assert sum(run.count for run in result.cells) == result.steps[-1].n_cells
    for memory in result.memory:
        assert sum(run.count for run in result.cells if memory.seq in run.seqs) == memory.n_cells
        assert sum(run.count for run in result.cells if memory.seq in run.seqs and len(run.seqs) > 1) \
            == memory.n_shared


def test_the_generation_context_is_untouched_and_the_kv_map_shows_the_shared_cells(engine) -> None:
    _greedy(engine, 8)
    before = list(engine.runtime.tokens)
    result = engine.beam_search(BeamRequest(_request(12, OPEN_QUESTION), n_beams=4))
    assert engine.runtime.tokens == before
    kv = engine.kv_map()
    assert kv.beam_cells == result.cells and kv.beam_n_ctx == result.n_ctx
    assert any(len(run.seqs) > 1 for run in kv.beam_cells)
    _greedy(engine, 4)
    assert engine.kv_map().beam_cells == []  # a generation replaces the last request


def test_cancel_ends_with_the_live_beams(engine) -> None:
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) >= 3

    events: list = []
    result = engine.beam_search(BeamRequest(_request(40, OPEN_QUESTION), n_beams=2), cancel, events.append)
    assert len(result.steps) == 3
    assert any(h.finish == "cancelled" for h in result.hypotheses) and result.cancelled
    # the last step says which beams the cancel cut short (finished, but not by the end of the text)
    assert sorted(events[-1].cut) == sorted(h.node for h in result.hypotheses if h.finish == "cancelled")
    assert all(event.cut == [] for event in events[:-1])


@pytest.mark.parametrize(("n_beams", "alpha"), [(0, 1.0), (1000, 1.0), (-3, 1.0), (4, -0.5), (4, 100.0),
                                                (4, float("nan")), (4, float("inf"))])
def test_bad_beam_settings_get_one_clear_error(engine, n_beams: int, alpha: float) -> None:
    with pytest.raises(InvalidSettingsError) as err:
        engine.beam_search(BeamRequest(_request(4), n_beams=n_beams, length_penalty=alpha))
    assert ("beams" in str(err.value)) == (n_beams != 4) and "\n" not in str(err.value)


def test_each_step_is_reported_as_it_is_taken(engine) -> None:
    """The progress events rebuild the whole tree, step by step, and carry each step's figures; the result is
    the one a search without them gives."""
    events = []
    request = BeamRequest(_request(12, OPEN_QUESTION), n_beams=4)
    result = engine.beam_search(request, on_progress=events.append)
    assert len(events) == len(result.steps) > 1
    rebuilt = []
    for k, event in enumerate(events):
        assert event.step == k and event.stats == result.steps[k] and event.max_tokens == 12
        assert event.first_node == len(rebuilt) and event.nodes
        rebuilt.extend(event.nodes)
        assert all(node.step == k for node in event.nodes)
        assert len(event.kept) == (event.stats.n_live if k < len(events) - 1 else 0)
    assert rebuilt == result.nodes
    assert events[-1].n_finished == len(result.hypotheses)
    quiet = engine.beam_search(request)
    assert [h.tokens for h in quiet.hypotheses] == [h.tokens for h in result.hypotheses]


def _long_request(n_words: int) -> GenerateRequest:
    return _request(4, "Summarise: " + " ".join(f"word{i}" for i in range(n_words)))


def _still_usable(engine) -> None:
    assert _greedy(engine, 4).finish_reason != "cancelled"
    assert not engine.beam_search(BeamRequest(_request(4), n_beams=2)).cancelled


def test_cancel_between_the_prompts_chunks(engine) -> None:
    """A prompt longer than a batch is evaluated chunk by chunk; a cancel seen between two chunks stops it there:
    no step, no result, and the engine answers normally afterwards."""
    request = BeamRequest(_long_request(160), n_beams=2)
    assert len(engine.prepare(request.generate)[0]) > engine.runtime.n_batch  # two chunks
    calls: list[int] = []
    events: list[object] = []

    def cancel() -> bool:
        calls.append(1)
        return True

    with pytest.raises(InterruptedError):
        engine.beam_search(request, cancel, events.append)
    assert calls == [1] and events == []  # stopped after the first chunk, before any step
    assert engine.kv_map().beam_cells == []  # no search to show
    _still_usable(engine)


def test_cancel_within_a_prompt_chunk_stops_llama_decode(engine, monkeypatch) -> None:
    """The engine process turns a cancel into Runtime.abort(), which llama.cpp's abort callback honours midway
    through a chunk: a one-chunk prompt (no check between chunks) is stopped inside llama_decode."""
    import threading

    request = BeamRequest(_long_request(120), n_beams=2)
    n_prompt = len(engine.prepare(request.generate)[0])
    assert 300 < n_prompt <= engine.runtime.n_batch  # one chunk, hundreds of tokens: far longer than the timer
    rt = engine.runtime
    timers: list[threading.Timer] = []
    clear = rt.clear_abort

    def clear_then_abort_soon() -> None:  # the search clears earlier cancels just before the prompt: abort after
        clear()
        timers.append(threading.Timer(0.02, rt.abort))
        timers[-1].start()

    monkeypatch.setattr(rt, "clear_abort", clear_then_abort_soon)
    try:
        with pytest.raises(InterruptedError):
            engine.beam_search(request, on_progress=lambda _event: pytest.fail("a step after the abort"))
    finally:
        for timer in timers:
            timer.cancel()
    monkeypatch.undo()
    assert len(timers) == 1
    _still_usable(engine)


def test_a_beam_context_larger_than_the_machine_is_refused_before_llama_cpp_allocates(engine, monkeypatch) -> None:
    """The beam context holds prompt + beams x max tokens cells; on a machine with less memory than that needs
    (here: 1 GiB of RAM, as the machine probe would report it) the search is one clear error, checked as the
    scoring context is. A real one this size (32 x 2,000 cells, ~1.4 GiB of KV cache) fits this machine."""
    from logitscope.engine import capacity
    from logitscope.system.machine import MachineMemory

    monkeypatch.setattr(capacity, "probe_machine", lambda **_kw: MachineMemory(ram_total=1 << 30, ram_available=1 << 29))
    request = BeamRequest(_request(2000, OPEN_QUESTION), n_beams=32)
    # a cancelled search ends at once: without the check the test fails fast (no error) instead of searching
    with pytest.raises(InvalidSettingsError) as err:
        engine.beam_search(request, lambda: True)
    text = str(err.value)
    assert "32 beams" in text and "more than the 1.00 GiB of memory" in text and "\n" not in text, text
    assert engine.shared_cells is None   # no cells of a search that never ran in the KV map
    result = engine.beam_search(BeamRequest(_request(6), n_beams=2))  # a small one still fits
    assert result.hypotheses
