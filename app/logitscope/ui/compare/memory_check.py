"""Before engine B loads: do both models fit in this machine's memory at once? Both are counted (weights, KV
cache, compute buffer: gguf/memory.py); A is loaded already, so what it holds is part of the RAM in use, and
what is free now must hold B."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from logitscope.gguf.card import ModelCard
from logitscope.gguf.memory import MemoryEstimate, estimate, format_bytes
from logitscope.protocol.api import LoadSettings
from logitscope.system.machine import MachineMemory

HEADROOM = 256 << 20    # left to the window, the system and the page cache


def total(e: MemoryEstimate) -> int:
    return e.weights_bytes + e.kv_bytes + e.compute_bytes


@dataclass(frozen=True)
class BothFit:
    a_bytes: int
    b_bytes: int
    ram_total: int | None
    ram_available: int | None

    @property
    def fits(self) -> bool:
        if self.ram_total is None or self.ram_available is None:
            return True   # unknown: llama.cpp will say so if it does not
        both = self.a_bytes + self.b_bytes
        return both + HEADROOM <= self.ram_total and self.b_bytes + HEADROOM <= self.ram_available

    def message(self) -> str:
        """One sentence for the user when they do not fit."""
        return QCoreApplication.translate(
            "CompareWindow",
            "The two models do not fit in memory together: A needs about {0} and B about {1} ({2} in all), and "
            "this machine has {3} of RAM, {4} of it free now with A loaded. Compare with a smaller model, "
            "a smaller context or a quantized KV cache for B.").format(
            format_bytes(self.a_bytes), format_bytes(self.b_bytes), format_bytes(self.a_bytes + self.b_bytes),
            format_bytes(self.ram_total or 0), format_bytes(self.ram_available or 0))


def both_fit(card_a: ModelCard, load_a: LoadSettings, card_b: ModelCard, load_b: LoadSettings,
             machine: MachineMemory) -> BothFit:
    a = estimate(card_a, load_a.n_ctx, load_a.type_k, load_a.type_v)
    b = estimate(card_b, load_b.n_ctx, load_b.type_k, load_b.type_v)
    return BothFit(total(a), total(b), machine.ram_total, machine.ram_available)
