"""Quantizing a model with llama.cpp's own `llama_model_quantize` (engine/quantize.py): the request, the result,
the types. Importable without llama.cpp (the CLI and the window's Model ▸ Quantize… use these with the engine
client).

The type names and their llama_ftype numbers are llama-quantize's (tools/quantize/quantize.cpp QUANT_OPTIONS,
include/llama.h enum llama_ftype); a file quantized here is byte for byte the file `llama-quantize [
--allow-requantize] [--imatrix FILE] IN OUT TYPE` writes. Bits per weight ("bpw") as llama.cpp prints them: the
bytes of every tensor x 8 / their elements.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.output_paths import check_output
from logitscope.gguf.header import read_header

PART_SUFFIX = ".part"   # the file being written; renamed to its name only when whole


@dataclass(frozen=True)
class QuantType:
    name: str
    ftype: int              # llama.h's enum llama_ftype
    description: str        # llama-quantize's own line for it
    needs_imatrix: bool = False


# The types llama-quantize lists (its QUANT_OPTIONS, same names and numbers), the commonly used ones first.
QUANT_TYPES: tuple[QuantType, ...] = (
    QuantType("Q8_0", 7, "7.96G, +0.0026 ppl @ Llama-3-8B"),
    QuantType("Q6_K", 18, "6.14G, +0.0217 ppl @ Llama-3-8B"),
    QuantType("Q5_K_M", 17, "5.33G, +0.0569 ppl @ Llama-3-8B"),
    QuantType("Q5_K_S", 16, "5.21G, +0.1049 ppl @ Llama-3-8B"),
    QuantType("Q5_1", 9, "5.65G, +0.1062 ppl @ Llama-3-8B"),
    QuantType("Q5_0", 8, "5.21G, +0.1316 ppl @ Llama-3-8B"),
    QuantType("Q4_K_M", 15, "4.58G, +0.1754 ppl @ Llama-3-8B"),
    QuantType("Q4_K_S", 14, "4.37G, +0.2689 ppl @ Llama-3-8B"),
    QuantType("Q4_1", 3, "4.78G, +0.4511 ppl @ Llama-3-8B"),
    QuantType("Q4_0", 2, "4.34G, +0.4685 ppl @ Llama-3-8B"),
    QuantType("IQ4_NL", 25, "4.50 bpw non-linear quantization"),
    QuantType("IQ4_XS", 30, "4.25 bpw non-linear quantization"),
    QuantType("Q3_K_L", 13, "4.03G, +0.5562 ppl @ Llama-3-8B"),
    QuantType("Q3_K_M", 12, "3.74G, +0.6569 ppl @ Llama-3-8B"),
    QuantType("Q3_K_S", 11, "3.41G, +1.6321 ppl @ Llama-3-8B"),
    QuantType("IQ3_M", 27, "3.66 bpw quantization mix"),
    QuantType("IQ3_S", 26, "3.44 bpw quantization"),
    QuantType("IQ3_XS", 22, "3.3 bpw quantization"),
    QuantType("IQ3_XXS", 23, "3.06 bpw quantization", needs_imatrix=True),
    QuantType("Q2_K", 10, "2.96G, +3.5199 ppl @ Llama-3-8B"),
    QuantType("Q2_K_S", 21, "2.96G, +3.1836 ppl @ Llama-3-8B", needs_imatrix=True),
    QuantType("IQ2_M", 29, "2.7  bpw quantization", needs_imatrix=True),
    QuantType("IQ2_S", 28, "2.5  bpw quantization", needs_imatrix=True),
    QuantType("IQ2_XS", 20, "2.31 bpw quantization", needs_imatrix=True),
    QuantType("IQ2_XXS", 19, "2.06 bpw quantization", needs_imatrix=True),
    QuantType("IQ1_M", 31, "1.75 bpw quantization", needs_imatrix=True),
    QuantType("IQ1_S", 24, "1.56 bpw quantization", needs_imatrix=True),
    QuantType("F16", 1, "14.00G, +0.0020 ppl @ Mistral-7B"),
    QuantType("BF16", 32, "14.00G, -0.0050 ppl @ Mistral-7B"),
    QuantType("F32", 0, "26.00G              @ 7B"),
)
QUANT_TYPE_NAMES: tuple[str, ...] = tuple(t.name for t in QUANT_TYPES)
# llama-quantize's aliases
_ALIASES = {"Q4_K": "Q4_K_M", "Q5_K": "Q5_K_M", "Q3_K": "Q3_K_M"}


def quant_type(name: str) -> QuantType:
    """A type by its name, any case, llama-quantize's aliases included; one clear error for another."""
    wanted = _ALIASES.get(name.upper(), name.upper())
    for qtype in QUANT_TYPES:
        if qtype.name == wanted:
            return qtype
    raise InvalidSettingsError("{name!r} is not a quantization type llama.cpp knows; one of {names}",
                               name=name, names=", ".join(QUANT_TYPE_NAMES))


