"""llama.cpp's steering flags, with its formats (common/arg.cpp): `--control-vector FNAME[,FNAME...]`,
`--control-vector-scaled FNAME:SCALE[,...]`, `--control-vector-layer-range START END`, `--lora FNAME[,...]`,
`--lora-scaled FNAME:SCALE[,...]`. Each flag can be repeated; the files keep the order given, across the
plain and the scaled flag (the vectors are summed in that order)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from logitscope.base.errors import InvalidSettingsError
from logitscope.protocol.steering import DEFAULT_LAYER, ScaledFile, Steering

VECTORS_DEST = "control_vectors"
LORAS_DEST = "loras"


def parse_scaled(value: str, flag: str) -> list[ScaledFile]:
    """`FNAME:SCALE[,FNAME:SCALE...]`: exactly one ':' per item, as llama.cpp requires."""
    out = []
    for item in value.split(","):
        parts = item.split(":")
        if len(parts) != 2 or not parts[0]:
            raise InvalidSettingsError("{flag} takes FNAME:SCALE[,FNAME:SCALE...], not {value!r}",
                                       flag=flag, value=value)
        try:
            scale = float(parts[1])
        except ValueError:
            scale = math.nan
        if not math.isfinite(scale):
            raise InvalidSettingsError("{flag}: the scale in {item!r} must be a finite number", flag=flag,
                                       item=item)
        out.append(ScaledFile(_file(parts[0]), scale))
    return out


def parse_plain(value: str, flag: str) -> list[ScaledFile]:
    """`FNAME[,FNAME...]`, each at scale 1.0."""
    names = value.split(",")
    if not all(names):
        raise InvalidSettingsError("{flag} takes FNAME[,FNAME...], not {value!r}", flag=flag, value=value)
    return [ScaledFile(_file(name)) for name in names]


def _file(name: str) -> str:
    """An absolute path: the engine process reads it."""
    return str(Path(name).expanduser().absolute())


class _AppendFiles(argparse.Action):
    """Appends the parsed files to one list shared by a plain and a scaled flag."""

    def __init__(self, *args: Any, scaled: bool = False, **kwargs: Any) -> None:
        self.scaled = scaled
        super().__init__(*args, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        flag = option_string or self.dest
        try:
            files = (parse_scaled if self.scaled else parse_plain)(str(values), flag)
        except InvalidSettingsError as exc:
            parser.error(str(exc))
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest, None) or []), *files])


def add_steering_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("steering (llama.cpp's control vectors and LoRA adapters)")
    g.add_argument("--control-vector", dest=VECTORS_DEST, action=_AppendFiles, default=[], metavar="FNAME[,...]",
                   help="add control vectors at scale 1.0 (repeatable)")
    g.add_argument("--control-vector-scaled", dest=VECTORS_DEST, action=_AppendFiles, scaled=True,
                   metavar="FNAME:SCALE[,...]", help="add control vectors scaled by SCALE (repeatable)")
    g.add_argument("--control-vector-layer-range", nargs=2, type=int, metavar=("START", "END"), default=None,
                   help="the layers the control vectors apply to, both inclusive (default: all)")
    g.add_argument("--lora", dest=LORAS_DEST, action=_AppendFiles, default=[], metavar="FNAME[,...]",
                   help="apply LoRA adapters at scale 1.0 (repeatable)")
    g.add_argument("--lora-scaled", dest=LORAS_DEST, action=_AppendFiles, scaled=True, metavar="FNAME:SCALE[,...]",
                   help="apply LoRA adapters scaled by SCALE (repeatable)")


def steering_from_args(args: argparse.Namespace) -> Steering | None:
    """The request's Steering (validated), or None when no steering flag was given."""
    vectors, loras = tuple(getattr(args, VECTORS_DEST, [])), tuple(getattr(args, LORAS_DEST, []))
    layer_range = getattr(args, "control_vector_layer_range", None)
    if not vectors and not loras:
        if layer_range is not None:
            raise InvalidSettingsError("--control-vector-layer-range goes with --control-vector or "
                                       "--control-vector-scaled")
        return None
    if getattr(args, "engine", None) is not None:
        raise InvalidSettingsError("control vectors and LoRA adapters need the local engine: a remote server "
                                   "applies its own")
    start, end = layer_range if layer_range is not None else (DEFAULT_LAYER, DEFAULT_LAYER)
    steering = Steering(control_vectors=vectors, layer_start=start, layer_end=end, loras=loras)
    steering.validate()
    _check_files(steering)
    return steering


def _check_files(steering: Steering) -> None:
    """A missing or bad file is reported before an engine starts (the engine checks the model's width and
    llama.cpp the adapters)."""
    from logitscope.gguf.control_vector import read_control_vector
    from logitscope.gguf.lora import read_lora_metadata

    for vector in steering.control_vectors:
        read_control_vector(vector.path)
    for lora in steering.loras:
        if not Path(lora.path).is_file():
            raise InvalidSettingsError("the LoRA adapter {path} does not exist", path=lora.path)
        read_lora_metadata(lora.path)   # not an adapter at all (a model, a control vector): said here, plainly


def steering_line(record: dict[str, Any]) -> str:
    """The steering an answer was made with, in one line (the trace has each file's sha256 too)."""
    parts = []
    if record["control_vectors"]:
        start, end = record["layer_range"]
        files = ", ".join(f"{v['file']}:{v['scale']:g}" for v in record["control_vectors"])
        parts.append(f"control vectors {files} on layers {start}-{end}")
    if record["loras"]:
        parts.append("LoRA " + ", ".join(f"{a['file']}:{a['scale']:g}" for a in record["loras"]))
    return f"[steered] {'; '.join(parts)}"
