"""What the remote path costs: RemoteEngine (SSE + logprobs parsed into StepRecords) against the same
server used directly by a bare HTTP client (the same request body, the stream read line by line, no
JSON parsing), interleaved, on one server.

    logitscope bench --remote http://127.0.0.1:8080 [--tokens 128] [--reps 3]   (or python -m logitscope.bench.remote --engine URL)

Figures (medians over the repetitions): end-to-end tokens/s (tokens over the whole request), stream
tokens/s (the gaps between the first and the last event), time to the first event, and the client's
own CPU time per token, which is where parsing shows (the server's time is the same for both).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import httpx2

from logitscope.base.errors import LogitscopeError
from logitscope.host.remote import RemoteEngine
from logitscope.host.remote_wire import build_request
from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
from logitscope.protocol.sampler_settings import SamplerSettings

GREEDY = SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0, repeat_penalty=1.0, seed=1)
PROMPT = "Once upon a time, in a lighthouse at the edge of the world,"


@dataclass
class Run:
    tokens: int
    total_s: float          # request sent -> stream ended
    first_s: float          # request sent -> first token (RemoteEngine) / first data event (bare)
    stream_s: float         # first -> last token / data event
    cpu_s: float            # this process's CPU time during the request

    @property
    def e2e_tps(self) -> float:
        return self.tokens / self.total_s

    @property
    def stream_tps(self) -> float:
        return (self.tokens - 1) / self.stream_s if self.stream_s > 0 else 0.0

    @property
    def cpu_ms_per_token(self) -> float:
        return 1000 * self.cpu_s / self.tokens


def remote_run(engine: RemoteEngine, request: GenerateRequest) -> Run:
    stamps: list[float] = []
    t0, c0 = time.perf_counter(), time.process_time()
    engine.generate(request, on_step=lambda _step: stamps.append(time.perf_counter()))
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    return Run(len(stamps), total, stamps[0] - t0, stamps[-1] - stamps[0], cpu)


def bare_run(http: httpx2.Client, path: str, body: dict[str, Any], tokens: int) -> Run:
    """`tokens`: how many the same (greedy, seeded) request gave RemoteEngine: nothing is parsed here."""
    stamps: list[float] = []
    t0, c0 = time.perf_counter(), time.process_time()
    with http.stream("POST", path, json=body) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line.startswith("data:"):
                stamps.append(time.perf_counter())
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    return Run(tokens, total, stamps[0] - t0, stamps[-1] - stamps[0], cpu)


def median_run(runs: list[Run]) -> dict[str, float]:
    return {"e2e_tps": statistics.median(r.e2e_tps for r in runs),
            "stream_tps": statistics.median(r.stream_tps for r in runs),
            "first_ms": 1000 * statistics.median(r.first_s for r in runs),
            "cpu_ms_per_token": statistics.median(r.cpu_ms_per_token for r in runs),
            "tokens": statistics.median(r.tokens for r in runs)}


def run_bench(args: argparse.Namespace) -> int:
    engine = RemoteEngine(args.engine, api_key=args.api_key, model=args.remote_model, verify_tls=not args.insecure,
                          top_n=args.top_n)
    with engine:
        info = engine.connect()
        messages = [ChatMessage("user", "Tell me a long story about a lighthouse keeper.")] if args.chat else None
        request = GenerateRequest(prompt=None if args.chat else PROMPT, messages=messages, settings=GREEDY,
                                  options=DecodeOptions(max_tokens=args.tokens))
        wire = build_request(engine.kind, info.model, request, GREEDY, args.top_n, False)
        headers = {"Authorization": f"Bearer {args.api_key}"} if args.api_key else {}
        with httpx2.Client(base_url=engine.address.url, auth=engine.address.auth, headers=headers,
                           verify=not args.insecure,
                           timeout=httpx2.Timeout(120, connect=5),
                           limits=httpx2.Limits(max_keepalive_connections=0)) as http:
            remote_run(engine, request)  # warm-up: the server's first request is slower
            remote_runs, bare_runs = [], []
            for _ in range(args.reps):  # interleaved, so a busy machine slows both alike
                remote_runs.append(remote_run(engine, request))
                bare_runs.append(bare_run(http, wire.path, wire.body, remote_runs[-1].tokens))
    a, b = median_run(bare_runs), median_run(remote_runs)
    report = {"server": info.server, "url": engine.base_url, "model": info.model, "path": wire.path,
              "top_logprobs": wire.body.get("top_logprobs") or wire.body.get("logprobs") or wire.body.get("n_probs"),
              "reps": args.reps, "bare": a, "remote": b,
              "ratio_e2e": b["e2e_tps"] / a["e2e_tps"], "ratio_stream": b["stream_tps"] / a["stream_tps"],
              "runs": {"bare": [asdict(r) for r in bare_runs], "remote": [asdict(r) for r in remote_runs]}}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{info.server} at {engine.base_url}, {wire.path}, model {info.model}")
    print(f"greedy, {b['tokens']:.0f} tokens, {report['top_logprobs']} alternatives per token, "
          f"median of {args.reps} interleaved runs\n")
    print(f"{'':32}{'end-to-end tok/s':>18}{'stream tok/s':>14}{'first (ms)':>12}{'client CPU ms/tok':>19}")
    for label, row in (("(a) bare HTTP client, no parsing", a), ("(b) RemoteEngine -> StepRecords", b)):
        print(f"{label:32}{row['e2e_tps']:18.1f}{row['stream_tps']:14.1f}{row['first_ms']:12.0f}"
              f"{row['cpu_ms_per_token']:19.3f}")
    print(f"\nb/a: end-to-end {report['ratio_e2e']:.3f}, stream {report['ratio_stream']:.3f}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m logitscope.bench.remote", description=__doc__.split("\n")[0])
    parser.add_argument("--engine", required=True, metavar="URL")
    parser.add_argument("--api-key", default=os.environ.get("LOGITSCOPE_API_KEY"))
    parser.add_argument("--remote-model", metavar="NAME")
    parser.add_argument("--insecure", action="store_true")
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--top-n", type=int, default=20, help="alternatives asked for per token")
    parser.add_argument("--chat", action="store_true", help="/v1/chat/completions instead of a raw prompt")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        return run_bench(args)
    except (LogitscopeError, httpx2.HTTPError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
