"""`logitscope generate`: text, and how every token was chosen (--top, --json), locally or from a server."""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from logitscope.base.errors import InvalidSettingsError
from logitscope.cli.beams import add_beam_arguments
from logitscope.cli.common import (
    EXIT_INTERRUPTED,
    CtrlC,
    Subparsers,
    add_load_arguments,
    add_model_argument,
    load_settings,
    remote_engine,
    resolve_model,
    say_stopped,
    stop_signals,
)
from logitscope.cli.option_names import DECODE_FLAGS
from logitscope.cli.reasoning_options import add_reasoning_arguments, reasoning_line
from logitscope.cli.sampler_options import add_sampler_arguments
from logitscope.cli.steering_options import add_steering_arguments, steering_from_args, steering_line
from logitscope.protocol.api import DecodeOptions
from logitscope.protocol.trace_lines import JSON_TOP, OUTPUT_FLUSH_S, StepLines

if TYPE_CHECKING:
    from logitscope.protocol.engine_like import EngineLike


def run(args: argparse.Namespace) -> int:
    from logitscope.base.errors import EngineUnresponsiveError, RemoteEngineError
    from logitscope.cli.beams import run_beams
    from logitscope.cli.sampler_options import settings_from_args
    from logitscope.gguf.card import read_model_card
    from logitscope.host.client import CancelledError, EngineClient
    from logitscope.protocol.api import ChatMessage, DecodeOptions, GenerateRequest
    from logitscope.protocol.trace import (
        GenerationResult,
        StepRecord,
        dumps,
        piece_text,
        result_to_json,
    )

    settings = settings_from_args(args)  # validated
    options = DecodeOptions(max_tokens=args.max_tokens, stop=tuple(args.stop), reasoning_format=args.reasoning_format,
                            reasoning_budget=args.reasoning_budget, **_draft_options(args))
    options.validate(DECODE_FLAGS)
    if args.top < 0:
        raise InvalidSettingsError("--top must be >= 0")
    if args.system and not args.chat:
        raise InvalidSettingsError("--system needs --chat")
    if args.chat is not None and not args.chat.strip():
        raise InvalidSettingsError("the question is empty")   # as --prompt "": nothing to answer
    request = GenerateRequest(
        prompt=args.prompt,
        messages=[ChatMessage("user", args.chat)] if args.chat is not None else None,
        system=args.system, settings=settings, options=options, steering=steering_from_args(args))
    request.validate()
    remote_only = (args.post_sampling_probs or args.insecure or args.remote_model or args.engine_timeout is not None
                   or args.api_key is not None)
    if args.engine is None and remote_only:
        raise InvalidSettingsError("--api-key, --remote-model, --engine-timeout, --insecure and "
                                   "--post-sampling-probs need --engine URL")
    if args.beams is not None or args.length_penalty is not None:
        return run_beams(args, request)
    out = sys.stdout
    steps = []
    top = max(args.top, JSON_TOP)
    # a local trace that the CLI only passes on is written by the engine process itself, to this process's
    # standard output when it is a file (protocol/trace_lines.py)
    out_fd = _file_descriptor(out) if args.json and args.engine is None and not args.explain else None
    engine_writes = out_fd is not None
    if args.engine is not None:  # "" is an address too: refused as empty, never the local model
        client: EngineLike = remote_engine(args)
    else:
        path = resolve_model(args.model)
        read_model_card(path)  # bad files fail here, before an engine starts
        client = EngineClient(trace_output=out_fd)
    with contextlib.closing(client):
        if isinstance(client, EngineClient):
            info = client.load(str(path), load_settings(args))
            for notice in info.notices:
                print(f"warning: {notice}", file=sys.stderr)
        wants_vocab = (args.json or args.top or args.explain) and args.engine is None and not engine_writes
        vocab = client.vocab() if wants_vocab else []
        lines = StepLines(out, vocab, top) if args.json else None
        flushed = [0.0]

        def on_step(step: StepRecord) -> None:
            try:
                if lines is not None:
                    lines.write(step)
                else:
                    out.write(step.text)
                    now = time.monotonic()
                    if now - flushed[0] >= OUTPUT_FLUSH_S:
                        out.flush()
                        flushed[0] = now
                if args.top or args.explain:
                    steps.append(step)
            except OSError:  # the output is full or gone: stop the engine now, then report
                client.cancel()
                raise

        ctrl_c = CtrlC(client)
        try:
            with stop_signals(ctrl_c):
                if engine_writes:
                    assert isinstance(client, EngineClient)
                    out.flush()  # (nothing is written before the steps; what would be, goes before them)
                    result = client.generate(request, trace_top=top)
                else:
                    result = client.generate(request, on_step=on_step)
        except CancelledError:
            return EXIT_INTERRUPTED
        except OSError:
            if engine_writes and ctrl_c.pressed:   # its reader stopped reading: the trace's end cannot be written
                return say_stopped()
            raise
        except EngineUnresponsiveError as exc:
            if not ctrl_c.pressed:
                raise
            return say_stopped(f"; {exc}")
        except RemoteEngineError as exc:  # the answer broke off: the trace still ends with its 'done' line
            if args.json and isinstance(exc.partial, GenerationResult):
                out.write(dumps(result_to_json(exc.partial)) + "\n")
                out.flush()
            raise
        if args.json:
            out.write(dumps(result_to_json(result)) + "\n")
        out.flush()  # the last steps reach the reader now, not after the engine has shut down
    if not args.json:
        out.write("\n")
        for notice in result.notices:
            print(f"note: {notice}", file=sys.stderr)
        if args.top:
            print(f"\n{'step':>4} {'token':<16} {'p':>7} {'p_raw':>7}  top {args.top} (final distribution)")
            for s in steps:
                ids, probs, pieces = s.final_ids, s.final_probs, s.final_pieces
                if not len(ids):  # a remote server that reports raw probabilities only
                    ids, probs, pieces = s.raw_ids, s.raw_probs, s.raw_pieces
                names = pieces if pieces is not None else [vocab[t] for t in ids[:args.top]]
                alts = ", ".join(f"{piece_text(b)!r} {_prob(p)}" for b, p in
                                 zip(names[:args.top], probs[:args.top], strict=True))
                print(f"{s.i:>4} {piece_text(s.piece)!r:<16} {_prob(s.p):>7} {_prob(s.p_raw):>7}  {alts}")
        t = result.timings
        prompt = (f"prompt {_tokens(t.n_prompt)} at {_rate(t.prompt_tps)} tok/s" if t.n_prompt_eval >= 0 else
                  f"prompt {_tokens(t.n_prompt) if t.n_prompt >= 0 else '? tokens'}")  # a remote server may not say
        print(f"[{result.finish_reason}] {prompt}, "
              f"{_tokens(t.n_gen)} at {t.gen_tps:.1f} tok/s, {_first_token(t.ttft_s)}, "
              f"seed {result.settings['seed']}", file=sys.stderr)
        if result.steering is not None:
            print(steering_line(result.steering), file=sys.stderr)
        if result.reasoning is not None:
            print(reasoning_line(result.reasoning), file=sys.stderr)
        spec = result.speculative
        if spec is not None:
            print(f"[draft {spec.draft}, up to {spec.draft_max}] {spec.accepted} of {spec.drafted} drafts accepted "
                  f"({spec.acceptance:.0%}), {spec.tokens_per_evaluation:.2f} tokens per evaluation "
                  f"({spec.evaluations} evaluations)", file=sys.stderr)
    out.flush()
    if args.explain:
        from logitscope.cli.explain import report_diagnosis
        from logitscope.diagnosis import Context, diagnose

        local = client.info if isinstance(client, EngineClient) else None
        context = Context(load=local.load, gpu_offload=local.gpu_offload_supported) if local is not None else None
        report_diagnosis(diagnose(steps, result, vocab or None, context), args.json)
    return EXIT_INTERRUPTED if result.finish_reason == "cancelled" else 0  # stopped by Ctrl+C: what came is printed


