"""Token bytes to text (CJK, emoji, long pieces) and chat prompts (templates, prefix reuse, trimming)."""

from __future__ import annotations

import time

import pytest

from logitscope.base.errors import ChatTemplateError, ContextOverflowError
from logitscope.base.utf8 import Utf8Stream
from logitscope.engine.chat import ChatTemplate, build_chat_prompt
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import PRESETS

pytestmark = pytest.mark.model  # imports llama.cpp at its top

CJK_AND_EMOJI = "你好，世界！大语言模型 🙂🚀 naïve"


def test_utf8_stream_holds_split_characters():
    data = CJK_AND_EMOJI.encode()
    stream = Utf8Stream()
    out = [stream.feed(data[i:i + 1]) for i in range(len(data))]
    assert "".join(out) + stream.flush() == CJK_AND_EMOJI
    assert "\ufffd" not in "".join(out)
    assert "" in out  # some bytes completed no character


def test_cjk_and_emoji_stream_without_replacement_characters(engine):
    forced = tuple(engine.tokenize(CJK_AND_EMOJI))
    pieces = [engine.runtime.piece(t) for t in forced]
    assert any(p.decode("utf-8", "replace") != p.decode("utf-8", "ignore") for p in pieces), \
        "expected at least one token that splits a character"
    events = list(engine.generate(GenerateRequest(prompt="Say hello:", settings=PRESETS["Greedy"],
                                                  options=DecodeOptions(max_tokens=len(forced), forced=forced))))
    steps, result = events[:-1], events[-1]
    assert result.text == CJK_AND_EMOJI
    assert all("\ufffd" not in s.text for s in steps)
    assert any(s.text == "" for s in steps)


def test_pieces_longer_than_32_bytes_are_not_lost(engine):
    rt = engine.runtime
    vocab = engine.vocab()
    long_ids = [i for i, p in enumerate(vocab) if len(p) > 32]
    assert long_ids, "the demo vocabulary has tokens longer than 32 bytes"
    for tok in long_ids[:20]:
        piece = rt.piece(tok)
        assert len(piece) > 32
        if not rt.is_control(tok):
            assert tok in rt.tokenize(piece, False, False)


def test_demo_template_renders_chatml(engine):
    text = engine.render_chat([ChatMessage("user", "Hi")], system="Be brief.")
    assert text == "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"


def test_the_demo_templates_own_system_prompt_is_found(engine):
    """SmolLM2's template writes a system prompt of its own when the chat has none: the window says so."""
    from logitscope.protocol.template_system import default_system_prompt

    assert default_system_prompt(engine.render_chat) == ("You are a helpful AI assistant named SmolLM, trained by "
                                                         "Hugging Face")


def test_fallback_without_template():
    t = ChatTemplate(None, "", "")
    assert t.fallback and t.stop == ("\nUser:",)
    text = t.render([ChatMessage("system", "S"), ChatMessage("user", "Hi"), ChatMessage("assistant", "Yo"),
                     ChatMessage("user", "Again")])
    assert text == "S\n\nUser: Hi\nAssistant: Yo\nUser: Again\nAssistant:"


def test_hostile_template_is_stopped_by_the_time_limit():
    slow = "{% for a in range(100000) %}{% for b in range(100000) %}{{ '' }}{% endfor %}{% endfor %}"
    t = ChatTemplate(slow, "", "")
    start = time.monotonic()
    with pytest.raises(ChatTemplateError, match="longer than"):
        t.render([ChatMessage("user", "hi")])
    assert time.monotonic() - start < 5


def test_sandbox_blocks_template_escapes():
    evil = "{{ ''.__class__.__mro__[1].__subclasses__() }}"
    with pytest.raises(ChatTemplateError):
        ChatTemplate(evil, "", "").render([ChatMessage("user", "hi")])


def test_turn_two_reuses_turn_one_from_the_kv_cache(engine):
    greedy = PRESETS["Greedy"]
    first = list(engine.generate(GenerateRequest(messages=[ChatMessage("user", "Name a fruit.")], settings=greedy,
                                                 options=DecodeOptions(max_tokens=30))))[-1]
    history = [ChatMessage("user", "Name a fruit."), ChatMessage("assistant", first.text),
               ChatMessage("user", "And a vegetable?")]
    second = list(engine.generate(GenerateRequest(messages=history, settings=greedy,
                                                  options=DecodeOptions(max_tokens=30))))[-1]
    t1, t2 = first.timings, second.timings
    assert t2.n_prompt > t1.n_prompt + 5
    # Only the new turn is evaluated: everything of turn 1 (prompt and answer) comes from the cache.
    new_part = t2.n_prompt - t1.n_prompt - len(first.tokens)
    assert t2.n_prompt_eval <= new_part + 2, (t2.n_prompt_eval, new_part)
    assert t2.n_prompt_eval < t2.n_prompt / 2


def test_long_conversation_is_trimmed_oldest_first(engine):
    template = engine.template
    history = []
    for i in range(40):
        history += [ChatMessage("user", f"Question {i}: " + "tell me more " * 10),
                    ChatMessage("assistant", f"Answer {i}: " + "here is more " * 10)]
    history.append(ChatMessage("user", "Last question?"))
    prompt = build_chat_prompt(template, history, "Be brief.", engine.chat_tokens, n_ctx=512, reserve=128)
    assert len(prompt.tokens) <= 512 - 128
    assert prompt.trimmed_messages > 0 and prompt.trimmed_messages % 2 == 0
    assert "Be brief." in prompt.text and "Last question?" in prompt.text and "Question 0:" not in prompt.text
    assert any("left out" in n for n in prompt.notices)
    result = list(engine.generate(GenerateRequest(messages=history, system="Be brief.", settings=PRESETS["Greedy"],
                                                  options=DecodeOptions(max_tokens=16))))[-1]
    assert result.text and any("oldest message" in n for n in result.notices)


def test_one_message_longer_than_the_context_is_a_clear_error(engine):
    with pytest.raises(ContextOverflowError, match="too long"):
        list(engine.generate(GenerateRequest(messages=[ChatMessage("user", "word " * 5000)],
                                             options=DecodeOptions(max_tokens=16))))
