"""Refuse a load that can never fit in this machine's memory, before llama.cpp tries to allocate it.

An absurd context (`--n-ctx 2097152`: a 45 GiB KV cache for a 135 M model) would otherwise reach
llama.cpp's allocator: at best a late, vague failure, at worst the OOM killer. Only the impossible is
refused (more than all the RAM, plus all the VRAM when layers are offloaded); the fit verdict of the
load dialog and `models list` is the place for "tight". The scoring and beam-search contexts are checked the
same way before they are made (a beam context holds beams x max tokens cells)."""

from __future__ import annotations

from logitscope.base.errors import InvalidSettingsError
from logitscope.gguf.card import ModelCard
from logitscope.gguf.memory import MemoryEstimate, estimate, format_bytes
from logitscope.system.machine import MachineMemory, probe_machine


def _shortfall(card: ModelCard, n_ctx: int, type_k: str, type_v: str, offload: bool,
               machine: MachineMemory | None) -> tuple[MemoryEstimate, int] | None:
    """(what a context of n_ctx needs, the memory there is) when it needs more; None when it fits or the
    machine's memory is unknown."""
    if machine is None:
        machine = probe_machine(nvidia_smi="auto" if offload else None)
    capacity = machine.ram_total
    if capacity is None:
        return None
    if offload:
        if machine.vram_total is None:
            return None
        capacity += machine.vram_total
    need = estimate(card, n_ctx, type_k, type_v)
    return (need, capacity) if need.total_bytes > capacity else None


def ensure_it_can_fit(card: ModelCard, n_ctx: int, type_k: str, type_v: str, offload: bool,
                      machine: MachineMemory | None = None) -> None:
    """InvalidSettingsError when weights + KV cache + compute buffer exceed the machine's memory.
    `offload`: layers go to a GPU (their share may sit in VRAM; unknown VRAM: no verdict)."""
    short = _shortfall(card, n_ctx, type_k, type_v, offload, machine)
    if short is not None:
        need, capacity = short
        tokens = n_ctx or card.n_ctx_train
        raise InvalidSettingsError(
            "a context of {tokens:,} tokens needs about {total_bytes} (KV cache {kv_bytes}, "
            "weights {weights_bytes}, compute {compute_bytes}), more than the {capacity} of "
            "memory this machine has: choose a smaller context or a quantized KV cache", tokens=tokens, total_bytes=format_bytes(need.total_bytes), kv_bytes=format_bytes(need.kv_bytes), weights_bytes=format_bytes(need.weights_bytes), compute_bytes=format_bytes(need.compute_bytes), capacity=format_bytes(capacity))


def ensure_beams_fit(card: ModelCard, n_cells: int, n_beams: int, type_k: str, type_v: str, offload: bool,
                     machine: MachineMemory | None = None) -> None:
    """As ensure_it_can_fit, for a beam-search context of n_cells (its advice: fewer beams or tokens)."""
    short = _shortfall(card, n_cells, type_k, type_v, offload, machine)
    if short is not None:
        need, capacity = short
        raise InvalidSettingsError(
            "{n_beams} beams need a context of {cells:,} KV cells, about {total_bytes} (KV cache {kv_bytes}, "
            "weights {weights_bytes}, compute {compute_bytes}), more than the {capacity} of memory this machine "
            "has: lower the beams or max tokens", n_beams=n_beams, cells=n_cells,
            total_bytes=format_bytes(need.total_bytes), kv_bytes=format_bytes(need.kv_bytes),
            weights_bytes=format_bytes(need.weights_bytes), compute_bytes=format_bytes(need.compute_bytes),
            capacity=format_bytes(capacity))


def ensure_batch_fits(card: ModelCard, n_cells: int, n_answers: int, type_k: str, type_v: str, offload: bool,
                      machine: MachineMemory | None = None) -> None:
    """As ensure_it_can_fit, for the context of answers decoded together (its advice: fewer answers or tokens)."""
    short = _shortfall(card, n_cells, type_k, type_v, offload, machine)
    if short is not None:
        need, capacity = short
        raise InvalidSettingsError(
            "{n_answers} answers at once need a context of {cells:,} KV cells, about {total_bytes} (KV cache "
            "{kv_bytes}, weights {weights_bytes}, compute {compute_bytes}), more than the {capacity} of memory this "
            "machine has: lower the answers or max tokens", n_answers=n_answers, cells=n_cells,
            total_bytes=format_bytes(need.total_bytes), kv_bytes=format_bytes(need.kv_bytes),
            weights_bytes=format_bytes(need.weights_bytes), compute_bytes=format_bytes(need.compute_bytes),
            capacity=format_bytes(capacity))