def _draft_options(args: argparse.Namespace) -> dict[str, Any]:
    """--draft and --draft-max as DecodeOptions fields; a draft model's file is checked here, before an
    engine starts."""
    from logitscope.gguf.card import read_model_card
    from logitscope.protocol.api import DRAFT_LOOKUP

    if args.draft is None:
        if args.draft_max is not None:
            raise InvalidSettingsError("--draft-max goes with --draft")
        return {}
    if args.engine is not None:
        raise InvalidSettingsError("--draft needs the local engine: a remote server does its own decoding")
    out: dict[str, Any] = {"draft": args.draft}
    if args.draft_max is not None:
        out["draft_max"] = args.draft_max
    if args.draft != DRAFT_LOOKUP:
        path = Path(args.draft).expanduser()
        read_model_card(path)  # a missing or bad file: one clear line
        out["draft"] = str(path.resolve())
    return out


def _file_descriptor(out: TextIO) -> int | None:
    """The output's file descriptor; None for one in memory (a caller that replaced sys.stdout)."""
    try:
        return out.fileno()
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        return None


def _tokens(n: int) -> str:
    return "1 token" if n == 1 else f"{n} tokens"


def _rate(tps: float) -> str:
    """Tokens per second as people read them: whole above 10, one decimal below (0.3, not 0)."""
    return f"{tps:.0f}" if tps >= 10 else f"{tps:.1f}"


