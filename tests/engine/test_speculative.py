"""Speculative decoding on the real demo model: drafts by prompt lookup or by a draft GGUF (the demo model
itself), verified in one batch. With flash attention llama.cpp evaluates a batch bit for bit as it
evaluates one token at a time (measured), so drafting must not change a single number of the trace."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from logitscope.base.errors import InvalidSettingsError, ModelFileError
from logitscope.engine.speculative import Backoff, LookupDraft
from logitscope.protocol.api import DRAFT_LOOKUP, ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import PRESETS, SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord, pack_step, step_to_json, unpack_step
from logitscope.protocol.trace_schema import migrate_trace_line

pytestmark = pytest.mark.model  # imports llama.cpp at its top

TEXT = ("The quick brown fox jumps over the lazy dog. It was a sunny day in the small village of Millbrook, "
        "where everyone knew each other by name. The baker opened his shop at six every morning, and the "
        "smell of fresh bread filled the streets.")
EDIT = [ChatMessage("user", "Rewrite this text, replacing 'fox' with 'cat' and keeping everything else the "
                            "same:\n\n" + TEXT)]
FREE = [ChatMessage("user", "Write a short story about a robot who learns to paint.")]
CODE = [ChatMessage("user", "Write a Python function that adds two numbers, then the same function with "
                            "type hints.")]



def run(engine, messages, settings: SamplerSettings, n: int, draft: str = "", k: int = 8,
        prompt: str | None = None, reset: bool = True) -> tuple[list[StepRecord], GenerationResult]:
    if reset:
        engine.reset()
    steps: list[StepRecord] = []
    result = None
    request = GenerateRequest(prompt=prompt, messages=None if prompt else messages, settings=settings,
                              options=DecodeOptions(max_tokens=n, draft=draft, draft_max=k))
    for event in engine.generate(request):
        if isinstance(event, GenerationResult):
            result = event
        else:
            steps.append(event)
    assert result is not None
    return steps, result


def assert_same_trace(a: list[StepRecord], b: list[StepRecord]) -> None:
    assert [s.token for s in a] == [s.token for s in b]
    for x, y in zip(a, b, strict=True):
        assert x.text == y.text and x.kv_used == y.kv_used and x.p == y.p and x.rank == y.rank
        assert np.array_equal(x.raw_ids, y.raw_ids) and np.array_equal(x.raw_logits, y.raw_logits)
        assert np.array_equal(x.final_ids, y.final_ids) and np.array_equal(x.final_probs, y.final_probs)
        assert [s.name for s in x.stages] == [s.name for s in y.stages]


@pytest.mark.parametrize("messages", [EDIT, FREE, CODE], ids=["edit", "free", "code"])
def test_greedy_with_either_draft_is_plain_greedy(fa_engine, demo_model, messages):
    greedy = PRESETS["Greedy"]
    plain, plain_result = run(fa_engine, messages, greedy, 96)
    assert plain_result.speculative is None and not any(s.drafted for s in plain)
    for draft in (DRAFT_LOOKUP, str(demo_model)):
        steps, result = run(fa_engine, messages, greedy, 96, draft)
        assert_same_trace(plain, steps)
        assert result.text == plain_result.text and result.finish_reason == plain_result.finish_reason
        spec = result.speculative
        assert spec is not None and spec.n_tokens == len(steps)
        assert spec.accepted == sum(s.drafted for s in steps) <= spec.drafted
        # every step came from an evaluation or an accepted draft (an accepted end-of-generation draft
        # leaves the row after it unread)
        assert len(steps) <= spec.evaluations + spec.accepted <= len(steps) + 1
        # the KV cache holds the answer but its last token (as after plain decoding) and nothing of the
        # rejected drafts, also where a draft batch evaluated that token already
        rt = fa_engine.runtime
        assert rt.tokens == result.prompt_tokens + result.tokens[:-1] and rt.kv_used == len(rt.tokens)
        if draft == str(demo_model):  # the model drafting for itself: most drafts are right
            assert spec.acceptance > 0.7, spec
    if messages is EDIT:
        steps, result = run(fa_engine, messages, greedy, 96, DRAFT_LOOKUP)
        spec = result.speculative
        assert spec is not None and spec.acceptance > 0.5 and spec.tokens_per_evaluation > 2.5, spec


def test_sampling_with_every_history_stage_is_unchanged_at_a_fixed_seed(fa_engine):
    """The draft positions' penalties, DRY, frequency/presence penalties and Mirostat's mu depend on the
    answer up to that position; the verification walks them one by one with the recorded sampler, so at
    the same seed the answer and its trace equal plain decoding's."""
    for settings in (SamplerSettings(temperature=0.7, seed=11, repeat_penalty=1.3, frequency_penalty=0.2,
                                     presence_penalty=0.1, dry_multiplier=0.8, dry_allowed_length=1),
                     SamplerSettings(temperature=1.0, seed=5, mirostat=2, mirostat_tau=3.0),
                     SamplerSettings(temperature=0.9, seed=3, xtc_probability=0.5, xtc_threshold=0.1)):
        plain, _ = run(fa_engine, EDIT, settings, 64)
        steps, result = run(fa_engine, EDIT, settings, 64, DRAFT_LOOKUP)
        assert_same_trace(plain, steps)
        assert result.speculative is not None and result.speculative.accepted > 0


