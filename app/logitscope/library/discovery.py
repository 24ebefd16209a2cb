"""Where GGUF models already are on this machine, found in place (never copied).

Roots, in priority order (the first place a file is found names it; the others are "also at"):
the app's own models folder, folders the user added, LM Studio's model folders, the Hugging Face cache
and Ollama's store. Every root is injectable (`ModelRoots`); the defaults honour the tools' own
environment variables (HF_HUB_CACHE / HF_HOME, OLLAMA_MODELS).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from logitscope.base.messages import Message
from logitscope.base.paths import models_dir
from logitscope.library.filenames import FileGroup, group_gguf_files

SOURCES = ("app", "folder", "lmstudio", "huggingface", "ollama")
MAX_DEPTH = 6                 # LM Studio nests publisher/repo/file; nothing real is deeper
OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
OLLAMA_DEFAULT_HOST = "registry.ollama.ai"


@dataclass(frozen=True)
class ModelRoots:
    app_dir: Path
    folders: tuple[Path, ...] = ()
    lmstudio_dirs: tuple[Path, ...] = ()
    hf_cache_dir: Path | None = None
    ollama_dir: Path | None = None


def hf_cache_dir(home: Path) -> Path:
    """The Hugging Face hub cache as huggingface_hub resolves it, read now (not at import time)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else home / ".cache") / "huggingface" / "hub"


def default_roots(folders: Iterable[str | Path] = (), home: Path | None = None) -> ModelRoots:
    home = home or Path.home()
    ollama = os.environ.get("OLLAMA_MODELS")
    return ModelRoots(
        app_dir=models_dir(),
        folders=tuple(Path(f).expanduser() for f in folders),
        lmstudio_dirs=(home / ".lmstudio" / "models", home / ".cache" / "lm-studio" / "models"),
        hf_cache_dir=hf_cache_dir(home),
        ollama_dir=Path(ollama).expanduser() if ollama else home / ".ollama" / "models",
    )


@dataclass(frozen=True)
class FoundModel:
    """A model as found: its name, where, and its files (as found: links are not resolved)."""

    name: str
    source: str
    parts: tuple[Path, ...]
    expected_parts: int = 1
    problem: str | None = None   # known before reading the file: a bad Ollama manifest, missing split parts

    @property
    def path(self) -> Path:
        return self.parts[0]


def gguf_names(root: Path) -> list[str]:
    """Relative '/'-names of the GGUF files under a folder; folder links are followed once (no cycles)."""
    names: list[str] = []
    seen: set[tuple[int, int]] = set()
    for folder, dirnames, filenames in os.walk(root, followlinks=True):
        rel = Path(folder).relative_to(root)
        try:
            st = os.stat(folder)
        except OSError:
            dirnames.clear()
            continue
        if (st.st_dev, st.st_ino) in seen:
            dirnames.clear()
            continue
        seen.add((st.st_dev, st.st_ino))
        keep = len(rel.parts) < MAX_DEPTH
        dirnames[:] = sorted(d for d in dirnames if keep and not d.startswith("."))
        names += [(PurePosixPath(*rel.parts) / f).as_posix() for f in sorted(filenames)
                  if f.lower().endswith(".gguf") and not f.startswith(".")]
    return names


def _from_groups(groups: list[FileGroup], source: str, base: Path, prefix: str = "") -> list[FoundModel]:
    found = []
    for g in groups:
        problem = None
        if g.missing:
            problem = Message("split model is missing part(s) {parts} of {expected_parts} (expected next to {first})",
                              parts=", ".join(map(str, g.missing)), expected_parts=g.expected_parts,
                              first=PurePosixPath(g.name).name)
        found.append(FoundModel(prefix + g.name, source, tuple(base / p for p in g.parts), g.expected_parts, problem))
    return found


def scan_folder(root: Path, source: str) -> list[FoundModel]:
    if not root.is_dir():
        return []
    return _from_groups(group_gguf_files(gguf_names(root)), source, root)


def scan_hf_cache(cache_dir: Path | None) -> list[FoundModel]:
    """GGUF files in the Hugging Face cache, through huggingface_hub's own scanner (it knows the layout)."""
    from huggingface_hub import scan_cache_dir
    from huggingface_hub.errors import CacheNotFound

    if cache_dir is None or not cache_dir.is_dir():
        return []
    try:
        info = scan_cache_dir(cache_dir)
    except (CacheNotFound, ValueError, OSError):
        return []
    found = []
    for repo in sorted(info.repos, key=lambda r: r.repo_id):
        if repo.repo_type != "model":
            continue
        for rev in sorted(repo.revisions, key=lambda r: -r.last_modified):
            names = [f.file_path.relative_to(rev.snapshot_path).as_posix() for f in rev.files]
            found += _from_groups(group_gguf_files(names), "huggingface", rev.snapshot_path, f"{repo.repo_id}/")
    return found


def ollama_name(manifest: Path, manifests_root: Path) -> str:
    """manifests/registry.ollama.ai/library/llama3.2/1b -> 'llama3.2:1b' (as `ollama list` shows it)."""
    parts = manifest.relative_to(manifests_root).parts
    *repo, tag = parts
    if len(repo) == 3 and repo[0] == OLLAMA_DEFAULT_HOST:
        repo = repo[2:] if repo[1] == "library" else repo[1:]
    return f"{'/'.join(repo)}:{tag}"


def _ollama_manifests(manifests_root: Path) -> Iterator[Path]:
    for folder, dirnames, filenames in os.walk(manifests_root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        yield from (Path(folder) / f for f in sorted(filenames) if not f.startswith("."))


def _ollama_model(manifest: Path, ollama_dir: Path) -> FoundModel:
    name = ollama_name(manifest, ollama_dir / "manifests")
    try:
        layers = json.loads(manifest.read_text(encoding="utf-8")).get("layers") or []
        digest = next((layer["digest"] for layer in layers if layer.get("mediaType") == OLLAMA_MODEL_LAYER), None)
        if digest is None:
            return FoundModel(name, "ollama", (manifest,), problem=Message("Ollama manifest {manifest} has no model layer",
                                                                          manifest=manifest))
        algo, _, hexdigest = str(digest).partition(":")
        if not hexdigest:
            raise ValueError(f"odd digest {digest!r}")
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        return FoundModel(name, "ollama", (manifest,), problem=Message("unreadable Ollama manifest {manifest}: {exc}",
                                                                          manifest=manifest, exc=exc))
    blob = ollama_dir / "blobs" / f"{algo}-{hexdigest}"
    return FoundModel(name, "ollama", (blob,),
                      problem=None if blob.exists() else
                      Message("Ollama blob {blob} for {name} is missing", blob=blob.name, name=name))


def scan_ollama(ollama_dir: Path | None) -> list[FoundModel]:
    """Models in Ollama's store: each manifest names a tag, its model layer is a GGUF blob."""
    if ollama_dir is None or not (ollama_dir / "manifests").is_dir():
        return []
    return [_ollama_model(manifest, ollama_dir) for manifest in _ollama_manifests(ollama_dir / "manifests")]


def find_models(roots: ModelRoots) -> list[FoundModel]:
    """Everything found, in priority order, duplicates included (see catalog.py for de-duplication)."""
    found = scan_folder(roots.app_dir, "app")
    for folder in roots.folders:
        found += scan_folder(folder, "folder")
    for folder in roots.lmstudio_dirs:
        found += scan_folder(folder, "lmstudio")
    return found + scan_hf_cache(roots.hf_cache_dir) + scan_ollama(roots.ollama_dir)
