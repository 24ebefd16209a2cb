"""`logitscope bench`: every benchmark behind one command (the benchmarks themselves are bench/)."""

from __future__ import annotations

import argparse
import os

from logitscope.base.errors import InvalidSettingsError
from logitscope.cli.common import Subparsers, add_model_argument, resolve_model
from logitscope.cli.option_names import DECODE_FLAGS, LOAD_FLAGS
from logitscope.cli.steering_options import add_steering_arguments, steering_from_args
from logitscope.protocol.api import DecodeOptions


def run(args: argparse.Namespace) -> int:
    from logitscope.protocol.api import LoadSettings

    remote_only = args.api_key or args.remote_model or args.insecure or args.chat or args.top_n is not None
    if remote_only and args.remote is None:
        raise InvalidSettingsError("--api-key, --remote-model, --insecure, --chat and --top-n go with --remote URL")
    if args.remote is not None:
        from logitscope.bench.remote import run_bench as run_remote_bench

        args.engine, args.top_n = args.remote, 20 if args.top_n is None else args.top_n
        args.api_key = args.api_key or os.environ.get("LOGITSCOPE_API_KEY")
        return run_remote_bench(args)
    if args.chat_view:
        from logitscope.bench.window.chat import main as run_chat_view_bench  # needs Qt

        return run_chat_view_bench()
    LoadSettings(n_threads=args.threads).validate(LOAD_FLAGS)  # the thread count first: the most common mistake
    if args.reps is None:
        from logitscope.bench.contention import REPS as CONTENTION_REPS

        args.reps = 5 if args.inspect or args.steering else CONTENTION_REPS if args.contention else 3
    if args.tokens < 2 or args.reps < 1 or args.long < 0:
        raise InvalidSettingsError("--tokens must be >= 2, --reps >= 1 and --long >= 0")
    if args.replay and not args.window or args.rate < 0 or (args.rate and not args.replay):
        raise InvalidSettingsError("--replay goes with --window, and --rate (> 0) with --replay")
    if args.vocab_model and not args.samplers:
        raise InvalidSettingsError("--vocab-model goes with --samplers")
    if (args.control_vectors or args.loras or args.control_vector_layer_range) and not args.steering:
        raise InvalidSettingsError("--control-vector*, --lora* and --control-vector-layer-range go with --steering")
    steering_from_args(args)  # the files given, checked before anything runs
    if args.steering:
        from logitscope.bench.steering import run_steering_bench

        return run_steering_bench(resolve_model(args.model), args)
    if args.compare_chat:
        from logitscope.bench.compare_chat import run_compare_chat_bench

        return run_compare_chat_bench(resolve_model(args.model), args)
    if args.causal:
        from logitscope.bench.causal import run_causal_bench

        return run_causal_bench(resolve_model(args.model), args)
    if args.cvector:
        from logitscope.bench.cvector import run_cvector_bench

        return run_cvector_bench(resolve_model(args.model), args)
    if args.batched:
        from logitscope.protocol.batched import MAX_BATCHED_ANSWERS

        if not args.npl or min(args.npl) < 1 or max(args.npl) > MAX_BATCHED_ANSWERS or min(args.npp, args.ntg) < 1:
            raise InvalidSettingsError("-npl takes batch sizes from 1 to {limit}; -npp and -ntg at least 1",
                                       limit=MAX_BATCHED_ANSWERS)
        from logitscope.bench.batched import run_batched_bench

        return run_batched_bench(resolve_model(args.model), args)
    if args.contention:
        from logitscope.bench.contention import run_contention_bench

        return run_contention_bench(resolve_model(args.model), args)
    if args.diagnosis:
        from logitscope.bench.diagnosis import run_diagnosis_bench

        return run_diagnosis_bench(resolve_model(args.model), args)
    if args.speculative:
        from logitscope.bench.speculative import run_speculative_bench

        DecodeOptions(draft_max=args.draft_max).validate(DECODE_FLAGS)
        return run_speculative_bench(resolve_model(args.model), args)
    if args.samplers:
        from logitscope.bench.samplers import run_sampler_bench

        return run_sampler_bench([resolve_model(args.model), *(resolve_model(m) for m in args.vocab_model)], args)
    if args.kl:
        from logitscope.bench.kl import run_kl_bench

        return run_kl_bench(resolve_model(args.model), args)
    if args.score:
        from logitscope.bench.score import run_score_bench

        return run_score_bench(resolve_model(args.model), args)
    if args.window and args.replay:
        from logitscope.bench.window.replay import run_replay_bench  # needs Qt

        return run_replay_bench(resolve_model(args.model), args)
    if args.window:
        from logitscope.bench.window.streaming import run_window_bench  # the only bench that needs Qt

        return run_window_bench(resolve_model(args.model), args)
    if args.pipe:
        from logitscope.bench.generation import run_pipe_bench

        return run_pipe_bench(resolve_model(args.model), args)
    if args.inspect:
        from logitscope.bench.generation import run_inspect_bench

        return run_inspect_bench(resolve_model(args.model), args)
    from logitscope.bench.generation import run_bench

    return run_bench(resolve_model(args.model), args)


