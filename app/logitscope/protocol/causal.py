"""Causal tracing: knocking out heads and blocks (ablation) and copying one run's activations into another
(activation patching), what crosses the process boundary. The definitions follow TransformerLens and ROME:

- Head ablation `L.H`: the head's slice of layer L's attention output before the output projection
  (llama.cpp's `kqv_out-L`, n_embd_head_v values per query head) is set to zero, or to its mean over the
  prompt's positions (`mode="mean"`), at every position or at the positions given.
- Block ablation `L.attn` / `L.ffn`: the block's contribution to the residual stream (llama.cpp's `attn_out-L`
  / `ffn_out-L`; Gemma's `attn_post_norm-L` / `ffn_post_norm-L`, which follow a norm) is set to zero (or its
  mean).
- Effect at the inspected step (the next token after the prompt): KL(base || ablated) of the next-token
  distribution, the change of the chosen token's log-probability, and whether the top-1 token changes.
- Activation patching: a clean and a corrupted prompt of the same token length; the clean run's residual
  stream `l_out-L` at position P (or the block outputs) is written into the corrupted run. The metric is the
  normalized logit difference of two answer tokens: (LD_patched - LD_corrupted) / (LD_clean - LD_corrupted),
  LD = logit[answer] - logit[versus]: 0 = the corrupted behaviour, 1 = the clean one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.steering import Steering

AblateMode = Literal["zero", "mean"]
ABLATE_MODES: tuple[AblateMode, ...] = ("zero", "mean")
BLOCKS = ("attn", "ffn")
PATCH_KINDS = ("resid", "attn", "ffn")   # l_out, the attention block's output, the FFN block's output
EFFECT_TOP_N = 10
MAX_CAUSAL_TOKENS = 2048
_TARGET = re.compile(r"^\s*(\d+)\s*\.\s*(\d+|attn|ffn)\s*$")


@dataclass(frozen=True)
class Ablation:
    """One thing knocked out: a head (`head` set) or a whole block (`block` "attn" or "ffn") of `layer`."""

    layer: int
    head: int | None = None
    block: str | None = None

    @classmethod
    def parse(cls, text: str) -> Ablation:
        """"20.3" (layer 20, head 3), "21.attn", "21.ffn"."""
        match = _TARGET.match(text)
        if match is None:
            raise InvalidSettingsError("{text!r} names no head or block: write LAYER.HEAD (20.3), LAYER.attn or "
                                       "LAYER.ffn", text=text)
        layer, what = int(match.group(1)), match.group(2)
        return cls(layer, head=int(what)) if what.isdigit() else cls(layer, block=what)

    @property
    def label(self) -> str:
        return f"{self.layer}.{self.head}" if self.head is not None else f"{self.layer}.{self.block}"

    def validate(self, n_layer: int, n_head: int) -> None:
        if (self.head is None) == (self.block is None) or (self.block is not None and self.block not in BLOCKS):
            raise InvalidSettingsError("an ablation names one head or one block (attn, ffn) of a layer")
        if not 0 <= self.layer < n_layer:
            raise InvalidSettingsError("layer must be between 0 and {last}, not {layer}", last=n_layer - 1,
                                       layer=self.layer)
        if self.head is not None and not 0 <= self.head < n_head:
            raise InvalidSettingsError("head must be between 0 and {last}, not {head}", last=n_head - 1,
                                       head=self.head)


def _check_common(tokens: tuple[int, ...], mode: str, positions: tuple[int, ...] | None,
                  steering: Steering | None) -> None:
    if not tokens:
        raise InvalidSettingsError("there is no token to inspect")
    if len(tokens) > MAX_CAUSAL_TOKENS:
        raise InvalidSettingsError("causal tracing takes at most {limit} tokens, not {n}", limit=MAX_CAUSAL_TOKENS,
                                   n=len(tokens))
    if mode not in ABLATE_MODES:
        raise InvalidSettingsError("the ablation mode must be zero or mean, not {mode}", mode=mode)
    for p in positions or ():
        if not 0 <= p < len(tokens):
            raise InvalidSettingsError("position {position} is not in the prompt (0 to {last})", position=p,
                                       last=len(tokens) - 1)
    if positions is not None and not positions:
        raise InvalidSettingsError("an ablation at no position changes nothing: name positions, or leave them out "
                                   "to knock out at every position")
    if steering is not None:
        steering.validate()


@dataclass(frozen=True)
class AblateRequest:
    """The step at the last of `tokens` (the distribution of the token after them), with `ablations` applied
    together. `chosen`: the token whose log-probability change is reported (None: the base run's top-1)."""

    tokens: tuple[int, ...]
    ablations: tuple[Ablation, ...]
    mode: AblateMode = "zero"
    positions: tuple[int, ...] | None = None   # None: every position
    chosen: int | None = None
    steering: Steering | None = None
    top: int = EFFECT_TOP_N

    def validate(self, n_layer: int, n_head: int) -> None:
        _check_common(self.tokens, self.mode, self.positions, self.steering)
        for ablation in self.ablations:
            ablation.validate(n_layer, n_head)
        if not 1 <= self.top <= 128:
            raise InvalidSettingsError("the number of top tokens must be between 1 and 128")


@dataclass
class Distribution:
    """A next-token distribution's head (best first) and the chosen token's log-probability in it."""

    top_ids: np.ndarray        # int32 [top]
    top_probs: np.ndarray      # float32 [top]
    chosen_logprob: float


@dataclass
class AblationEffect:
    ablations: list[str]       # their labels ("20.3", "21.attn")
    mode: str
    chosen: int
    base: Distribution
    ablated: Distribution
    kl: float                  # KL(base || ablated), nats, whole vocabulary
    seconds: float = 0.0
    steering: dict[str, Any] | None = None

    @property
    def delta_logprob(self) -> float:
        return self.ablated.chosen_logprob - self.base.chosen_logprob

    @property
    def top1_changed(self) -> bool:
        return int(self.base.top_ids[0]) != int(self.ablated.top_ids[0])


def layer_range(layers: tuple[int, int] | None, n_layer: int) -> range:
    """The layers from a (first, last) pair, both included; None: every layer."""
    first, last = layers if layers is not None else (0, n_layer - 1)
    return range(first, last + 1)


@dataclass(frozen=True)
class HeadScanRequest:
    """Every head of every layer knocked out alone (one forward pass each), and with `blocks` every layer's
    attention and FFN block too; ranked by the effect on `chosen` (None: the base run's top-1)."""

    tokens: tuple[int, ...]
    mode: AblateMode = "zero"
    positions: tuple[int, ...] | None = None
    chosen: int | None = None
    steering: Steering | None = None
    blocks: bool = False
    # the first and the last layer scanned (None: every layer): a long prompt on a deep model costs one
    # evaluation per head, so a researcher narrows the scan to the layers in question
    layers: tuple[int, int] | None = None

    def validate(self, n_layer: int) -> None:
        _check_common(self.tokens, self.mode, self.positions, self.steering)
        if self.layers is not None:
            first, last = self.layers
            if not 0 <= first <= last < n_layer:
                raise InvalidSettingsError("the layers scanned must run from a first to a last layer between 0 and "
                                           "{top}, not {first} to {last}", top=n_layer - 1, first=first, last=last)

    def layer_range(self, n_layer: int) -> range:
        return layer_range(self.layers, n_layer)


@dataclass
class HeadScan:
    chosen: int
    mode: str
    base: Distribution
    kl: np.ndarray              # float64 [n_layer, n_head]: KL(base || head knocked out)
    delta_logprob: np.ndarray   # float64 [n_layer, n_head]: the chosen token's log-probability change
    top1: np.ndarray            # int32 [n_layer, n_head]: the top-1 token with the head knocked out
    block_kl: np.ndarray | None = None      # float64 [n_layer, 2] (attn, ffn), with `blocks`
    block_delta: np.ndarray | None = None
    block_top1: np.ndarray | None = None
    seconds: float = 0.0
    steering: dict[str, Any] | None = None
    layers: tuple[int, int] | None = None   # the layers scanned; the others' rows are NaN (top-1: -1)

    @property
    def scanned(self) -> range:
        return layer_range(self.layers, self.kl.shape[0])

    def ranked(self) -> list[tuple[int, int, float, float, bool]]:
        """(layer, head, KL, Δ log p, top-1 changed) of the heads scanned, the largest change of the chosen
        token's log-probability first, a drop (the head helps the token) or a rise (it works against it)."""
        rows = self.scanned
        part = self.delta_logprob[rows.start:rows.stop]
        layers, heads = np.unravel_index(np.argsort(-np.abs(part), axis=None, kind="stable"), part.shape)
        base_top = int(self.base.top_ids[0])
        return [(int(lay) + rows.start, int(h), float(self.kl[lay + rows.start, h]), float(part[lay, h]),
                 int(self.top1[lay + rows.start, h]) != base_top) for lay, h in zip(layers, heads, strict=True)]


@dataclass(frozen=True)
class PatchRequest:
    """Activation patching from `clean` into `corrupted` (the same number of tokens). `answer` / `versus`: the
    tokens of the logit difference (None: the clean run's top-1, and the corrupted run's top-1, or its second
    when that is the answer). `cell`: only that (kind, layer, position), with the patched distribution."""

    clean: tuple[int, ...]
    corrupted: tuple[int, ...]
    answer: int | None = None
    versus: int | None = None
    kinds: tuple[str, ...] = ("resid",)
    steering: Steering | None = None
    cell: tuple[str, int, int] | None = None
    top: int = EFFECT_TOP_N

    def validate(self, n_layer: int) -> None:
        if len(self.clean) != len(self.corrupted):
            raise InvalidSettingsError("the clean and the corrupted prompts must have the same number of tokens "
                                       "(here {clean} and {corrupted}): patching copies position P of one into "
                                       "position P of the other", clean=len(self.clean), corrupted=len(self.corrupted))
        _check_common(self.clean, "zero", None, self.steering)
        if self.clean == self.corrupted:
            raise InvalidSettingsError("the clean and the corrupted prompts are the same tokens: there is nothing "
                                       "to patch (every score would be 0 / 0)")
        if self.answer is not None and self.answer == self.versus:
            raise InvalidSettingsError("the answer and the versus token are the same token: their logit difference "
                                       "is 0 in every run, so there is nothing to measure (every score would be "
                                       "0 / 0)")
        kinds = (self.cell[0],) if self.cell is not None else self.kinds
        if not kinds or any(k not in PATCH_KINDS for k in kinds):
            raise InvalidSettingsError("what is patched must be among {kinds}", kinds=", ".join(PATCH_KINDS))
        if self.cell is not None:
            _kind, layer, position = self.cell
            if not 0 <= layer < n_layer:
                raise InvalidSettingsError("layer must be between 0 and {last}, not {layer}", last=n_layer - 1,
                                           layer=layer)
            if not 0 <= position < len(self.clean):
                raise InvalidSettingsError("position {position} is not in the prompt (0 to {last})",
                                           position=position, last=len(self.clean) - 1)


def answer_token(tokenize: Callable[[str], list[int]], text: str | None, n_vocab: int, name: str) -> int | None:
    """A patch's answer or versus token as a user gives it: `#ID`, or a text that is exactly one token (with its
    leading space, as it follows the prompt); None when not given."""
    if not text:
        return None
    if text.startswith("#") and text[1:].isdigit():
        token = int(text[1:])
        if not 0 <= token < n_vocab:
            raise InvalidSettingsError("{option} {text}: the vocabulary has ids 0 to {last}", option=name, text=text,
                                       last=n_vocab - 1)
        return token
    tokens = tokenize(text)
    if len(tokens) != 1:
        raise InvalidSettingsError("{option} {text!r} is {n} tokens, not one: give one token's text (with its "
                                   "leading space, e.g. ' Paris') or #ID", option=name, text=text, n=len(tokens))
    return int(tokens[0])


@dataclass
class PatchResult:
    answer: int
    versus: int
    ld_clean: float              # logit[answer] - logit[versus] in the clean run
    ld_corrupted: float
    clean: Distribution
    corrupted: Distribution
    scores: dict[str, np.ndarray] = field(default_factory=dict)  # kind -> float64 [n_layer, n_tokens]
    patched: Distribution | None = None    # the cell's distribution (a `cell` request)
    cell_score: float | None = None
    seconds: float = 0.0
    steering: dict[str, Any] | None = None

    def strongest(self, n: int = 10) -> list[tuple[str, int, int, float]]:
        """(kind, layer, position, score), the largest scores first."""
        cells = [(kind, int(lay), int(p), float(s[lay, p])) for kind, s in self.scores.items()
                 for lay, p in zip(*np.unravel_index(np.argsort(-s, axis=None)[:n], s.shape), strict=True)]
        return sorted(cells, key=lambda c: -c[3])[:n]
