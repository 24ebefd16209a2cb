"""The short list of models suggested to first-time users (resources/recommended_models.json).

Sizes in the list are approximate (written down, not measured); a pull always uses the size and SHA-256
the Hub reports.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from logitscope.base.errors import LibraryError
from logitscope.base.paths import resources_dir

RECOMMENDED_FILE = resources_dir() / "recommended_models.json"
SCHEMA = 1


@dataclass(frozen=True)
class RecommendedModel:
    id: str
    title: str
    repo_id: str
    filename: str
    quant: str
    params: str
    approx_size_bytes: int   # approximate
    license: str
    gated: bool
    why: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def load_recommended(path: Path = RECOMMENDED_FILE) -> list[RecommendedModel]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("schema") != SCHEMA:
            raise ValueError(f"schema {data.get('schema')!r}, expected {SCHEMA}")
        models = [RecommendedModel(**entry) for entry in data["models"]]
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise LibraryError("the recommended models list {path} is unreadable: {exc}", path=path, exc=exc) from exc
    for m in models:
        if m.repo_id.count("/") != 1 or not m.filename.endswith(".gguf") or m.approx_size_bytes <= 0:
            raise LibraryError("the recommended models list {path} has a bad entry: {m_id}", path=path, m_id=m.id)
    return models
