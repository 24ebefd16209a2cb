"""Steering a request: llama.cpp control vectors and LoRA adapters, as its flags give them.

`--control-vector FILE` is a vector at scale 1.0, `--control-vector-scaled FILE:SCALE` one at SCALE; all of
them are summed, scaled, into one vector per layer (common_control_vector_load) and added to the output of
the layers in `--control-vector-layer-range START END` (inclusive; llama.cpp's default when not given: 1 to
n_layer). `--lora FILE` / `--lora-scaled FILE:SCALE` apply adapters with those scales.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from logitscope.base.errors import InvalidSettingsError

DEFAULT_LAYER = 0  # a layer bound left at llama.cpp's default (<= 0 there): start 1, end n_layer


@dataclass(frozen=True)
class ScaledFile:
    path: str
    scale: float = 1.0


@dataclass(frozen=True)
class Steering:
    control_vectors: tuple[ScaledFile, ...] = ()
    layer_start: int = DEFAULT_LAYER
    layer_end: int = DEFAULT_LAYER
    loras: tuple[ScaledFile, ...] = ()

    @property
    def active(self) -> bool:
        return bool(self.control_vectors or self.loras)

    def layer_range(self, n_layer: int) -> tuple[int, int]:
        """The inclusive range of the layers steered: the start as llama.cpp's common_init_from_params resolves
        it (1), the end at most the model's last layer, n_layer - 1 (llama.cpp's default end, n_layer, steers the
        same layers: "layers 1-30" on a model of layers 0-29 read as if there were a layer 30, and "1-999" as if
        there were 999)."""
        start = self.layer_start if self.layer_start > 0 else 1
        end = min(self.layer_end, n_layer - 1) if self.layer_end > 0 else n_layer - 1
        return start, end

    def validate(self) -> None:
        for item in self.control_vectors + self.loras:
            if not item.path:
                raise InvalidSettingsError("a control vector or LoRA adapter needs a file name")
            if not math.isfinite(item.scale):
                raise InvalidSettingsError("the scale of {path} must be a finite number, not {scale}",
                                           path=item.path, scale=item.scale)
        if self.layer_start > 0 and self.layer_end > 0 and self.layer_start > self.layer_end:
            raise InvalidSettingsError("the control vector layer range {start} {end} is empty: START must not "
                                       "be after END", start=self.layer_start, end=self.layer_end)


def steering_or_none(steering: Steering | None) -> Steering | None:
    """None for no steering at all (an empty Steering means the same)."""
    return steering if steering is not None and steering.active else None


def steering_record(vectors: list[dict[str, Any]], layer_range: tuple[int, int] | None,
                    loras: list[dict[str, Any]]) -> dict[str, Any]:
    """What a trace records of the steering an answer was made with (the 'done' line's `steering`):
    each file's name, sha256 and scale, and the layer range applied (null without control vectors)."""
    return {"control_vectors": vectors, "layer_range": list(layer_range) if layer_range else None, "loras": loras}


def knockouts_from_record(record: dict[str, Any] | None) -> tuple[str, ...]:
    """The heads and blocks an answer was generated with knocked out ("23.4", "20.attn"), as its record says."""
    labels = record.get("knockouts") if isinstance(record, dict) else None
    return tuple(str(label) for label in labels) if isinstance(labels, list) else ()


def steering_from_record(record: dict[str, Any] | None) -> Steering | None:
    """The Steering a trace's record was made with (to inspect or score a steered answer as it was made);
    None for an unsteered one. The files are those the record names by path, read again."""
    if not record:
        return None
    layer_range = record.get("layer_range") or (DEFAULT_LAYER, DEFAULT_LAYER)
    return steering_or_none(Steering(
        control_vectors=tuple(ScaledFile(str(v["path"]), float(v["scale"])) for v in record.get("control_vectors") or ()),
        layer_start=int(layer_range[0]), layer_end=int(layer_range[1]),
        loras=tuple(ScaledFile(str(a["path"]), float(a["scale"])) for a in record.get("loras") or ())))
