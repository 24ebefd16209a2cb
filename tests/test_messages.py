"""Lower-layer messages are templates with parameters: the same English text as before for the CLI and logs,
and the template kept (across the engine process too) so that the window can translate it."""

from __future__ import annotations

import pickle

import pytest

from logitscope.base.errors import DamagedModelError, LogitscopeError, ModelFileError, ModelLoadError
from logitscope.base.messages import Message, join_messages


def test_a_message_is_its_english_text_with_its_template():
    inner = Message("cannot read {path}: {reason}", path="/tmp/x", reason="gone")
    m = Message("{n:,} tokens, {name!r}, {seconds:g} s: {inner}", n=12345, name="a", seconds=2.50, inner=inner)
    assert m == "12,345 tokens, 'a', 2.5 s: cannot read /tmp/x: gone" and isinstance(m, str)
    assert m.template == "{n:,} tokens, {name!r}, {seconds:g} s: {inner}"
    assert m.params == {"n": "12,345", "name": "'a'", "seconds": "2.5", "inner": inner}
    assert m.params["inner"].template == "cannot read {path}: {reason}"  # a nested message stays one
    again = pickle.loads(pickle.dumps(m))
    assert again == m and again.template == m.template and again.params["inner"].template == inner.template
    assert Message("no {braces} filled") == "no {braces} filled"  # without parameters the text is the template


def test_an_error_reads_as_before_and_carries_its_message():
    err = ModelFileError("{path_name} is not a GGUF file (it does not start with 'GGUF')", path_name="x.gguf")
    assert str(err) == "x.gguf is not a GGUF file (it does not start with 'GGUF')"
    assert err.message.template.startswith("{path_name} is not a GGUF file")
    assert str(LogitscopeError("plain sentence")) == "plain sentence"
    damaged = DamagedModelError("{file} is damaged and cannot load: {problem}", "the card", file="f", problem="p")
    assert str(damaged) == "f is damaged and cannot load: p" and damaged.card == "the card"
    wrapped = LogitscopeError("the import failed: {exc}", exc=err)
    assert wrapped.message.params["exc"].template == err.message.template  # an error as a parameter: its Message


def test_joined_messages_keep_each_part():
    joined = join_messages("; ", [Message("fits"), Message("RAM: {free} free", free="1 GiB")])
    assert joined == "fits; RAM: 1 GiB free" and joined.params["m1"].template == "RAM: {free} free"


def test_a_damaged_file_error_keeps_its_template(tmp_path, demo_model):
    from logitscope.gguf.card import damaged_error, read_model_card_with_problems
    from tests.helpers import gguf_corpus

    damaged = gguf_corpus.with_metadata_patched(demo_model, tmp_path / "d.gguf", "llama.attention.head_count_kv", 0)
    error = damaged_error(read_model_card_with_problems(damaged))
    message = error.message
    assert message.template == "{file} is damaged and cannot load: {problem}"
    assert message.params["problem"].template == "{key} is {n_head_kv}: a {arch} model needs at least one KV head"
    assert str(error) == "d.gguf is damaged and cannot load: llama.attention.head_count_kv is 0: a llama " \
                                "model needs at least one KV head"


@pytest.mark.model
def test_the_template_crosses_the_engine_process(tmp_path):
    from logitscope.host.client import EngineClient
    from tests.helpers.gguf_corpus import tiny_gguf

    bad = tiny_gguf(tmp_path / "unknown-arch.gguf", "frobnicator")
    client = EngineClient()
    try:
        with pytest.raises(ModelLoadError) as caught:
            client.load(str(bad))
    finally:
        client.close()
    assert caught.value.message.template == "llama.cpp could not load {path_name}: {reason}"
    assert "unknown model architecture" in str(caught.value)
