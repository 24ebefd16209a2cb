"""Quantization labels and split parts, from file names as they appear on the Hub."""

from __future__ import annotations

import pytest

from logitscope.library.filenames import SplitName, group_gguf_files, quant_label, split_name


@pytest.mark.parametrize(("name", "label"), [
    ("Llama-3.2-1B-Instruct-Q4_K_M.gguf", "Q4_K_M"),
    ("qwen2.5-0.5b-instruct-q4_k_m.gguf", "Q4_K_M"),
    ("SmolLM2-135M-Instruct.Q4_1.gguf", "Q4_1"),
    ("Meta-Llama-3-8B-Instruct.Q8_0.gguf", "Q8_0"),
    ("Qwen2.5-7B-Instruct-IQ4_XS.gguf", "IQ4_XS"),
    ("Mistral-7B-Instruct-v0.3-IQ2_XXS.gguf", "IQ2_XXS"),
    ("phi-2.Q5_K_S.gguf", "Q5_K_S"),
    ("gemma-3-1b-it-F16.gguf", "F16"),
    ("Qwen3-8B-BF16.gguf", "BF16"),
    ("model-f32.gguf", "F32"),
    ("gemma-3-4b-it-UD-Q4_K_XL.gguf", "UD-Q4_K_XL"),
    ("gpt-oss-20b-MXFP4.gguf", "MXFP4"),
    ("Q4_K_M/Qwen2.5-72B-Instruct-Q4_K_M-00001-of-00002.gguf", "Q4_K_M"),
    ("Qwen2.5-0.5B-Instruct.gguf", "unknown"),       # "Qwen" and "0.5B" are not quantizations
    ("llama-2-7b.ggmlv3.q4_0.gguf", "Q4_0"),
])
def test_quant_label(name, label):
    assert quant_label(name) == label


def test_split_name():
    assert split_name("dir/model-Q8_0-00002-of-00003.gguf") == SplitName("model-Q8_0", 2, 3)
    assert split_name("model-Q8_0.gguf") is None
    assert split_name("model-00004-of-00003.gguf") is None  # part 4 of 3 is no split name


def test_grouping_keeps_split_parts_together_and_reports_missing_ones():
    groups = group_gguf_files([
        "README.md",
        "Q8_0/m-Q8_0-00003-of-00003.gguf", "Q8_0/m-Q8_0-00001-of-00003.gguf", "Q8_0/m-Q8_0-00002-of-00003.gguf",
        "m-Q4_K_M.gguf",
        "F16/m-F16-00001-of-00002.gguf",                  # part 2 missing
        "other/m-Q8_0-00001-of-00003.gguf",              # same stem, another folder: another model
    ])
    by_name = {g.name: g for g in groups}
    assert set(by_name) == {"Q8_0/m-Q8_0-00001-of-00003.gguf", "m-Q4_K_M.gguf", "F16/m-F16-00001-of-00002.gguf",
                            "other/m-Q8_0-00001-of-00003.gguf"}
    full = by_name["Q8_0/m-Q8_0-00001-of-00003.gguf"]
    assert full.parts == ("Q8_0/m-Q8_0-00001-of-00003.gguf", "Q8_0/m-Q8_0-00002-of-00003.gguf",
                          "Q8_0/m-Q8_0-00003-of-00003.gguf")
    assert full.is_split and full.missing == []
    assert by_name["F16/m-F16-00001-of-00002.gguf"].missing == [2]
    assert by_name["other/m-Q8_0-00001-of-00003.gguf"].missing == [2, 3]
    assert not by_name["m-Q4_K_M.gguf"].is_split
