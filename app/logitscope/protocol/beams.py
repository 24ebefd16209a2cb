"""Beam search: what crosses the process boundary. Importable without llama.cpp.

The score of a hypothesis is its summed log-probability divided by its length to the power alpha
(the length penalty, as in Hugging Face transformers and Wu et al. 2016's simpler form):

    score = sum(log p(token)) / length ** alpha

`length` counts every token whose log-probability is summed: the end-of-generation token included.
alpha 0 ranks by total log-probability (short answers win); alpha 1 by the mean per token; above 1 longer
answers are favoured. Live beams all have the same length at a step, so they are ranked by summed
log-probability; the penalty matters when finished hypotheses of different lengths are compared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.api import GenerateRequest

MAX_BEAMS = 32               # llama.cpp allows 256 sequences; the tree is unreadable long before that
MAX_LENGTH_PENALTY = 5.0     # alpha in [0, 5]: beyond it the longest hypothesis always wins
DEFAULT_LENGTH_PENALTY = 1.0
MAX_BEAM_CELLS = 1 << 16     # the beam context holds prompt + beams x max tokens cells at most

KEPT, FINISHED, PRUNED = "kept", "finished", "pruned"  # what became of a candidate


def beam_score(logprob: float, length: int, alpha: float) -> float:
    """The length-penalised score (module docstring)."""
    return float(logprob / max(length, 1) ** alpha)


@dataclass
class BeamRequest:
    """Beam search over `generate`'s prompt or chat (its sampler settings are not used; its max_tokens is)."""
    generate: GenerateRequest
    n_beams: int = 4
    length_penalty: float = DEFAULT_LENGTH_PENALTY

    def validate(self) -> None:
        if not 1 <= self.n_beams <= MAX_BEAMS:
            raise InvalidSettingsError("the number of beams must be between 1 and {max_beams}, not {n_beams}",
                                       max_beams=MAX_BEAMS, n_beams=self.n_beams)
        alpha = self.length_penalty
        if not (math.isfinite(alpha) and 0.0 <= alpha <= MAX_LENGTH_PENALTY):
            raise InvalidSettingsError("the length penalty must be between 0 and {max_alpha}, not {alpha}",
                                       max_alpha=MAX_LENGTH_PENALTY, alpha=alpha)
        self.generate.validate()


@dataclass
class BeamNode:
    """One candidate considered at one step: a live beam's continuation by one of its best tokens."""
    step: int            # 0 = the first generated token
    parent: int          # index of the parent node in BeamResult.nodes; -1: the prompt
    token: int
    text: str            # the token's piece (invalid UTF-8 replaced)
    logprob: float       # log p(token | the parent's hypothesis), natural log
    cum_logprob: float   # summed over the hypothesis up to and including this token
    status: str          # KEPT (a live beam at the next step) | FINISHED (a hypothesis set aside) | PRUNED
    seq: int = -1        # the llama.cpp sequence a kept node's beam lives in


@dataclass
class BeamStep:
    step: int
    n_live: int          # beams kept at this step
    n_cells: int         # distinct KV cells the live beams hold after it (shared cells counted once)
    n_cells_unshared: int  # what they would hold with one copy of the context each
    seconds: float       # the batched evaluation and the expansion


@dataclass
class BeamProgress:
    """One step of a running search, sent as it is taken (the Beams view grows its tree from these; the CLI
    prints a line). The nodes are that step's candidates, their fate decided; the final BeamResult holds them
    too, at the same indices."""
    step: int
    first_node: int          # index of nodes[0] in BeamResult.nodes
    nodes: list[BeamNode]    # the candidates of this step: KEPT (the live beams), FINISHED or PRUNED
    stats: BeamStep
    n_finished: int          # hypotheses set aside so far
    max_tokens: int          # the search ends at this step at the latest
    cut: list[int] = field(default_factory=list)  # nodes (BeamResult indices) that were live beams when a cancel
                                                  # ended the search here: FINISHED, but not by the text's end

    @property
    def kept(self) -> list[BeamNode]:
        return [node for node in self.nodes if node.status == KEPT]


@dataclass
class Hypothesis:
    node: int            # its last node
    tokens: list[int]    # the generated tokens, the end-of-generation token excluded
    text: str
    logprob: float
    length: int          # tokens in the score (the end-of-generation token included)
    score: float
    finish: str          # "eog" | "length" | "cancelled"


@dataclass
class BeamMemory:
    """The KV cells of one live beam's sequence at the end of the search."""
    seq: int
    node: int
    n_cells: int         # cells in its sequence (prompt + its tokens)
    n_shared: int        # of those, cells other beams hold too (llama_memory_seq_cp shares, not copies)
    bytes_per_cell: int

    @property
    def n_own(self) -> int:
        return self.n_cells - self.n_shared


@dataclass(frozen=True)
class BeamCellRun:
    """Consecutive positions whose cells the same set of sequences holds (the KV map of a beam search)."""
    start: int           # position of the first cell
    count: int
    seqs: tuple[int, ...]


@dataclass
class BeamResult:
    n_beams: int
    length_penalty: float
    prompt_tokens: list[int]
    nodes: list[BeamNode]
    steps: list[BeamStep]
    hypotheses: list[Hypothesis]   # best score first: hypotheses[0] is the winner
    memory: list[BeamMemory]       # the live beams after the last evaluation
    cells: list[BeamCellRun]       # the same cells, run by run
    n_ctx: int                     # cells of the beam-search context
    bytes_per_cell: int
    seconds: float
    notices: list[str] = field(default_factory=list)
    steering: dict[str, Any] | None = None  # what it searched with (protocol/steering.steering_record)

    @property
    def winner(self) -> Hypothesis:
        return self.hypotheses[0]

    @property
    def cancelled(self) -> bool:
        """Stopped before the end: its hypotheses are the beams alive then, not a search's answer."""
        return any(h.finish == "cancelled" for h in self.hypotheses)

    def path(self, node: int) -> list[int]:
        """Node indices from the first step to `node`."""
        return node_path(self.nodes, node)


def node_path(nodes: list[BeamNode], node: int) -> list[int]:
    """Indices in `nodes` from the first step to `node`, following the parents."""
    out: list[int] = []
    while node >= 0:
        out.append(node)
        node = nodes[node].parent
    return out[::-1]
