"""`logitscope quantize IN.gguf OUT.gguf TYPE`: a model quantized by llama.cpp's own llama_model_quantize, byte for
byte the file `llama-quantize` writes with the same arguments (engine/quantize.py). The disk space is checked
first; progress on stderr; Ctrl+C cancels and leaves no half-written file.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading

from logitscope.cli.common import Subparsers
from logitscope.protocol.quantize import QUANT_TYPES


def register(sub: Subparsers) -> None:
    p = sub.add_parser("quantize", help="quantize a GGUF model (as llama-quantize)",
                       epilog="types: " + ", ".join(f"{t.name}" for t in QUANT_TYPES))
    p.add_argument("source", metavar="IN.gguf", help="the model to quantize")
    p.add_argument("target", metavar="OUT.gguf", help="the quantized model to write")
    p.add_argument("type", metavar="TYPE", help="the quantization type (Q8_0, Q6_K, Q5_K_M, Q4_K_M, Q4_0, "
                                                "Q3_K_M, Q2_K, IQ4_XS, ...: see below)")
    p.add_argument("--allow-requantize", action="store_true",
                   help="quantize tensors that are quantized already (llama-quantize's flag; costs quality)")
    p.add_argument("--imatrix", metavar="FILE", help="an importance matrix (llama-imatrix's file)")
    p.add_argument("--threads", type=int, default=0, help="CPU threads (0 = all, llama-quantize's default)")
    p.add_argument("--overwrite", action="store_true", help="replace OUT.gguf if it exists")
    p.add_argument("--json", action="store_true", help="the result as one JSON object on stdout")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from logitscope.gguf.memory import format_bytes
    from logitscope.host.client import CancelledError
    from logitscope.host.quantize_job import quantize_model
    from logitscope.protocol.quantize import QuantizeRequest, model_size

    request = QuantizeRequest(source=args.source, target=args.target, type=args.type,
                              allow_requantize=args.allow_requantize, imatrix=args.imatrix, threads=args.threads,
                              overwrite=args.overwrite)
    request.validate()
    before = model_size(args.source)   # a file that is no GGUF fails here, before an engine starts
    stop = threading.Event()
    tty = sys.stderr.isatty()
    start, end = ("\r", "") if tty else ("", "\n")
    shown = [-1]

    def on_estimate(need: int) -> None:
        print(f"{args.source}: {format_bytes(before.file_bytes)}, {before.bpw:.2f} bpw -> {request.type.upper()}, "
              f"about {format_bytes(need)}", file=sys.stderr, flush=True)

    def on_progress(fraction: float) -> None:
        percent = int(fraction * 100)
        if percent // (1 if tty else 10) != shown[0] // (1 if tty else 10):
            print(f"{start}quantizing: {percent} %", end=end, file=sys.stderr, flush=True)
            shown[0] = percent

    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        result = quantize_model(request, on_progress, stop.is_set, on_estimate)
    except CancelledError:
        print(("\n" if tty and shown[0] >= 0 else "") + "error: interrupted: nothing was written", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, previous)
    if tty and shown[0] >= 0:
        print("", file=sys.stderr)
    a, b = result.before, result.after
    if args.json:
        print(json.dumps({"type": result.type, "source": args.source, "target": result.target,
                          "source_bytes": a.file_bytes, "source_bpw": round(a.bpw, 4),
                          "target_bytes": b.file_bytes, "target_bpw": round(b.bpw, 4),
                          "n_elements": b.n_elements, "seconds": round(result.seconds, 3)}))
    print(f"wrote {result.target}: {format_bytes(b.file_bytes)}, {b.bpw:.2f} bpw ({result.type}; "
          f"from {format_bytes(a.file_bytes)}, {a.bpw:.2f} bpw) in {result.seconds:.1f} s", file=sys.stderr)
    return 0
