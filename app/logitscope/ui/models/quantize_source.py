"""What the Quantize dialog says about its source before anything runs (Qt-free): the file's size, bits per
weight and main tensor type, whether it is quantized already, and the default name of the quantized file
(the source's folder and name with the new type: SmolLM2-135M-Instruct.Q4_1.gguf -> …Q4_K_M.gguf)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from logitscope.gguf.card import quant_mix
from logitscope.gguf.header import read_header
from logitscope.protocol.quantize import QUANT_TYPE_NAMES, ModelSize

# tensor types that are not quantized: a model of only these is quantized without --allow-requantize
UNQUANTIZED = frozenset({"F32", "F16", "BF16", "F64", "I8", "I16", "I32", "I64"})
_NAME_ALIASES = ("Q4_K", "Q5_K", "Q3_K")   # llama-quantize's, seen in file names too
# a type name ending the file name ("….Q4_K_M", "…-q8_0", "…_f16"): replaced by the new type
_TYPE_END = re.compile(r"(?i)([._-])(" + "|".join(sorted({*QUANT_TYPE_NAMES, *_NAME_ALIASES}, key=len, reverse=True))
                       + r")$")
_SPLIT_END = re.compile(r"-\d{5}-of-\d{5}$")   # a split model's first part: the quantized model is one file
REQUANTIZED_SUFFIX = "-requantized"             # the default when the type is the source's own


@dataclass(frozen=True)
class SourceFacts:
    size: ModelSize
    main_type: str          # the tensor type holding the most bytes ("Q4_1", "F16", …)
    quantized: bool         # some tensor is quantized already: llama.cpp refuses without allow_requantize


def read_source(path: str | Path) -> SourceFacts:
    """The source's facts from its GGUF header (milliseconds: the tensor data is not read). Raises
    ModelFileError (a LogitscopeError) for a file that is no GGUF."""
    header = read_header(path)
    size = ModelSize(file_bytes=header.file_size, tensor_bytes=sum(t.n_bytes for t in header.tensors),
                     n_elements=sum(t.n_elements for t in header.tensors))
    mix = quant_mix(header.tensors)
    return SourceFacts(size=size, main_type=mix[0].type_name if mix else "",
                       quantized=any(t.type_name.upper() not in UNQUANTIZED for t in header.tensors))


def default_target(source: str, type_name: str) -> str:
    """The source's folder and name with `type_name` in place of the type its name ends with (or added), never
    the source itself."""
    path = Path(source)
    stem = path.name[:-len(".gguf")] if path.name.lower().endswith(".gguf") else path.name
    stem = _SPLIT_END.sub("", stem)
    match = _TYPE_END.search(stem)
    base, sep = (stem[:match.start()], match.group(1)) if match else (stem, ".")
    target = path.with_name(f"{base}{sep}{type_name}.gguf")
    if target.name == path.name:
        target = path.with_name(f"{base}{sep}{type_name}{REQUANTIZED_SUFFIX}.gguf")
    return str(target)
