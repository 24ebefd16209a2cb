"""'Slow' names a smaller quantization of the same model: the library's (the fix loads it) or the usual next step
down. Real files: the demo model (Q4_1) and its requantizations by llama.cpp (Q4_0: fewer bits per weight, Q8_0:
more)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from logitscope.cli.explain import fix_options
from logitscope.diagnosis import Context, diagnose
from logitscope.diagnosis.quants import library_smaller, quant_of, same_model, smaller_quantization
from logitscope.gguf.card import read_model_card
from logitscope.protocol.api import LoadSettings
from logitscope.store.exchange import import_json
from logitscope.store.history import HistoryStore
from logitscope.store.import_check import load_export
from logitscope.store.results import stored_result
from logitscope.store.traces import PieceVocab
from tests.helpers.data import DIAGNOSIS_TRACES
from tests.helpers.quantize import quantize

pytestmark = pytest.mark.model  # loads llama.cpp (in a child process or here)


@pytest.fixture(scope="module")
def quants(demo_model, tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("quants")
    return {"Q4_1": demo_model, "Q4_0": quantize(demo_model, folder, "Q4_0"),
            "Q8_0": quantize(demo_model, folder, "Q8_0")}


@pytest.fixture(scope="module")
def cards(quants):
    return {name: read_model_card(path) for name, path in quants.items()}


@pytest.fixture(scope="module")
def slow_answer(tmp_path_factory):
    """A real recorded answer of the demo model, 32+ tokens (cut off at max tokens)."""
    export = tmp_path_factory.mktemp("traces") / "traces.json"
    export.write_bytes(gzip.decompress(DIAGNOSIS_TRACES.read_bytes()))
    with HistoryStore(tmp_path_factory.mktemp("store") / "history.sqlite3") as store:
        import_json(store, load_export(export))
        conv = next(c for c in store.list_conversations() if c.title.startswith("cut_off:"))
        m = store.active_path(conv.id)[-1]
        steps, pieces = store.load_trace(m.id)
        result = stored_result(m, steps)
    assert result is not None
    return steps, result, PieceVocab(pieces)


def test_the_requantized_files_are_the_same_model_with_other_bits_per_weight(cards):
    assert [cards[q].file_type for q in ("Q4_0", "Q4_1", "Q8_0")] == ["Q4_0", "Q4_1", "Q8_0"]
    assert cards["Q4_0"].bits_per_weight < cards["Q4_1"].bits_per_weight < cards["Q8_0"].bits_per_weight
    assert same_model(cards["Q4_0"], cards["Q8_0"])


def test_the_smaller_quantization_is_the_smallest_step_down(cards):
    everything = list(cards.values())
    assert smaller_quantization(cards["Q4_1"], everything).file_type == "Q4_0"
    assert smaller_quantization(cards["Q8_0"], everything).file_type == "Q4_1"   # the least quality given up
    assert smaller_quantization(cards["Q4_0"], everything) is None
    assert smaller_quantization(cards["Q4_1"], [cards["Q4_1"]]) is None   # itself is not another file


def test_the_library_holds_the_smaller_file(cards, quants, isolated_home):
    assert library_smaller(cards["Q4_1"]) is None   # the isolated library: the demo model alone
    (isolated_home / "models" / quants["Q4_0"].name).symlink_to(quants["Q4_0"])
    found = library_smaller(cards["Q4_1"])
    assert found is not None and found.file_type == "Q4_0" and Path(found.path).name == quants["Q4_0"].name


def test_the_users_model_folders_are_searched_too(cards, quants, isolated_home):
    """The folders the user added to the library (Settings), where the model's other quantizations often are."""
    assert library_smaller(cards["Q4_1"]) is None
    found = library_smaller(cards["Q4_1"], [str(quants["Q4_0"].parent)])
    assert found is not None and Path(found.path) == quants["Q4_0"]


def test_slow_with_a_smaller_file_in_the_library_offers_to_load_it(cards, quants, slow_answer):
    steps, result, vocab = slow_answer
    load = LoadSettings(n_ctx=2048)
    context = Context(reference_tps=result.timings.gen_tps * 3, load=load, gpu_offload=False,
                      quant=quant_of(cards["Q4_1"]), smaller=quant_of(cards["Q4_0"]))
    (slow,) = diagnose(steps, result, vocab, context).of_kind("slow")
    assert f"a smaller quantization of this model is in the library: {quants['Q4_0'].name} (Q4_0, " in slow.text
    assert slow.fix is not None and slow.fix.model == str(quants["Q4_0"]) and slow.fix.needs_reload
    assert slow.fix.load_settings(load) == load   # the same settings, another file
    assert fix_options(slow.fix) == f"--model {quants['Q4_0']}"
    # a GPU that could take more layers comes first; the text still names the smaller file
    (gpu,) = diagnose(steps, result, vocab, Context(**{**vars(context), "gpu_offload": True})).of_kind("slow")
    assert dict(gpu.fix.load) == {"n_gpu_layers": -1} and quants["Q4_0"].name in gpu.text


def test_slow_without_a_smaller_file_names_the_usual_step_down(cards, slow_answer):
    steps, result, vocab = slow_answer
    context = Context(reference_tps=result.timings.gen_tps * 3, load=LoadSettings(), gpu_offload=False,
                      quant=quant_of(cards["Q8_0"]))
    (slow,) = diagnose(steps, result, vocab, context).of_kind("slow")
    assert "a smaller quantization would be faster: Q4_K_M instead of Q8_0 (none is in the library)" in slow.text
    assert slow.fix is not None and slow.fix.model is None and dict(slow.fix.load)["flash_attn"] is True
    (q4,) = diagnose(steps, result, vocab, Context(**{**vars(context), "quant": quant_of(cards["Q4_0"])})).of_kind("slow")
    assert "quantization" not in q4.text   # Q4 and below: no smaller one is worth suggesting
