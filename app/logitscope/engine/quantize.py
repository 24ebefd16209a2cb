"""Quantizing a GGUF with llama.cpp's own `llama_model_quantize`, as `llama-quantize` does (protocol/quantize.py).

The parameters are llama-quantize's for the same arguments (its defaults, `--allow-requantize`, `--imatrix`, the
thread count), so the file is byte for byte the one the tool writes. llama.cpp quantizes in one blocking call
with no progress callback and no way to stop it: it runs on a thread of its own while this one reads the
progress from llama.cpp's log (a line per tensor, "[ 12/ 272] blk.1.attn_q.weight ..."), and a cancel is the
caller's to make by ending the engine process (host/quantize_job.py), which then deletes the half-written file.
The file is written under the target's name + ".part" and renamed when whole.

The importance matrix is read as llama-quantize reads it (common/imatrix-loader.cpp): llama-imatrix's GGUF
(`NAME.in_sum2` and `NAME.counts` tensors, the sums divided by the counts, per expert) or the legacy .dat
(sums divided by the call count); its file name, dataset and counts go into the output's metadata as the tool
writes them.
"""

from __future__ import annotations

import ctypes
import os
import re
import struct
import threading
import time
from collections.abc import Callable
from pathlib import Path

import llama_cpp
import numpy as np

from logitscope.base.errors import InvalidSettingsError, LogitscopeError
from logitscope.base.reading import NotAFileError, TooLargeError, read_bounded, require_regular
from logitscope.engine.handles import LlamaLog
from logitscope.protocol.quantize import QuantizeRequest, QuantizeResult, model_size, quant_type

PROGRESS_S = 0.1
MAX_LEGACY_IMATRIX_BYTES = 4 << 30   # far above any model's (a value per input column of each tensor)
_TENSOR_LINE = re.compile(r"^\[\s*(\d+)/\s*(\d+)\]")
_FAILED = re.compile(r"failed to quantize: (.*)$")
_QUANT_SIZE = re.compile(r"quant size\s*=\s*([\d.]+) MiB")
# llama-quantize's metadata keys for the importance matrix
_IMATRIX_FILE, _IMATRIX_DATASET = "quantize.imatrix.file", "quantize.imatrix.dataset"
_IMATRIX_ENTRIES, _IMATRIX_CHUNKS = "quantize.imatrix.entries_count", "quantize.imatrix.chunks_count"
_KV_INT, _KV_STR = 0, 3   # enum llama_model_kv_override_type


class Imatrix:
    """An importance matrix as llama-quantize hands it to llama.cpp: per tensor name, the mean squared
    activations; the datasets it was computed on and its chunk count (-1: not said)."""

    def __init__(self, entries: dict[str, np.ndarray], datasets: list[str], chunks: int) -> None:
        self.entries, self.datasets, self.chunks = entries, datasets, chunks


def read_imatrix(path: str) -> Imatrix:
    """llama-imatrix's GGUF file or the legacy .dat format; one clear error for anything else."""
    try:
        require_regular(Path(path))   # a pipe would be waited on, /dev/zero read without end
    except NotAFileError as exc:
        raise InvalidSettingsError("{path} is {kind}, not a file", path=path, kind=exc.kind) from None
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic == b"GGUF":
        return _read_gguf_imatrix(path)
    return _read_legacy_imatrix(path)


def _bad_imatrix(path: str, why: str) -> InvalidSettingsError:
    return InvalidSettingsError("{path} is not an importance matrix llama.cpp can read: {why}", path=path, why=why)


