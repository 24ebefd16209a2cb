"""Causal tracing on the inspection context (protocol/causal.py has the definitions): the graph callback
writes into the forward pass. An ablation zeroes (or sets to its mean over the prompt) a head's slice of
`kqv_out-L` or a block's output; a patch writes the clean run's `l_out-L` (or block output) row at one position
into the corrupted run. Each is one evaluation of the whole prompt (the positions before an edited one are
evaluated afresh too: one way of computing, so that no edit gives exactly the base numbers).

The nodes, as llama.cpp names them: `kqv_out-L` (the heads' outputs before the output projection, head-major:
head h is columns h*d .. (h+1)*d), the attention block's contribution `attn_out-L` (Gemma: `attn_post_norm-L`,
after its post-norm), the FFN's `ffn_out-L` (Gemma: `ffn_post_norm-L`), the residual `l_out-L`. In the last
layer, after the attention, llama.cpp keeps only the rows it outputs (the last token's).
"""

from __future__ import annotations

import contextlib
import queue
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TypeVar

import numpy as np

from logitscope.base.errors import LogitscopeError
from logitscope.engine.forward.capture import Edit
from logitscope.engine.forward.edits import BLOCK_NODES, HEADS, by_layer, knockout, patched, rows_of
from logitscope.engine.forward.inspection import Inspector
from logitscope.engine.score import log_softmax
from logitscope.protocol.causal import (
    AblateRequest,
    Ablation,
    AblationEffect,
    Distribution,
    HeadScan,
    HeadScanRequest,
    PatchRequest,
    PatchResult,
)
from logitscope.protocol.steering import Steering

RESID = "l_out"
Progress = Callable[[float], None]
# A scan's evaluations of a short prompt run on LANES inspection contexts at once, the threads shared out among
# them: on 2 cores two 1-thread evaluations of 20 tokens do 1.1 - 1.25x the work of one 2-thread evaluation (a
# pass is ~1,100 small graph nodes, each ending at a barrier of the threads), and the numbers are the same
# (llama.cpp's CPU kernels split rows among threads, not sums). Longer prompts keep every thread on one.
LANES = 2
LANE_MAX_TOKENS = 64
Job = TypeVar("Job")
Out = TypeVar("Out")
LaneFactory = Callable[[int], Inspector]   # threads -> an inspection context of the same model


def _distribution(logprobs: np.ndarray, chosen: int, top: int) -> Distribution:
    ids = np.argsort(-logprobs)[:top]
    return Distribution(ids.astype(np.int32), np.exp(logprobs[ids]).astype(np.float32), float(logprobs[chosen]))


def _kl(base: np.ndarray, other: np.ndarray) -> float:
    return max(float((np.exp(base) * (base - other)).sum()), 0.0)


