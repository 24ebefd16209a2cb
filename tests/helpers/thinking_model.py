"""A reasoning model without a download: a copy of the demo GGUF whose chat template opens `<think>` after the
assistant's header, as DeepSeek-R1's and QwQ's do (and, like theirs, drops earlier turns' thinking), written with
the `gguf` package. The demo model then answers inside a thinking block that only the budget closes."""

from __future__ import annotations

from pathlib import Path

import gguf
from gguf.scripts.gguf_new_metadata import MetadataDetails, copy_with_new_metadata

# SmolLM2's own template with the block opened after the assistant's header; an assistant turn's thinking is
# dropped when the turn is sent back (DeepSeek-R1's `content.split('</think>')[-1]`)
THINKING_TEMPLATE = (
    "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\\n' }}"
    "{% endif %}{% set content = message['content'] %}{% if message['role'] == 'assistant' and '</think>' in content %}"
    "{% set content = content.split('</think>')[-1].lstrip() %}{% endif %}"
    "{{'<|im_start|>' + message['role'] + '\\n' + content + '<|im_end|>' + '\\n'}}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n<think>\\n' }}{% endif %}")


# Qwen3's way: the model opens the block itself; `enable_thinking` false makes the template write an empty block
SWITCH_TEMPLATE = (
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}"
    "{% if enable_thinking is defined and enable_thinking is false %}{{ '<think>\\n\\n</think>\\n\\n' }}{% endif %}"
    "{% endif %}")


def make_thinking_model(source: Path, target: Path, template: str = THINKING_TEMPLATE) -> Path:
    reader = gguf.GGUFReader(source, "r")
    arch = reader.fields[gguf.Keys.General.ARCHITECTURE].contents()
    writer = gguf.GGUFWriter(target, arch=arch, endianess=reader.endianess)
    alignment = reader.fields.get(gguf.Keys.General.ALIGNMENT)
    if alignment is not None:
        writer.data_alignment = alignment.contents()
    details = MetadataDetails(gguf.GGUFValueType.STRING, template)
    copy_with_new_metadata(reader, writer, {gguf.Keys.Tokenizer.CHAT_TEMPLATE: details}, [])
    return target


# gpt-oss's Harmony format, reduced: the model writes its channels after `<|start|>assistant`
HARMONY_TEMPLATE = (
    "{% for message in messages %}{{'<|start|>' + message['role'] + '<|message|>' + message['content'] + '<|end|>'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|start|>assistant' }}{% endif %}"
    "{# the assistant writes <|channel|>analysis<|message|> ... <|end|><|start|>assistant<|channel|>final #}")
