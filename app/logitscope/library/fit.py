"""Will this model run on this machine? Weights + KV cache + compute buffer against RAM and VRAM.

For a file on disk the need comes from its header (gguf/memory.py `estimate`). For a file still on the
Hub only its size is known, so the KV cache and compute buffer are a rough allowance taken from typical
models (see `need_for_download`); the verdict says so.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from logitscope.base.messages import Message, join_messages
from logitscope.gguf.card import ModelCard
from logitscope.gguf.memory import UNQUANTIZED_KV, estimate, format_bytes
from logitscope.system.machine import MachineMemory

DEFAULT_N_CTX = 4096
FITS_SHARE = 0.8          # "fits" leaves a fifth of the available RAM to everything else
TOTAL_SHARE = 0.9         # up to this share of all RAM: "tight" (other programs must give memory back)
VRAM_RESERVE = 256 << 20  # the driver and the display keep some VRAM: never plan with the last 256 MiB
# The allowance for a file on the Hub, from typical GGUF models at Q4 (Qwen2.5, Llama 3.x, Gemma 3): the
# compute buffer is dominated by one micro-batch of logits (~150k vocab x 512 x 4 B), the KV cache is
# ~3.5 % of the file size per 1,024 tokens of context.
HUB_COMPUTE_ALLOWANCE = 320 << 20
HUB_KV_SHARE_PER_1K = 0.035

Verdict = Literal["fits", "tight", "does not fit", "unknown"]
VERDICT_WORDS: dict[str, Message] = {"fits": Message("fits"), "tight": Message("tight"),
                                     "does not fit": Message("does not fit"), "unknown": Message("unknown")}


@dataclass(frozen=True)
class MemoryNeed:
    weights_bytes: int
    kv_bytes: int
    compute_bytes: int
    n_ctx: int
    n_layer: int | None   # None when unknown (a file on the Hub)
    exact: bool           # False: KV cache and compute buffer are an allowance, not read from the header

    @property
    def total_bytes(self) -> int:
        return self.weights_bytes + self.kv_bytes + self.compute_bytes


def need_for_card(card: ModelCard, n_ctx: int = DEFAULT_N_CTX, type_k: str = UNQUANTIZED_KV,
                  type_v: str = UNQUANTIZED_KV) -> MemoryNeed:
    n_ctx = n_ctx or card.n_ctx_train
    est = estimate(card, n_ctx, type_k, type_v)
    return MemoryNeed(est.weights_bytes, est.kv_bytes, est.compute_bytes, n_ctx, card.n_layer or None, True)


def need_for_download(size_bytes: int, n_ctx: int = DEFAULT_N_CTX) -> MemoryNeed:
    kv = round(size_bytes * HUB_KV_SHARE_PER_1K * n_ctx / 1024)
    return MemoryNeed(size_bytes, kv, HUB_COMPUTE_ALLOWANCE, n_ctx, None, False)


@dataclass(frozen=True)
class FitVerdict:
    verdict: Verdict
    summary: str                 # one line with the numbers, for people
    need: MemoryNeed
    ram_needed: int              # what stays in RAM after GPU offload
    ram_available: int | None
    ram_total: int | None
    vram_free: int | None
    vram_total: int | None
    gpu_layers: int | None       # layers that fit in VRAM; None when VRAM or the layer count is unknown
    all_on_gpu: bool             # the whole model (weights + KV + compute) fits in free VRAM

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"need_total": self.need.total_bytes}


def _gpu_plan(need: MemoryNeed, machine: MachineMemory) -> tuple[int | None, bool, int]:
    """(layers that fit in VRAM, everything fits, bytes offloaded)."""
    if machine.vram_free is None:
        return None, False, 0
    usable = machine.vram_free - VRAM_RESERVE
    if need.total_bytes <= usable:
        return need.n_layer, True, need.total_bytes
    if not need.n_layer:
        return None, False, 0
    # Nearly all weights and the whole KV cache are per layer; the compute buffer sits on the GPU
    # as soon as one layer does.
    per_layer = (need.weights_bytes + need.kv_bytes) / need.n_layer
    layers = max(0, min(need.n_layer, int((usable - need.compute_bytes) // per_layer)))
    return layers, False, round(per_layer * layers) + (need.compute_bytes if layers else 0)


def assess_fit(need: MemoryNeed, machine: MachineMemory, use_gpu: bool = True) -> FitVerdict:
    """The verdict for `need` on `machine`. `use_gpu=False` for a CPU-only llama.cpp build: the layers that
    would fit in VRAM are still reported, but everything is counted in RAM."""
    gpu_layers, all_on_gpu, offloaded = _gpu_plan(need, machine)
    if not use_gpu:
        offloaded = 0
    ram_needed = max(0, need.total_bytes - offloaded)
    avail, total = machine.ram_available, machine.ram_total
    if avail is None and total is None:
        verdict: Verdict = "unknown"
    elif avail is not None and ram_needed <= FITS_SHARE * avail:
        verdict = "fits"
    elif (avail is not None and ram_needed <= avail) or (total is not None and ram_needed <= TOTAL_SHARE * total):
        verdict = "tight"
    else:
        verdict = "does not fit"
    return FitVerdict(verdict, _summary(verdict, need, ram_needed, machine, gpu_layers, all_on_gpu), need,
                      ram_needed, avail, total, machine.vram_free, machine.vram_total, gpu_layers, all_on_gpu)


def _summary(verdict: Verdict, need: MemoryNeed, ram_needed: int, machine: MachineMemory,
             gpu_layers: int | None, all_on_gpu: bool) -> str:
    about = "" if need.exact else "~"
    parts = Message("weights {weights} + KV cache {about}{kv} at {n_ctx} tokens + compute {about}{compute}",
                    weights=format_bytes(need.weights_bytes), about=about, kv=format_bytes(need.kv_bytes),
                    n_ctx=need.n_ctx, compute=format_bytes(need.compute_bytes))
    clauses = [Message("{verdict}: needs {total} ({parts})", verdict=VERDICT_WORDS[verdict],
                       total=format_bytes(need.total_bytes), parts=parts)]
    if not need.exact:
        clauses[0] = Message("{summary} (estimated from the file size)", summary=clauses[0])
    avail, total = machine.ram_available, machine.ram_total
    if ram_needed < need.total_bytes:
        clauses.append(Message("{ram} of it in RAM", ram=format_bytes(ram_needed)))
    if avail is not None or total is not None:
        ram = Message("RAM: {free} free of {total}", free=_fmt(avail), total=_fmt(total))
        if verdict == "tight" and avail is not None and ram_needed > avail:
            ram = Message("{ram} (close other programs first)", ram=ram)
        clauses.append(ram)
    if machine.vram_free is None:
        clauses.append(Message("VRAM: unknown"))
    elif all_on_gpu:
        vram = format_bytes(machine.vram_free)
        clauses.append(Message("GPU: all {n_layer} layers fit in {vram} free VRAM", n_layer=need.n_layer, vram=vram)
                       if need.n_layer else Message("GPU: the whole model fit in {vram} free VRAM", vram=vram))
    elif gpu_layers is not None:
        clauses.append(Message("GPU: {gpu_layers} of {n_layer} layers fit in {vram} free VRAM", gpu_layers=gpu_layers,
                               n_layer=need.n_layer, vram=format_bytes(machine.vram_free)))
    else:
        clauses.append(Message("GPU: does not fit whole in {vram} free VRAM", vram=format_bytes(machine.vram_free)))
    return join_messages("; ", clauses)


def _fmt(n: int | None) -> str:
    return "?" if n is None else format_bytes(n)
