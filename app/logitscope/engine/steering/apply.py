"""Control vectors and LoRA adapters on the generation context, as llama.cpp's common code applies them.

A request's Steering is applied to the context it runs on before it runs, and only when it differs from what
that context has: an unchanged steering costs a stat() per file, and nothing is added per token. Files are keyed on their path,
size and modification time, so an edited file is read again; loaded LoRA adapters stay cached on the model
(llama.cpp frees them with it), so swapping adapters between requests never reloads the model.
"""

from __future__ import annotations

import ctypes
import hashlib
from pathlib import Path
from typing import Any

import llama_cpp
import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.engine.handles import LlamaLog
from logitscope.gguf.control_vector import ControlVector, read_control_vector
from logitscope.gguf.lora import read_lora_metadata
from logitscope.protocol.steering import Steering, steering_or_none, steering_record

FileKey = tuple[str, int, int]  # resolved path, size, mtime_ns
HASH_CHUNK = 1 << 20


def file_key(path: str, lora: bool) -> FileKey:
    """What identifies a file's content cheaply; a clear error for a missing file or a folder."""
    resolved = Path(path).expanduser().resolve()
    if not resolved.exists():
        if lora:
            raise InvalidSettingsError("the LoRA adapter {path} does not exist", path=path)
        raise InvalidSettingsError("the control vector {path} does not exist", path=path)
    if not resolved.is_file():
        if lora:
            raise InvalidSettingsError("the LoRA adapter {path} is not a file", path=path)
        raise InvalidSettingsError("the control vector {path} is not a file", path=path)
    st = resolved.stat()
    return str(resolved), st.st_size, st.st_mtime_ns


