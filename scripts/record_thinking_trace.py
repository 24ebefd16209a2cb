"""Record the reasoning trace the fast tier replays (tests/data/thinking_trace.json.gz): the thinking copy of the
demo model (tests/helpers/thinking_model.py: its chat template opens `<think>`) answering greedily, the budget
closing the block after THINKING_BUDGET tokens, then the answer; every step as the engine sends it.

    PYTHONPATH=app .venv/bin/python scripts/record_thinking_trace.py [tests/data/thinking_trace.json.gz]

tests/ui/test_scripted_recording.py (a `model` test) checks that the file still matches the real engine.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the tests' helpers hold the file's format and the thinking model

from tests.helpers.scripted_engine import THINKING_FILE, record_thinking, save_thinking  # noqa: E402
from tests.helpers.thinking_model import make_thinking_model  # noqa: E402

from logitscope.engine.core import Engine  # noqa: E402
from logitscope.library.demo import fetch_demo  # noqa: E402
from logitscope.protocol.api import LoadSettings  # noqa: E402


def main(out: Path) -> None:
    engine = Engine()
    with tempfile.TemporaryDirectory() as folder:
        engine.load(make_thinking_model(fetch_demo(), Path(folder) / "thinking.gguf"), LoadSettings(n_ctx=2048))
        try:
            recording = record_thinking(engine)
        finally:
            engine.unload()
    save_thinking(recording, out)
    for steps, result in recording.answers:
        print(f"{len(steps)} steps, reasoning {result.reasoning}: {result.text!r}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else THINKING_FILE)
