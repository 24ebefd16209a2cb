"""What opening the layer lens and attention of one step costs (the target: < 250 ms for the demo model
on 2 cores at a ~100-token context): `python -m logitscope.bench.forward [MODEL]`.

Per thread count: the first inspection (the head read and dequantized, the inspection context created), then
warm ones filled three ways (a copy of the generation context's state, what the inspection context holds
already, a fresh evaluation), the inspection context's memory and the dequantized head's.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

from logitscope.engine.core import Engine
from logitscope.gguf.memory import format_bytes
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest, LoadSettings
from logitscope.protocol.forward import InspectRequest
from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.protocol.trace import GenerationResult

CONTEXT_TOKENS = 100
QUESTION = "Tell me about the history of Paris, in a few sentences."


def _step(result: GenerationResult, i: int) -> InspectRequest:
    """Generated step i: the context it was predicted from and the token chosen."""
    return InspectRequest(tuple(result.prompt_tokens + result.tokens[:i]), chosen=result.tokens[i],
                          n_prompt=len(result.prompt_tokens))


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def measure_opening(engine: Engine, reps: int = 5) -> dict[str, Any]:
    """On a loaded engine with no inspection context yet: answer a question to ~CONTEXT_TOKENS tokens, then
    open the lens and attention of its last step cold (first use), and warm filled each way (median of
    `reps`). Seconds and bytes."""
    n_prompt = len(engine.prepare(GenerateRequest(messages=[ChatMessage("user", QUESTION)]))[0])
    request = GenerateRequest(messages=[ChatMessage("user", QUESTION)], settings=SamplerSettings(temperature=0),
                              options=DecodeOptions(max_tokens=max(CONTEXT_TOKENS - n_prompt, 1) + reps))
    result = list(engine.generate(request))[-1]
    assert isinstance(result, GenerationResult)
    last = len(result.tokens) - 1

    t0 = time.perf_counter()
    first = engine.inspect(_step(result, last))
    first_s = time.perf_counter() - t0
    inspector = engine.inspector
    assert inspector is not None
    timings: dict[str, list[float]] = {"copied": [], "cached": [], "evaluated": []}
    for k in range(reps):
        for fill in ("copy", "auto", "evaluate"):
            t0 = time.perf_counter()
            inspector.inspect(_step(result, last - k), fill=fill)
            timings[inspector.last_fill].append(time.perf_counter() - t0)
    head = inspector.output_head
    return {"context_tokens": len(first.tokens), "first_s": first_s, "head_load_s": head.load_s,
            "context_create_s": inspector.create_s,
            **{f"{fill}_s": statistics.median(ts) for fill, ts in timings.items() if ts},
            "context_bytes": first.context_bytes, "head_bytes": head.nbytes}


def inspect_bench(model: str | Path | None = None, threads: tuple[int, ...] = (1, 2), reps: int = 5) -> list[dict[str, Any]]:
    """Measure and print; returns one dict per thread count (seconds and bytes)."""
    if model is None:
        from logitscope.library.demo import demo_model_path

        model = demo_model_path()
    rows = []
    for n_threads in threads:
        engine = Engine()
        try:
            engine.load(model, LoadSettings(n_ctx=2048, n_threads=n_threads))
            rows.append({"threads": n_threads, **measure_opening(engine, reps)})
        finally:
            engine.unload()
    print_opening(rows, Path(model).name, reps)
    return rows


def print_opening(rows: list[dict[str, Any]], model_name: str, reps: int) -> None:
    """The table of `measure_opening` rows (each with its "threads")."""
    print(f"Opening the layer lens + attention of one step ({model_name}, context ~{CONTEXT_TOKENS} tokens; "
          f"median of {reps}):")
    print(f"{'threads':>7} {'tokens':>6} {'first use':>9} {'(head':>7} {'context)':>8} {'copied':>7} "
          f"{'cached':>7} {'evaluated':>9} {'context memory':>14} {'head memory':>11}")
    for r in rows:
        print(f"{r['threads']:>7} {r['context_tokens']:>6} {_ms(r['first_s']):>9} {_ms(r['head_load_s']):>7} "
              f"{_ms(r['context_create_s']):>8} {_ms(r.get('copied_s', float('nan'))):>7} "
              f"{_ms(r.get('cached_s', float('nan'))):>7} {_ms(r.get('evaluated_s', float('nan'))):>9} "
              f"{format_bytes(r['context_bytes']):>14} {format_bytes(r['head_bytes']):>11}")


if __name__ == "__main__":
    inspect_bench(sys.argv[1] if len(sys.argv) > 1 else None)
