"""`logitscope cvector --positive-file P --negative-file N -o OUT.gguf`: a control vector built from prompt
pairs as llama.cpp's `llama-cvector-generator` builds it (engine/steering), written as its GGUF file (loadable
by llama.cpp's `--control-vector`). Progress on stderr; Ctrl+C cancels (nothing is written then).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from pathlib import Path

from logitscope.cli.common import Subparsers, add_model_argument
from logitscope.cli.option_names import LOAD_FLAGS
from logitscope.protocol.cvector import CVECTOR_METHODS, DEFAULT_PCA_BATCH, DEFAULT_PCA_ITERATIONS

DEFAULT_CVECTOR_CTX = 2048  # the longest prompt a pair may have, in tokens


def register(sub: Subparsers) -> None:
    p = sub.add_parser("cvector", help="build a control vector from positive/negative prompt pairs "
                                       "(as llama-cvector-generator)")
    add_model_argument(p)
    p.add_argument("--positive-file", required=True, metavar="FILE", help="positive prompts, one per line")
    p.add_argument("--negative-file", required=True, metavar="FILE", help="negative prompts, one per line")
    p.add_argument("-o", "--output", required=True, metavar="OUT.gguf", help="the control vector file to write")
    p.add_argument("--method", choices=CVECTOR_METHODS, default="pca",
                   help="reduce the differences by their mean or their first principal direction; default %(default)s "
                        "(llama-cvector-generator's)")
    p.add_argument("--pca-iter", type=int, default=DEFAULT_PCA_ITERATIONS, metavar="K",
                   help="power iterations of PCA; default %(default)s")
    p.add_argument("--pca-batch", type=int, default=DEFAULT_PCA_BATCH, metavar="B",
                   help="power iterations per round (--pca-iter must be a multiple of it); default %(default)s")
    p.add_argument("--layer-range", type=int, nargs=2, metavar=("FIRST", "LAST"),
                   help="build only the directions of these layers (inclusive); default all, 1 .. n_layer - 1")
    p.add_argument("--seed", type=int, default=0, help="PCA's random start; default %(default)s")
    p.add_argument(LOAD_FLAGS["n_ctx"], type=int, default=DEFAULT_CVECTOR_CTX,
                   help="context in tokens: the longest prompt allowed; default %(default)s")
    p.add_argument(LOAD_FLAGS["n_threads"], type=int, default=0, help="CPU threads (0 = all cores)")
    p.add_argument(LOAD_FLAGS["n_gpu_layers"], type=int, default=0, help="layers to offload to the GPU (-1 = all)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from logitscope.base.output_paths import check_output
    from logitscope.cli.common import CtrlC, resolve_model
    from logitscope.gguf.card import read_model_card
    from logitscope.gguf.control_vector import write_control_vector
    from logitscope.host.client import CancelledError, EngineClient
    from logitscope.protocol.api import LoadSettings
    from logitscope.protocol.cvector import CvectorRequest, CvectorResult, read_prompt_pairs

    positive, negative = read_prompt_pairs(Path(args.positive_file), Path(args.negative_file))
    request = CvectorRequest(positive=positive, negative=negative, method=args.method, pca_iterations=args.pca_iter,
                             pca_batch=args.pca_batch, seed=args.seed,
                             layer_range=(args.layer_range[0], args.layer_range[1]) if args.layer_range else None)
    request.validate()
    settings = LoadSettings(n_ctx=args.n_ctx, n_gpu_layers=args.n_gpu_layers, n_threads=args.threads)
    settings.validate(LOAD_FLAGS)
    path = resolve_model(args.model)
    # found now, not after the build; never over what it is built from (the file is written by rename)
    out = check_output(args.output, (path, args.positive_file, args.negative_file))
    read_model_card(path)  # bad files fail here, before an engine starts
    n_pairs = len(positive)
    client = EngineClient()
    with contextlib.closing(client):
        client.load(str(path), settings)
        previous = signal.signal(signal.SIGINT, CtrlC(client))
        shown = [0]
        tty = sys.stderr.isatty()
        start, end = ("\r", "") if tty else ("", "\n")  # a terminal line rewritten, else one line per pair

        def on_progress(fraction: float) -> None:
            done = round(fraction * n_pairs)
            if done != shown[0]:
                print(f"{start}prompt pairs evaluated: {done}/{n_pairs}", end=end, file=sys.stderr, flush=True)
                shown[0] = done

        result: CvectorResult | None = None
        try:
            result = client.build_cvector(request, on_progress=on_progress)
        except CancelledError:
            pass
        finally:
            signal.signal(signal.SIGINT, previous)
            if tty and shown[0]:
                print("", file=sys.stderr)
    if result is None:
        print("error: interrupted", file=sys.stderr)
        return 130
    write_control_vector(out, dict(zip(result.layers, result.directions, strict=True)), result.model_hint)
    print(f"wrote {out}: {len(result.layers)} directions ({result.method}, layers {result.layers[0]}.."
          f"{result.layers[-1]}, n_embd {result.n_embd}) from {result.n_pairs} pairs, {result.n_tokens} tokens; "
          f"evaluation {result.eval_s:.2f} s, {result.method} {result.reduce_s:.2f} s", file=sys.stderr)
    return 0
