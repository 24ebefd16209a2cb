"""How much memory a model needs: weights, KV cache, compute buffer, and whether it fits.

KV cache bytes per token = n_layer x n_head_kv x (head_dim_k x bytes(type_k) + head_dim_v x bytes(type_v)),
i.e. the textbook 2 x layers x KV heads x head dim x bytes when K and V share a type. llama.cpp logs the
same figure when it allocates the cache; tests compare the two.
"""

from __future__ import annotations

from dataclasses import dataclass

from logitscope.gguf.card import ModelCard

# KV cache element types: name -> (ggml type id, bytes per element). Block types store 32 values
# plus a scale: q8_0 = 34 bytes / 32 values, q4_0 = 18 bytes / 32 values.
KV_CACHE_TYPES: dict[str, tuple[int, float]] = {
    "f16": (1, 2.0),
    "q8_0": (8, 34 / 32),
    "q4_0": (2, 18 / 32),
}
UNQUANTIZED_KV = "f16"  # llama.cpp's default KV cache type; a V cache of another type needs flash attention
KV_CELL_PADDING = 256  # llama.cpp rounds the number of KV cells up to a multiple of this
QUANT_BLOCK = 32       # values per block of the q*_0 / q*_1 types


def kv_type_id(name: str) -> int:
    return KV_CACHE_TYPES[name][0]


def kv_bytes_per_element_text(name: str) -> str:
    """Bytes per element, as the formula shows it: "2" for f16, "34/32" (bytes per block of 32) for q8_0."""
    size = KV_CACHE_TYPES[name][1]
    return f"{size:g}" if size == int(size) else f"{size * QUANT_BLOCK:g}/{QUANT_BLOCK}"


def value_cache_type(kv_type: str, flash_attn: bool) -> str:
    """The V cache's type when the user picks `kv_type`: quantized only with flash attention."""
    return kv_type if flash_attn else UNQUANTIZED_KV


def kv_bytes_per_token_by_layer(card: ModelCard, type_k: str = UNQUANTIZED_KV,
                                type_v: str = UNQUANTIZED_KV) -> list[float]:
    """K + V bytes one token takes in each layer's cache. Every layer alike: the model card knows no
    per-layer head counts or sliding windows (Gemma 3's window layers are counted at full size)."""
    k = card.head_dim_k * KV_CACHE_TYPES[type_k][1]
    v = card.head_dim_v * KV_CACHE_TYPES[type_v][1]
    return [card.n_head_kv * (k + v)] * card.n_layer


def kv_bytes_per_token(card: ModelCard, type_k: str = UNQUANTIZED_KV, type_v: str = UNQUANTIZED_KV) -> float:
    return sum(kv_bytes_per_token_by_layer(card, type_k, type_v))


def kv_cells(n_ctx: int) -> int:
    return -(-n_ctx // KV_CELL_PADDING) * KV_CELL_PADDING


def kv_cache_bytes(card: ModelCard, n_ctx: int, type_k: str = UNQUANTIZED_KV, type_v: str = UNQUANTIZED_KV) -> int:
    return round(kv_bytes_per_token(card, type_k, type_v) * kv_cells(n_ctx))


def compute_buffer_estimate(card: ModelCard, n_ctx: int, n_ubatch: int = 512) -> int:
    """A rough estimate of llama.cpp's compute buffer: the logits of one micro-batch dominate it
    (n_vocab x n_ubatch floats), plus activations and the attention scores of one layer."""
    logits = card.n_vocab * n_ubatch * 4
    activations = n_ubatch * (card.n_embd + card.n_ff) * 4 * 2
    scores = n_ubatch * min(n_ctx, 4096) * card.n_head * 4 // 8
    return logits + activations + scores


@dataclass
class MemoryEstimate:
    weights_bytes: int
    kv_bytes: int
    compute_bytes: int
    kv_bytes_per_token: float

    @property
    def total_bytes(self) -> int:
        return self.weights_bytes + self.kv_bytes + self.compute_bytes


def estimate(card: ModelCard, n_ctx: int, type_k: str = UNQUANTIZED_KV, type_v: str = UNQUANTIZED_KV) -> MemoryEstimate:
    n_ctx = n_ctx or card.n_ctx_train
    return MemoryEstimate(
        weights_bytes=card.weights_bytes,
        kv_bytes=kv_cache_bytes(card, n_ctx, type_k, type_v),
        compute_bytes=compute_buffer_estimate(card, n_ctx),
        kv_bytes_per_token=kv_bytes_per_token(card, type_k, type_v),
    )


def format_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024
    return f"{n:.2f} GiB"