def _read_gguf_imatrix(path: str) -> Imatrix:
    import gguf

    try:
        reader = gguf.GGUFReader(path)
    except (ValueError, OSError, struct.error) as exc:
        raise _bad_imatrix(path, str(exc)) from None
    fields = reader.fields
    keys = ("imatrix.datasets", "imatrix.chunk_count", "imatrix.chunk_size")
    if not all(k in fields for k in keys):
        raise _bad_imatrix(path, "missing imatrix metadata")
    datasets_field = fields["imatrix.datasets"]
    datasets = [bytes(datasets_field.parts[i]).decode("utf-8", errors="replace") for i in datasets_field.data]
    chunks = int(fields["imatrix.chunk_count"].parts[-1][0])
    sums: dict[str, np.ndarray] = {}
    counts: dict[str, np.ndarray] = {}
    for tensor in reader.tensors:
        if tensor.tensor_type != gguf.GGMLQuantizationType.F32:
            raise _bad_imatrix(path, f"{tensor.name} is not F32")
        if tensor.name.endswith(".in_sum2"):
            sums[tensor.name[:-len(".in_sum2")]] = np.asarray(tensor.data, dtype=np.float32).reshape(-1)
        elif tensor.name.endswith(".counts"):
            counts[tensor.name[:-len(".counts")]] = np.asarray(tensor.data, dtype=np.float32).reshape(-1)
    if not sums and not counts:
        raise _bad_imatrix(path, "no data")
    entries: dict[str, np.ndarray] = {}
    for name in sorted(set(sums) | set(counts)):
        if name not in sums or name not in counts:
            raise _bad_imatrix(path, f"mismatched sums and counts for {name}")
        total, count = sums[name], np.rint(counts[name]).astype(np.float32)   # std::lround, then float
        per = total.reshape(len(count), -1)
        safe = np.where(count > 0, count, np.float32(1))[:, None]
        entries[name] = np.where(count[:, None] > 0, per / safe, np.float32(1)).astype(np.float32).reshape(-1)
    return Imatrix(entries, datasets, chunks)


def _read_legacy_imatrix(path: str) -> Imatrix:
    try:
        data = read_bounded(Path(path), MAX_LEGACY_IMATRIX_BYTES)
    except TooLargeError:
        raise _bad_imatrix(path, f"it is larger than {MAX_LEGACY_IMATRIX_BYTES >> 30} GiB") from None
    pos = 0

    def take(fmt: str) -> tuple[int, ...]:
        nonlocal pos
        size = struct.calcsize(fmt)
        if pos + size > len(data):
            raise _bad_imatrix(path, "it ends early")
        values = struct.unpack_from(fmt, data, pos)
        pos += size
        return values

    (n_entries,) = take("<i")
    if n_entries < 1:
        raise _bad_imatrix(path, "no data")
    entries: dict[str, np.ndarray] = {}
    for _ in range(n_entries):
        (length,) = take("<i")
        if not 0 < length < 4096:
            raise _bad_imatrix(path, "a tensor name of absurd length")
        name = data[pos:pos + length].decode("utf-8", errors="replace")
        pos += length
        ncall, nval = take("<ii")
        if nval < 1 or pos + 4 * nval > len(data):
            raise _bad_imatrix(path, f"no values for {name}")
        values = np.frombuffer(data, dtype="<f4", count=nval, offset=pos).astype(np.float32)
        pos += 4 * nval
        entries[name] = values / np.float32(ncall) if ncall > 0 else values.copy()
    chunks, datasets = -1, []
    if pos < len(data):
        (chunks,) = take("<i")
        if pos + 4 <= len(data):
            (length,) = take("<i")
            if length > 0 and pos + length <= len(data):
                datasets = [data[pos:pos + length].decode("utf-8", errors="replace")]
    return Imatrix(entries, datasets, chunks)


