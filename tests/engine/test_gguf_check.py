"""Damaged GGUF files: a header that reads but cannot load is reported as damaged, with what can be read.

Every damaged file here is the real demo model's header with one thing made inconsistent (tests/helpers/gguf_corpus.py),
and llama.cpp itself is asked to load each one, so the check never rejects what llama.cpp would load. Valid
models must pass: the demo model (llama), small llama files of the gguf writer, a split model, and a real
Gemma 3 model when one is on this machine.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from logitscope.base.errors import DamagedModelError, ModelFileError
from logitscope.gguf.card import read_model_card, read_model_card_with_problems
from tests.helpers import gguf_corpus
from tests.helpers.small_ggufs import split_gguf, tiny_gguf

LOAD_WITH_LLAMA_CPP = "import sys, llama_cpp\nllama_cpp.Llama(sys.argv[1], n_ctx=256, verbose=False)\n"


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory, demo_model) -> dict[str, tuple[Path, str]]:
    return gguf_corpus.build(tmp_path_factory.mktemp("corpus"), demo_model)


@pytest.mark.parametrize("name", gguf_corpus.DAMAGED)
def test_a_damaged_header_is_reported_with_its_card(bad_files, name):
    path, phrase = bad_files[name]
    with pytest.raises(DamagedModelError) as err:
        read_model_card(path)
    assert phrase in str(err.value) and "damaged" in str(err.value)
    card = err.value.card
    assert card.architecture == "llama" and card.n_params == 134_515_008  # what can be read is kept
    assert phrase in card.problems[0]
    assert read_model_card_with_problems(path).problems == card.problems


def test_the_card_shows_zero_kv_heads_as_stored(bad_files):
    card = read_model_card_with_problems(bad_files["zero-kv-heads"][0])
    assert (card.n_head, card.n_head_kv) == (9, 0)  # it used to show "KV heads 9"


@pytest.mark.model
@pytest.mark.parametrize("name", [None, "too-many-layers", "absurd-heads", *gguf_corpus.DAMAGED])
def test_llama_cpp_refuses_every_file_the_check_rejects(bad_files, demo_model, name, tmp_path):
    """The oracle: llama.cpp itself, in a child process (some of these abort it). None: the demo model loads."""
    path = bad_files[name][0] if name else demo_model
    assert llama_cpp_loads(path, tmp_path) == (name is None)
    assert bool(read_model_card_with_problems(path).problems) == (name is not None)


def llama_cpp_loads(path: Path, cwd: Path) -> bool:
    proc = subprocess.run([sys.executable, "-c", LOAD_WITH_LLAMA_CPP, str(path)], capture_output=True, text=True,
                          timeout=120, cwd=cwd)
    return proc.returncode == 0


def test_valid_small_models_have_no_problems(tmp_path):
    assert read_model_card_with_problems(tiny_gguf(tmp_path / "tiny.gguf", n_layer=3)).problems == []
    parts = split_gguf(tmp_path / "split" / "big.gguf", n_parts=3)
    card = read_model_card(parts[0])
    singles = [read_model_card(tiny_gguf(tmp_path / "one.gguf", n_layer=2))]
    assert card.problems == [] and card.n_layer == 2
    assert card.file_size == sum(p.stat().st_size for p in parts)
    assert card.n_params == singles[0].n_params  # same tensors as a 2-layer tiny model, spread over 3 files


def test_a_split_model_is_checked_whole(tmp_path):
    parts = split_gguf(tmp_path / "split" / "big.gguf", n_parts=3)
    parts[1].unlink()
    card = read_model_card_with_problems(parts[0])
    assert "part 2 of 3" in card.problems[0] and "missing" in card.problems[0]
    renamed = tmp_path / "split" / "renamed.gguf"
    shutil.copyfile(parts[0], renamed)
    assert "must be named" in read_model_card_with_problems(renamed).problems[0]
    with pytest.raises(ModelFileError, match="part 3 of a split model: open its first part"):
        read_model_card_with_problems(parts[2])


def test_tensor_data_must_follow_gguf_layout(tmp_path, demo_model):
    """gguf.c refuses a tensor whose data is not right after the one before it (checked with llama.cpp: a gap,
    two swapped tensors and a misaligned offset all fail to load)."""
    path = gguf_corpus.header_copy(demo_model, tmp_path / "moved.gguf")
    assert read_model_card_with_problems(path).problems == []
    problems = read_model_card_with_problems(gguf_corpus.move_tensor_data(path, 1, by=32)).problems
    assert "gguf's layout puts it at" in problems[0]


def test_a_real_gemma3_model_passes(tmp_path, gemma3):
    """A second architecture: head dim 256 from attention.key_length (not embedding / heads), 1 KV head."""
    card = read_model_card(gemma3)
    assert card.architecture == "gemma3" and card.problems == []
    assert (card.n_head, card.n_head_kv, card.head_dim_k, card.n_embd) == (4, 1, 256, 640)


@pytest.mark.model
@pytest.mark.parametrize("key,value,phrase", [
    ("attention.head_count_kv", 0, "head_count_kv is 0"), ("attention.head_count", 3, "attn_q.weight is [640, 1024]"),
    ("attention.key_length", 128, "attn_q.weight is [640, 1024]"), ("block_count", 17, "tensors of layer 17")])
def test_damaged_gemma3_headers_are_caught_and_refused_by_llama_cpp(tmp_path, gemma3, key, value, phrase):
    damaged = gguf_corpus.with_metadata_patched(gemma3, tmp_path / "gemma.gguf", f"gemma3.{key}", value)
    with pytest.raises(ModelFileError, match=re.escape(phrase)):
        read_model_card(damaged)
    assert not llama_cpp_loads(damaged, tmp_path)
