"""The local model list: every model found once, with its card and a fit verdict; and removal.

A file reachable from several places (a link in the models folder, a hard link, two Ollama tags on one
blob) is one entry, named by the first root that found it; the others are listed in `also_at`.
A file that is not a valid GGUF is listed with the reason, never hidden; so is a damaged one (its header
reads, but llama.cpp cannot load it: truncated, or counts and shapes that disagree), marked `damaged`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from logitscope.base.errors import DamagedModelError, LibraryError, ModelFileError
from logitscope.gguf.card import ModelCard, read_model_card
from logitscope.library.discovery import FoundModel, ModelRoots, default_roots, find_models
from logitscope.library.filenames import partial_paths
from logitscope.library.fit import DEFAULT_N_CTX, FitVerdict, assess_fit, need_for_card
from logitscope.system.machine import MachineMemory, probe_machine

CARD_FIELDS = ("architecture", "name", "n_params", "file_type", "bits_per_weight", "n_layer", "n_ctx_train",
               "has_chat_template")


@dataclass(frozen=True)
class Location:
    source: str
    name: str
    path: str


@dataclass
class LocalModel:
    name: str
    source: str
    path: str                 # what to load: the file as found (the first part of a split model)
    parts: list[str]
    size_bytes: int           # all parts, links followed
    removable: bool           # inside the app's own models folder
    card: ModelCard | None = None
    error: str | None = None  # why it cannot be used (the ModelFileError message)
    damaged: bool = False     # the header reads but is inconsistent (error says how): llama.cpp cannot load it
    fit: FitVerdict | None = None
    also_at: list[Location] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "source": self.source, "path": self.path, "parts": self.parts,
            "size_bytes": self.size_bytes, "removable": self.removable, "error": self.error, "damaged": self.damaged,
            "card": {k: getattr(self.card, k) for k in CARD_FIELDS} if self.card else None,
            "fit": self.fit.to_dict() if self.fit else None,
            "also_at": [vars(loc) for loc in self.also_at],
        }


def _identity(path: Path) -> tuple[int, int] | str:
    """Same file <=> same (device, inode), whatever links lead to it; a dangling link is only itself."""
    try:
        st = path.stat()
        return st.st_dev, st.st_ino
    except OSError:
        return str(path)


def _unique_name(name: str, source: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name} [{source}]" if n == 2 else f"{name} [{source} {n}]"
    taken.add(candidate)
    return candidate


def collect(roots: ModelRoots) -> list[tuple[FoundModel, list[Location]]]:
    """Found models, one per file identity, each with the other places it was found."""
    firsts: dict[tuple[int, int] | str, tuple[FoundModel, list[Location]]] = {}
    taken: set[str] = set()
    for found in find_models(roots):
        key = _identity(found.path)
        if key in firsts:
            firsts[key][1].append(Location(found.source, found.name, str(found.path)))
        else:
            firsts[key] = (replace(found, name=_unique_name(found.name, found.source, taken)), [])
    return list(firsts.values())


def _is_inside(path: Path, folder: Path) -> bool:
    """The file (or the link itself) lives in `folder`: its real parent folder is inside the real folder."""
    return Path(os.path.realpath(path.parent)).is_relative_to(os.path.realpath(folder))


def _size(paths: tuple[Path, ...]) -> int:
    total = 0
    for p in paths:
        try:
            total += p.stat().st_size
        except OSError:
            pass
    return total


def _entry(found: FoundModel, also_at: list[Location], roots: ModelRoots, machine: MachineMemory,
           n_ctx: int, use_gpu: bool) -> LocalModel:
    removable = found.source == "app" and all(_is_inside(p, roots.app_dir) for p in found.parts)
    model = LocalModel(found.name, found.source, str(found.path), [str(p) for p in found.parts],
                       _size(found.parts), removable, also_at=also_at)
    if found.problem:
        model.error = found.problem
        return model
    try:
        model.card = read_model_card(found.path)  # a split model: all its parts, found beside the first
    except ModelFileError as exc:
        model.error = exc.message  # a Message (a str): the window translates it
        model.damaged = isinstance(exc, DamagedModelError)
        return model
    model.fit = assess_fit(need_for_card(model.card, n_ctx), machine, use_gpu)
    return model


def list_local_models(roots: ModelRoots | None = None, n_ctx: int = DEFAULT_N_CTX,
                      machine: MachineMemory | None = None, use_gpu: bool = True) -> list[LocalModel]:
    """Every model on this machine, once, with its card (or why it has none) and a fit verdict at `n_ctx`."""
    roots = roots or default_roots()
    machine = machine or probe_machine()
    return [_entry(found, also_at, roots, machine, n_ctx, use_gpu) for found, also_at in collect(roots)]


def _match(query: str, entries: list[tuple[FoundModel, list[Location]]]) -> tuple[FoundModel, list[Location]]:
    exact = [e for e in entries if query in (e[0].name, str(e[0].path))]
    if not exact:
        real = os.path.realpath(query) if os.path.exists(query) else None
        exact = [e for e in entries if real and os.path.realpath(e[0].path) == real]
    if not exact:
        exact = [e for e in entries if e[0].path.name == query]
    if len(exact) == 1:
        return exact[0]
    if not exact:
        raise LibraryError("no model named {query!r}: 'logitscope models list' shows the names", query=query)
    raise LibraryError("{query!r} names {n_exact} models: use the full name or path shown by "
                       "'logitscope models list'", query=query, n_exact=len(exact))


def remove_model(query: str, roots: ModelRoots | None = None) -> list[Path]:
    """Delete a model (all its parts) from the app's own models folder; return the paths removed.

    A link in the models folder is removed, never what it points to. Files found elsewhere (LM Studio,
    the Hugging Face cache, Ollama, added folders) belong to other tools and are never deleted."""
    roots = roots or default_roots()
    found, _ = _match(query, collect(roots))
    if found.source == "app" and not all(_is_inside(p, roots.app_dir) for p in found.parts):
        # found through a linked folder inside the models folder: the file itself is another folder's
        raise LibraryError("{found_name} is in a folder linked into Logitscope's models folder, and the file is "
                           "elsewhere ({found_path}); Logitscope never deletes files outside its folder: remove "
                           "the link, or the file itself", found_name=found.name, found_path=found.path)
    if found.source != "app":
        raise LibraryError("{found_name} is not in Logitscope's models folder ({app_dir}) but in "
                           "{source} ({found_path}); Logitscope never deletes other tools' "
                           "files: remove it with the tool that owns it", found_name=found.name, app_dir=roots.app_dir, source=found.source, found_path=found.path)
    removed = []
    for part in found.parts:
        for leftover in (part, *partial_paths(part)):
            if leftover.is_symlink() or leftover.exists():
                leftover.unlink()
                removed.append(leftover)
    _prune_empty_folders(found.path.parent, roots.app_dir)
    return removed


def _prune_empty_folders(folder: Path, stop: Path) -> None:
    """Remove folders left empty by a removal (owner/repo/ of a pulled model), up to the models folder."""
    while folder != stop and folder.is_relative_to(stop):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
