"""llama.cpp's own samplers as the reference: apply one to real logits, read back what it left."""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

import llama_cpp
import numpy as np

from logitscope.engine.grammar import TOKEN_DATA
from logitscope.sampling.stages import Candidates

_P = ctypes.POINTER(llama_cpp.llama_token_data)


def apply(smpl, ids: np.ndarray, logits: np.ndarray, accept: Sequence[int] = (), free: bool = True,
          ) -> tuple[np.ndarray, np.ndarray, int]:
    """(ids, logits, selected) after llama_sampler_apply; tokens it marked -inf are dropped (our stages remove
    them). `selected` is llama.cpp's pick (an index into what is returned) or -1."""
    buf = np.zeros(len(ids), dtype=TOKEN_DATA)
    buf["id"], buf["logit"] = ids, logits
    arr = llama_cpp.llama_token_data_array(buf.ctypes.data_as(_P), len(ids), -1, False)
    for tok in accept:
        llama_cpp.llama_sampler_accept(smpl, int(tok))
    llama_cpp.llama_sampler_apply(smpl, ctypes.byref(arr))
    if free:
        llama_cpp.llama_sampler_free(smpl)
    offset = (ctypes.cast(arr.data, ctypes.c_void_p).value - buf.ctypes.data) // TOKEN_DATA.itemsize  # XTC moves it
    out = buf[offset:offset + arr.size]
    finite = np.isfinite(out["logit"])
    selected = int(arr.selected)
    if selected >= 0:
        selected = int(np.count_nonzero(finite[:selected]))
    return out["id"][finite].astype(np.int64), out["logit"][finite].copy(), selected


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x.astype(np.float64) - x.max())
    return e / e.sum()


def assert_same(ours: Candidates, ref_ids: np.ndarray, ref_logits: np.ndarray, rtol: float = 1e-6) -> None:
    """Same survivors, same logits, same probabilities (in any order)."""
    assert len(ours) == len(ref_ids), f"{len(ours)} survivors vs llama.cpp's {len(ref_ids)}"
    a, b = np.argsort(ours.ids), np.argsort(ref_ids)
    np.testing.assert_array_equal(ours.ids[a], ref_ids[b])
    np.testing.assert_allclose(ours.logits[a], ref_logits[b], rtol=rtol, atol=1e-5)
    np.testing.assert_allclose(softmax(ours.logits[a]), softmax(ref_logits[b]), atol=1e-6)


def full(logits: np.ndarray) -> Candidates:
    return Candidates(np.arange(len(logits), dtype=np.int32), logits.copy(), False, True)


def read_mu(smpl, v2: bool) -> float:
    """Mirostat's mu from llama.cpp's sampler state (src/llama-sampler.cpp: llama_sampler {iface, ctx}; ctx is
    llama_sampler_mirostat {int32 n_vocab; uint32 seed, seed_cur; float tau, eta; int32 m; float mu; ...} or
    llama_sampler_mirostat_v2 {uint32 seed, seed_cur; float tau, eta; float mu; ...})."""
    ctx = ctypes.cast(smpl, ctypes.POINTER(ctypes.c_void_p))[1]
    offset = 16 if v2 else 24
    return float(ctypes.c_float.from_address(ctx + offset).value)
