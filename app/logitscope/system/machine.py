"""How much memory this machine has: RAM (total and available now) and, where known, GPU memory.

RAM comes from /proc/meminfo (MemAvailable counts reclaimable cache, which is what a new process can
get), else os.sysconf. VRAM comes from `nvidia-smi` when it is installed; other GPUs are "unknown"
(llama.cpp would tell us once a model is loaded, but a verdict is wanted before that).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

MEMINFO = Path("/proc/meminfo")
NVIDIA_SMI_QUERY = ["--query-gpu=name,memory.total,memory.free", "--format=csv,noheader,nounits"]
NVIDIA_SMI_TIMEOUT_S = 5.0
MIB = 1 << 20


@dataclass(frozen=True)
class GpuMemory:
    name: str
    total_bytes: int
    free_bytes: int


@dataclass(frozen=True)
class MachineMemory:
    ram_total: int | None
    ram_available: int | None
    gpus: tuple[GpuMemory, ...] = field(default_factory=tuple)

    @property
    def vram_total(self) -> int | None:
        return sum(g.total_bytes for g in self.gpus) if self.gpus else None

    @property
    def vram_free(self) -> int | None:
        # llama.cpp spreads layers over all GPUs by default (split mode "layer"), so their memory adds up.
        return sum(g.free_bytes for g in self.gpus) if self.gpus else None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"vram_total": self.vram_total, "vram_free": self.vram_free}


def parse_meminfo(text: str) -> tuple[int | None, int | None]:
    """(MemTotal, MemAvailable) in bytes from /proc/meminfo text; None for a missing field."""
    values: dict[str, int] = {}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            values[key.strip()] = int(parts[0]) * (1024 if parts[1:2] == ["kB"] else 1)
    return values.get("MemTotal"), values.get("MemAvailable")


def parse_nvidia_smi(text: str) -> tuple[GpuMemory, ...]:
    """Lines of `name, total MiB, free MiB`; lines that do not parse are skipped ([N/A] on some GPUs)."""
    gpus = []
    for line in text.splitlines():
        fields = [f.strip() for f in line.rsplit(",", 2)]
        if len(fields) == 3 and fields[1].isdigit() and fields[2].isdigit():
            gpus.append(GpuMemory(fields[0], int(fields[1]) * MIB, int(fields[2]) * MIB))
    return tuple(gpus)


def _ram_from_sysconf() -> tuple[int | None, int | None]:
    try:
        page = os.sysconf("SC_PAGE_SIZE")
        total = os.sysconf("SC_PHYS_PAGES") * page
    except (ValueError, OSError, AttributeError):
        return None, None
    try:
        available = os.sysconf("SC_AVPHYS_PAGES") * page  # Linux only; free pages, an underestimate
    except (ValueError, OSError):
        available = None
    return total, available


def _gpus_from_nvidia_smi(executable: str | None) -> tuple[GpuMemory, ...]:
    if not executable:
        return ()
    try:
        proc = subprocess.run([executable, *NVIDIA_SMI_QUERY], capture_output=True, text=True,
                              timeout=NVIDIA_SMI_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError):
        return ()  # not runnable or hung (a wedged driver): VRAM unknown, never a crash
    return parse_nvidia_smi(proc.stdout) if proc.returncode == 0 else ()


def probe_machine(meminfo: Path = MEMINFO, nvidia_smi: str | None = "auto") -> MachineMemory:
    """Measure now. `nvidia_smi`: "auto" (find it on PATH), a path to the executable, or None to skip."""
    total = available = None
    try:
        total, available = parse_meminfo(meminfo.read_text())
    except OSError:
        pass
    if total is None:
        total, available = _ram_from_sysconf()
    executable = shutil.which("nvidia-smi") if nvidia_smi == "auto" else nvidia_smi
    return MachineMemory(total, available, _gpus_from_nvidia_smi(executable))
