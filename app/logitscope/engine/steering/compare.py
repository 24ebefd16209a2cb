"""An answer's distributions under two steerings, on the scoring context (engine/score.py): the prompt and the
answer are evaluated in one pass per side, logits only at the positions that predict the answer's tokens.
A's logits over the whole vocabulary are held (float32, as llama.cpp gives them) while B runs, then both
sides' log-softmax is taken in float64 block by block: the same logits give a KL of exactly 0.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from logitscope.engine.score import ROW_BLOCK, Scorer, log_softmax, score_rows
from logitscope.protocol.steering_compare import SteeringCompare, SteeringCompareRequest


def compare_steering(scorer: Scorer, request: SteeringCompareRequest,
                     should_cancel: Callable[[], bool] = lambda: False) -> SteeringCompare:
    request.validate()
    tokens = list(request.tokens)
    scorer.check_ids(tokens)
    n, n_steps, top = len(tokens), request.n_steps, request.top
    wanted = np.zeros(n, dtype=bool)
    wanted[request.n_prompt - 1:n - 1] = True  # position p predicts token p + 1
    targets = np.asarray(tokens[request.n_prompt:], dtype=np.int64)
    t0 = time.perf_counter()
    sides = []
    base = np.zeros((n_steps, scorer.rt.n_vocab), dtype=np.float32)  # A's logits
    kl = np.zeros(n_steps, dtype=np.float64)
    for side, steering in enumerate((request.a, request.b)):
        logprob = np.zeros(n_steps, dtype=np.float64)
        top_ids = np.zeros((n_steps, top), dtype=np.int32)
        top_lp = np.zeros((n_steps, top), dtype=np.float32)

        def on_rows(positions: np.ndarray, logits: np.ndarray, side: int = side, logprob: np.ndarray = logprob,
                    top_ids: np.ndarray = top_ids, top_lp: np.ndarray = top_lp) -> None:
            steps = positions - (request.n_prompt - 1)
            for b in range(0, len(steps), ROW_BLOCK):
                rows = slice(b, b + ROW_BLOCK)
                where = steps[rows]
                lp, _ent, _rank, ti, tl = score_rows(logits[rows], targets[where], top)
                logprob[where], top_ids[where], top_lp[where] = lp, ti, tl
                if side == 0:
                    base[where] = logits[rows]
                else:
                    a = log_softmax(base[where])
                    kl[where] = np.maximum((np.exp(a) * (a - log_softmax(logits[rows]))).sum(axis=1), 0.0)

        record = scorer.evaluate_steered(tokens, wanted, steering, on_rows, should_cancel)
        sides.append((logprob, top_ids, top_lp, record))
    (lp_a, ids_a, tl_a, rec_a), (lp_b, ids_b, tl_b, rec_b) = sides
    return SteeringCompare(kl=kl, logprob_a=lp_a, logprob_b=lp_b, top_ids_a=ids_a, top_logprobs_a=tl_a,
                           top_ids_b=ids_b, top_logprobs_b=tl_b, seconds=time.perf_counter() - t0,
                           steering_a=rec_a, steering_b=rec_b)
