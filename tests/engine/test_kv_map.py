"""The KV cache map: which cells hold which part of the conversation, which were reused
from the previous request (turn 2, a fork) and which were freed, and what a cell costs. Real engine, demo model."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from logitscope.gguf.memory import kv_cache_bytes, kv_cells
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.kv_map import SEGMENTS, KvCell, KvMap, build_runs
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import GenerationResult

SYSTEM = "You answer in one short sentence."
QUESTION_1 = "What is the capital of France?"
QUESTION_2 = "And the capital of Italy?"


def _generate(engine, max_tokens: int = 12, **kwargs) -> GenerationResult:
    events = list(engine.generate(GenerateRequest(settings=PRESETS["Greedy"],
                                                  options=DecodeOptions(max_tokens=max_tokens), **kwargs)))
    result = events[-1]
    assert isinstance(result, GenerationResult)
    return result


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _assert_runs_tile_the_cells(kv: KvMap, n_cells: int) -> None:
    """In order, no gap, no overlap, nothing past the cells in use, every run of a known segment."""
    position = 0
    for run in kv.runs:
        assert run.start == position and run.count > 0, kv.runs
        assert run.segment in SEGMENTS
        position += run.count
    assert position == n_cells


def _reused_cells(kv: KvMap) -> int:
    """Reused runs come first and end where the evaluated ones begin."""
    reused = [run for run in kv.runs if run.reused]
    assert all(run.reused for run in kv.runs[:len(reused)]), kv.runs
    return sum(run.count for run in reused)


def _merged(kv: KvMap) -> list[KvCell]:
    """Runs split only by reuse are one piece of the conversation: join them back."""
    out: list[KvCell] = []
    for run in kv.runs:
        if out and out[-1].segment == run.segment:
            out[-1] = KvCell(out[-1].start, out[-1].count + run.count, run.segment, out[-1].reused)
        else:
            out.append(run)
    return out


def _segments(kv: KvMap) -> list[str]:
    return [run.segment for run in _merged(kv)]


def _run_texts(engine, kv: KvMap, segment: str) -> list[str]:
    """The text of each piece of the conversation of that segment, from the tokens in its cells."""
    rt = engine.runtime
    return [b"".join(rt.piece(t) for t in rt.tokens[r.start:r.start + r.count]).decode("utf-8", "replace")
            for r in _merged(kv) if r.segment == segment]


def test_turn_two_reuses_turn_one_cells(engine):
    engine.reset()
    turn_1 = [ChatMessage("user", QUESTION_1)]
    first = _generate(engine, messages=turn_1, system=SYSTEM)
    kv1 = engine.kv_map()
    prompt_1 = first.prompt_tokens
    assert (kv1.n_reused, kv1.n_evaluated, kv1.n_freed) == (0, len(prompt_1), 0)
    _assert_runs_tile_the_cells(kv1, first.kv.used_cells)
    assert not any(run.reused for run in kv1.runs)
    assert _segments(kv1) == ["template", "system", "template", "user", "template", "answer"]
    assert _run_texts(engine, kv1, "system") == [SYSTEM]
    assert _run_texts(engine, kv1, "user") == [QUESTION_1]

    cached = (prompt_1 + first.tokens)[:first.kv.used_cells]  # what turn 1 left in the cache
    turn_2 = turn_1 + [ChatMessage("assistant", first.text), ChatMessage("user", QUESTION_2)]
    second = _generate(engine, messages=turn_2, system=SYSTEM)
    prompt_2 = second.prompt_tokens
    shared = min(_common_prefix(cached, prompt_2), len(prompt_2) - 1)
    assert shared > len(prompt_1)  # turn 1's prompt and (most of) its answer
    kv2 = engine.kv_map()
    assert kv2.n_reused == shared
    assert second.timings.n_prompt_eval == kv2.n_evaluated == len(prompt_2) - shared
    assert kv2.n_freed == len(cached) - shared
    _assert_runs_tile_the_cells(kv2, second.kv.used_cells)
    assert _reused_cells(kv2) == shared
    assert _segments(kv2) == ["template", "system", "template", "user", "template", "assistant",
                              "template", "user", "template", "answer"]
    assert _run_texts(engine, kv2, "user") == [QUESTION_1, QUESTION_2]
    assert _run_texts(engine, kv2, "assistant") == [first.text]


def test_fork_from_mid_answer_reuses_the_prefix_up_to_the_fork(engine):
    engine.reset()
    messages = [ChatMessage("user", QUESTION_1)]
    first = _generate(engine, max_tokens=10, messages=messages)
    cached = (first.prompt_tokens + first.tokens)[:first.kv.used_cells]
    k = 4  # fork at the answer's fifth token, with another token forced there
    forced = next(t for t in range(1000, 2000) if t != first.tokens[k])
    events = list(engine.generate(GenerateRequest(
        messages=messages, settings=PRESETS["Greedy"], assistant_prefix=tuple(first.tokens[:k]),
        options=DecodeOptions(max_tokens=5, forced=(forced,)))))
    fork = events[-1]
    kv = engine.kv_map()
    fork_point = len(first.prompt_tokens) + k
    assert fork.prompt_tokens == cached[:fork_point]
    # llama.cpp needs fresh logits after the prompt: the last token before the fork is evaluated again
    assert kv.n_reused == fork_point - 1
    assert fork.timings.n_prompt_eval == kv.n_evaluated == 1
    assert kv.n_freed == len(cached) - (fork_point - 1)
    _assert_runs_tile_the_cells(kv, fork.kv.used_cells)
    assert _reused_cells(kv) == fork_point - 1
    answer = [run for run in kv.runs if run.segment == "answer"]
    assert answer[0].start == len(first.prompt_tokens) and answer[0].reused  # the kept start of the answer
    assert not answer[-1].reused and answer[-1].start + answer[-1].count == fork.kv.used_cells


def test_raw_prompt_is_one_user_run(engine):
    engine.reset()
    result = _generate(engine, max_tokens=4, prompt="The capital of France is")
    kv = engine.kv_map()
    _assert_runs_tile_the_cells(kv, result.kv.used_cells)
    assert [(r.segment, r.count) for r in kv.runs] == [("user", len(result.prompt_tokens)),
                                                       ("answer", result.kv.used_cells - len(result.prompt_tokens))]


def test_bytes_per_cell_match_the_memory_model(engine):
    kv = engine.kv_map()
    card, info = engine.card, engine.info
    assert kv.n_ctx == info.n_ctx == engine.runtime.n_ctx
    assert kv.bytes_per_cell * kv_cells(kv.n_ctx) == kv_cache_bytes(card, kv.n_ctx) == info.kv_allocated_bytes
    assert len(kv.bytes_per_cell_by_layer) == card.n_layer
    assert sum(kv.bytes_per_cell_by_layer) == kv.bytes_per_cell


def test_reset_empties_the_map(engine):
    _generate(engine, max_tokens=2, prompt="Hello")
    engine.reset()
    kv = engine.kv_map()
    assert kv.runs == [] and kv.n_reused == kv.n_evaluated == 0


def test_kv_map_crosses_the_process_boundary(client):
    assert client.capabilities()["kv_map"] is True
    result = client.generate(GenerateRequest(messages=[ChatMessage("user", QUESTION_1)], settings=PRESETS["Greedy"],
                                             options=DecodeOptions(max_tokens=3)))
    kv = client.kv_map()
    assert isinstance(kv, KvMap)
    _assert_runs_tile_the_cells(kv, result.kv.used_cells)
    assert kv.n_evaluated == len(result.prompt_tokens)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SEGMENTS), st.integers(0, 6)), max_size=8),
       st.integers(0, 60), st.integers(0, 60))
def test_runs_tile_any_layout(segments, n_cells, n_reused):
    n_prompt = sum(count for _, count in segments)
    n_reused = min(n_reused, n_prompt, n_cells)
    runs = build_runs(segments, n_cells, n_reused)
    position = 0
    for run in runs:
        assert run.start == position and run.count > 0
        assert run.reused == (run.start < n_reused)
        assert run.start >= n_reused or run.start + run.count <= n_reused  # never straddles the reuse boundary
        position += run.count
    assert position == n_cells
    for a, b in zip(runs, runs[1:], strict=False):
        assert (a.segment, a.reused) != (b.segment, b.reused)  # neighbours that differ in nothing are one run
    # every cell keeps its segment: the prompt's layout, then the answer
    expected = [seg for seg, count in segments for _ in range(count)][:n_cells]
    expected += ["answer"] * (n_cells - len(expected))
    assert [run.segment for run in runs for _ in range(run.count)] == expected
