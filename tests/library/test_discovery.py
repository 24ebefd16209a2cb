"""The local model list over real trees: the models folder, an added folder, LM Studio, the HF cache, Ollama."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from huggingface_hub import hf_hub_download

from logitscope.base.errors import LibraryError
from logitscope.library.catalog import list_local_models, remove_model
from logitscope.library.demo import sha256_of
from logitscope.library.discovery import default_roots, ollama_name
from logitscope.system.machine import MachineMemory

GIB = 1 << 30
MACHINE = MachineMemory(16 * GIB, 8 * GIB)


def ollama_manifest(root: Path, name: str, blob_sha: str | None) -> None:
    """A manifest as Ollama writes it: config + model layer (+ a template layer, ignored)."""
    path = root / "manifests" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    layers = [{"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:" + "1" * 64, "size": 10}]
    if blob_sha:
        layers.insert(0, {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{blob_sha}",
                          "size": 1})
    path.write_text(json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
                                "config": {"digest": "sha256:" + "2" * 64}, "layers": layers}))


def ollama_blob(root: Path, source: Path) -> str:
    sha = sha256_of(source)
    (root / "blobs").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, root / "blobs" / f"sha256-{sha}")
    return sha


@pytest.fixture
def tree(sealed: Path, demo_model: Path, gguf_files: dict[str, Path], hub):
    """Models spread over every root the way the tools lay them out."""
    home = sealed / "user"
    roots = default_roots([sealed / "extra"], home=home)
    app = roots.app_dir
    (app / "SmolLM2-135M-Instruct.Q4_1.gguf").symlink_to(demo_model)
    (app / "mine").mkdir()
    shutil.copyfile(gguf_files["tiny-q4"], app / "mine" / "tiny-Q4_K_M.gguf")
    (app / "notes.gguf").write_text("these are my notes, not a model\n")
    (app / "dangling.gguf").symlink_to(sealed / "gone.gguf")
    (app / "split").mkdir()
    for i in (1, 2, 3):
        shutil.copyfile(gguf_files[f"split-{i}"], app / "split" / gguf_files[f"split-{i}"].name)
    (app / "broken-split").mkdir()
    shutil.copyfile(gguf_files["split-1"], app / "broken-split" / "x-00001-of-00002.gguf")
    (app / ".cache").mkdir()
    shutil.copyfile(gguf_files["tiny-q4"], app / ".cache" / "hidden.gguf")
    shutil.copyfile(gguf_files["tiny-q4"], app / "pulling.gguf.part")

    extra = sealed / "extra"
    extra.mkdir()
    os.link(app / "mine" / "tiny-Q4_K_M.gguf", extra / "hardlink-of-tiny.gguf")
    shutil.copyfile(gguf_files["tiny-q8"], extra / "tiny-Q8_0.gguf")
    (extra / "notes.gguf").write_text("other notes\n")

    lms = home / ".lmstudio" / "models" / "lmstudio-community" / "SmolLM2-GGUF"
    lms.mkdir(parents=True)
    (lms / "SmolLM2-135M-Instruct.Q4_1.gguf").symlink_to(demo_model)
    old_lms = home / ".cache" / "lm-studio" / "models" / "someone" / "tiny-GGUF"
    old_lms.mkdir(parents=True)
    shutil.copyfile(gguf_files["tiny-q8"], old_lms / "tiny-Q8_0.gguf")

    ollama = home / ".ollama" / "models"
    q8 = ollama_blob(ollama, gguf_files["tiny-q8"])
    ollama_manifest(ollama, "registry.ollama.ai/library/tinyllama/1b", q8)
    ollama_manifest(ollama, "registry.ollama.ai/library/tinyllama/latest", q8)
    ollama_manifest(ollama, "hf.co/bartowski/Tiny-GGUF/Q4_K_M", ollama_blob(ollama, gguf_files["tiny-q4"]))
    ollama_manifest(ollama, "registry.ollama.ai/someone/custom/q8", "9" * 64)    # blob deleted
    ollama_manifest(ollama, "registry.ollama.ai/library/nomodel/latest", None)   # no model layer
    (ollama / "manifests" / "registry.ollama.ai" / "library" / "broken").mkdir(parents=True)
    (ollama / "manifests" / "registry.ollama.ai" / "library" / "broken" / "latest").write_text("{not json")

    # The Hugging Face cache, filled by huggingface_hub itself from the fake Hub.
    cache = os.environ["HF_HUB_CACHE"]
    for repo, name in [("test-org/Tiny-GGUF", "tiny-Q8_0.gguf"), ("test-org/Tiny-GGUF", "README.md")] + [
            ("test-org/Split-GGUF", f"Q8_0/big-Q8_0-0000{i}-of-00003.gguf") for i in (1, 2, 3)]:
        hf_hub_download(repo, name, cache_dir=cache, endpoint=hub.endpoint)
    return roots


def by_name(models):
    return {m.name: m for m in models}


def test_every_model_once_with_its_other_locations(tree, demo_model):
    models = by_name(list_local_models(tree, machine=MACHINE))
    assert set(models) == {
        "SmolLM2-135M-Instruct.Q4_1.gguf", "mine/tiny-Q4_K_M.gguf", "notes.gguf", "dangling.gguf",
        "split/big-Q8_0-00001-of-00003.gguf", "broken-split/x-00001-of-00002.gguf",
        "tiny-Q8_0.gguf", "notes.gguf [folder]",
        "someone/tiny-GGUF/tiny-Q8_0.gguf",
        "test-org/Tiny-GGUF/tiny-Q8_0.gguf", "test-org/Split-GGUF/Q8_0/big-Q8_0-00001-of-00003.gguf",
        "tinyllama:1b", "hf.co/bartowski/Tiny-GGUF:Q4_K_M", "someone/custom:q8", "nomodel:latest", "broken:latest",
    }
    demo = models["SmolLM2-135M-Instruct.Q4_1.gguf"]
    assert demo.source == "app" and demo.removable
    assert [(a.source, a.name) for a in demo.also_at] == [
        ("lmstudio", "lmstudio-community/SmolLM2-GGUF/SmolLM2-135M-Instruct.Q4_1.gguf")]
    assert demo.size_bytes == demo_model.stat().st_size
    tiny = models["mine/tiny-Q4_K_M.gguf"]
    assert [(a.source, Path(a.path).name) for a in tiny.also_at] == [("folder", "hardlink-of-tiny.gguf")]
    assert [a.name for a in models["tinyllama:1b"].also_at] == ["tinyllama:latest"]
    assert not any(m.removable for m in models.values() if m.source != "app")
    json.dumps([m.to_dict() for m in models.values()])  # the CLI's --json


def test_cards_and_fit_verdicts(tree, demo_model):
    models = by_name(list_local_models(tree, machine=MACHINE))
    demo = models["SmolLM2-135M-Instruct.Q4_1.gguf"]
    assert demo.card.architecture == "llama" and demo.card.file_type == "Q4_1"
    assert demo.card.n_ctx_train == 8192 and demo.card.has_chat_template and demo.error is None
    assert 5 < demo.card.bits_per_weight < 6
    assert demo.fit.verdict == "fits" and demo.fit.need.weights_bytes == demo.card.weights_bytes
    split = models["split/big-Q8_0-00001-of-00003.gguf"]
    assert len(split.parts) == 3 and split.card.n_params == 4 * 16 + 2 * 16 * 16   # every part's tensors
    assert split.size_bytes == sum(Path(p).stat().st_size for p in split.parts)
    hf = models["test-org/Tiny-GGUF/tiny-Q8_0.gguf"]
    assert hf.source == "huggingface" and "/snapshots/" in hf.path and Path(hf.path).is_symlink()
    assert hf.card.n_layer == 3 and hf.fit is not None
    hf_split = models["test-org/Split-GGUF/Q8_0/big-Q8_0-00001-of-00003.gguf"]
    assert hf_split.error is None and len(hf_split.parts) == 3
    assert models["hf.co/bartowski/Tiny-GGUF:Q4_K_M"].card.n_layer == 2
    for m in models.values():
        assert (m.card is None) == (m.fit is None) == (m.error is not None), m.name


def test_bad_files_are_listed_with_the_reason(tree):
    errors = {m.name: m.error for m in list_local_models(tree, machine=MACHINE) if m.error}
    assert "is not a GGUF file" in errors["notes.gguf"] and "is not a GGUF file" in errors["notes.gguf [folder]"]
    assert "not found" in errors["dangling.gguf"]
    assert "missing part(s) 2 of 2" in errors["broken-split/x-00001-of-00002.gguf"]
    assert "blob" in errors["someone/custom:q8"] and "missing" in errors["someone/custom:q8"]
    assert "no model layer" in errors["nomodel:latest"]
    assert "unreadable Ollama manifest" in errors["broken:latest"]
    assert len(errors) == 7


def test_ollama_names():
    root = Path("/m/manifests")
    assert ollama_name(root / "registry.ollama.ai/library/llama3.2/1b", root) == "llama3.2:1b"
    assert ollama_name(root / "registry.ollama.ai/jmorgan/tiny/q4", root) == "jmorgan/tiny:q4"
    assert ollama_name(root / "hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF/Q4_K_M", root) == \
        "hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M"


def test_no_roots_no_models(sealed):
    assert list_local_models(default_roots(home=sealed / "user"), machine=MACHINE) == []


def test_remove_own_files_only(tree, demo_model):
    app = tree.app_dir
    (app / "mine" / "tiny-Q4_K_M.gguf.part").write_bytes(b"an older, abandoned download")
    removed = remove_model("mine/tiny-Q4_K_M.gguf", tree)
    assert removed == [app / "mine" / "tiny-Q4_K_M.gguf", app / "mine" / "tiny-Q4_K_M.gguf.part"]
    assert not (app / "mine").exists()
    models = by_name(list_local_models(tree, machine=MACHINE))
    assert models["hardlink-of-tiny.gguf"].source == "folder"   # the other name of that file is still there

    assert remove_model("SmolLM2-135M-Instruct.Q4_1.gguf", tree) == [app / "SmolLM2-135M-Instruct.Q4_1.gguf"]
    assert demo_model.is_file()                                  # a link is removed, never its target

    assert len(remove_model(str(app / "split" / "big-Q8_0-00001-of-00003.gguf"), tree)) == 3
    assert not (app / "split").exists()

    for name in ("tinyllama:1b", "lmstudio-community/SmolLM2-GGUF/SmolLM2-135M-Instruct.Q4_1.gguf",
                 "test-org/Tiny-GGUF/tiny-Q8_0.gguf", "tiny-Q8_0.gguf"):
        entry = by_name(list_local_models(tree, machine=MACHINE))[name]
        with pytest.raises(LibraryError, match="never deletes other tools' files"):
            remove_model(name, tree)
        assert all(Path(p).exists() for p in entry.parts)
    with pytest.raises(LibraryError, match="no model named"):
        remove_model("nothing-like-it", tree)


def test_a_model_in_a_folder_linked_into_the_models_folder_is_not_deleted_and_said_so(sealed, gguf_files):
    """It said the model "is not in Logitscope's models folder but in app (…/models/linked/keep.gguf)"."""
    roots = default_roots(home=sealed / "user")
    elsewhere = sealed / "elsewhere"
    elsewhere.mkdir()
    shutil.copyfile(gguf_files["tiny-q4"], elsewhere / "keep.gguf")
    roots.app_dir.mkdir(parents=True, exist_ok=True)
    (roots.app_dir / "linked").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(LibraryError, match="is in a folder linked into Logitscope's models folder") as caught:
        remove_model("linked/keep.gguf", roots)
    assert "but in app" not in str(caught.value) and (elsewhere / "keep.gguf").is_file()
