"""The model card from the GGUF header, and the memory model against what llama.cpp itself allocates."""

from __future__ import annotations

import re

import pytest

from logitscope.engine.runtime import Runtime
from logitscope.gguf.card import read_model_card
from logitscope.gguf.memory import estimate, kv_bytes_per_token, kv_cache_bytes
from logitscope.protocol.api import LoadSettings

pytestmark = pytest.mark.model  # imports llama.cpp at its top


def test_demo_model_card(demo_model):
    card = read_model_card(demo_model)
    assert card.architecture == "llama"
    assert card.n_layer == 30 and card.n_head == 9 and card.n_head_kv == 3
    assert card.head_dim_k == card.head_dim_v == 64
    assert card.n_embd == 576 and card.n_ff == 1536
    assert card.n_vocab == 49152 and card.tokenizer_model == "gpt2"
    assert card.n_ctx_train == 8192
    assert (card.bos_id, card.eos_id) == (1, 2)
    assert card.has_chat_template and "<|im_start|>" in card.chat_template
    assert card.file_type == "Q4_1"
    assert card.n_params == 134_515_008
    assert card.file_size == 98_362_432
    mix = {q.type_name: q for q in card.quant_mix}
    assert set(mix) == {"Q4_1", "Q8_0", "F32"}
    assert mix["Q4_1"].bits_per_weight == pytest.approx(5.0)
    assert mix["Q8_0"].n_tensors == 1  # the token embedding
    assert 5.5 < card.bits_per_weight < 6.0
    assert card.problems == []  # consistent: damaged headers are tested in test_gguf_check.py


def test_kv_formula_for_the_demo_model(demo_model):
    card = read_model_card(demo_model)
    # 2 (K and V) x 30 layers x 3 KV heads x 64 head dim x 2 bytes (f16)
    assert kv_bytes_per_token(card) == 2 * 30 * 3 * 64 * 2 == 23_040
    assert kv_cache_bytes(card, 2048) == 45 * 2**20


def _logged_kv_mib(rt: Runtime) -> tuple[float, str, str]:
    line = next(line for line in reversed(rt.log.tail(400)) if "llama_kv_cache: size" in line)
    m = re.search(r"size =\s*([\d.]+) MiB.*K \((\w+)\).*V \((\w+)\)", line)
    assert m, line
    return float(m.group(1)), m.group(2), m.group(3)


@pytest.mark.parametrize("n_ctx,type_k,type_v,flash", [
    (512, "f16", "f16", False), (2048, "f16", "f16", False), (1024, "q8_0", "f16", False),
    (1024, "q8_0", "q8_0", True), (768, "q4_0", "q4_0", True)])
def test_kv_estimate_matches_llama_cpp_log(demo_model, n_ctx, type_k, type_v, flash):
    card = read_model_card(demo_model)
    rt = Runtime(demo_model, LoadSettings(n_ctx=n_ctx, type_k=type_k, type_v=type_v, flash_attn=flash))
    try:
        mib, logged_k, logged_v = _logged_kv_mib(rt)
        assert (logged_k, logged_v) == (type_k, type_v)
        assert kv_cache_bytes(card, n_ctx, type_k, type_v) / 2**20 == pytest.approx(mib, abs=0.01)
    finally:
        rt.close()


def test_estimate_totals(demo_model):
    card = read_model_card(demo_model)
    est = estimate(card, 2048)
    assert est.weights_bytes == card.weights_bytes
    assert est.kv_bytes == 45 * 2**20
    # llama.cpp logs a 99.38 MiB compute buffer for this model at n_ctx 2048: the estimate is within 10 %.
    assert est.compute_bytes / 2**20 == pytest.approx(99.38, rel=0.10)
    assert est.total_bytes == est.weights_bytes + est.kv_bytes + est.compute_bytes
