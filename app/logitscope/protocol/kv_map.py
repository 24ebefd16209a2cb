"""The KV cache map: which of the generation context's cells hold which part of the
conversation, which of them the last request reused, and what a cell costs.

The prompt's layout is recorded with each request (cheaply: the rendered text and its messages) and turned
into runs only when someone asks (`Engine.kv_map`), so generation pays nothing for the map.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from logitscope.protocol.api import ChatMessage
from logitscope.protocol.beams import BeamCellRun

SEGMENTS = ("system", "user", "assistant", "template", "answer")
ANSWER = "answer"        # the current answer: a fork's kept tokens and everything generated
TEMPLATE = "template"    # what the chat template writes around the messages (and a BOS it did not)
RAW_PROMPT = "user"      # a raw prompt is the user's text as a whole

Layout = list[tuple[str, int]]  # (segment, number of tokens), consecutive from the first token


@dataclass
class KvCell:
    """A run of consecutive KV cells of the generation context with the same origin."""
    start: int                      # first cell (= position in a single-sequence context)
    count: int
    segment: str                    # "system" | "user" | "assistant" | "template" | "answer"
    reused: bool                    # kept from the previous request (not evaluated again)


SHARED_BY_BEAMS, SHARED_BY_ANSWERS = "beams", "answers"


@dataclass
class KvMap:
    """The generation context's KV cache after a request."""
    n_ctx: int
    runs: list[KvCell]
    n_reused: int                   # cells of this request's prompt that needed no evaluation
    n_evaluated: int                # prompt cells evaluated for this request
    bytes_per_cell: int             # K + V over all layers
    bytes_per_cell_by_layer: list[int]
    n_freed: int = 0                # cells the previous request left past the shared prefix, freed for this one
    # After a beam search (the last request), its own context's cells: which sequences hold each run (one cell
    # in several sequences = shared by llama_memory_seq_cp). Empty otherwise.
    beam_cells: list[BeamCellRun] = field(default_factory=list)
    beam_n_ctx: int = 0
    shared_by: str = SHARED_BY_BEAMS    # whose sequences beam_cells are: a beam search's or a batch of answers'


@dataclass(frozen=True)
class PromptLayout:
    """What the last request put before its answer: a chat's rendered text and messages, or a raw prompt."""
    n_tokens: int                                # the chat (or raw) prompt, without the fork's answer prefix
    n_prefix: int = 0                            # tokens of the answer already in place (a fork)
    text: str | None = None                      # the rendered chat; None: a raw prompt
    messages: tuple[ChatMessage, ...] = ()       # the messages rendered in it, in order

    def segments(self, tokenize: Callable[[str], list[int]]) -> Layout:
        """(segment, count) over the prompt and the fork's prefix; `tokenize` is the chat prompt's own."""
        head = chat_layout(self.text, self.messages, tokenize, self.n_tokens) if self.text is not None \
            else [(RAW_PROMPT, self.n_tokens)]
        return head + [(ANSWER, self.n_prefix)]


def chat_layout(text: str, messages: Sequence[ChatMessage], tokenize: Callable[[str], list[int]],
                n_tokens: int) -> Layout:
    """Each message's content found in the rendered text, in order (templates copy it verbatim, some strip
    it); what lies between is the template's. A character boundary becomes a token boundary by tokenizing
    the text up to it, which is exact at the special tokens that frame a turn. A content a template
    rewrites beyond recognition is not found and counts as template text."""
    marks: list[tuple[int, str]] = [(0, TEMPLATE)]  # (character position, segment from there on)
    cursor = 0
    for message in messages:
        for content in (message.content, message.content.strip()):
            at = text.find(content, cursor) if content else -1
            if at >= 0:
                marks += [(at, message.role if message.role in SEGMENTS else TEMPLATE), (at + len(content), TEMPLATE)]
                cursor = at + len(content)
                break
    layout: Layout = []
    done = 0  # tokens assigned so far
    for (_, segment), (end, _) in zip(marks, [*marks[1:], (len(text), TEMPLATE)], strict=True):
        boundary = n_tokens if end >= len(text) else min(max(len(tokenize(text[:end])), done), n_tokens)
        if boundary > done:
            layout.append((segment, boundary - done))
        done = boundary
    return layout


def build_runs(layout: Layout, n_cells: int, n_reused: int) -> list[KvCell]:
    """Runs over the first `n_cells` cells: the layout's segments, then the answer to the end; split where
    reuse ends, and neighbours that differ in nothing joined."""
    runs: list[KvCell] = []
    start = 0
    pieces = [*layout, (ANSWER, max(0, n_cells - sum(count for _, count in layout)))]
    for segment, count in pieces:
        end = min(start + count, n_cells)
        for lo, hi in ((start, min(end, n_reused)), (max(start, n_reused), end)):
            if hi > lo:
                reused = lo < n_reused
                last = runs[-1] if runs else None
                if last is not None and (last.segment, last.reused) == (segment, reused):
                    runs[-1] = KvCell(last.start, last.count + hi - lo, segment, reused)
                else:
                    runs.append(KvCell(lo, hi - lo, segment, reused))
        start = end
    return runs
