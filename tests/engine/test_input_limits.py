"""Values a user can give that llama.cpp would take badly: thread counts, context sizes, text that is
not UTF-8, and an answer cut inside a multi-byte character. Real engine, real demo model."""

from __future__ import annotations

import time

import pytest

from logitscope.base.errors import InvalidSettingsError
from logitscope.engine.capacity import ensure_it_can_fit
from logitscope.engine.core import Engine
from logitscope.gguf.card import read_model_card
from logitscope.gguf.memory import estimate
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import PRESETS
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.system.machine import MachineMemory, probe_machine
from logitscope.system.threads import MAX_THREADS_PER_CPU, available_cpus, max_threads

pytestmark = pytest.mark.model  # imports llama.cpp at its top

GIB = 1 << 30


def test_thread_count_is_bounded_by_the_cpus():
    assert max_threads() == MAX_THREADS_PER_CPU * available_cpus()
    LoadSettings(n_threads=max_threads()).validate()
    LoadSettings(n_threads=0).validate()
    for absurd in (max_threads() + 1, 999, -1):
        with pytest.raises(InvalidSettingsError, match="n_threads must be between 0"):
            LoadSettings(n_threads=absurd).validate()


@pytest.mark.parametrize("request_", [
    GenerateRequest(prompt="hi \udcff\udcfe"),
    GenerateRequest(messages=[ChatMessage("user", "caf\udce9")]),
    GenerateRequest(messages=[ChatMessage("user", "hi")], system="\udcff"),
    GenerateRequest(prompt="hi", options=DecodeOptions(stop=("\udcff",))),
    GenerateRequest(prompt="lone \ud800 surrogate"),
], ids=["prompt", "chat", "system", "stop", "lone-surrogate"])
def test_text_that_is_not_utf8_is_an_input_error(request_):
    with pytest.raises(InvalidSettingsError, match="is not valid UTF-8"):
        request_.validate()


def test_the_message_names_the_bad_byte():
    with pytest.raises(InvalidSettingsError) as err:
        GenerateRequest(prompt="hi \udcff").validate()
    assert str(err.value).startswith("the prompt is not valid UTF-8 (byte 0xff at character 4)")


def test_tokenizer_refuses_non_utf8_text_clearly(engine):
    with pytest.raises(InvalidSettingsError, match="not valid UTF-8"):
        engine.tokenize("\udcff")


def test_a_small_context_is_rounded_up_and_says_so(demo_model):
    eng = Engine()
    try:
        info = eng.load(demo_model, LoadSettings(n_ctx=64))
        assert info.n_ctx == 256
        assert any("256" in n and "64" in n for n in info.notices), info.notices
        info = eng.load(demo_model, LoadSettings(n_ctx=512))
        assert info.n_ctx == 512 and info.notices == []
    finally:
        eng.unload()


def test_every_figure_of_a_rounded_up_context_is_the_cells_llama_cpp_made(demo_model, client):
    """64 asked, 256 made: ModelInfo.n_ctx, the KV cache's bytes, the KV map and an answer's kv all say 256 (what the
    status line, the memory panel and the KV map show); ModelInfo.load stays the request, which a reload repeats."""
    import llama_cpp

    eng = Engine()
    try:
        info = eng.load(demo_model, LoadSettings(n_ctx=64))
        assert eng.runtime is not None
        real = llama_cpp.llama_n_ctx(eng.runtime.context)
        assert real == info.n_ctx == 256 and info.load.n_ctx == 64
        assert info.kv_allocated_bytes == round(info.kv_bytes_per_token * real)
        # a 100-token prompt and a 40-token answer: more than 64 cells, which the context really holds
        prompt = " ".join(["lamp"] * 100)
        events = list(eng.generate(GenerateRequest(prompt=prompt, settings=PRESETS["Greedy"],
                                                   options=DecodeOptions(max_tokens=40))))
        result = events[-1]
        assert isinstance(result, GenerationResult) and len(result.prompt_tokens) > 64
        assert result.kv.n_ctx == real and result.kv.used_cells > 64
        assert eng.kv_map().n_ctx == real
    finally:
        eng.unload()
    remote = client.load(str(demo_model), LoadSettings(n_ctx=64))  # the same across the engine process
    assert remote.n_ctx == 256 and remote.load.n_ctx == 64


def test_a_context_that_cannot_fit_is_refused_from_the_estimate(demo_model):
    card = read_model_card(demo_model)
    machine = MachineMemory(ram_total=16 * GIB, ram_available=8 * GIB)
    ensure_it_can_fit(card, 32768, "f16", "f16", offload=False, machine=machine)  # 0.7 GiB of KV cache
    with pytest.raises(InvalidSettingsError, match="more than the 16.00 GiB of memory") as err:
        ensure_it_can_fit(card, 1 << 20, "f16", "f16", offload=False, machine=machine)  # 22.5 GiB
    assert "1,048,576 tokens" in str(err.value)
    # offloading adds the GPU's memory; unknown VRAM gives no verdict
    gpu = MachineMemory(16 * GIB, 8 * GIB, ())
    ensure_it_can_fit(card, 1 << 20, "f16", "f16", offload=True, machine=gpu)


def test_engine_refuses_an_absurd_context_before_llama_cpp_allocates(demo_model):
    need = estimate(read_model_card(demo_model), 1 << 21).total_bytes
    ram = probe_machine(nvidia_smi=None).ram_total
    if ram is None or ram >= need:
        pytest.skip(f"this machine has {ram} bytes of RAM: a 2M-token context of the demo model would fit")
    eng = Engine()
    start = time.monotonic()
    with pytest.raises(InvalidSettingsError, match="2,097,152 tokens needs about"):
        eng.load(demo_model, LoadSettings(n_ctx=1 << 21))
    assert time.monotonic() - start < 5
    assert eng.runtime is None


def _cut_inside(engine: Engine, text: str, n_tokens: int) -> tuple[list[StepRecord], GenerationResult]:
    """Force the first `n_tokens` of `text` as the answer and stop there (max tokens)."""
    forced = tuple(engine.tokenize(text, add_special=False, parse_special=False))[:n_tokens]
    request = GenerateRequest(prompt="Say it:", settings=PRESETS["Greedy"],
                              options=DecodeOptions(max_tokens=n_tokens, forced=forced))
    events = list(engine.generate(request))
    return events[:-1], events[-1]


@pytest.mark.parametrize("text,n_tokens", [("😀", 1), ("😀", 2), ("你好", 3), ("ok 猫", 2)])
def test_steps_add_up_to_the_answer_when_cut_inside_a_character(engine, text, n_tokens):
    steps, result = _cut_inside(engine, text, n_tokens)
    assert result.finish_reason == "length"
    assert b"".join(s.piece for s in steps).decode("utf-8", "ignore") != b"".join(s.piece for s in steps).decode(
        "utf-8", "replace"), "the forced tokens should end inside a character"
    assert "\ufffd" not in result.text
    assert "".join(s.text for s in steps) == result.text
    assert any("inside a multi-byte character" in n for n in result.notices)


def test_a_complete_character_at_the_end_gives_no_notice(engine):
    steps, result = _cut_inside(engine, "😀", 3)
    assert result.text == "".join(s.text for s in steps) == "😀"
    assert not any("multi-byte" in n for n in result.notices)