@pytest.mark.timeout(900)  # 100 short generations: on a loaded 2-core machine several minutes
def test_sampled_distribution_is_unchanged(fa_engine):
    """Two independent samples (different seeds) with and without drafting: a chi-square two-sample test on
    the second and third tokens (those the drafts are verified at). Accepting drafts without the rule (or
    verifying them against the wrong position's logits) moves the mass onto the drafts and fails it."""
    prompt = "one two three four one two three four one two three four one two"
    settings = SamplerSettings(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0)
    n = 50
    counts = [[Counter[int](), Counter[int]()] for _ in range(2)]   # [arm][position 1, 2]
    drafted = 0
    for arm, draft in enumerate(("", DRAFT_LOOKUP)):
        for i in range(n):
            steps, result = run(fa_engine, None, replace(settings, seed=1000 * arm + i), 3, draft, k=4, prompt=prompt,
                                reset=False)  # the prompt stays in the cache: one token evaluated per run
            for position in (1, 2):
                counts[arm][position - 1][result.tokens[position] if len(result.tokens) > position else -1] += 1
            drafted += sum(s.drafted for s in steps)
    assert drafted >= 3, (drafted, counts)  # drafts were accepted: the rule was at work (7 in the last run)
    chi2, dof = 0.0, 0
    for position in range(2):
        a, b = counts[0][position], counts[1][position]
        common = [key for key in set(a) | set(b) if a[key] + b[key] >= 8]
        table = np.array([[c[key] for key in common] + [n - sum(c[key] for key in common)] for c in (a, b)], float)
        table = table[:, table.sum(axis=0) > 0]
        expected = table.sum(axis=0, keepdims=True) * table.sum(axis=1, keepdims=True) / table.sum()
        chi2 += float(((table - expected) ** 2 / expected).sum())
        dof += table.shape[1] - 1
    assert dof >= 2, counts
    # p < 0.001 for chi-square at dof <= 10 is at most 29.6; a real bias gives far more
    assert chi2 < 3.3 * dof + 12, (chi2, dof, counts)


def test_bad_draft_settings_are_refused(fa_engine, tmp_path):
    for k in (0, 1000):
        with pytest.raises(InvalidSettingsError, match="draft-max"):
            DecodeOptions(draft=DRAFT_LOOKUP, draft_max=k).validate()
    not_gguf = tmp_path / "notes.gguf"
    not_gguf.write_text("not a model")
    with pytest.raises(ModelFileError):
        run(fa_engine, EDIT, PRESETS["Greedy"], 4, str(not_gguf))


def test_draft_model_with_another_vocabulary_is_refused(fa_engine, gemma3):
    with pytest.raises(InvalidSettingsError, match="does not share the model's vocabulary"):
        run(fa_engine, EDIT, PRESETS["Greedy"], 4, str(gemma3))
    assert fa_engine.draft is None
    steps, _ = run(fa_engine, EDIT, PRESETS["Greedy"], 4, DRAFT_LOOKUP)  # the engine goes on
    assert len(steps) == 4


