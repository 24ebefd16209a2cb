"""From hidden states to control-vector directions, in numpy, exactly as llama-cvector-generator computes them
(tools/cvector-generator: cvector-generator.cpp's calc_diff, mean.hpp, pca.hpp). No llama.cpp here.

- A pair's differences are positive - negative, row by row (token by token), and a row is dropped when no
  value in it exceeds 1e-6. The tool's test is signed (`> eps`, not `|x| > eps`): a row whose values are all
  negative is dropped too. We keep that, so the same rows are averaged.
- mean: the mean of every kept row of every pair (one pool per layer, not a mean of per-pair means), scaled
  to unit length.
- pca: power iteration on the uncentred square D^T D of the kept rows, from a random vector of uniform [0, 1)
  values scaled to unit length, `iterations / batch` rounds of at most `batch` steps, a round ending early when
  a step moves the vector less than 1e-7. The sign of the result is arbitrary (the tool's too).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

ZERO_ROW_EPS = 1e-6   # cvector-generator.cpp filter_nonzero_rows
PCA_TOLERANCE = 1e-7  # pca.hpp pca_params.tolerance


def kept_difference_rows(positive: np.ndarray, negative: np.ndarray) -> np.ndarray:
    """positive - negative ([n_tokens, n_embd] each), without the rows the tool drops as all-zero."""
    diff = positive.astype(np.float32) - negative.astype(np.float32)
    kept: np.ndarray = diff[(diff > ZERO_ROW_EPS).any(axis=1)]
    return kept


def _unit(v: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(v))
    unit: np.ndarray = (v / norm if norm > 0 else v).astype(np.float32)
    return unit


def mean_direction(rows: np.ndarray) -> np.ndarray:
    """The mean row, to unit length (float32 [n_embd])."""
    return _unit(rows.astype(np.float64).mean(axis=0))


def pca_direction(rows: np.ndarray, iterations: int, batch: int, rng: np.random.Generator,
                  should_cancel: Callable[[], bool] = lambda: False) -> np.ndarray:
    """The first principal direction of `rows` (uncentred, as the tool), by power iteration (float32 [n_embd])."""
    data = rows.astype(np.float64)
    square = data.T @ data
    vector: np.ndarray = np.asarray(rng.uniform(0.0, 1.0, size=square.shape[0]), dtype=np.float64)
    vector /= np.linalg.norm(vector)
    for _round in range(iterations // batch):
        if should_cancel():
            raise InterruptedError("control vector build cancelled")
        for _step in range(batch):
            new: np.ndarray = square @ vector
            norm = np.linalg.norm(new)
            if norm == 0:  # no difference at all in this layer: nothing to follow
                break
            new = new / norm
            moved = float(np.linalg.norm(vector - new))
            vector = new
            if moved < PCA_TOLERANCE:
                break  # the tool keeps the first converged step of a round and starts the next from it
    found: np.ndarray = vector.astype(np.float32)
    return found
