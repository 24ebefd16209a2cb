"""One answer read by two engines (protocol/forced_compare.py): A's full next-token distributions saved in
llama.cpp's quantized row format (engine/kld.py quantize_rows, as `llama-perplexity --kl-divergence-base`
writes them), then B's compared with them row by row (engine/kld.py compare_rows), on each engine's scoring
context (engine/score.py): the chat's KV cache is left as it was.

The prompt and the answer are evaluated in one window per engine, logits only at the positions that predict
tokens[first:] (position p's logits predict token p + 1).
"""

from __future__ import annotations

from collections.abc import Callable

import llama_cpp
import numpy as np

from logitscope.base.errors import ContextOverflowError, InvalidSettingsError
from logitscope.engine.handles import default_threads
from logitscope.engine.kld import block_rows, compare_rows, quantize_rows
from logitscope.engine.runtime import Runtime
from logitscope.engine.score import Scorer
from logitscope.protocol.forced_compare import ForcedKl, check_span
from logitscope.protocol.kld import BASE_TOP_N, row_width
from logitscope.protocol.steering import Steering


def _outputs(scorer: Scorer, tokens: list[int], first: int) -> np.ndarray:
    check_span(tokens, first)
    scorer.check_ids(tokens)
    if len(tokens) > scorer.rt.n_ctx:
        raise ContextOverflowError("{n_tokens} tokens do not fit in the model's context of {n_ctx}",
                                   n_tokens=len(tokens), n_ctx=scorer.rt.n_ctx)
    wanted = np.zeros(len(tokens), dtype=bool)
    wanted[first - 1:len(tokens) - 1] = True
    return wanted


def save_distributions(scorer: Scorer, tokens: list[int], first: int, path: str, steering: Steering | None = None,
                       should_cancel: Callable[[], bool] = lambda: False) -> int:
    """Write the distributions predicting tokens[first:] to `path` (np.save of [n, row_width] uint16 rows);
    returns n. A file cut off by an error or a cancel is left for the caller to delete (it made the name)."""
    tokens = [int(t) for t in tokens]
    wanted = _outputs(scorer, tokens, first)
    n_vocab = scorer.rt.n_vocab
    n = len(tokens) - first
    try:
        rows = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint16, shape=(n, row_width(n_vocab)))
    except OSError as exc:
        raise InvalidSettingsError("cannot write {path}: {reason}", path=path, reason=exc.strerror or str(exc)) from None
    step = block_rows(n_vocab)

    def on_rows(positions: np.ndarray, logits: np.ndarray) -> None:
        at = positions - (first - 1)
        for b in range(0, len(at), step):
            rows[at[b:b + step]] = quantize_rows(np.asarray(logits[b:b + step], dtype=np.float32), n_vocab)

    scorer.evaluate_steered(tokens, wanted, steering, on_rows, should_cancel)
    rows.flush()
    return n


def _load_rows(path: str, n_vocab: int, n: int) -> np.ndarray:
    try:
        rows: np.ndarray = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise InvalidSettingsError("cannot read the saved distributions {path}: {reason}", path=path,
                                   reason=getattr(exc, "strerror", None) or str(exc)) from None
    if rows.ndim != 2 or rows.dtype != np.uint16:
        raise InvalidSettingsError("{path} is not a file of saved distributions", path=path)
    if rows.shape[1] != row_width(n_vocab):
        raise InvalidSettingsError("{path} holds distributions over another vocabulary ({width} values a row, this "
                                   "model's {n_vocab:,} tokens need {need}): comparing distributions needs models "
                                   "that share one vocabulary", path=path, width=rows.shape[1],
                                   n_vocab=n_vocab, need=row_width(n_vocab))
    if rows.shape[0] != n:
        raise InvalidSettingsError("{path} holds {n_file} distributions and {n} tokens are compared", path=path,
                                   n_file=rows.shape[0], n=n)
    return rows


def compare_distributions(scorer: Scorer, tokens: list[int], first: int, path: str,
                          steering: Steering | None = None,
                          should_cancel: Callable[[], bool] = lambda: False) -> ForcedKl:
    """This model's distributions predicting tokens[first:] against the ones saved at `path` (the base):
    KL(base || this), Δp, top-1 agreement, both NLLs, both sides' best tokens; index 0 = tokens[first]."""
    tokens = [int(t) for t in tokens]
    wanted = _outputs(scorer, tokens, first)
    n_vocab = scorer.rt.n_vocab
    n = len(tokens) - first
    base = _load_rows(path, n_vocab, n)
    targets = np.asarray(tokens, dtype=np.int64)
    into = ForcedKl.empty(n)

    def on_rows(positions: np.ndarray, logits: np.ndarray) -> None:
        at = positions - (first - 1)
        numbers = compare_rows(logits, np.asarray(base[at]), targets[positions + 1], n_vocab, into, at, BASE_TOP_N)
        into.top_ids[at], into.top_logprobs[at] = numbers[3], numbers[4]   # B's own best tokens

    scorer.evaluate_steered(tokens, wanted, steering, on_rows, should_cancel)
    return into


def set_threads(rt: Runtime, n_threads: int) -> int:
    """The generation context's CPU threads from now on (0: one per CPU, as a load with 0 gives); returns the
    count before. Two engines answering at once on the same cores share them: each spinning on all of them
    made both ten times slower (2 cores, the demo model: 9 tok/s each, against 65 with one thread each)."""
    assert rt.context is not None
    before = rt.n_threads
    n = n_threads or default_threads()
    llama_cpp.llama_set_n_threads(rt.context, n, n)
    return before