@dataclass(frozen=True)
class QuantizeRequest:
    source: str
    target: str
    type: str
    allow_requantize: bool = False   # quantize tensors that are already quantized (llama-quantize's flag)
    imatrix: str | None = None       # an importance matrix (llama-imatrix's GGUF file, or the legacy .dat)
    threads: int = 0                 # 0: llama.cpp's default (every hardware thread)
    overwrite: bool = False          # replace an existing target

    def validate(self) -> None:
        qtype = quant_type(self.type)
        if qtype.needs_imatrix and not self.imatrix:   # as llama-quantize refuses it, before any work
            raise InvalidSettingsError("{type} needs an importance matrix made with llama-imatrix: give its file "
                                       "(llama-quantize's --imatrix FILE)", type=qtype.name)
        if not 0 <= self.threads <= 1024:
            raise InvalidSettingsError("threads must be between 0 (all) and 1024, not {threads}",
                                       threads=self.threads)
        try:
            self._validate_paths()
        except OSError as exc:  # a name too long for the file system, a path through a file: not a traceback
            raise InvalidSettingsError("cannot use the path {path}: {reason}",
                                       path=exc.filename or self.target, reason=exc.strerror or str(exc)) from exc

    def _validate_paths(self) -> None:
        source, target = Path(self.source), Path(self.target)
        if not source.is_file():
            raise InvalidSettingsError("{path} is not a file", path=self.source)
        if target.exists() and source.resolve() == target.resolve():
            raise InvalidSettingsError("the quantized model cannot replace the model it is made from: give "
                                       "another file name")
        if target.is_dir():
            raise InvalidSettingsError("{path} is a folder: give the file name of the quantized model",
                                       path=self.target)
        if target.exists() and not self.overwrite:
            raise InvalidSettingsError("{path} exists already: give another name, or replace it on purpose "
                                       "(--overwrite)", path=self.target)
        if not target.parent.is_dir():
            raise InvalidSettingsError("the folder {path} does not exist", path=str(target.parent))
        if self.imatrix is not None and not Path(self.imatrix).is_file():
            raise InvalidSettingsError("the importance matrix {path} is not a file", path=self.imatrix)
        check_output(target, (self.source, self.imatrix))   # a device or a pipe would be replaced by the rename

    @property
    def part(self) -> Path:
        return Path(self.target + PART_SUFFIX)


@dataclass(frozen=True)
class ModelSize:
    """A GGUF file's size and its bits per weight, as llama.cpp counts them."""
    file_bytes: int
    tensor_bytes: int
    n_elements: int

    @property
    def bpw(self) -> float:
        return self.tensor_bytes * 8 / self.n_elements if self.n_elements else 0.0


def model_size(path: str | Path) -> ModelSize:
    header = read_header(path)
    return ModelSize(file_bytes=header.file_size, tensor_bytes=sum(t.n_bytes for t in header.tensors),
                     n_elements=sum(t.n_elements for t in header.tensors))


@dataclass(frozen=True)
class QuantizeResult:
    type: str
    target: str
    before: ModelSize
    after: ModelSize
    seconds: float
