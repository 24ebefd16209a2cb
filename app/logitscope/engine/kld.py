"""llama-perplexity's KL-divergence arithmetic (tools/perplexity/perplexity.cpp), vectorized over blocks of rows of
logits, in the same float32 steps (and float64 sums) as the tool, so that its printed figures come out the
same (protocol/kld.py has the file format and the statistics).

- BaseWriter: the base model's distributions written as the tool's `--kl-divergence-base` file: per row, the
  log-probabilities quantized to uint16 between max - 16 nats (or the minimum) and the maximum.
- compare_rows: a second model's rows against the base file's: KLD, Δp, top-1 agreement, both NLLs.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.engine.rows import RowNumbers, row_numbers, top_ids
from logitscope.protocol.kld import (
    BASE_TOP_N,
    KLD_HEADER,
    KLD_MAGIC,
    KldHeader,
    KlTokens,
    kld_file_bytes,
    read_kld_header,
    row_width,
    scored_per_chunk,
)

BLOCK_VALUES = 1 << 19      # logits per block of rows (2 MiB of float32): the temporaries stay in the cache
_F = np.float32


# glibc's expf (sysdeps/ieee754/flt-32/e_expf.c, from ARM's optimized routines), which llama-perplexity calls:
# exp(x) = 2^(k/32) * 2^(r/32), a 32-entry table of 2^(i/32) and a cubic, in double precision, rounded to float.
# numpy's float32 exp differs from it in the last bit for ~14 % of values and float64 exp rounded to float for
# ~0.06 %: either moves a printed KLD digit or a byte of the base file now and then (measured on the demo model).
# This one agrees with glibc's bit for bit (checked on 350,000 values, underflow included: tests/engine/test_kld.py).
_EXP2_BITS = 5
_N = 1 << _EXP2_BITS
_EXP2_TABLE = np.array([int(np.array([float(Decimal(2) ** (Decimal(i) / _N))]).view(np.uint64)[0]) - (i << 47)
                        for i in range(_N)], dtype=np.uint64)
_SHIFT = float.fromhex("0x1.8p+52")
_INV_LN2_N = float.fromhex("0x1.71547652b82fep+0") * _N
_C0 = float.fromhex("0x1.c6af84b912394p-5") / _N / _N / _N
_C1 = float.fromhex("0x1.ebfce50fac4f3p-3") / _N / _N
_C2 = float.fromhex("0x1.62e42ff0c52d6p-1") / _N
_UNDERFLOW = np.float32(float.fromhex("-0x1.9fe368p6"))   # below: 0


def expf(x: np.ndarray) -> np.ndarray:
    """C's expf of float32 values (x <= 88: the logits the callers pass are shifted to <= 0)."""
    z = _INV_LN2_N * x.astype(np.float64)
    kd = z + _SHIFT
    ki = kd.view(np.uint64)
    r = z - (kd - _SHIFT)
    s = (_EXP2_TABLE[(ki % np.uint64(_N)).astype(np.intp)] + (ki << np.uint64(47))).view(np.float64)
    y = ((_C0 * r + _C1) * (r * r) + (_C2 * r + 1)) * s
    out: np.ndarray = np.where(x < _UNDERFLOW, _F(0), y.astype(_F))
    return out


# The fast way to the same bits: numpy's float64 exp (within a few double ulps of the exact value) rounded to
# float is glibc's result except where the exact value lies within glibc's own error (0.002 float ulp: its 0.502
# ulp bound) of a rounding midpoint; those (~2 % of values at this margin) and subnormal results go through
# expf above. 19 -> ~5 ns a value here; test_kld checks the two agree bit for bit.
_BELOW_FLOAT = np.uint64((1 << 29) - 1)      # a double's mantissa bits a float drops
_NEAR_MIDPOINT = int(0.01 * (1 << 29))       # 0.01 float ulp: five times glibc's margin
_NEAR_LOW = np.uint64((1 << 28) - _NEAR_MIDPOINT + 1)   # the window of dropped bits around the midpoint (1 << 28)
_NEAR_WIDTH = np.uint64(2 * _NEAR_MIDPOINT - 1)
_SUBNORMAL = np.float32(-87.33)              # expf below: a subnormal float, rounded at another bit
_EXP_BLOCK = 1 << 16                         # values per step: the float64 temporaries stay in the cache


