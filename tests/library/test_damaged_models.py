"""Damaged model files in the catalogue and `logitscope models list`: listed, marked damaged, with the reason."""

from __future__ import annotations

import json
import shutil

import pytest

from logitscope.base.paths import models_dir
from logitscope.cli.main import build_parser
from logitscope.library.catalog import list_local_models
from logitscope.library.discovery import default_roots
from logitscope.system.machine import MachineMemory
from tests.helpers import gguf_corpus

GIB = 1024**3
MACHINE = MachineMemory(16 * GIB, 8 * GIB)


@pytest.fixture
def models(sealed, demo_model, gguf_files):
    """The demo model, two damaged copies of it, a file that is no GGUF, and a valid split model."""
    folder = models_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / demo_model.name).symlink_to(demo_model)
    gguf_corpus.header_copy(demo_model, folder / "truncated.gguf", demo_model.stat().st_size * 99 // 100)
    gguf_corpus.with_metadata_patched(demo_model, folder / "no-kv-heads.gguf", "llama.attention.head_count_kv", 0)
    (folder / "notes.gguf").write_text("not a model\n")
    (folder / "split").mkdir()
    for i in (1, 2, 3):
        shutil.copyfile(gguf_files[f"split-{i}"], folder / "split" / gguf_files[f"split-{i}"].name)
    return folder


def test_the_catalogue_marks_damaged_files_with_the_reason(models, demo_model):
    found = {m.name: m for m in list_local_models(default_roots(), machine=MACHINE)}
    truncated, no_kv = found["truncated.gguf"], found["no-kv-heads.gguf"]
    assert truncated.damaged and "past the end of the file" in truncated.error
    assert no_kv.damaged and "head_count_kv is 0" in no_kv.error
    for m in (truncated, no_kv):
        assert m.card is None and m.fit is None  # not offered for loading
    assert not found["notes.gguf"].damaged and "not a GGUF file" in found["notes.gguf"].error
    assert found[demo_model.name].error is None and not found[demo_model.name].damaged
    split = found["split/big-Q8_0-00001-of-00003.gguf"]
    assert split.error is None and split.card.n_layer == 2


def test_models_list_says_damaged(models, capsys):
    args = build_parser().parse_args(["models", "list", "--json"])
    assert args.run(args) == 0
    data = {m["name"]: m for m in json.loads(capsys.readouterr().out)["models"]}
    assert data["truncated.gguf"]["damaged"] is True and "past the end" in data["truncated.gguf"]["error"]
    assert data["notes.gguf"]["damaged"] is False
    args = build_parser().parse_args(["models", "list"])
    assert args.run(args) == 0
    text = capsys.readouterr().out
    block = text[text.index("no-kv-heads.gguf"):].split("\n")
    assert "damaged" in block[0] and "head_count_kv is 0" in block[2]