class _Params:
    """llama_model_quantize_params for a request, with what its pointers point to kept alive."""

    def __init__(self, request: QuantizeRequest, dry_run: bool) -> None:
        params = llama_cpp.llama_model_quantize_default_params()
        params.ftype = quant_type(request.type).ftype
        params.allow_requantize = request.allow_requantize
        params.nthread = request.threads
        params.dry_run = dry_run
        self._keep: list[object] = []
        overrides: list[tuple[str, int, int | str]] = []
        if request.imatrix is not None:
            imatrix = read_imatrix(request.imatrix)
            rows = (llama_cpp.llama_model_imatrix_data * (len(imatrix.entries) + 1))()
            for row, (name, values) in zip(rows, imatrix.entries.items(), strict=False):
                array = np.ascontiguousarray(values, dtype=np.float32)
                self._keep += [array, name.encode()]
                row.name = name.encode()
                row.data = array.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
                row.size = array.size
            params.imatrix = rows
            self._keep.append(rows)
            # the metadata llama-quantize writes (tools/quantize/quantize.cpp), in its order
            overrides.append((_IMATRIX_FILE, _KV_STR, request.imatrix))
            if imatrix.datasets:
                overrides.append((_IMATRIX_DATASET, _KV_STR, imatrix.datasets[0]))
            overrides.append((_IMATRIX_ENTRIES, _KV_INT, len(imatrix.entries)))
            if imatrix.chunks > 0:
                overrides.append((_IMATRIX_CHUNKS, _KV_INT, imatrix.chunks))
        if overrides:
            kv = (llama_cpp.llama_model_kv_override * (len(overrides) + 1))()
            for item, (key, tag, value) in zip(kv, overrides, strict=False):
                item.key = key.encode()
                item.tag = tag
                if isinstance(value, str):
                    item.value.val_str = value.encode()[:127]
                else:
                    item.value.val_i64 = value
            params.kv_overrides = kv
            self._keep.append(kv)
        self.params = params


def _call(request: QuantizeRequest, out: Path, dry_run: bool, log: LlamaLog) -> tuple[int, list[str]]:
    params = _Params(request, dry_run)
    mark = log.mark()
    rc = int(llama_cpp.llama_model_quantize(request.source.encode(), str(out).encode(),
                                            ctypes.byref(params.params)))
    return rc, log.since(mark)


def estimate_bytes(request: QuantizeRequest, log: LlamaLog) -> int:
    """What the quantized tensors will take (llama.cpp's dry run: nothing is written), plus the source's
    metadata: what the disk must hold."""
    request.validate()
    rc, lines = _call(request, request.part, True, log)
    sizes = [float(m.group(1)) for line in lines if (m := _QUANT_SIZE.search(line))]
    if rc != 0 or not sizes:
        raise _failed(log, lines)
    before = model_size(request.source)
    return int(sizes[-1] * 1024 * 1024) + (before.file_bytes - before.tensor_bytes) + (1 << 20)


def quantize(request: QuantizeRequest, log: LlamaLog,
             on_progress: Callable[[float], None] | None = None) -> QuantizeResult:
    """Quantize into request.part, then rename it to the target. On a failure nothing is left."""
    request.validate()
    part = request.part
    t0 = time.perf_counter()
    result: list[tuple[int, list[str]]] = []
    thread = threading.Thread(target=lambda: result.append(_call(request, part, False, log)),
                              name="llama-quantize", daemon=True)
    mark = log.mark()
    thread.start()
    try:
        while thread.is_alive():
            thread.join(PROGRESS_S)
            if on_progress is not None:
                done = [m for line in log.since(mark) if (m := _TENSOR_LINE.match(line))]
                if done:
                    on_progress(int(done[-1].group(1)) / max(int(done[-1].group(2)), 1))
        (rc, lines), = result
        if rc != 0:
            raise _failed(log, lines)
        os.replace(part, request.target)
    finally:
        if part.exists():
            part.unlink()
    return QuantizeResult(type=quant_type(request.type).name, target=request.target,
                          before=model_size(request.source), after=model_size(request.target),
                          seconds=time.perf_counter() - t0)


def _failed(log: LlamaLog, lines: list[str]) -> LogitscopeError:
    said = [m.group(1).strip() for line in lines if (m := _FAILED.search(line))]
    errors = said or [re.sub(r"^(\S+: )+", "", line.strip()) for line in lines if "error" in line.lower()]
    reason = errors[0] if errors else log.reason_since(log.mark())
    if "requantizing" in reason:
        return InvalidSettingsError("the model is quantized already ({reason}): allow requantizing "
                                    "(--allow-requantize) to quantize it again, at some cost in quality",
                                    reason=reason)
    return LogitscopeError("llama.cpp could not quantize the model: {reason}", reason=reason)