def fast_expf(x: np.ndarray) -> np.ndarray:
    """expf of float32 values, bit for bit, in blocks."""
    flat = np.ascontiguousarray(x, dtype=_F).reshape(-1)
    out = np.empty_like(flat)
    for b in range(0, len(flat), _EXP_BLOCK):
        xs = flat[b:b + _EXP_BLOCK]
        y = np.exp(xs, dtype=np.float64)
        # |dropped bits - midpoint| < margin, as one unsigned comparison (below the window it wraps round)
        dropped = y.view(np.uint64) & _BELOW_FLOAT
        dropped -= _NEAR_LOW
        unsure = dropped < _NEAR_WIDTH
        if xs.min() < _SUBNORMAL:
            unsure |= xs < _SUBNORMAL
        block = out[b:b + _EXP_BLOCK]
        block[:] = y
        where = np.flatnonzero(unsure)
        if len(where):
            block[where] = expf(xs[where])
    return out.reshape(x.shape)


# The tool adds each row's values first to last in a double. Adding them pairwise (numpy's sum, 7x faster than
# any in-order way numpy has) lands within n * 2 eps * sum|values| of that: where every double in that bound
# rounds to the same float (the float the tool keeps: its log-sum-exp, its KLD for the percentiles), the
# pairwise sum gives the tool's float; the few rows where it might not are added in order.
_ORDER_ERROR = 2.0 * float(np.finfo(np.float64).eps)


def _same_float(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Whether every double between low and high rounds to one float (rounding is monotone)."""
    same: np.ndarray = low.astype(_F) == high.astype(_F)
    return same


def _in_order(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.cumsum(x, axis=1, dtype=np.float64)[:, -1]
    return out


def _log(sums: np.ndarray) -> np.ndarray:
    """log(double) per row, with C's log (numpy's vectorized log may differ in the last bit)."""
    return np.array([math.log(v) for v in sums.tolist()], dtype=np.float64)


def _exp_rows(logits: np.ndarray, mx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(logits - max, their expf as the tool computes them, each row's pairwise float64 sum)."""
    shifted = logits - mx[:, None]
    e = fast_expf(shifted)
    return shifted, e, e.sum(axis=1, dtype=np.float64)


def _lse_float(e: np.ndarray, sums: np.ndarray) -> np.ndarray:
    """(float) log(sum of expf(logit - max)) per row, as the tool computes it (the sum >= 1: the max's term)."""
    logs = _log(sums)
    slack = (e.shape[1] * _ORDER_ERROR) + 4 * float(np.finfo(np.float64).eps) * np.abs(logs)  # log's own ulps too
    unsure = ~_same_float(logs - slack, logs + slack)
    if unsure.any():
        logs[unsure] = _log(_in_order(e[unsure]))
    out: np.ndarray = logs.astype(_F)
    return out


def _log_sum_exp(logits: np.ndarray, mx: np.ndarray) -> np.ndarray:
    _shifted, e, sums = _exp_rows(logits, mx)
    return _lse_float(e, sums)


def _kld_sums(terms: np.ndarray) -> np.ndarray:
    """Per row the tool's KLD: its double (to its last bits; nothing it prints can show them) whose float, which
    its percentiles read, is the tool's."""
    sums: np.ndarray = terms.sum(axis=1, dtype=np.float64)
    bound = (terms.shape[1] * _ORDER_ERROR) * np.abs(terms).sum(axis=1, dtype=np.float64)
    unsure = ~_same_float(sums - bound, sums + bound)
    if unsure.any():
        sums[unsure] = _in_order(terms[unsure])
    return sums


