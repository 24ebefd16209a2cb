"""A model's name for people: from its file (or its repository's folder), not the GGUF's `general.name`.

Converters fill `general.name` from training-run names ("Smollm2 135M 8k Lc100K Mix1 Ep2"); the file name
is what the user downloaded and recognises ("SmolLM2-135M-Instruct.Q4_1.gguf" -> "SmolLM2-135M-Instruct").
"""

from __future__ import annotations

import re
from pathlib import Path

SPLIT_PART = re.compile(r"-\d{5}-of-\d{5}$")                      # model-00001-of-00003.gguf
QUANT = re.compile(r"[.\-_](?:u?i?q\d\w*|f16|f32|bf16|fp16|fp32)$", re.IGNORECASE)  # .Q4_1, -Q4_K_M, -IQ3_XXS, -f16
GENERIC = frozenset({"model", "ggml-model", "ggml_model", "gguf", "weights"})
REPO_SUFFIX = re.compile(r"[-_]gguf$", re.IGNORECASE)


def model_display_name(path: str | Path) -> str:
    """The file's name without its extension, split part and quantization; the folder's (the repository's
    name, without "-GGUF") when the file's name says nothing."""
    p = Path(path)
    stem = p.name.removesuffix(".gguf").removesuffix(".GGUF")
    stem = QUANT.sub("", SPLIT_PART.sub("", stem))
    if stem.lower() in GENERIC or not stem:
        folder = REPO_SUFFIX.sub("", p.parent.name)
        return folder or p.name
    return stem
