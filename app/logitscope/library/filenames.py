"""What a GGUF file name tells before any byte is read: its quantization label and its split parts.

Used for files on the Hub (where the header is not at hand) and on disk alike. Split models follow
llama.cpp's `gguf-split` naming, `<stem>-00001-of-00003.gguf`; llama.cpp loads the first part and finds
the others next to it, so a split model is one entry whose path is its first part.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

SPLIT_RE = re.compile(r"^(?P<stem>.+)-(?P<index>\d{5})-of-(?P<count>\d{5})\.gguf$", re.IGNORECASE)

# A quantization label between separators: Q4_K_M, q8_0, IQ4_XS, F16, BF16, TQ1_0, MXFP4, UD-Q4_K_XL (unsloth).
QUANT_RE = re.compile(
    r"(?:^|[-_.])((?:UD-)?(?:I?Q[1-8](?:_[0-9A-Z]{1,3}){0,3}|TQ[12]_0|MXFP4(?:_MOE)?|BF16|FP?16|FP?32))(?=$|[-_.])",
    re.IGNORECASE,
)


def partial_paths(dest: Path) -> tuple[Path, Path]:
    """A download in progress (download.py) and its state file, next to where the finished file goes."""
    return dest.with_name(dest.name + ".part"), dest.with_name(dest.name + ".part.json")


def is_gguf_name(name: str) -> bool:
    return name.lower().endswith(".gguf")


@dataclass(frozen=True)
class SplitName:
    stem: str
    index: int   # 1-based
    count: int


def split_name(file_name: str) -> SplitName | None:
    """`model-00002-of-00003.gguf` -> SplitName('model', 2, 3); None for a single-file model."""
    m = SPLIT_RE.match(PurePosixPath(file_name).name)
    if not m:
        return None
    index, count = int(m["index"]), int(m["count"])
    return SplitName(m["stem"], index, count) if 1 <= index <= count else None


def quant_label(file_name: str) -> str:
    """The quantization label in a file name, upper-cased ('unknown' when there is none).

    The last match wins: quantization comes last in every common naming scheme
    (`Llama-3.2-1B-Instruct-Q4_K_M.gguf`, `qwen2.5-0.5b-instruct-q4_k_m.gguf`, `model.Q8_0-00001-of-00002.gguf`).
    """
    name = PurePosixPath(file_name).name
    split = split_name(name)
    stem = split.stem if split else re.sub(r"\.gguf$", "", name, flags=re.IGNORECASE)
    matches = QUANT_RE.findall(stem)
    return matches[-1].upper() if matches else "unknown"


@dataclass(frozen=True)
class FileGroup:
    """One model: a single GGUF file, or all parts of a split one (in order)."""

    parts: tuple[str, ...]
    expected_parts: int   # > len(parts) when some parts are missing

    @property
    def name(self) -> str:
        return self.parts[0]

    @property
    def is_split(self) -> bool:
        return self.expected_parts > 1

    @property
    def missing(self) -> list[int]:
        have = {split.index for split in map(split_name, self.parts) if split is not None}
        return [i for i in range(1, self.expected_parts + 1) if i not in have] if self.is_split else []


def group_gguf_files(names: Iterable[str]) -> list[FileGroup]:
    """Group GGUF file names (relative paths, '/'-separated) into models; other names are ignored."""
    singles: list[FileGroup] = []
    splits: dict[tuple[str, str, int], list[tuple[int, str]]] = {}
    for name in names:
        if not is_gguf_name(name):
            continue
        split = split_name(name)
        if split is None:
            singles.append(FileGroup((name,), 1))
        else:
            folder = str(PurePosixPath(name).parent)
            splits.setdefault((folder, split.stem.lower(), split.count), []).append((split.index, name))
    groups = singles + [
        FileGroup(tuple(name for _, name in sorted(parts)), count) for (_, _, count), parts in splits.items()
    ]
    return sorted(groups, key=lambda g: g.name.lower())
