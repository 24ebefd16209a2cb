"""resources/recommended_models.json: its structure, and the loader."""

from __future__ import annotations

import json

import pytest

from logitscope.base.errors import LibraryError
from logitscope.library.filenames import quant_label
from logitscope.library.recommended import RECOMMENDED_FILE, load_recommended


def test_the_file_is_well_formed():
    data = json.loads(RECOMMENDED_FILE.read_text())
    assert data["schema"] == 1 and data["sizes_are_approximate"] is True and "approximate" in data["note"]
    keys = {"id", "title", "repo_id", "filename", "quant", "params", "approx_size_bytes", "license", "gated", "why"}
    assert 5 <= len(data["models"]) <= 10
    for entry in data["models"]:
        assert set(entry) == keys, entry.get("id")
        owner, _, name = entry["repo_id"].partition("/")
        assert owner and name and "/" not in name and entry["filename"].endswith(".gguf")
        assert quant_label(entry["filename"]) == entry["quant"] == "Q4_K_M"   # INT4 for a first try
        assert isinstance(entry["approx_size_bytes"], int) and 100e6 < entry["approx_size_bytes"] < 3e9
        assert entry["license"] and isinstance(entry["gated"], bool)
    assert len({e["id"] for e in data["models"]}) == len(data["models"])


def test_loader():
    models = load_recommended()
    assert [m.id for m in models][:2] == ["smollm2-360m-instruct", "qwen2.5-0.5b-instruct"]
    assert all(m.to_dict()["approx_size_bytes"] > 0 for m in models)


@pytest.mark.parametrize("content", ["{", '{"schema": 2, "models": []}', '{"schema": 1, "models": [{"id": "x"}]}',
                                     '{"schema": 1}'])
def test_a_damaged_list_is_a_clear_error(tmp_path, content):
    path = tmp_path / "recommended_models.json"
    path.write_text(content)
    with pytest.raises(LibraryError, match="recommended models list"):
        load_recommended(path)
