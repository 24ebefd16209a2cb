"""A smaller quantization of the loaded model, for the "slow" finding: one in the library (the fix loads it), or
the usual next step down to look for (named without a click when the library has none).

Same model: the same architecture and shape (parameters, layers, width, vocabulary), whatever the file name
says. "Smaller": measured bits per weight (the card reads them from the tensors), not the file type's name,
which says nothing of the tensors kept at higher precision.
"""

from __future__ import annotations

from collections.abc import Iterable

from logitscope.diagnosis.findings import Quant
from logitscope.diagnosis.thresholds import QUANT_MIN_BPW_STEP
from logitscope.gguf.card import ModelCard

# The usual next step down from each file type (llama.cpp's common quantizations): named when the library has
# no smaller file. Q4 and below have no entry: going further costs more quality than speed is worth.
NEXT_SMALLER = {
    "F32": "Q8_0", "F16": "Q8_0", "BF16": "Q8_0",
    "Q8_0": "Q4_K_M", "Q6_K": "Q4_K_M", "Q5_K_M": "Q4_K_M", "Q5_K_S": "Q4_K_M", "Q5_1": "Q4_K_M", "Q5_0": "Q4_K_M",
}


def quant_of(card: ModelCard) -> Quant:
    return Quant(card.file_type, card.bits_per_weight, card.path)


def same_model(a: ModelCard, b: ModelCard) -> bool:
    return (a.architecture, a.n_params, a.n_layer, a.n_embd, a.n_vocab) == \
        (b.architecture, b.n_params, b.n_layer, b.n_embd, b.n_vocab)


def smaller_quantization(card: ModelCard, candidates: Iterable[ModelCard]) -> Quant | None:
    """The file of the same model with the most bits per weight that still has at least QUANT_MIN_BPW_STEP
    fewer than `card` (the smallest step down: the least quality given up), or None."""
    smaller = [c for c in candidates if c.path != card.path and not c.problems and same_model(c, card)
               and c.bits_per_weight <= card.bits_per_weight - QUANT_MIN_BPW_STEP]
    best = max(smaller, key=lambda c: c.bits_per_weight, default=None)
    return quant_of(best) if best is not None else None


def library_smaller(card: ModelCard, folders: Iterable[str] = ()) -> Quant | None:
    """`smaller_quantization` among the models of the local library (the app's folder and the user's `folders`,
    the Hugging Face cache, Ollama). Reads every model's header: call it only when there is a slow answer to fix."""
    from logitscope.library.catalog import list_local_models
    from logitscope.library.discovery import default_roots

    return smaller_quantization(card, (m.card for m in list_local_models(default_roots(folders))
                                       if m.card is not None))
