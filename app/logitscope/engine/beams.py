"""Beam search with llama.cpp sequences in one context (the score: protocol/beams.py).

A context of several sequences of its own (engine/sequences.py), made for each search, its KV cells shared
between beams by prefix. Its cells: the prompt plus beams x max tokens at most (freed cells are reused), so
nothing overflows.

The prompt is evaluated once in sequence 0. Then, step by step: every live beam's log-softmax gives its 2N
best tokens (2N so that N candidates remain even if up to N of them end the text); the candidates of all
beams are ranked by summed log-probability; in that order, an end-of-generation token among the first N
finishes a hypothesis (set aside), other tokens become the next live beams until there are N. The first
child of a parent takes over its sequence, the others get a free id with `llama_memory_seq_cp`, and parents
left without children are removed with `llama_memory_seq_rm`. One batched `llama_decode` then evaluates
every new beam's last token (one sequence id each, logits for each). The search ends when N hypotheses are
finished, at max tokens (the live beams finish by length), or when cancelled.

Each step is reported as it is taken (`on_progress`, a BeamProgress). Cancelling is checked once per step (the
live beams then finish as "cancelled") and during the prompt: it is evaluated in n_batch chunks with the check
between them, and llama.cpp's abort callback (Runtime.abort, which the engine process calls on a cancel)
stops a chunk midway; a search cancelled there has no step and raises InterruptedError.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from logitscope.base.errors import ContextOverflowError, LogitscopeError
from logitscope.engine.runtime import Runtime
from logitscope.engine.score import log_softmax
from logitscope.engine.sequences import SequenceContext, SequenceErrors
from logitscope.engine.steering.apply import Steerer, SteeringFiles
from logitscope.protocol.beams import (
    FINISHED,
    KEPT,
    MAX_BEAM_CELLS,
    PRUNED,
    BeamCellRun,
    BeamMemory,
    BeamNode,
    BeamProgress,
    BeamResult,
    BeamStep,
    Hypothesis,
    beam_score,
    node_path,
)
from logitscope.protocol.steering import Steering


@dataclass
class _Beam:
    node: int          # its last node
    seq: int           # its llama.cpp sequence
    cum: float         # summed log-probability
    depth: int         # tokens generated


class BeamSearch:
    """One search on a fresh context of `runtime`'s model; `run` once, then `close` (the engine does both)."""

    def __init__(self, runtime: Runtime, n_prompt: int, n_beams: int, max_tokens: int, bytes_per_cell: int,
                 ensure_fits: Callable[[int], None] | None = None) -> None:
        """`ensure_fits(n_cells)`: raises when a context of that many cells cannot fit in memory (asked before
        llama.cpp allocates it)."""
        self.rt = runtime
        self.n_beams = n_beams
        self.bytes_per_cell = bytes_per_cell
        if n_prompt + max_tokens > runtime.n_ctx:
            raise ContextOverflowError("the prompt ({n_prompt} tokens) and {max_tokens} tokens of answer do not fit "
                                       "in the context of {n_ctx}: lower max tokens", n_prompt=n_prompt,
                                       max_tokens=max_tokens, n_ctx=runtime.n_ctx)
        cells = n_prompt + n_beams * max_tokens
        if cells > MAX_BEAM_CELLS:
            raise ContextOverflowError("{n_beams} beams of {max_tokens} tokens need up to {cells} KV cells; "
                                       "the limit is {limit}: lower the beams or max tokens", n_beams=n_beams,
                                       max_tokens=max_tokens, cells=cells, limit=MAX_BEAM_CELLS)
        self.seqs = SequenceContext(runtime, cells, n_beams, runtime.n_threads, _ERRORS, ensure_fits)
        self.context_ptr = self.seqs.ptr
        self.n_ctx = self.seqs.n_ctx
        self.nodes: list[BeamNode] = []
        self.live: list[_Beam] = []
        self.n_prompt = 0

    def close(self) -> None:
        self.seqs.close()

    def _eval_beams(self, position: int) -> None:
        self.seqs.eval_rows([(self.nodes[beam.node].token, position, beam.seq) for beam in self.live])

    def _log_softmax(self, index: int) -> np.ndarray:
        out: np.ndarray = log_softmax(self.seqs.logits(index)[None, :])[0]
        return out

    # -- the search ------------------------------------------------------------------------------
    def run(self, prompt: Sequence[int], max_tokens: int, alpha: float,
            should_cancel: Callable[[], bool] = lambda: False,
            on_progress: Callable[[BeamProgress], None] | None = None) -> BeamResult:
        t_start = time.perf_counter()
        n = self.n_beams
        n_prompt = self.n_prompt = len(prompt)
        self.seqs.eval_prompt(prompt, should_cancel)
        self.live = [_Beam(node=-1, seq=0, cum=0.0, depth=0)]
        finished: list[Hypothesis] = []
        steps: list[BeamStep] = []
        logprobs = [self._log_softmax(-1)]
        for step in range(max_tokens):
            t0 = time.perf_counter()
            first = len(self.nodes)
            ranked = self._candidates(logprobs, step)
            children: list[tuple[_Beam, int]] = []  # (parent, node)
            for rank, (parent, node) in enumerate(ranked):
                if len(children) == n:
                    break
                if self.rt.is_eog(self.nodes[node].token):
                    if rank < n:  # an end beyond the first N would not have been kept anyway
                        self.nodes[node].status = FINISHED
                        finished.append(self._hypothesis(node, "eog", alpha))
                    continue
                children.append((parent, node))
            if step + 1 == max_tokens or len(finished) >= n or not children or should_cancel():
                cut: list[int] = []  # the live beams a cancel ended
                if len(finished) < n:  # the live beams end here (by length, or cancelled)
                    how = "length" if step + 1 == max_tokens else "cancelled"
                    for _, node in children:
                        self.nodes[node].status = FINISHED
                        finished.append(self._hypothesis(node, how, alpha))
                    cut = [node for _, node in children] if how == "cancelled" else []
                steps.append(self._step(step, len(children), t0))
                self._report(on_progress, first, steps[-1], len(finished), max_tokens, cut)
                break
            self._move(children)
            self._eval_beams(n_prompt + step)
            logprobs = [self._log_softmax(i) for i in range(len(self.live))]
            steps.append(self._step(step, len(self.live), t0))
            self._report(on_progress, first, steps[-1], len(finished), max_tokens)
        finished.sort(key=lambda h: -h.score)
        memory, cells = self._cells(n_prompt)
        return BeamResult(n_beams=n, length_penalty=alpha, prompt_tokens=list(prompt), nodes=self.nodes,
                          steps=steps, hypotheses=finished, memory=memory, cells=cells, n_ctx=self.n_ctx,
                          bytes_per_cell=self.bytes_per_cell, seconds=time.perf_counter() - t_start)

    def _report(self, on_progress: Callable[[BeamProgress], None] | None, first: int, stats: BeamStep,
                n_finished: int, max_tokens: int, cut: list[int] | None = None) -> None:
        """The step's candidates as copies: the engine process pickles them later, on its sender thread."""
        if on_progress is not None:
            on_progress(BeamProgress(step=stats.step, first_node=first, nodes=[replace(n) for n in self.nodes[first:]],
                                     stats=stats, n_finished=n_finished, max_tokens=max_tokens, cut=cut or []))

    def _candidates(self, logprobs: list[np.ndarray], step: int) -> list[tuple[_Beam, int]]:
        """Every live beam's 2N best tokens as new nodes (pruned until chosen), best summed log-probability
        first; ties keep the lower token id first, as argmax does."""
        k = min(2 * self.n_beams, self.rt.n_vocab)
        pairs: list[tuple[float, int, _Beam, int]] = []
        for b, (beam, lp) in enumerate(zip(self.live, logprobs, strict=True)):
            top = np.sort(np.argpartition(-lp, k - 1)[:k])
            top = top[np.argsort(-lp[top], kind="stable")]
            for t in top:
                node = len(self.nodes)
                value = float(lp[t])
                self.nodes.append(BeamNode(step=step, parent=beam.node, token=int(t),
                                           text=self.rt.piece(int(t)).decode("utf-8", "replace"),
                                           logprob=value, cum_logprob=beam.cum + value, status=PRUNED))
                pairs.append((-(beam.cum + value), b, beam, node))
        pairs.sort(key=lambda p: (p[0], p[1]))  # stable: within a beam, the token order above
        return [(beam, node) for _, _, beam, node in pairs]

    def _move(self, children: list[tuple[_Beam, int]]) -> None:
        """Give each kept child a sequence: its parent's for the first, a copy of it for the others."""
        with_children = {id(parent) for parent, _ in children}
        free = sorted(set(range(self.n_beams)) - {b.seq for b in self.live})
        for beam in self.live:
            if id(beam) not in with_children:
                self.seqs.drop(beam.seq)
                free.append(beam.seq)
        taken: set[int] = set()
        new_live: list[_Beam] = []
        for parent, node in children:
            if id(parent) in taken:
                seq = free.pop(0)
                self.seqs.share(parent.seq, seq)
            else:
                seq = parent.seq
                taken.add(id(parent))
            self.nodes[node].status, self.nodes[node].seq = KEPT, seq
            new_live.append(_Beam(node=node, seq=seq, cum=self.nodes[node].cum_logprob, depth=parent.depth + 1))
        self.live = new_live

    def _hypothesis(self, node: int, finish: str, alpha: float) -> Hypothesis:
        tokens = [self.nodes[i].token for i in self._path(node)]
        length = len(tokens)
        if finish == "eog":
            tokens = tokens[:-1]
        text = b"".join(self.rt.piece(t) for t in tokens).decode("utf-8", "replace")
        logprob = self.nodes[node].cum_logprob
        return Hypothesis(node=node, tokens=tokens, text=text, logprob=logprob, length=length,
                          score=beam_score(logprob, length, alpha), finish=finish)

    def _holders(self) -> dict[int, set[int]]:
        """node -> the sequences of live beams whose hypothesis contains it (who holds its KV cell)."""
        holders: dict[int, set[int]] = {}
        for beam in self.live:
            node = beam.node
            while node >= 0:
                holders.setdefault(node, set()).add(beam.seq)
                node = self.nodes[node].parent
        return holders

    def _step(self, step: int, n_live: int, t0: float) -> BeamStep:
        """The cells are counted from the tree: the prompt's once, then one per node some live beam holds."""
        n_prompt = self.n_prompt if self.live else 0
        return BeamStep(step=step, n_live=n_live, n_cells=n_prompt + len(self._holders()),
                        n_cells_unshared=sum(self.n_prompt + b.depth for b in self.live),
                        seconds=time.perf_counter() - t0)

    def _cells(self, n_prompt: int) -> tuple[list[BeamMemory], list[BeamCellRun]]:
        """Who holds which cell once the search stopped (the live beams of the last evaluation)."""
        holders = self._holders()
        everyone = tuple(sorted(b.seq for b in self.live))
        memory = [BeamMemory(seq=b.seq, node=b.node, n_cells=n_prompt + b.depth,
                             n_shared=(n_prompt if len(everyone) > 1 else 0)
                             + sum(1 for node in self._path(b.node) if len(holders[node]) > 1),
                             bytes_per_cell=self.bytes_per_cell) for b in self.live]
        runs: list[BeamCellRun] = [BeamCellRun(0, n_prompt, everyone)] if everyone else []
        seen: set[int] = set()
        for beam in sorted(self.live, key=lambda b: b.seq):
            for node in self._path(beam.node):
                if node in seen:
                    continue
                seen.add(node)
                seqs = tuple(sorted(holders[node]))
                position = n_prompt + self.nodes[node].step
                last = runs[-1] if runs else None
                if last is not None and last.seqs == seqs and last.start + last.count == position:
                    runs[-1] = BeamCellRun(last.start, last.count + 1, seqs)
                else:
                    runs.append(BeamCellRun(position, 1, seqs))
        return memory, runs

    def _path(self, node: int) -> list[int]:
        return node_path(self.nodes, node)


