"""Where the recorded test data lives (tests/data, described in its README.md)."""

from __future__ import annotations

from pathlib import Path

DIAGNOSIS_TRACES = Path(__file__).resolve().parents[1] / "data" / "diagnosis_traces.json.gz"
SCORE_DATA = Path(__file__).resolve().parents[1] / "data" / "score"
SCORE_TEXT_FILE = SCORE_DATA / "lighthouse.txt"
QUANTIZE_DATA = Path(__file__).resolve().parents[1] / "data" / "quantize"
KLD_DATA = Path(__file__).resolve().parents[1] / "data" / "kld"
