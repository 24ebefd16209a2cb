"""Reading a ggml tensor handed to a graph callback (llama.cpp's cb_eval): its name, shape and data.

The ggml_tensor struct is read at fixed offsets (ggml.h: type int32 at 0, ne int64[4] at 16, nb size_t[4]
at 48, name char[64] at 256); its data is copied out with `ggml_backend_tensor_get` from the ggml library
bundled with llama-cpp-python, which works whatever backend holds the tensor (CPU or GPU).
"""

from __future__ import annotations

import ctypes
import pathlib
from collections.abc import Callable
from functools import cache

import numpy as np

_TYPE_OFFSET = 0
_NE_OFFSET = 16
_NB_OFFSET = 48
_NAME_OFFSET = 256
_NAME_SIZE = 64

# ggml_type ids this module can turn into numpy (activations are F32; F16/BF16 for completeness)
_NUMPY_TYPES: dict[int, np.dtype] = {0: np.dtype(np.float32), 1: np.dtype(np.float16)}
_BF16 = 30


@cache
def _ggml_base() -> ctypes.CDLL:
    import llama_cpp
    from llama_cpp._ctypes_extensions import load_shared_library

    lib: ctypes.CDLL = load_shared_library("ggml-base", pathlib.Path(llama_cpp.__file__).parent / "lib")
    lib.ggml_backend_tensor_get.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t]
    lib.ggml_backend_tensor_get.restype = None
    lib.ggml_backend_tensor_set.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t]
    lib.ggml_backend_tensor_set.restype = None
    lib.ggml_nbytes.argtypes = [ctypes.c_void_p]
    lib.ggml_nbytes.restype = ctypes.c_size_t
    return lib


def tensor_name(ptr: int) -> bytes:
    """The tensor's name (b"l_out-3"); cheap: the callback asks it for every node of the graph."""
    return ctypes.string_at(ptr + _NAME_OFFSET, _NAME_SIZE).split(b"\0", 1)[0]


def tensor_shape(ptr: int) -> tuple[int, ...]:
    """numpy's shape: ggml's ne, reversed (ne[0] is the fastest-varying dimension)."""
    ne = (ctypes.c_int64 * 4).from_address(ptr + _NE_OFFSET)
    return tuple(int(n) for n in reversed(ne))


def read_tensor(ptr: int) -> np.ndarray:
    """A float32 copy of the tensor's data, in numpy's shape. Raises ValueError for a type or a layout it
    cannot read (quantized, non-contiguous)."""
    ggml_type = ctypes.c_int32.from_address(ptr + _TYPE_OFFSET).value
    shape = tensor_shape(ptr)
    nb = tuple(int(n) for n in (ctypes.c_size_t * 4).from_address(ptr + _NB_OFFSET))
    if ggml_type == _BF16:
        itemsize = 2
    elif ggml_type in _NUMPY_TYPES:
        itemsize = _NUMPY_TYPES[ggml_type].itemsize
    else:
        raise ValueError(f"tensor {tensor_name(ptr)!r} has ggml type {ggml_type}, not a float type")
    expected = itemsize
    for axis in range(4):  # nb[i] = bytes between elements along ne[i]: contiguous means packed in order
        if shape[3 - axis] > 1 and nb[axis] != expected:
            raise ValueError(f"tensor {tensor_name(ptr)!r} is not contiguous")
        expected *= shape[3 - axis]
    lib = _ggml_base()
    nbytes = int(lib.ggml_nbytes(ptr))
    if nbytes != expected:
        raise ValueError(f"tensor {tensor_name(ptr)!r}: {nbytes} bytes, expected {expected}")
    raw = np.empty(nbytes, dtype=np.uint8)
    lib.ggml_backend_tensor_get(ptr, raw.ctypes.data, 0, nbytes)
    if ggml_type == _BF16:
        return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32).reshape(shape)
    return raw.view(_NUMPY_TYPES[ggml_type]).astype(np.float32, copy=False).reshape(shape)


def write_tensor(ptr: int, values: np.ndarray) -> None:
    """Write `values` (the tensor's numpy shape) into an F32 tensor handed to the graph callback: the nodes
    computed after it read them (the scheduler stops at every node the callback accepts). Raises ValueError
    for another type or size."""
    ggml_type = ctypes.c_int32.from_address(ptr + _TYPE_OFFSET).value
    if ggml_type != 0:
        raise ValueError(f"tensor {tensor_name(ptr)!r} has ggml type {ggml_type}: only F32 can be written")
    data = np.ascontiguousarray(values, dtype=np.float32)
    lib = _ggml_base()
    nbytes = int(lib.ggml_nbytes(ptr))
    if data.nbytes != nbytes or data.shape != tensor_shape(ptr)[-data.ndim:]:
        raise ValueError(f"tensor {tensor_name(ptr)!r}: {nbytes} bytes, not {data.nbytes}")
    lib.ggml_backend_tensor_set(ptr, data.ctypes.data, 0, nbytes)


class _TypeTraits(ctypes.Structure):
    """ggml.h's struct ggml_type_traits."""
    _fields_ = [("type_name", ctypes.c_char_p), ("blck_size", ctypes.c_int64), ("blck_size_interleave", ctypes.c_int64),
                ("type_size", ctypes.c_size_t), ("is_quantized", ctypes.c_bool), ("to_float", ctypes.c_void_p),
                ("from_float_ref", ctypes.c_void_p)]


_ToFloat = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)


@cache
def _to_float(ggml_type: int, block: int, type_size: int) -> Callable[[int, int, int], None] | None:
    """ggml's own dequantizer of a type, if this ggml has one with the block layout the caller expects."""
    lib = _ggml_base()
    lib.ggml_get_type_traits.argtypes = [ctypes.c_int]
    lib.ggml_get_type_traits.restype = ctypes.POINTER(_TypeTraits)
    traits = lib.ggml_get_type_traits(ggml_type).contents
    if traits.blck_size != block or traits.type_size != type_size or not traits.to_float:
        return None
    fn: Callable[[int, int, int], None] = _ToFloat(traits.to_float)
    return fn


def dequantize_into(raw: np.ndarray, ggml_type: int, block: int, type_size: int, out: np.ndarray) -> bool:
    """Dequantize `raw` (uint8, contiguous) into `out` (float32, contiguous) with ggml's C code (5-10x faster
    than numpy, and it lets other threads run). False when ggml has no such dequantizer: use another."""
    to_float = _to_float(ggml_type, block, type_size)
    if (to_float is None or out.dtype != np.float32 or not out.flags.c_contiguous or not raw.flags.c_contiguous
            or raw.nbytes != out.size // block * type_size):
        return False
    to_float(raw.ctypes.data, out.ctypes.data, out.size)
    return True