def _first_token(ttft_s: float) -> str:
    """When the first token came; an answer without one (it ended at once) has no such time."""
    return "no token" if math.isnan(ttft_s) else f"first token after {ttft_s * 1000:.0f} ms"


def _prob(p: float) -> str:
    """A probability for the step table; "-" where a remote server did not say (NaN)."""
    return "-" if p != p else f"{p:.3f}"


def register(sub: Subparsers) -> None:
    p = sub.add_parser("generate", help="generate text and show how every token was chosen")
    add_model_argument(p)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--prompt", help="raw text, tokenized as llama.cpp does for this model")
    src.add_argument("--chat", help="one user turn, wrapped in the model's chat template")
    p.add_argument("--system", help="system prompt (with --chat)")
    add_sampler_arguments(p)
    p.add_argument(DECODE_FLAGS["max_tokens"], type=int, default=DecodeOptions().max_tokens)
    p.add_argument("--stop", action="append", default=[], metavar="S", help="stop sequence (repeatable)")
    p.add_argument("--top", type=int, default=0, metavar="N", help="print each step's top N candidates")
    p.add_argument("--json", action="store_true", help="JSON Lines on stdout: one object per step, then 'done'")
    add_beam_arguments(p)
    p.add_argument("--explain", action="store_true", help="then the diagnosis of the answer (on stderr; "
                   "with --json, one last \"diagnosis\" line on stdout)")
    p.add_argument("--draft", metavar="lookup|FILE.gguf", help="speculative decoding: drafts from prompt lookup "
                   "(n-grams of the context) or from a draft model with the same vocabulary")
    p.add_argument(DECODE_FLAGS["draft_max"], type=int, default=None, metavar="K",
                   help=f"drafts verified per evaluation, at most (default {DecodeOptions().draft_max})")
    add_reasoning_arguments(p)
    add_steering_arguments(p)
    add_load_arguments(p)
    r = p.add_argument_group("remote engine (instead of a local model)")
    r.add_argument("--engine", metavar="URL", help="a llama-server, vLLM or other OpenAI-compatible server, "
                   "e.g. http://127.0.0.1:8080")
    r.add_argument("--api-key", metavar="KEY",
                   help="the server's API key (default: $LOGITSCOPE_API_KEY)")
    r.add_argument("--remote-model", metavar="NAME", help="the server's model id (default: the first it lists)")
    r.add_argument("--engine-timeout", "--remote-timeout", dest="engine_timeout", type=float, metavar="SECONDS",
                   help="the longest wait for each token from the server, then the answer is given up "
                   "(default: 120; Ctrl+C ends the wait at once)")
    r.add_argument("--insecure", action="store_true", help="do not verify the server's TLS certificate")
    r.add_argument("--post-sampling-probs", action="store_true",
                   help="llama-server: report probabilities after its sampler instead of the raw ones")
    p.set_defaults(run=run)