class CausalTracer:
    """Ablations, head scans and patches of one model, on its inspection context."""

    def __init__(self, inspector: Inspector, should_cancel: Callable[[], bool] = lambda: False,
                 lanes: LaneFactory | None = None) -> None:
        """`lanes`: makes the extra inspection contexts a scan of a short prompt runs on (none: one at a time)."""
        self.inspector = inspector
        self.should_cancel = should_cancel
        self.make_lane = lanes
        self.n_layer, self.n_head = inspector.n_layer, inspector.n_head

    # -- one evaluation -------------------------------------------------------------------------------
    def _run(self, tokens: Iterable[int], steering: Steering | None, names: set[str] | None = None,
             edits: dict[str, Edit] | None = None,
             on: Inspector | None = None) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """The next-token log-probabilities (float64) and the captured nodes (chunks joined along the rows)."""
        if self.should_cancel():
            raise InterruptedError("cancelled")   # the engine process answers CancelledError
        logits, captured, reached = (on or self.inspector).evaluate(list(tokens), steering, names or set(), edits)
        missing = set(edits or ()) - reached
        if missing:
            raise LogitscopeError("llama.cpp computes no {node} for this {architecture} model: it cannot be "
                                  "knocked out or patched here", node=sorted(missing)[0],
                                  architecture=self.inspector.card.architecture)
        joined = {name: np.concatenate([rows_of(c) for c in chunks]) for name, chunks in captured.items()}
        return log_softmax(logits[None, :])[0], joined

    def _block_node(self, block: str, layer: int, present: dict[str, np.ndarray]) -> str:
        """The node of a block's contribution in this architecture: the first candidate the base run computed."""
        for name in BLOCK_NODES[block]:
            if f"{name}-{layer}" in present:
                return f"{name}-{layer}"
        raise LogitscopeError("llama.cpp computes no output of the {block} block of layer {layer} for this "
                              "{architecture} model", block=block, layer=layer,
                              architecture=self.inspector.card.architecture)

    @staticmethod
    def _block_candidates(layers: Iterable[int], blocks: Iterable[str]) -> set[str]:
        return {f"{name}-{layer}" for layer in layers for block in blocks for name in BLOCK_NODES[block]}

    @contextlib.contextmanager
    def _lanes(self, n_tokens: int) -> Iterator[list[Inspector]]:
        """The inspection contexts a scan of `n_tokens` runs on: LANES fresh ones (freed after) for a short
        prompt when there are threads to share, else the one context."""
        threads = self.inspector.threads
        if self.make_lane is None or threads < LANES or n_tokens > LANE_MAX_TOKENS:
            yield [self.inspector]
            return
        lanes: list[Inspector] = []
        try:
            lanes = [self.make_lane(threads // LANES) for _ in range(LANES)]
            yield lanes
        finally:
            for lane in lanes:
                lane.close()

    def _each(self, n_tokens: int, jobs: Sequence[Job], run: Callable[[Inspector, Job], Out],
              on_progress: Progress | None) -> list[Out]:
        """`run(context, job)` for every job, in order, on the scan's lanes; progress as jobs end. A cancel (or an
        error) in one stops the rest."""
        with self._lanes(n_tokens) as lanes:
            if len(lanes) == 1:
                out = []
                for done, job in enumerate(jobs):
                    out.append(run(lanes[0], job))
                    if on_progress is not None:
                        on_progress((done + 1) / len(jobs))
                return out
            free: queue.Queue[Inspector] = queue.Queue()
            for lane in lanes:
                free.put(lane)

            def on_lane(job: Job) -> Out:
                lane = free.get()
                try:
                    return run(lane, job)
                finally:
                    free.put(lane)

            with ThreadPoolExecutor(len(lanes), thread_name_prefix="causal-lane") as pool:
                futures: list[Future[Out]] = [pool.submit(on_lane, job) for job in jobs]
                pending = set(futures)
                done = 0
                try:
                    while pending:
                        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for future in finished:
                            future.result()     # raises the lane's error (a cancel: InterruptedError)
                            done += 1
                            if on_progress is not None:
                                on_progress(done / len(futures))
                finally:
                    for future in pending:
                        future.cancel()
                return [future.result() for future in futures]

    # -- ablation ---------------------------------------------------------------------------------------
    def _edits(self, ablations: Iterable[Ablation], positions: tuple[int, ...] | None, mode: str,
               base: dict[str, np.ndarray]) -> dict[str, Edit]:
        """The edits that knock the ablations out (heads of one layer share one edit of kqv_out)."""
        heads, blocks = by_layer(ablations)
        edits: dict[str, Edit] = {}
        for block in blocks:
            node = self._block_node(str(block.block), block.layer, base)
            edits[node] = knockout(None, 1, positions, base[node].mean(axis=0) if mode == "mean" else None)
        for layer, chosen in heads.items():
            node = f"{HEADS}-{layer}"
            if node not in base:
                raise LogitscopeError("llama.cpp computes no {node} for this {architecture} model: its heads cannot "
                                      "be knocked out", node=node, architecture=self.inspector.card.architecture)
            edits[node] = knockout(chosen, self.n_head, positions,
                                    base[node].mean(axis=0) if mode == "mean" else None)
        return edits

    def ablate(self, request: AblateRequest) -> AblationEffect:
        request.validate(self.n_layer, self.n_head)
        t0 = time.perf_counter()
        layers = {a.layer for a in request.ablations}
        names = {f"{HEADS}-{layer}" for layer in layers} | self._block_candidates(layers, ("attn", "ffn"))
        base_lp, base = self._run(request.tokens, request.steering, names)
        chosen = int(np.argmax(base_lp)) if request.chosen is None else request.chosen
        edits = self._edits(request.ablations, request.positions, request.mode, base)
        ablated_lp, _ = self._run(request.tokens, request.steering, edits=edits) if edits else (base_lp, {})
        steerer = self.inspector.steerer
        return AblationEffect(ablations=[a.label for a in request.ablations], mode=request.mode, chosen=chosen,
                              base=_distribution(base_lp, chosen, request.top),
                              ablated=_distribution(ablated_lp, chosen, request.top), kl=_kl(base_lp, ablated_lp),
                              seconds=time.perf_counter() - t0, steering=steerer.record if steerer else None)

    def head_scan(self, request: HeadScanRequest, on_progress: Progress | None = None) -> HeadScan:
        """Every head knocked out alone (and with `blocks`, every block): one evaluation each."""
        request.validate(self.n_layer)
        t0 = time.perf_counter()
        layers = request.layer_range(self.n_layer)
        names = {f"{HEADS}-{layer}" for layer in layers}
        if request.blocks:
            names |= self._block_candidates(layers, ("attn", "ffn"))
        base_lp, base = self._run(request.tokens, request.steering, names)
        chosen = int(np.argmax(base_lp)) if request.chosen is None else request.chosen
        shape = (self.n_layer, self.n_head)   # layers not scanned: NaN, top-1 -1
        kl, delta, top1 = np.full(shape, np.nan), np.full(shape, np.nan), np.full(shape, -1, dtype=np.int32)
        jobs: list[tuple[Ablation, tuple[int, int]]] = [(Ablation(layer, head=h), (layer, h))
                                                        for layer in layers for h in range(self.n_head)]
        block_kl = block_delta = block_top1 = None
        if request.blocks:
            block_kl, block_delta = np.full((self.n_layer, 2), np.nan), np.full((self.n_layer, 2), np.nan)
            block_top1 = np.full((self.n_layer, 2), -1, dtype=np.int32)
            jobs += [(Ablation(layer, block=b), (layer, j)) for layer in layers for j, b in enumerate(("attn", "ffn"))]

        def knocked_out(on: Inspector, ablation: Ablation) -> tuple[float, float, int]:
            lp, _ = self._run(request.tokens, request.steering, on=on,
                              edits=self._edits((ablation,), request.positions, request.mode, base))
            return _kl(base_lp, lp), float(lp[chosen] - base_lp[chosen]), int(np.argmax(lp))

        results = self._each(len(request.tokens), [ablation for ablation, _cell in jobs], knocked_out, on_progress)
        for (ablation, cell), effect in zip(jobs, results, strict=True):
            into = (kl, delta, top1) if ablation.head is not None else (block_kl, block_delta, block_top1)
            for array, value in zip(into, effect, strict=True):
                array[cell] = value  # type: ignore[index]
        steerer = self.inspector.steerer
        return HeadScan(chosen=chosen, mode=request.mode, base=_distribution(base_lp, chosen, 10), kl=kl,
                        delta_logprob=delta, top1=top1, block_kl=block_kl, block_delta=block_delta,
                        block_top1=block_top1, seconds=time.perf_counter() - t0,
                        steering=steerer.record if steerer else None, layers=(layers.start, layers.stop - 1))

    # -- patching ---------------------------------------------------------------------------------------
    def _patch_node(self, kind: str, layer: int, clean: dict[str, np.ndarray]) -> str:
        return f"{RESID}-{layer}" if kind == "resid" else self._block_node(kind, layer, clean)

    def patch(self, request: PatchRequest, on_progress: Progress | None = None) -> PatchResult:
        request.validate(self.n_layer)
        t0 = time.perf_counter()
        kinds = (request.cell[0],) if request.cell is not None else request.kinds
        layers = range(self.n_layer)
        names: set[str] = set()
        for kind in kinds:
            names |= ({f"{RESID}-{layer}" for layer in layers} if kind == "resid"
                      else self._block_candidates(layers, (kind,)))
        clean_lp, clean = self._run(request.clean, request.steering, names)
        corrupted_lp, _ = self._run(request.corrupted, request.steering)
        answer = int(np.argmax(clean_lp)) if request.answer is None else request.answer
        if request.versus is not None:
            versus = request.versus
        else:
            order = np.argsort(-corrupted_lp)
            versus = int(order[0]) if int(order[0]) != answer else int(order[1])
        ld_clean, ld_corrupted = float(clean_lp[answer] - clean_lp[versus]), float(corrupted_lp[answer] - corrupted_lp[versus])
        span = ld_clean - ld_corrupted

        def score(lp: np.ndarray) -> float:
            ld = float(lp[answer] - lp[versus])
            return (ld - ld_corrupted) / span if span != 0 else float("nan")

        steerer = self.inspector.steerer
        result = PatchResult(answer=answer, versus=versus, ld_clean=ld_clean, ld_corrupted=ld_corrupted,
                             clean=_distribution(clean_lp, answer, request.top),
                             corrupted=_distribution(corrupted_lp, answer, request.top))
        n = len(request.clean)
        if request.cell is not None:
            kind, layer, position = request.cell
            node = self._patch_node(kind, layer, clean)
            lp, _ = self._run(request.corrupted, request.steering, edits={node: patched(clean[node], (position,), n)})
            result.patched, result.cell_score = _distribution(lp, answer, request.top), score(lp)
        else:
            cells = [(kind, layer, p) for kind in kinds for layer in layers for p in range(n)]
            for kind in kinds:
                result.scores[kind] = np.zeros((self.n_layer, n))

            def patched_run(on: Inspector, cell: tuple[str, int, int]) -> float:
                kind, layer, p = cell
                node = self._patch_node(kind, layer, clean)
                return score(self._run(request.corrupted, request.steering, on=on,
                                       edits={node: patched(clean[node], (p,), n)})[0])

            for (kind, layer, p), value in zip(cells, self._each(n, cells, patched_run, on_progress), strict=True):
                result.scores[kind][layer, p] = value
        result.seconds = time.perf_counter() - t0
        result.steering = steerer.record if steerer else None
        return result

    def patch_all_positions(self, request: PatchRequest, kind: str, layer: int) -> np.ndarray:
        """The corrupted run with the clean node written at every position (a check: for the residual stream it
        is the clean run). The next-token log-probabilities."""
        request.validate(self.n_layer)
        names = {f"{RESID}-{layer}"} if kind == "resid" else self._block_candidates((layer,), (kind,))
        _lp, clean = self._run(request.clean, request.steering, names)
        node = self._patch_node(kind, layer, clean)
        lp, _ = self._run(request.corrupted, request.steering,
                          edits={node: patched(clean[node], tuple(range(len(request.clean))), len(request.clean))})
        return lp
