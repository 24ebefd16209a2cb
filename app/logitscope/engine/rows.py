"""The numbers of each row of a block of logits that scoring shows: the text token's log-probability, the
entropy, the token's rank and the best alternatives — from the row's exponentials, however they were computed
(engine/score.py's own, or engine/kld.py's, which a KL comparison computes anyway)."""

from __future__ import annotations

import numpy as np

RowNumbers = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]

_TOP_BLOCK = 64     # values per block when looking for a row's best few


def top_ids(values: np.ndarray, k: int) -> np.ndarray:
    """The indices of each row's k largest values (ties in any order), [rows, k], unordered: the k blocks of
    _TOP_BLOCK values with the largest maxima hold them, so only those are searched (8x faster than
    argpartition over the whole row here)."""
    rows, n = values.shape
    n_blocks = -(-n // _TOP_BLOCK)
    if n % _TOP_BLOCK or n_blocks < k:   # padded with the lowest value there is: it never outranks a real one
        lowest = np.finfo(values.dtype).min if values.dtype.kind == "f" else np.iinfo(values.dtype).min
        padded = np.full((rows, max(n_blocks, k) * _TOP_BLOCK), lowest, dtype=values.dtype)
        padded[:, :n] = values
        values = padded
    s_row, s_col = values.strides
    blocks = np.lib.stride_tricks.as_strided(values, (rows, values.shape[1] // _TOP_BLOCK, _TOP_BLOCK),
                                             (s_row, _TOP_BLOCK * s_col, s_col), writeable=False)
    best_blocks = np.argpartition(blocks.max(axis=2), -k, axis=1)[:, -k:]
    candidates = np.take_along_axis(blocks, best_blocks[:, :, None], axis=1).reshape(rows, k * _TOP_BLOCK)
    pick = np.argpartition(candidates, -k, axis=1)[:, -k:]
    ids: np.ndarray = np.take_along_axis(best_blocks, pick // _TOP_BLOCK, axis=1) * _TOP_BLOCK + pick % _TOP_BLOCK
    outside = (ids >= n).any(axis=1)   # padding among the best: a row whose k-th value is the lowest there is
    if outside.any():
        ids[outside] = np.argpartition(values[outside, :n], -k, axis=1)[:, -k:]
    return ids


def row_numbers(logits: np.ndarray, mx: np.ndarray, shifted: np.ndarray, e: np.ndarray, sums: np.ndarray,
                targets: np.ndarray, top: int) -> RowNumbers:
    """Per row of logits [rows, n_vocab], given its max, logits - max, their exponentials and the float64 sums
    of those: (log-probability of the target, entropy in nats, rank of the target (how many logits are
    strictly higher), top ids, top log-probabilities)."""
    rows = np.arange(len(logits))
    log_s = np.log(sums)
    entropy = log_s - np.einsum("ij,ij->i", e, shifted, dtype=np.float64) / sums
    target_logit = logits[rows, targets]
    logprob = target_logit.astype(np.float64) - mx - log_s
    rank = np.count_nonzero(logits > target_logit[:, None], axis=1)
    if not top:
        return logprob, entropy, rank, np.zeros((len(logits), 0), np.int32), np.zeros((len(logits), 0), np.float32)
    ids = top_ids(shifted, top)
    values = np.take_along_axis(shifted, ids, axis=1)
    order = np.lexsort((ids, -values), axis=1)   # the best first; equal logits by token id
    best = np.take_along_axis(ids, order, axis=1).astype(np.int32)
    best_lp = (np.take_along_axis(values, order, axis=1) - log_s[:, None]).astype(np.float32)
    return logprob, entropy, rank, best, best_lp
