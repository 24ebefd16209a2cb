"""What the Steering dock holds, without widgets: its files, their scales and on/off, the layer range and the
master switch, and the Steering the next request gets from it (steering_of). Also how wide a vector's scale
slider is: sized to the residual stream the vector is added to (scale_span), and what is remembered across
restarts (to_settings / from_settings).

A control vector is added to the output of layers N in the range (direction.N, N from 1), and the logit lens
measures the residual stream's L2 norm after each layer (LayerLens.resid_norm: row 0 is the embeddings, row
N + 1 is after layer N). A unit direction at scale 0.8 does nothing visible on a residual of norm 40, so the
slider spans where what the vector adds is comparable with the residual stream. The stream carries every
addition on (each block adds to it), so by the range's last layer E the vector has added s * sum(direction.N)
over the layers of the range: as large as the residual there at s = resid_norm[E + 1] / |sum(direction.N)|.
(Measured per layer instead, the reach was some 15 times too wide: the demo model's answers change from scale
~6 on 30 layers, and a per-layer equal-norm slider reached ±250.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from logitscope.protocol.steering import DEFAULT_LAYER, ScaledFile, Steering, steering_or_none

DEFAULT_VECTOR_SPAN = 10.0   # the slider's reach before any residual stream was measured (unit directions)
SPAN_MARGIN = 1.5            # the slider reaches this many times the scale where the norms are equal
ADAPTER_SPAN = 2.0           # a LoRA adapter's slider: -2 .. 2 (1 = as trained; the box takes more)
ADAPTER_LIMIT = 10.0
VECTOR_LIMIT = 100_000.0     # what the scale box takes (the slider reaches less)


@dataclass
class SteeringFile:
    """A control vector or a LoRA adapter in the dock."""

    path: str                # absolute
    scale: float = 1.0
    enabled: bool = True
    problem: str = ""        # why it is not applied (the engine refused it, it is for another model); "": fine
    directions: dict[int, np.ndarray] = field(default_factory=dict, repr=False, compare=False)  # direction.N by N

    @property
    def name(self) -> str:
        return Path(self.path).name

    @property
    def applies(self) -> bool:
        return self.enabled and not self.problem


@dataclass
class DockState:
    on: bool = False                         # the master switch (off at every start)
    vectors: list[SteeringFile] = field(default_factory=list)
    adapters: list[SteeringFile] = field(default_factory=list)
    layer_start: int = 1
    layer_end: int = 0                       # 0: the model's last layer (llama.cpp's default)

    def steering(self) -> Steering | None:
        return steering_of(self)

    def find(self, path: str) -> SteeringFile | None:
        return next((f for f in (*self.vectors, *self.adapters) if f.path == path), None)


def steering_of(state: DockState) -> Steering | None:
    """The Steering the next request gets: the files that are on and fine, in the dock's order, with their
    scales; the layer range with control vectors only. None when off or nothing applies."""
    if not state.on:
        return None
    vectors = tuple(ScaledFile(f.path, f.scale) for f in state.vectors if f.applies)
    loras = tuple(ScaledFile(f.path, f.scale) for f in state.adapters if f.applies)
    start, end = (state.layer_start, state.layer_end) if vectors else (DEFAULT_LAYER, DEFAULT_LAYER)
    return steering_or_none(Steering(control_vectors=vectors, layer_start=start, layer_end=end, loras=loras))


def absolute(path: str | Path) -> str:
    return str(Path(path).expanduser().resolve())


# -- the slider's span -------------------------------------------------------------------------------------

def equal_norm_scale(resid_norm: np.ndarray | None, directions: dict[int, np.ndarray], start: int,
                     end: int) -> float | None:
    """The scale at which what the vector adds over the layers start..end that it has (their directions
    summed) is as large as the residual stream after the last of them (None: nothing to go by)."""
    if resid_norm is None:
        return None
    layers = [layer for layer in directions if start <= layer <= end and layer + 1 < len(resid_norm)]
    if not layers:
        return None
    added = float(np.linalg.norm(np.sum([directions[layer] for layer in layers], axis=0, dtype=np.float64)))
    residual = float(resid_norm[max(layers) + 1])
    return residual / added if added > 0 and math.isfinite(residual) and residual > 0 else None


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is >= value (value > 0)."""
    power = 10.0 ** math.floor(math.log10(value))
    return next(power * m for m in (1.0, 2.0, 2.5, 5.0, 10.0) if power * m >= value * (1 - 1e-9))


def scale_span(equal: float | None) -> float:
    """How far the slider reaches each way: SPAN_MARGIN times the equal-norm scale, rounded up to a nice
    number; DEFAULT_VECTOR_SPAN before anything is measured."""
    if equal is None or not math.isfinite(equal) or equal <= 0:
        return DEFAULT_VECTOR_SPAN
    return nice_ceiling(equal * SPAN_MARGIN)


# -- remembered across restarts ----------------------------------------------------------------------------

def to_settings(state: DockState) -> dict[str, Any]:
    """What is remembered (never the master switch: every start is unsteered)."""
    def files(items: list[SteeringFile]) -> list[dict[str, Any]]:
        return [{"path": f.path, "scale": f.scale, "enabled": f.enabled} for f in items]

    return {"vectors": files(state.vectors), "adapters": files(state.adapters),
            "layer_start": state.layer_start, "layer_end": state.layer_end}


def from_settings(saved: Any) -> tuple[DockState, list[str]]:
    """The remembered state, and the remembered files that are gone (left out). Anything unreadable is
    skipped: a hand-edited or older settings file never stops the window."""
    state, gone = DockState(), list[str]()
    if not isinstance(saved, dict):
        return state, gone
    for key, target in (("vectors", state.vectors), ("adapters", state.adapters)):
        for entry in saved.get(key) or []:
            if not isinstance(entry, dict) or not isinstance(entry.get("path"), str) or not entry["path"]:
                continue
            scale = entry.get("scale", 1.0)
            if not isinstance(scale, (int, float)) or isinstance(scale, bool) or not math.isfinite(scale):
                scale = 1.0
            if not Path(entry["path"]).is_file():
                gone.append(entry["path"])
                continue
            target.append(SteeringFile(entry["path"], float(scale), entry.get("enabled") is not False))
    for key in ("layer_start", "layer_end"):
        value = saved.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            setattr(state, key, value)
    state.layer_start = max(1, state.layer_start)
    return state, gone
