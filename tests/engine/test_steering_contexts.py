"""Steering reaches every context the engine computes with, not only the generation context: scoring, the
forward-pass inspection (its logit lens shows the steered residual stream), beam search and the comparison of
an answer under two steerings. A steered answer is never inspected or scored unsteered by accident."""

from __future__ import annotations

import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.bench.steering_files import lora_adapter, random_vector
from logitscope.protocol.api import DecodeOptions, GenerateRequest
from logitscope.protocol.beams import BeamRequest
from logitscope.protocol.forward import InspectRequest
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.score import ScoreRequest
from logitscope.protocol.steering import ScaledFile, Steering, steering_from_record
from logitscope.protocol.steering_compare import SteeringCompareRequest
from logitscope.protocol.trace import GenerationResult

PROMPT = "The capital of France is"
VISIBLE_SCALE = 12.0  # as tests/engine/test_steering.py: changes the demo model's greedy text


def vector(path, scale: float = VISIBLE_SCALE) -> Steering:
    return Steering(control_vectors=(ScaledFile(str(path), scale),))


def greedy(engine, steering: Steering | None, max_tokens: int = 8) -> GenerationResult:
    engine.reset()
    events = list(engine.generate(GenerateRequest(prompt=PROMPT, settings=PRESETS["Greedy"],
                                                  options=DecodeOptions(max_tokens=max_tokens), steering=steering)))
    result = events[-1]
    assert isinstance(result, GenerationResult)
    return result


def test_scoring_is_steered_and_scale_zero_scores_exactly_as_unsteered(engine, tmp_path):
    path = random_vector(tmp_path / "v.gguf")
    text = "The lighthouse keeper climbed the stairs every evening to light the lamp."
    plain = engine.score(ScoreRequest(text=text))
    zero = engine.score(ScoreRequest(text=text, steering=vector(path, 0.0)))
    steered = engine.score(ScoreRequest(text=text, steering=vector(path)))
    assert [t.logprob for t in zero.scored] == [t.logprob for t in plain.scored]
    assert plain.steering is None and steered.steering["control_vectors"][0]["scale"] == VISIBLE_SCALE
    assert not np.allclose([t.logprob for t in steered.scored], [t.logprob for t in plain.scored])


def test_a_steered_answer_scored_steered_has_the_probabilities_its_trace_recorded(engine, tmp_path):
    """The scoring context is steered as the generation was: the answer's tokens get the probabilities the
    trace recorded (a batch rounds a little differently from one-token steps), and unsteered they do not."""
    path = random_vector(tmp_path / "v.gguf")
    steering = vector(path)
    engine.reset()
    events = list(engine.generate(GenerateRequest(prompt=PROMPT, settings=PRESETS["Greedy"],
                                                  options=DecodeOptions(max_tokens=10), steering=steering)))
    steps, answer = events[:-1], events[-1]
    recorded = np.array([s.p_raw for s in steps])
    tokens = tuple(answer.prompt_tokens + answer.tokens)
    n_prompt = len(answer.prompt_tokens)
    steered = engine.score(ScoreRequest(tokens=tokens, steering=steering))
    np.testing.assert_allclose([t.p for t in steered.tokens[n_prompt:]], recorded, atol=0.01)
    unsteered = engine.score(ScoreRequest(tokens=tokens))
    assert np.max(np.abs(np.array([t.p for t in unsteered.tokens[n_prompt:]]) - recorded)) > 0.05


def test_the_lens_of_a_steered_step_is_steered_and_no_unsteered_state_is_copied(engine, tmp_path):
    path = random_vector(tmp_path / "v.gguf")
    steering = vector(path)
    plain = greedy(engine, None)
    steered = greedy(engine, steering)
    assert steered.tokens != plain.tokens
    step = next(i for i, (a, b) in enumerate(zip(plain.tokens, steered.tokens, strict=False)) if a != b)
    context = tuple(steered.prompt_tokens + steered.tokens[:step])
    inspector = engine._inspector()
    seen = engine.inspect(InspectRequest(context, chosen=steered.tokens[step], steering=steering))
    assert inspector.last_fill == "copied"  # the generation context holds exactly this, steered the same
    assert int(seen.lens.top_ids[-1, 0]) == steered.tokens[step] and seen.steering is not None
    # the same context unsteered: the generation's (steered) state must not be copied in
    bare = engine.inspect(InspectRequest(context, chosen=steered.tokens[step]))
    assert inspector.last_fill == "evaluated" and bare.steering is None
    assert not np.allclose(bare.lens.resid_norm, seen.lens.resid_norm)
    # the window inspects a steered answer's step with the steering its trace recorded: the very same
    again = steering_from_record(steered.steering)
    assert again is not None and engine.steerer.apply(again) is False
    assert steering_from_record(None) is None and steering_from_record(plain.steering) is None
    # the layers before the first steered one (layer 1 is the first llama.cpp steers) are untouched
    np.testing.assert_allclose(bare.lens.resid_norm[:2], seen.lens.resid_norm[:2], rtol=1e-4)