def sha256_of(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def summed_vectors(vectors: list[tuple[ControlVector, float]], n_embd: int, n_layer: int) -> np.ndarray:
    """The buffer llama_set_adapter_cvec takes: n_embd floats per layer, layer 1 at offset 0 (layer 0 is never
    steered). As common_control_vector_load: each file's directions times its scale, in float32, then the
    files added in the order given. A layer past n_layer can never apply (llama.cpp's loop stops before
    n_layer) and is left out; the buffer covers every layer, so no stale values of an earlier vector stay."""
    total = np.zeros(n_embd * n_layer, dtype=np.float32)
    for vector, scale in vectors:
        one = np.zeros_like(total)
        for layer, direction in vector.directions.items():
            if layer <= n_layer:
                offset = n_embd * (layer - 1)
                one[offset:offset + n_embd] += direction * np.float32(scale)
        total += one
    return total


class SteeringFiles:
    """The control vectors and LoRA adapters read for one model, shared by all its contexts: a file is read,
    checked and hashed once, and an adapter is initialised once (llama.cpp frees adapters with the model)."""

    def __init__(self, model: llama_cpp.llama_model_p, n_layer: int, log: LlamaLog) -> None:
        self._model, self._log = model, log
        self.n_embd: int = llama_cpp.llama_model_n_embd(model)
        self.n_layer = n_layer
        self._vectors: dict[FileKey, tuple[ControlVector, str]] = {}
        self._adapters: dict[FileKey, tuple[llama_cpp.llama_adapter_lora_p, str]] = {}

    def vector(self, key: FileKey) -> tuple[ControlVector, str]:
        cached = self._vectors.get(key)
        if cached is None:
            vector = read_control_vector(key[0])
            vector.require_n_embd(self.n_embd)
            cached = self._vectors[key] = (vector, sha256_of(key[0]))
        return cached

    def adapter(self, key: FileKey) -> tuple[llama_cpp.llama_adapter_lora_p, str]:
        cached = self._adapters.get(key)
        if cached is None:
            read_lora_metadata(key[0])  # a file that is no adapter at all: its header says so more plainly
            mark = self._log.mark()
            ptr = llama_cpp.llama_adapter_lora_init(self._model, key[0].encode())
            if not ptr:  # another base model, not an adapter, a damaged file: llama.cpp says which in its log
                raise InvalidSettingsError("llama.cpp cannot apply the LoRA adapter {path} to this model: {reason}",
                                           path=key[0], reason=self._log.reason_since(mark))
            cached = self._adapters[key] = (ptr, sha256_of(key[0]))
        return cached


SteeringKey = tuple[Any, ...]  # what a context is steered with: vector files and scales, layer range, adapters
UNSTEERED: SteeringKey = ((), None, ())


class Steerer:
    """The steering of one llama.cpp context (the generation context, or a scoring, inspection or beam one)."""

    def __init__(self, ctx: llama_cpp.llama_context_p | None, files: SteeringFiles) -> None:
        assert ctx, "a steerer needs a context"
        self._ctx, self.files = ctx, files
        self.n_embd, self.n_layer = files.n_embd, files.n_layer
        self.applied: SteeringKey = UNSTEERED  # what the context has now
        self.record: dict[str, Any] | None = None  # the steering applied, as a trace records it

    def apply(self, steering: Steering | None) -> bool:
        """Make the context steered as `steering` says (None: not at all). Every file is read and checked
        before the context changes, so a bad one leaves it as it was. True when the context's computation
        changed: what its KV cache holds was computed otherwise and must not be reused."""
        steering = steering_or_none(steering)
        if steering is not None:
            steering.validate()
        vector_files = [(file_key(f.path, lora=False), f.scale)
                        for f in (steering.control_vectors if steering else ())]
        layer_range = steering.layer_range(self.n_layer) if steering and vector_files else None
        if steering is not None and layer_range is not None and layer_range[0] > self.n_layer - 1:  # (layer 0: never)
            raise InvalidSettingsError("the control vector layer range {start} {end} steers no layer: this model's "
                                       "layers 1 to {last} take a control vector", start=layer_range[0],
                                       end=steering.layer_end or layer_range[1], last=self.n_layer - 1)
        lora_files = [(file_key(f.path, lora=True), f.scale) for f in (steering.loras if steering else ())]
        wanted = (tuple(vector_files), layer_range, tuple(lora_files))
        if wanted == self.applied:
            return False
        vectors = [(self.files.vector(key), scale) for key, scale in vector_files]
        adapters = [(self.files.adapter(key), scale) for key, scale in lora_files]
        if wanted[:2] != self.applied[:2]:
            self._set_vectors([(v, s) for (v, _sha), s in vectors], layer_range)
            self.applied = (*wanted[:2], self.applied[2])
        if wanted[2] != self.applied[2]:
            self._set_adapters([(ptr, s) for (ptr, _sha), s in adapters])
        self.applied = wanted
        self.record = None if steering is None else steering_record(
            [_entry(key, sha, scale) for (key, scale), ((_v, sha), _s) in zip(vector_files, vectors, strict=True)],
            layer_range,
            [_entry(key, sha, scale) for (key, scale), ((_p, sha), _s) in zip(lora_files, adapters, strict=True)])
        return True

    def _set_vectors(self, vectors: list[tuple[ControlVector, float]], layer_range: tuple[int, int] | None) -> None:
        if layer_range is None:  # NULL data: llama.cpp stops adding the vector (its tensors stay allocated)
            rc = llama_cpp.llama_set_adapter_cvec(self._ctx, ctypes.POINTER(ctypes.c_float)(), 0, self.n_embd, -1, -1)
        else:
            data = summed_vectors(vectors, self.n_embd, self.n_layer)
            rc = llama_cpp.llama_set_adapter_cvec(self._ctx, data.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                                                  data.size, self.n_embd, *layer_range)  # llama.cpp copies it
        if rc != 0:
            raise InvalidSettingsError("llama.cpp refused the control vector (error {rc})", rc=rc)

    def _set_adapters(self, adapters: list[tuple[llama_cpp.llama_adapter_lora_p, float]]) -> None:
        n = len(adapters)
        pointer = llama_cpp.llama_adapter_lora_p_ctypes
        ptrs = (pointer * n)(*(ctypes.cast(ptr, pointer) for ptr, _ in adapters)) if n else None
        scales = (ctypes.c_float * n)(*(scale for _, scale in adapters)) if n else None
        rc = llama_cpp.llama_set_adapters_lora(self._ctx, ptrs, n, scales)
        if rc != 0:
            raise InvalidSettingsError("llama.cpp could not set the LoRA adapters (error {rc})", rc=rc)


def _entry(key: FileKey, sha256: str, scale: float) -> dict[str, Any]:
    return {"file": Path(key[0]).name, "path": key[0], "sha256": sha256, "scale": scale}

