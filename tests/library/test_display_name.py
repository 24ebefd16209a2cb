"""Models are named after their file or repository, not the converter's `general.name`."""

from __future__ import annotations

import pytest

from logitscope.library.display_name import model_display_name


@pytest.mark.parametrize("path,name", [
    ("/m/SmolLM2-135M-Instruct.Q4_1.gguf", "SmolLM2-135M-Instruct"),
    ("/m/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf", "Qwen2.5-0.5B-Instruct"),
    ("/m/Llama-3.2-1B-Instruct-IQ3_XXS.gguf", "Llama-3.2-1B-Instruct"),
    ("/m/phi-2.f16.gguf", "phi-2"),
    ("/m/big-model-Q8_0-00001-of-00003.gguf", "big-model"),
    ("/m/bartowski/gemma-2-2b-it-GGUF/model.gguf", "gemma-2-2b-it"),
    ("/m/TinyLlama-1.1B.gguf", "TinyLlama-1.1B"),
])
def test_display_name(path, name):
    assert model_display_name(path) == name
