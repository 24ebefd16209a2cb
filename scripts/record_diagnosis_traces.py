"""Record the real traces the diagnosis is tested on: the demo model's answers that show each problem, and a
set of clean answers, saved through the history store and written as one history export (gzipped JSON).

    PYTHONPATH=app .venv/bin/python scripts/record_diagnosis_traces.py [tests/data/diagnosis_traces.json.gz]

Each case is a conversation titled with its name ("loop: ...", "clean: ..."). Greedy cases reproduce exactly
on the same llama.cpp build; sampled ones use a fixed seed. Timings are this machine's, at recording time.
Each step keeps the first FIXTURE_RAW_TOP raw candidates of the engine's RAW_TOP_N (the rest of the record
as the engine wrote it), which keeps the file small.
"""

from __future__ import annotations

import gzip
import json
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from logitscope.engine.core import Engine
from logitscope.library.demo import demo_model_path
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import GenerationResult, StepRecord
from logitscope.store.exchange import export_json
from logitscope.store.history import HistoryStore
from logitscope.store.records import ModelIdentity

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "diagnosis_traces.json.gz"
FIXTURE_RAW_TOP = 16
LONG_TURN = ("Tell me everything about the history of sailing ships, from the earliest rafts to the clippers "
             "of the nineteenth century, with the names of the ships, the sailors and the ports. ") * 3


@dataclass
class Case:
    name: str
    chat: list[str] | None = None          # user / assistant turns, alternating, the last one the user's
    prompt: str | None = None              # a raw prompt instead
    settings: dict[str, object] = field(default_factory=dict)
    max_tokens: int = 64
    n_ctx: int = 2048


CASES = [
    Case("loop: greedy answer about France", ["What is the capital of France?"], settings={"temperature": 0.0},
         max_tokens=96),
    Case("guessing: greedy answer about Hamlet", ["Who wrote Hamlet?"], settings={"temperature": 0.0}, max_tokens=72),
    Case("cut_off: a story with few tokens", ["Tell me a story about a dragon."], settings={"temperature": 0.0},
         max_tokens=40),
    Case("off_course: a poem at temperature 1.5, no truncation", ["Write a poem about the sea."],
         settings={"temperature": 1.5, "top_k": 0, "top_p": 1.0, "min_p": 0.0, "seed": 2}, max_tokens=40),
    Case("stop_missed: a raw prompt in the plain chat format",
         prompt="User: Say hello.\nAssistant: Hello!\nUser: What is your name?\nAssistant:",
         settings={"temperature": 0.0}, max_tokens=48),
    Case("trimmed: a long conversation in a small context",
         [LONG_TURN, "Sailing ships began as rafts.", LONG_TURN, "Then came galleys.", "Say thanks."],
         settings={"temperature": 0.0}, max_tokens=24, n_ctx=256),
    Case("context_full: a small context filled by the answer", ["Write a long story about a sailing ship."],
         settings={"temperature": 0.0}, max_tokens=400, n_ctx=160),
    # the default settings (temperature 0.8, top-k 40...): a seed whose opening was a long shot, and one that
    # answered right with confidence (issue 31)
    Case("guessed_opening: France at the default settings", ["What is the capital of France?"],
         settings={"seed": 5}),
    Case("dry_loop: a list of colors, greedy with DRY on", ["List colors."],
         settings={"temperature": 0.0, "dry_multiplier": 0.8}, max_tokens=200),
    Case("clean: France at the default settings", ["What is the capital of France?"], settings={"seed": 2}),
    Case("clean: haiku", ["Write a haiku about the sea."], settings={"temperature": 0.0}),
    Case("clean: arithmetic", ["What is 2+2?"], settings={"temperature": 0.0}),
    Case("clean: greeting", ["Say hello."], settings={"temperature": 0.0}),
    Case("clean: colors", ["List three colors."], settings={"temperature": 0.8, "seed": 3}),
    Case("clean: arithmetic, sampled", ["What is 2+2?"], settings={"temperature": 0.8, "seed": 3}),
    Case("clean: a fruit", ["Name a fruit."], settings={"temperature": 0.0}),
    Case("clean: thanks", ["Thank you!"], settings={"temperature": 0.0}),
    Case("clean: the sky", ["What color is the sky?"], settings={"temperature": 0.0}),
]


def run(engine: Engine, case: Case) -> tuple[list[StepRecord], GenerationResult]:
    messages = None
    if case.chat is not None:
        roles = ["user", "assistant"] * len(case.chat)
        messages = [ChatMessage(role, text) for role, text in zip(roles, case.chat, strict=False)]
    request = GenerateRequest(prompt=case.prompt, messages=messages,
                              settings=SamplerSettings.from_dict({"seed": 1, **case.settings}),
                              options=DecodeOptions(max_tokens=case.max_tokens))
    steps: list[StepRecord] = []
    result = None
    for item in engine.generate(request):
        if isinstance(item, GenerationResult):
            result = item
        else:
            steps.append(item)
    assert result is not None
    return steps, result


def main(out: Path) -> None:
    path = demo_model_path()
    identity = ModelIdentity.of_file(path)
    engine = Engine()
    loaded_ctx = -1
    with tempfile.TemporaryDirectory() as tmp, HistoryStore(Path(tmp) / "history.db") as store:
        for case in CASES:
            if case.n_ctx != loaded_ctx:
                engine.unload() if loaded_ctx > 0 else None
                engine.load(path, LoadSettings(n_ctx=case.n_ctx))
                loaded_ctx = case.n_ctx
            steps, result = run(engine, case)
            cid = store.create_conversation(case.name)
            parent = None
            for role, text in zip(["user", "assistant"] * 8, case.chat or [case.prompt or ""], strict=False):
                parent = store.add_message(cid, role, text, parent)
            writer = store.start_answer(cid, parent, identity, engine.vocab(), result.settings)
            for step in steps:   # the raw head cut to FIXTURE_RAW_TOP (the diagnosis reads its top 5): a small file
                writer.append(replace(step, raw_ids=step.raw_ids[:FIXTURE_RAW_TOP],
                                      raw_logits=step.raw_logits[:FIXTURE_RAW_TOP]))
            writer.finish(result)
            print(f"{case.name}: {result.finish_reason}, {len(steps)} tokens, {result.timings.gen_tps:.1f} tok/s, "
                  f"{result.text[:70]!r}", file=sys.stderr)
        document = export_json(store)
    engine.unload()
    out.write_bytes(gzip.compress(json.dumps(document, ensure_ascii=False).encode(), mtime=0))
    print(f"wrote {out} ({out.stat().st_size:,} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
