"""Where the recorded test data lives (tests/data, described in its README.md)."""

from __future__ import annotations

from pathlib import Path

DIAGNOSIS_TRACES = Path(__file__).resolve().parents[1] / "data" / "diagnosis_traces.json.gz"
SCORE_DATA = Path(__file__).resolve().parents[1] / "data" / "score"
SCORE_TEXT_FILE = SCORE_DATA / "lighthouse.txt"
QUANTIZE_DATA = Path(__file__).resolve().parents[1] / "data" / "quantize"
KLD_DATA = Path(__file__).resolve().parents[1] / "data" / "kld"


def score_text_start(folder: Path, chars: int = 5000) -> Path:
    """The score text's first `chars` characters in a file of `folder`: 5,000 give four of llama-perplexity's
    chunks of 256 tokens, whose running figures are the whole text's first four lines."""
    path = folder / "start.txt"
    path.write_text(SCORE_TEXT_FILE.read_text(encoding="utf-8")[:chars], encoding="utf-8")
    return path
