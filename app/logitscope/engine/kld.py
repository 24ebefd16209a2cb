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

BLOCK_VALUES = 1 << 21      # logits per block of rows (8 MiB of float32): the temporaries stay small
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


def _sum(x: np.ndarray) -> np.ndarray:
    """Row sums in float64, added left to right as the tool's loops add them (numpy's sum adds pairwise: the
    last bit differs, and a float cast of a log of it then may too)."""
    out: np.ndarray = np.cumsum(x, axis=1, dtype=np.float64)[:, -1]
    return out


def _logf(sums: np.ndarray) -> np.ndarray:
    """(float) log(double) per row, with C's log (numpy's vectorized log may differ in the last bit)."""
    return np.array([math.log(v) for v in sums.tolist()], dtype=np.float64).astype(_F)


def block_rows(n_vocab: int) -> int:
    return max(1, BLOCK_VALUES // n_vocab)


def quantize_rows(logits: np.ndarray, n_vocab: int) -> np.ndarray:
    """[rows, n_vocab] float32 logits -> [rows, row_width] uint16, as the tool's log_softmax(.., log_prob, ..)."""
    rows = logits.shape[0]
    mx = logits.max(axis=1)
    mn = np.maximum(logits.min(axis=1), mx - _F(16))
    lse = _logf(_sum(expf(logits - mx[:, None])))
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
                 at: np.ndarray) -> None:
    """Rows of the compared model's logits against the base file's rows for the same positions (targets: the
    text's next token of each row); the numbers go into `into` at token positions `at`."""
    step = block_rows(n_vocab)
    for b in range(0, len(logits), step):
        rows = slice(b, b + step)
        _compare_block(np.asarray(logits[rows], dtype=_F), base[rows], np.asarray(targets[rows]), n_vocab, into,
                       np.asarray(at[rows]))


def _compare_block(logits: np.ndarray, base: np.ndarray, targets: np.ndarray, n_vocab: int, into: KlTokens,
                   at: np.ndarray) -> None:
    r = np.arange(len(logits))
    mx = logits.max(axis=1)
    imax = logits.argmax(axis=1)
    lse = _logf(_sum(expf(logits - mx[:, None])))
    head = np.ascontiguousarray(base[:, :4]).view("<f4").astype(_F)
    scale, min_log_prob = head[:, 0], head[:, 1]
    q = base[:, 4:4 + n_vocab]
    target_logit = logits[r, targets]
    nll = (mx + lse) - target_logit
    nll_base = -(scale * q[r, targets].astype(_F) + min_log_prob)
    top = mx + lse
    p_log_base = scale[:, None] * q.astype(_F) + min_log_prob[:, None]
    imax_base = p_log_base.argmax(axis=1)
    terms = expf(p_log_base) * ((p_log_base - logits) + top[:, None])
    kld = _sum(np.where(p_log_base > _F(-16), terms, _F(0)))
    p_diff = expf(-nll) - expf(-nll_base)
    into.kld[at], into.p_diff[at], into.same_top[at] = kld, p_diff, imax == imax_base
    into.nll[at], into.nll_base[at], into.scored[at] = nll, nll_base, True
    best = np.argpartition(q, -BASE_TOP_N, axis=1)[:, -BASE_TOP_N:]
    best_lp = np.take_along_axis(p_log_base, best, axis=1)
    order = np.argsort(-best_lp, axis=1, kind="stable")
    into.base_top_ids[at] = np.take_along_axis(best, order, axis=1)
    into.base_top_logprobs[at] = np.take_along_axis(best_lp, order, axis=1)
