"""What the forward-pass inspection hands across the process boundary: compact numpy arrays.

Importable without llama.cpp (the GUI process uses these with the engine client). Positions are token
positions in the inspected context (0 = its first token); "layer" rows run from the embeddings (row 0,
named "embd") through every block (row l + 1 is after block l), so a model with L blocks has L + 1 rows.
The engine computes them in an inspection context of its own (flash attention off, a graph callback),
never in the generation context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from logitscope.protocol.causal import Ablation
from logitscope.protocol.steering import Steering

LENS_TOP_K = 10  # tokens kept per layer in the lens (the grid's columns)


@dataclass(frozen=True)
class InspectRequest:
    """Inspect the forward pass at the last token of `tokens` (whose logits predict the next token).

    `chosen`: the token actually chosen at that step (its rank/probability per layer are reported), or
    None for a prompt token (the lens then follows the next prompt token if `tokens` is a prefix of a
    known context, else the final top-1). `lens` / `attention`: which views to compute. `steering`: the
    control vectors and LoRA adapters of the step (a steered answer's step is inspected steered). `knockouts`:
    the heads and blocks the step was generated with knocked out (causal tracing: inspected knocked out too).
    `n_prompt`: how many of `tokens` are the prompt; the generated ones after it, evaluated again, go one at a time
    as the generation evaluated them (llama.cpp computes a batch with other kernels: on AVX2 a step's
    probabilities then move by a few points). None: all in batches. Exact where the prompt was evaluated whole
    (a chat's first answer); earlier answers inside a later prompt still go in its batch."""
    tokens: tuple[int, ...]
    chosen: int | None = None
    lens: bool = True
    attention: bool = True
    steering: Steering | None = None
    knockouts: tuple[Ablation, ...] = ()
    n_prompt: int | None = None


@dataclass
class LayerLens:
    """The logit lens at one position: the residual stream after each layer, through the final norm and
    the output head, softmaxed. Arrays have one row per layer row (L + 1)."""
    layer_names: list[str]          # "embd", "0", "1", ... (the block index)
    top_ids: np.ndarray             # int32 [L + 1, LENS_TOP_K], best first
    top_probs: np.ndarray           # float32 [L + 1, LENS_TOP_K]
    chosen: int                     # the token followed through the layers
    chosen_rank: np.ndarray         # int32 [L + 1]: 0 = top-1
    chosen_prob: np.ndarray         # float32 [L + 1]
    entropy: np.ndarray             # float32 [L + 1], nats
    resid_norm: np.ndarray          # float32 [L + 1]: L2 norm of the residual stream after the row's layer
    attn_norm: np.ndarray           # float32 [L]: L2 norm of what block l's attention added (NaN: unknown)
    ffn_norm: np.ndarray            # float32 [L]: L2 norm of what block l's FFN added (NaN: unknown)


@dataclass
class AttentionRow:
    """Where one position looks: softmax(QK^T) of its query over every earlier position, per layer and
    query head. Causal: zero after `position`; each [layer, head] row sums to 1."""
    position: int                   # the query's position (the last token of the request)
    weights: np.ndarray             # float32 [n_layer, n_head, position + 1]
    kv_head_of: list[int]           # query head -> the KV head it reads (grouped-query attention)
    window: list[int | None]        # per layer: sliding-window length, None = full attention


@dataclass
class ForwardInspection:
    tokens: list[int]               # the inspected context
    lens: LayerLens | None
    attention: AttentionRow | None
    unavailable: dict[str, str] = field(default_factory=dict)  # view -> why it cannot be shown (a Message)
    seconds: float = 0.0            # engine time to compute it
    context_bytes: int = 0          # memory of the inspection context
    steering: dict[str, Any] | None = None  # what it was computed with (protocol/steering.steering_record)


@dataclass
class AttentionMatrix:
    """One layer/head over a whole context: row t = where position t looks (lower-triangular)."""
    layer: int
    head: int
    weights: np.ndarray             # float32 [T, T]