def batch_sizes(text: str) -> list[int]:
    """-npl's value: batch sizes separated by commas."""
    try:
        return [int(n) for n in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected batch sizes separated by commas (1,2,4,8), not {text!r}") from None


def register(sub: Subparsers) -> None:
    p = sub.add_parser("bench", help="tokens/s: bare llama.cpp vs llama-cpp-python vs Logitscope")
    add_model_argument(p)
    p.add_argument("--tokens", type=int, default=128)
    p.add_argument("--prompt-tokens", type=int, default=512)
    p.add_argument("--reps", type=int, default=None, help="repetitions (default 3; 5 with --inspect or --steering, 7 with --contention)")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--json", action="store_true")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--window", action="store_true",
                      help="the real window against `logitscope generate`: tok/s, GUI CPU per token, worst step")
    what.add_argument("--pipe", action="store_true",
                      help="`generate --json` piped to a reader against the bare llama.cpp loop")
    what.add_argument("--samplers", action="store_true",
                      help="each sampler stage's cost per token on the whole vocabulary, and the whole sampler "
                           "with the default chain against the classic five stages")
    what.add_argument("--contention", action="store_true",
                      help="generation speed while another process takes 0/30/60/100%% of a core: the default "
                           "(tuned) thread count against each fixed one")
    what.add_argument("--batched", action="store_true",
                      help="llama-batched-bench's table (-pps -kvu): B answers decoded together, every step recorded, "
                           "against llama-batched-bench on the same model and threads, alternated (goal S_TG >= 0.9x)")
    what.add_argument("--diagnosis", action="store_true",
                      help="the diagnosis of a 4,000-token trace: milliseconds per run, against its budget")
    what.add_argument("--speculative", action="store_true",
                      help="generation tok/s of plain greedy against prompt-lookup drafting, on an edit-this-text "
                           "and a free-writing prompt")
    what.add_argument("--inspect", action="store_true",
                      help="opening the layer lens + attention of one step, the inspection context's memory, and "
                           "generation tok/s without and with an inspection context")
    what.add_argument("--score", action="store_true",
                      help="scoring a text (score --chunks) against llama.cpp's llama-perplexity, tok/s")
    what.add_argument("--kl", action="store_true",
                      help="the KL divergence of the model quantized to Q8_0 against it (score --kl-base) against "
                           "llama.cpp's llama-perplexity --kl-divergence on the same base file, tok/s (goal >= 0.9x)")
    what.add_argument("--steering", action="store_true",
                      help="generation tok/s without steering, with a control vector, a LoRA adapter and both "
                           "(seeded ones unless --control-vector* / --lora* are given), alternated")
    what.add_argument("--compare-chat", action="store_true",
                      help="the compare window's chat: one answer alone against two engines answering at once "
                           "(tok/s of each column, the ratio; goal >= 0.45x on 2 cores), alternated")
    what.add_argument("--causal", action="store_true",
                      help="causal tracing: one ablation against one evaluation, a full head scan, a patch heatmap")
    what.add_argument("--cvector", action="store_true",
                      help="building a control vector from 20 prompt pairs (cvector, mean and PCA) against llama.cpp's "
                           "llama-cvector-generator on the same pairs and threads")
    what.add_argument("--chat-view", action="store_true",
                      help="appending a token to a chat answer at token 10 against token 10,000 (Qt, no window)")
    what.add_argument("--remote", metavar="URL",
                      help="a remote server through RemoteEngine against a bare HTTP client on the same server")
    b = p.add_argument_group("with --batched (llama-batched-bench's names)")
    b.add_argument("-npp", dest="npp", type=int, default=128, metavar="N", help="prompt tokens (default 128)")
    b.add_argument("-ntg", dest="ntg", type=int, default=128, metavar="N", help="tokens generated (default 128)")
    b.add_argument("-npl", dest="npl", type=batch_sizes, default=[1, 2, 4, 8],
                   metavar="B,B,...", help="answers decoded together (default 1,2,4,8; at most 8)")
    p.add_argument("--long", type=int, default=0, metavar="N",
                   help="with --window: one more run of N tokens, GUI CPU per token at its start and end")
    p.add_argument("--vocab-model", action="append", default=[], metavar="PATH",
                   help="with --samplers: another GGUF measured too (e.g. a 262k-token vocabulary); repeatable")
    p.add_argument("--replay", action="store_true",
                   help="with --window: the window's own CPU per token, fed a recorded answer at a fixed rate "
                        "(no model running while it is measured)")
    p.add_argument("--rate", type=float, default=0.0, help="with --replay: tokens per second (default 100)")
    p.add_argument("--pairs", type=int, default=20, metavar="N",
                   help="with --cvector: build from the first N of its 20 prompt pairs")
    p.add_argument(DECODE_FLAGS["draft_max"], type=int, default=DecodeOptions().draft_max, metavar="K",
                   help="with --speculative: drafts verified per evaluation, at most")
    add_steering_arguments(p)  # with --steering: the files measured instead of seeded ones
    r = p.add_argument_group("with --remote")
    r.add_argument("--api-key", help="the server's API key (default: $LOGITSCOPE_API_KEY)")
    r.add_argument("--remote-model", metavar="NAME", help="the server's model id (default: the first it lists)")
    r.add_argument("--insecure", action="store_true", help="do not verify the server's TLS certificate")
    r.add_argument("--top-n", type=int, default=None, help="alternatives asked for per token (default 20)")
    r.add_argument("--chat", action="store_true", help="/v1/chat/completions instead of a raw prompt")
    p.set_defaults(run=run)
