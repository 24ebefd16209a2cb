"""Edits of llama.cpp's forward pass for causal tracing (the graph callback applies them: capture.py): knocking
heads and blocks out, and writing another run's rows in. Used by the head scans and patches (causal.py), the
knockout generation context (engine/runtime.py) and the inspection of a knocked-out answer (inspection.py).

The nodes, as llama.cpp names them: `kqv_out-L` (the heads' outputs before the output projection, head-major:
head h is columns h*d .. (h+1)*d), a block's contribution to the residual stream `attn_out-L` / `ffn_out-L`
(Gemma: `attn_post_norm-L` / `ffn_post_norm-L`, after its post-norm; the first name an architecture computes
is the one).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from logitscope.engine.forward.capture import Edit
from logitscope.protocol.causal import Ablation

HEADS = "kqv_out"
BLOCK_NODES = {"attn": ("attn_post_norm", "attn_out"), "ffn": ("ffn_post_norm", "ffn_out")}


def rows_of(values: np.ndarray) -> np.ndarray:
    """A node's values as [rows, width] (a view)."""
    return values.reshape(-1, values.shape[-1])


def knockout(heads: list[int] | None, n_head: int, positions: tuple[int, ...] | None,
              mean: np.ndarray | None) -> Edit:
    """An edit that zeroes (or sets to `mean`) the heads' columns of kqv_out (n_head heads side by side; all
    columns: `heads` None, a block's output) at `positions` (None: all)."""
    wanted = None if positions is None else np.asarray(sorted(positions))

    def edit(values: np.ndarray, rows_at: np.ndarray) -> np.ndarray | None:
        select = np.ones(len(rows_at), dtype=bool) if wanted is None else np.isin(rows_at, wanted)
        if not select.any():
            return None
        out = values.copy()
        rows = rows_of(out)
        head_dim = rows.shape[1] // n_head
        columns = [slice(None)] if heads is None else [slice(h * head_dim, (h + 1) * head_dim) for h in heads]
        for cols in columns:
            rows[select, cols] = 0.0 if mean is None else mean[cols]
        return out

    return edit


def by_layer(ablations: Iterable[Ablation]) -> tuple[dict[int, list[int]], list[Ablation]]:
    """The heads knocked out per layer (one edit of kqv_out-L each), and the blocks."""
    heads: dict[int, list[int]] = {}
    blocks: list[Ablation] = []
    for ablation in ablations:
        if ablation.head is not None:
            heads.setdefault(ablation.layer, []).append(ablation.head)
        else:
            blocks.append(ablation)
    return {layer: sorted(set(hs)) for layer, hs in heads.items()}, blocks


def knockout_edits(ablations: Iterable[Ablation], n_head: int) -> dict[str, Edit]:
    """The edits that keep heads and blocks knocked out (zeroed at every position) in every evaluation of a
    generation: a block's output under each name an architecture may give it (only one is computed)."""
    heads, blocks = by_layer(ablations)
    edits: dict[str, Edit] = {f"{name}-{b.layer}": knockout(None, 1, None, None)
                              for b in blocks for name in BLOCK_NODES[str(b.block)]}
    for layer, chosen in heads.items():
        edits[f"{HEADS}-{layer}"] = knockout(chosen, n_head, None, None)
    return edits


def patched(clean: np.ndarray, positions: tuple[int, ...], n_tokens: int) -> Edit:
    """An edit that writes the clean run's rows at `positions`. `clean` has a row per position, or (a node of the
    last layer, where llama.cpp keeps the rows it outputs) one for the last position only."""
    every = len(clean) == n_tokens
    wanted = set(positions)

    def edit(values: np.ndarray, rows_at: np.ndarray) -> np.ndarray | None:
        out = values.copy()
        rows = rows_of(out)
        changed = False
        for i, position in enumerate(rows_at.tolist()):
            if position not in wanted:
                continue
            source = position if every else (len(clean) - 1 if position == n_tokens - 1 else None)
            if source is not None:
                rows[i] = clean[source]
                changed = True
        return out if changed else None

    return edit