def test_lookup_proposes_what_followed_the_latest_match():
    assert LookupDraft([5, 2, 3, 7, 2, 3, 8, 2, 3]).propose([5, 2, 3, 7, 2, 3, 8, 2, 3], 4) == [8, 2, 3]  # latest
    draft = LookupDraft([1, 2, 3, 4, 5, 9, 2, 3, 7, 8])
    assert draft.propose([1, 2, 3, 4, 5, 9, 2, 3, 7, 8, 1, 2, 3], 4) == [4, 5, 9, 2]  # the longest: "1 2 3"
    assert draft.propose([1, 2, 3, 4, 5, 9, 2, 3, 7, 8, 1, 2, 3, 4], 3) == [5, 9, 2]  # "1 2 3 4"
    assert LookupDraft([1, 2, 3]).propose([1, 2, 3, 6], 4) == []


def test_backoff_pauses_a_failing_source_and_resumes_on_success():
    b = Backoff()
    b.record(4, 0)
    assert b.ready()
    b.record(4, 0)
    assert [b.ready() for _ in range(2)] == [False, True]
    b.record(4, 0)
    assert [b.ready() for _ in range(3)] == [False, False, True]
    b.record(4, 1)
    assert b.size == 2  # one more than were accepted
    b.record(4, 0)
    assert b.ready() and b.size == 1
    b.record(1, 1)
    assert b.size == 2  # all accepted: doubles


def test_drafted_flag_in_the_trace_and_its_migration(fa_engine):
    steps, result = run(fa_engine, EDIT, PRESETS["Greedy"], 24, DRAFT_LOOKUP)
    drafted = [s for s in steps if s.drafted]
    assert drafted and not all(s.drafted for s in steps)
    for step in steps[:8]:
        assert unpack_step(pack_step(step)).drafted == step.drafted
    vocab = fa_engine.vocab()
    line = step_to_json(drafted[0], vocab)
    assert line["drafted"] is True
    old = {k: v for k, v in line.items() if k != "drafted"}
    assert migrate_trace_line(old)["drafted"] is False
    assert migrate_trace_line({"type": "done", "schema": 2})["speculative"] is None


@pytest.mark.parametrize("draft", ["lookup", "model"])
def test_every_counted_evaluation_gave_a_step_its_logits(fa_engine, demo_model, draft):
    """Each step's logits come from an evaluation (the prompt's, a lone token's, a batch's first row) or from
    the row after an accepted draft; the last token's evaluation (for the next turn's cache) feeds no step."""
    source = DRAFT_LOOKUP if draft == "lookup" else str(demo_model)
    steps, result = run(fa_engine, EDIT, PRESETS["Greedy"], 40, source)
    spec = result.speculative
    assert spec is not None and result.finish_reason == "length" and spec.accepted > 0
    assert spec.evaluations + spec.accepted == len(steps) == 40, spec


def test_decoding_without_a_draft_is_one_token_per_evaluation(fa_engine):
    """Prompt lookup that finds nothing to draft in 7 tokens: plain decoding, 1.0 token per evaluation."""
    steps, result = run(fa_engine, None, PRESETS["Greedy"], 7, DRAFT_LOOKUP, prompt="The capital of France is")
    spec = result.speculative
    assert spec is not None and spec.drafted == 0 and len(steps) == 7, spec
    assert spec.evaluations == 7 and spec.tokens_per_evaluation == 1.0, spec


def test_the_draft_model_is_freed_when_drafting_is_turned_off(fa_engine, demo_model):
    run(fa_engine, EDIT, PRESETS["Greedy"], 4, str(demo_model))
    assert fa_engine.draft is not None and fa_engine.draft.path == demo_model
    run(fa_engine, EDIT, PRESETS["Greedy"], 4, DRAFT_LOOKUP)  # prompt lookup needs no draft model
    assert fa_engine.draft is None
    run(fa_engine, EDIT, PRESETS["Greedy"], 4, str(demo_model))
    assert fa_engine.draft is not None
    run(fa_engine, EDIT, PRESETS["Greedy"], 4)  # drafting off
    assert fa_engine.draft is None