def _context_failed(reason: str) -> LogitscopeError:
    return LogitscopeError("llama.cpp could not create the beam-search context: {reason}", reason=reason)


def _eval_failed(rc: int) -> LogitscopeError:
    return LogitscopeError("llama.cpp could not evaluate the beams (llama_decode returned {rc})", rc=rc)


_ERRORS = SequenceErrors(_context_failed, _eval_failed, "beam search cancelled during the prompt")


def beam_search(runtime: Runtime, prompt: Sequence[int], n_beams: int, max_tokens: int, alpha: float,
                bytes_per_cell: int, should_cancel: Callable[[], bool] = lambda: False,
                on_progress: Callable[[BeamProgress], None] | None = None,
                ensure_fits: Callable[[int], None] | None = None,
                steering: tuple[SteeringFiles, Steering | None] | None = None) -> BeamResult:
    """Search on a fresh context, freed afterwards; max tokens shrink to what the context can still hold.
    `steering`: the model's steering files and the control vectors and adapters to search with."""
    max_tokens = max(1, min(max_tokens, runtime.n_ctx - len(prompt)))
    search = BeamSearch(runtime, len(prompt), n_beams, max_tokens, bytes_per_cell, ensure_fits)
    try:
        record = None
        if steering is not None:
            steerer = Steerer(search.context_ptr, steering[0])
            steerer.apply(steering[1])
            record = steerer.record
        result = search.run(prompt, max_tokens, alpha, should_cancel, on_progress)
        result.steering = record
    finally:
        search.close()
    if not result.hypotheses:
        raise LogitscopeError("the beam search found no hypothesis")
    return result