def block_rows(n_vocab: int) -> int:
    return max(1, BLOCK_VALUES // n_vocab)


def quantize_rows(logits: np.ndarray, n_vocab: int) -> np.ndarray:
    """[rows, n_vocab] float32 logits -> [rows, row_width] uint16, as the tool's log_softmax(.., log_prob, ..)."""
    rows = logits.shape[0]
    mx = logits.max(axis=1)
    mn = np.maximum(logits.min(axis=1), mx - _F(16))
    lse = _log_sum_exp(logits, mx)
    min_log_prob = (mn - mx) - lse
    scale = (mx - mn) / _F(65535)
    out = np.zeros((rows, row_width(n_vocab)), dtype=np.uint16)
    out[:, :4] = np.stack([scale, min_log_prob], axis=1).astype("<f4").view(np.uint16)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(scale != 0, _F(1) / scale, _F(0)).astype(_F)
        q = inv[:, None] * (logits - mn[:, None])
    values = np.where((logits > mn[:, None]) & (scale != 0)[:, None], np.rint(q), _F(0))
    out[:, 4:4 + n_vocab] = values.astype(np.uint16)
    return out


class BaseWriter:
    """Writes the base file as the chunks are scored; the file is whole only once close() ran after the last
    chunk (else it is deleted: a cut-off file would be read as a shorter text)."""

    def __init__(self, path: str, n_ctx: int, n_vocab: int, tokens: Sequence[int]) -> None:
        self.n_ctx, self.n_vocab = n_ctx, n_vocab
        n_chunk = len(tokens) // n_ctx
        self.expected = kld_file_bytes(n_ctx, n_vocab, n_chunk)
        self.path = Path(path)
        try:
            self._f = open(self.path, "wb")   # noqa: SIM115 - closed in close()/discard()
        except OSError as exc:
            raise InvalidSettingsError("cannot write {path}: {reason}", path=path,
                                       reason=exc.strerror or str(exc)) from None
        self._write(KLD_HEADER.pack(KLD_MAGIC, n_ctx, n_vocab, n_chunk))
        self._write(np.asarray(tokens[:n_chunk * n_ctx], dtype="<i4").tobytes())

    def _write(self, data: bytes) -> None:
        try:
            self._f.write(data)
        except OSError as exc:
            self.discard()
            raise InvalidSettingsError("writing {path} failed: {reason}", path=str(self.path),
                                       reason=exc.strerror or str(exc)) from None

    def rows(self, logits: np.ndarray) -> None:
        for b in range(0, len(logits), block_rows(self.n_vocab)):
            self._write(quantize_rows(np.asarray(logits[b:b + block_rows(self.n_vocab)], dtype=_F),
                                      self.n_vocab).tobytes())

    def close(self) -> None:
        try:
            self._f.close()
        except OSError as exc:
            self.discard()
            raise InvalidSettingsError("writing {path} failed: {reason}", path=str(self.path),
                                       reason=exc.strerror or str(exc)) from None
        if self.path.stat().st_size != self.expected:
            self.discard()
            raise InvalidSettingsError("writing {path} failed: it did not come out the size its header says",
                                       path=str(self.path))

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self._f.close()
        with contextlib.suppress(OSError):
            self.path.unlink()


class BaseReader:
    """The base file's rows, read as the chunks are scored."""

    def __init__(self, header: KldHeader) -> None:
        self.header = header
        self.width = row_width(header.n_vocab)
        self._rows = np.memmap(header.path, dtype="<u2", mode="r", offset=header.data_offset,
                               shape=(header.n_chunk * scored_per_chunk(header.n_ctx), self.width))

    def rows(self, first: int, n: int) -> np.ndarray:
        return np.asarray(self._rows[first:first + n])

    def close(self) -> None:
        mm = getattr(self._rows, "_mmap", None)
        if mm is not None:
            mm.close()


def open_base(path: str, n_vocab: int) -> BaseReader:
    header = read_kld_header(path)
    if header.n_vocab != n_vocab:
        raise InvalidSettingsError("{path} holds distributions over {n_file:,} tokens and this model has "
                                   "{n_vocab:,}: a KL divergence needs models that share one vocabulary",
                                   path=path, n_file=header.n_vocab, n_vocab=n_vocab)
    return BaseReader(header)


def compare_rows(logits: np.ndarray, base: np.ndarray, targets: np.ndarray, n_vocab: int, into: KlTokens,
                 at: np.ndarray, top: int) -> RowNumbers:
    """Rows of the compared model's logits against the base file's rows for the same positions (targets: the
    text's next token of each row); the numbers go into `into` at token positions `at`. Returns the rows' own
    numbers (engine/rows.py, with `top` alternatives) from the same exponentials: no second pass to score them."""
    step = block_rows(n_vocab)
    parts = [_compare_block(np.asarray(logits[b:b + step], dtype=_F), base[b:b + step],
                            np.asarray(targets[b:b + step]), n_vocab, into, np.asarray(at[b:b + step]), top)
             for b in range(0, len(logits), step)]
    lp, ent, rk, ti, tl = (np.concatenate([part[k] for part in parts]) for k in range(5))
    return lp, ent, rk, ti, tl


def _best_base_token(q: np.ndarray, scale: np.ndarray, min_log_prob: np.ndarray,
                     p_log_base: np.ndarray) -> np.ndarray:
    """The tool's imax_base: the first token of the largest scale * q + min_log_prob. That float is monotone in
    q, so it is the first of the largest q (an argmax over uint16) unless the next lower q rounds to the same
    float (a nearly flat row, a tiny scale): those rows take the float argmax."""
    best = q.argmax(axis=1)
    top_q = q[np.arange(len(q)), best].astype(_F)
    ties = scale * top_q + min_log_prob == scale * np.maximum(top_q - _F(1), _F(0)) + min_log_prob
    if ties.any():
        best[ties] = p_log_base[ties].argmax(axis=1)
    out: np.ndarray = best
    return out


def _compare_block(logits: np.ndarray, base: np.ndarray, targets: np.ndarray, n_vocab: int, into: KlTokens,
                   at: np.ndarray, top_n: int) -> RowNumbers:
    r = np.arange(len(logits))
    mx = logits.max(axis=1)
    imax = logits.argmax(axis=1)
    shifted, e, sums = _exp_rows(logits, mx)
    lse = _lse_float(e, sums)
    head = np.ascontiguousarray(base[:, :4]).view("<f4").astype(_F)
    scale, min_log_prob = head[:, 0], head[:, 1]
    q = base[:, 4:4 + n_vocab]
    target_logit = logits[r, targets]
    nll = (mx + lse) - target_logit
    nll_base = -(scale * q[r, targets].astype(_F) + min_log_prob)
    top = mx + lse
    p_log_base = scale[:, None] * q.astype(_F) + min_log_prob[:, None]
    imax_base = _best_base_token(q, scale, min_log_prob, p_log_base)
    terms = fast_expf(p_log_base)
    terms *= (p_log_base - logits) + top[:, None]
    np.multiply(terms, p_log_base > _F(-16), out=terms)   # the tool skips the rest (x 0: 10x a masked store)
    kld = _kld_sums(terms)
    p_diff = expf(-nll) - expf(-nll_base)
    into.kld[at], into.p_diff[at], into.same_top[at] = kld, p_diff, imax == imax_base
    into.nll[at], into.nll_base[at], into.scored[at] = nll, nll_base, True
    best = top_ids(q, BASE_TOP_N)
    best_lp = scale[:, None] * np.take_along_axis(q, best, axis=1).astype(_F) + min_log_prob[:, None]
    order = np.argsort(-best_lp, axis=1, kind="stable")
    into.base_top_ids[at] = np.take_along_axis(best, order, axis=1)
    into.base_top_logprobs[at] = np.take_along_axis(best_lp, order, axis=1)
    return row_numbers(logits, mx, shifted, e, sums, targets, top_n)
