"""The whole vocabulary's softmax, by llama.cpp's own vectorised kernel.

Every step exponentiates every logit once (the raw distribution's log-sum-exp and entropy). ggml-cpu's
`ggml_vec_soft_max_f32` (exported by the libggml-cpu that llama-cpp-python ships) does it with SIMD: 29 µs on the
demo model's 49,152 logits against 73 for numpy's float32 exp on an AVX2 EPYC, and it sums in double. A
llama.cpp built without that library under that name (a dynamically loaded CPU backend) falls back to numpy,
which gives the same numbers within float32 rounding (tests/engine/test_sampler_vs_llama.py).
"""

from __future__ import annotations

import ctypes
import math
import pathlib
from typing import Any

import llama_cpp
import numpy as np


def _ggml_soft_max() -> Any:
    """ggml_float ggml_vec_soft_max_f32(const int n, float * y, const float * x, float max): y = exp(x - max),
    returns the sum of y."""
    try:  # llama-cpp-python's own loader (a private module: the version is pinned, a change falls back)
        from llama_cpp._ctypes_extensions import load_shared_library

        lib = load_shared_library("ggml-cpu", pathlib.Path(llama_cpp.__file__).parent / "lib")
        function = lib.ggml_vec_soft_max_f32
    except (ImportError, OSError, AttributeError, RuntimeError):  # no such library, loader or symbol
        return None
    function.restype = ctypes.c_double
    function.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_float]
    return function


GGML_SOFT_MAX = _ggml_soft_max()


def exp_sum(logits: np.ndarray, top: float, out: np.ndarray, use_ggml: bool = True) -> float:
    """out = exp(logits - top) in float32; returns its sum. `logits`: contiguous float32; `out`: the same
    length. `use_ggml=False`: numpy's way (the fallback, and the reference the kernel is tested against)."""
    assert logits.dtype == np.float32 and out.dtype == np.float32 and len(out) == len(logits)
    if use_ggml and GGML_SOFT_MAX is not None and logits.flags.c_contiguous and out.flags.c_contiguous:
        return float(GGML_SOFT_MAX(len(logits), out.ctypes.data, logits.ctypes.data, top))
    np.exp(np.subtract(logits, np.float32(top), out=out), out=out)
    return float(out.sum())


def softmax_stats(logits: np.ndarray, out: np.ndarray, use_ggml: bool = True) -> tuple[float, float, float]:
    """(max, log-sum-exp, entropy in nats) over all of `logits`; `out` receives exp(logits - max)."""
    top = float(logits.max())
    z = exp_sum(logits, top, out, use_ggml)
    lse = top + math.log(z)
    entropy = lse - float(np.dot(out, logits)) / z
    return top, lse, max(entropy, 0.0)