def test_the_lens_shows_the_vector_from_the_first_layer_of_the_range(engine, tmp_path):
    path = random_vector(tmp_path / "v.gguf")
    steering = Steering(control_vectors=(ScaledFile(str(path), VISIBLE_SCALE),), layer_start=10, layer_end=20)
    tokens = tuple(engine.tokenize(PROMPT, add_special=True))
    bare = engine.inspect(InspectRequest(tokens))
    seen = engine.inspect(InspectRequest(tokens, steering=steering))
    # row l + 1 is after block l; llama.cpp adds the layer-l vector to block l's output
    np.testing.assert_allclose(bare.lens.resid_norm[:11], seen.lens.resid_norm[:11], rtol=1e-4)
    assert abs(seen.lens.resid_norm[11] - bare.lens.resid_norm[11]) > 1e-3


def test_beam_search_is_steered_and_records_it(engine, tmp_path):
    path = random_vector(tmp_path / "v.gguf")
    request = GenerateRequest(prompt=PROMPT, settings=PRESETS["Greedy"], options=DecodeOptions(max_tokens=8))
    plain = engine.beam_search(BeamRequest(request, n_beams=1))
    zero = engine.beam_search(BeamRequest(GenerateRequest(prompt=PROMPT, options=DecodeOptions(max_tokens=8),
                                                          steering=vector(path, 0.0)), n_beams=1))
    steered_request = GenerateRequest(prompt=PROMPT, options=DecodeOptions(max_tokens=8), steering=vector(path))
    steered = engine.beam_search(BeamRequest(steered_request, n_beams=1))
    assert zero.winner.tokens == plain.winner.tokens and plain.steering is None
    # one beam is greedy: the steered search finds the steered greedy answer
    steered_greedy = [t for t in greedy(engine, vector(path)).tokens if t != engine.card.eos_id]
    assert steered.winner.tokens == steered_greedy and steered.winner.tokens != plain.winner.tokens
    assert steered.steering["control_vectors"][0]["file"] == "v.gguf"


def test_a_lora_adapter_is_initialised_once_for_all_contexts(engine, tmp_path):
    adapter = lora_adapter(tmp_path / "a.gguf")
    steering = Steering(loras=(ScaledFile(str(adapter), 1.0),))
    before = len(engine.steering_files._adapters)  # the engine is shared: earlier tests' adapters stay cached
    greedy(engine, steering)
    engine.score(ScoreRequest(text=PROMPT + " Paris.", steering=steering))
    engine.inspect(InspectRequest(tuple(engine.tokenize(PROMPT, add_special=True)), steering=steering))
    assert len(engine.steering_files._adapters) == before + 1


def test_comparing_an_answer_under_two_steerings(engine, tmp_path):
    path = random_vector(tmp_path / "v.gguf")
    answer = greedy(engine, None, max_tokens=10)
    tokens = tuple(answer.prompt_tokens + answer.tokens)
    n_prompt = len(answer.prompt_tokens)
    same = engine.compare_steering(SteeringCompareRequest(tokens, n_prompt, None, vector(path, 0.0)))
    assert np.all(same.kl == 0.0) and same.first_disagreement is None
    np.testing.assert_array_equal(same.logprob_a, same.logprob_b)
    result = engine.compare_steering(SteeringCompareRequest(tokens, n_prompt, None, vector(path)))
    assert result.kl.shape == (10,) and np.all(result.kl > 0) and result.steering_a is None
    assert result.steering_b["control_vectors"][0]["scale"] == VISIBLE_SCALE
    # A's side is the unsteered model on its own greedy answer: its top-1 is (nearly always) the answer
    assert np.sum(result.top_ids_a[:, 0] != np.asarray(answer.tokens)) <= 1
    # B's log-probabilities are those the scoring context gives the same tokens steered
    scored = engine.score(ScoreRequest(tokens=tokens, steering=vector(path)))
    np.testing.assert_allclose(result.logprob_b, [t.logprob for t in scored.tokens[n_prompt:]], atol=1e-4)
    # the KL is that of the two top lists' full distributions: at least the top-1 terms' share
    step = result.first_disagreement
    assert step is not None and result.top_ids_a[step, 0] != result.top_ids_b[step, 0]


def test_a_comparison_too_long_or_with_bad_ids_is_one_clear_error(engine):
    with pytest.raises(InvalidSettingsError, match="between 1 and"):
        engine.compare_steering(SteeringCompareRequest((1, 2), 2))
    with pytest.raises(InvalidSettingsError, match="not in the vocabulary"):
        engine.compare_steering(SteeringCompareRequest((1, 10**7), 1))
