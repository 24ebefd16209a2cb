"""Building a control vector from prompt pairs, as llama.cpp's `llama-cvector-generator` does: what crosses
the process boundary (the request, the result) and the prompt files' format.

Importable without llama.cpp (the CLI reads the files and sends the prompts; the engine fills the result in
engine/steering/cvector_build.py). The prompt files are the tool's: one prompt per line, empty lines skipped,
escapes (`\\n`, `\\t`, `\\xHH`, ...) unescaped as llama.cpp's `string_process_escapes` does; the two files
must hold as many prompts, paired line by line (positive - negative).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.base.messages import Message
from logitscope.base.utf8 import read_file_bytes

CvectorMethod = Literal["mean", "pca"]
CVECTOR_METHODS: tuple[str, ...] = ("mean", "pca")
DEFAULT_PCA_ITERATIONS = 1000  # llama.cpp's --pca-iter default
DEFAULT_PCA_BATCH = 100        # llama.cpp's --pca-batch default
MAX_PROMPT_FILE_BYTES = 16 << 20

_SIMPLE_ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("'"): b"'", ord('"'): b'"',
                   ord("\\"): b"\\"}
_HEX = frozenset(b"0123456789abcdefABCDEF")


def unescape(line: bytes) -> bytes:
    """llama.cpp's string_process_escapes: `\\n \\r \\t \\' \\" \\\\` and `\\xHH`; any other escape stays as written."""
    out = bytearray()
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c != 0x5C or i + 1 >= n:  # not a backslash, or one at the very end
            out.append(c)
            i += 1
            continue
        e = line[i + 1]
        if e in _SIMPLE_ESCAPES:
            out += _SIMPLE_ESCAPES[e]
            i += 2
        elif e == ord("x") and i + 3 < n and line[i + 2] in _HEX and line[i + 3] in _HEX:
            out.append(int(line[i + 2:i + 4], 16))
            i += 4
        else:
            out += line[i:i + 2]
            i += 2
    return bytes(out)


def escape(prompt: bytes) -> bytes:
    """One prompt as one line of a prompt file: the inverse of `unescape` (backslashes, line breaks and tabs
    escaped), for writing files that llama-cvector-generator reads back as the same prompts."""
    return (prompt.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")
            .replace(b"\t", b"\\t"))


def parse_prompts(data: bytes) -> list[bytes]:
    """The prompts of a file's bytes: its lines (split on \\n, as std::getline), the empty ones skipped, unescaped."""
    return [unescape(line) for line in data.split(b"\n") if line]


def read_prompt_file(path: Path) -> list[bytes]:
    """The prompts of one file; one clear error when it cannot be read or holds none."""
    path = path.expanduser()
    data = read_file_bytes(path, MAX_PROMPT_FILE_BYTES,
                           Message("{path} is a folder, not a prompt file", path=str(path)),
                           Message("{path} is larger than {limit} MiB: not a prompt file", path=str(path),
                                   limit=MAX_PROMPT_FILE_BYTES >> 20))
    prompts = parse_prompts(data)
    if not prompts:
        raise InvalidSettingsError("{path} holds no prompt: one prompt per line is expected", path=str(path))
    return prompts


def read_prompt_pairs(positive: Path, negative: Path) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    pos, neg = read_prompt_file(positive), read_prompt_file(negative)
    if len(pos) != len(neg):
        raise InvalidSettingsError("{positive} holds {n_positive} prompts and {negative} {n_negative}: the two "
                                   "files pair their prompts line by line", positive=str(positive),
                                   n_positive=len(pos), negative=str(negative), n_negative=len(neg))
    return tuple(pos), tuple(neg)


@dataclass(frozen=True)
class CvectorRequest:
    """Prompt pairs (bytes, unescaped already) and how to reduce their differences to one direction per layer.
    `layer_range`: the first and last layer to build (inclusive, as llama.cpp's --control-vector-layer-range);
    None: every layer the tool writes, 1 .. n_layer - 1."""

    positive: tuple[bytes, ...]
    negative: tuple[bytes, ...]
    method: CvectorMethod = "mean"
    pca_iterations: int = DEFAULT_PCA_ITERATIONS
    pca_batch: int = DEFAULT_PCA_BATCH
    layer_range: tuple[int, int] | None = None
    seed: int = 0  # of PCA's random start (llama.cpp seeds it with the time: its sign then varies from run to run)

    def validate(self) -> None:
        if not self.positive or not self.negative:
            raise InvalidSettingsError("a control vector needs at least one pair of prompts")
        if len(self.positive) != len(self.negative):
            raise InvalidSettingsError("the positive and negative prompts pair up line by line, but there are "
                                       "{n_positive} positive and {n_negative} negative ones",
                                       n_positive=len(self.positive), n_negative=len(self.negative))
        if any(not p for p in (*self.positive, *self.negative)):
            raise InvalidSettingsError("a prompt is empty")
        if self.method not in CVECTOR_METHODS:
            raise InvalidSettingsError("unknown method {method}: mean or pca", method=self.method)
        if self.pca_batch < 1 or self.pca_iterations < 1:
            raise InvalidSettingsError("PCA iterations and batch must be at least 1")
        if self.seed < 0:   # (PCA's random start refused it after every prompt had been evaluated)
            raise InvalidSettingsError("the seed must be 0 or more, not {seed}", seed=self.seed)
        if self.pca_iterations % self.pca_batch:
            raise InvalidSettingsError("PCA iterations ({iterations}) must be a multiple of the PCA batch ({batch})",
                                       iterations=self.pca_iterations, batch=self.pca_batch)
        if self.layer_range is not None:
            first, last = self.layer_range
            if first < 1 or last < first:
                raise InvalidSettingsError("the layer range {first} {last} is not one: 1 <= first <= last",
                                           first=first, last=last)

    def layers(self, n_layer: int) -> list[int]:
        """The directions to build, by the number llama.cpp's file gives them (direction.N, N from 1)."""
        last_layer = n_layer - 1  # the tool drops the last layer: only one row of it is computed
        if self.layer_range is None:
            return list(range(1, last_layer + 1))
        first, last = self.layer_range
        if last > last_layer:
            raise InvalidSettingsError("the layer range ends at {last}, but this model's directions go from 1 to "
                                       "{last_layer}", last=last, last_layer=last_layer)
        return list(range(first, last + 1))


@dataclass
class CvectorResult:
    """One unit direction per layer: `directions[i]` is `direction.{layers[i]}` of llama.cpp's file."""

    layers: list[int]
    directions: np.ndarray          # float32 [len(layers), n_embd]
    model_hint: str                 # the model's general.architecture, as the tool writes it
    method: str
    n_pairs: int
    n_tokens: int                   # tokens evaluated (both prompts of each pair, padded)
    rows: list[int] = field(default_factory=list)  # difference rows kept per layer (all-zero ones dropped)
    eval_s: float = 0.0             # evaluating the prompts
    reduce_s: float = 0.0           # the mean or the PCA

    @property
    def n_embd(self) -> int:
        return int(self.directions.shape[1])
