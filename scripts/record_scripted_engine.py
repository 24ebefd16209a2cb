"""Record the answers the scripted engine replays in the fast UI tier (tests/helpers/scripted_engine.py): the demo
model's greedy answers to a few questions, every step as the engine sends it, and its vocabulary.

    PYTHONPATH=app .venv/bin/python scripts/record_scripted_engine.py [tests/data/scripted_engine.json.gz]

tests/ui/test_scripted_recording.py (a `model` test) checks that the file still matches the real engine;
run this again when it says it does not (a new llama.cpp, another demo model).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # tests.ui.scripted_engine holds the file's format

from tests.helpers.scripted_engine import RECORDING_FILE, record, save_recording  # noqa: E402

from logitscope.engine.core import Engine  # noqa: E402
from logitscope.library.demo import fetch_demo  # noqa: E402
from logitscope.protocol.api import LoadSettings  # noqa: E402


def main(out: Path) -> None:
    engine = Engine()
    engine.load(fetch_demo(), LoadSettings(n_ctx=2048))   # as the tests' `engine` fixture
    try:
        recording = record(engine)
    finally:
        engine.unload()
    save_recording(recording, out)
    steps = sum(len(s) for s, _ in recording.answers)
    print(f"{out}: {len(recording.answers)} answers, {steps} steps, {len(recording.vocab)} pieces")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else RECORDING_FILE)
