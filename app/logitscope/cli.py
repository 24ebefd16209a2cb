"""The command line: `logitscope info | generate | chat | bench | models ...`.

Every failure the user can cause (a bad file, a bad option, a crashed engine) ends as one `error:` line
on stderr and exit code 2; never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from logitscope import __version__
from logitscope.errors import InvalidSettingsError, LogitscopeError
from logitscope.fatal import WINDOW_ADDRESS_SPACE, quiet_on_failure, release_stdout, require_address_space
from logitscope.fatal import describe as describe_environment_failure

if TYPE_CHECKING:
    from logitscope.engine.api import LoadSettings
    from logitscope.host.engine_api import EngineLike
    from logitscope.host.remote import RemoteEngine

EXIT_USAGE = 2
OUTPUT_FLUSH_S = 1 / 30  # generate writes what it has at most 30 times a second (and all of it at the end)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + message
        print(f"error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _add_model(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", metavar="PATH", help="a GGUF file (default: the demo model, fetched if missing)")


def _add_load(p: argparse.ArgumentParser) -> None:
    from logitscope.engine import memory
    from logitscope.engine.api import LoadSettings

    default = LoadSettings()
    p.add_argument("--n-ctx", type=int, default=default.n_ctx, help="context window in tokens (0 = the model's own)")
    p.add_argument("--n-gpu-layers", type=int, default=default.n_gpu_layers,
                   help="layers to offload to the GPU (-1 = all)")
    p.add_argument("--threads", type=int, default=default.n_threads, help="CPU threads (0 = all cores)")
    p.add_argument("--kv-type", choices=list(memory.KV_CACHE_TYPES), default=default.type_k,
                   help="KV cache element type")
    p.add_argument("--flash-attn", action="store_true", help="use flash attention (needed for a quantized V cache)")


def build_parser() -> argparse.ArgumentParser:
    from logitscope.beams_cli import add_beam_arguments
    from logitscope.engine.api import DecodeOptions
    from logitscope.engine.sampler import SamplerSettings
    from logitscope.sampler_cli import add_sampler_arguments

    parser = _Parser(prog="logitscope", description="Chat with a local LLM and see inside it.")
    parser.add_argument("--version", action="version", version=f"logitscope {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    p = sub.add_parser("info", help="the model card and KV-cache memory table, without loading weights")
    _add_model(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("generate", help="generate text and show how every token was chosen")
    _add_model(p)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--prompt", help="raw text, tokenized as llama.cpp does for this model")
    src.add_argument("--chat", help="one user turn, wrapped in the model's chat template")
    p.add_argument("--system", help="system prompt (with --chat)")
    add_sampler_arguments(p)
    p.add_argument("--max-tokens", type=int, default=DecodeOptions().max_tokens)
    p.add_argument("--stop", action="append", default=[], metavar="S", help="stop sequence (repeatable)")
    p.add_argument("--top", type=int, default=0, metavar="N", help="print each step's top N candidates")
    p.add_argument("--json", action="store_true", help="JSON Lines on stdout: one object per step, then 'done'")
    add_beam_arguments(p)
    p.add_argument("--explain", action="store_true", help="then the diagnosis of the answer (on stderr; "
                   "with --json, one last \"diagnosis\" line on stdout)")
    p.add_argument("--draft", metavar="lookup|FILE.gguf", help="speculative decoding: drafts from prompt lookup "
                   "(n-grams of the context) or from a draft model with the same vocabulary")
    p.add_argument("--draft-max", type=int, default=None, metavar="K",
                   help=f"drafts verified per evaluation, at most (default {DecodeOptions().draft_max})")
    _add_load(p)
    r = p.add_argument_group("remote engine (instead of a local model)")
    r.add_argument("--engine", metavar="URL", help="a llama-server, vLLM or other OpenAI-compatible server, "
                   "e.g. http://127.0.0.1:8080")
    r.add_argument("--api-key", metavar="KEY", default=os.environ.get("LOGITSCOPE_API_KEY"),
                   help="the server's API key (default: $LOGITSCOPE_API_KEY)")
    r.add_argument("--remote-model", metavar="NAME", help="the server's model id (default: the first it lists)")
    r.add_argument("--remote-timeout", type=float, metavar="SECONDS",
                   help="the longest wait for each token from the server (default: 120)")
    r.add_argument("--insecure", action="store_true", help="do not verify the server's TLS certificate")
    r.add_argument("--post-sampling-probs", action="store_true",
                   help="llama-server: report probabilities after its sampler instead of the raw ones")

    from logitscope.inspect_cli import add_inspect_arguments

    p = sub.add_parser("inspect", help="inside the forward pass of one step: the logit lens and attention")
    _add_model(p)
    add_inspect_arguments(p)
    _add_load(p)

    from logitscope.score_cli import add_score_parser

    add_score_parser(sub, _add_model)

    p = sub.add_parser("window", help="the desktop app (the default)")
    _add_model(p)

    p = sub.add_parser("chat", help="an interactive chat in the terminal")
    _add_model(p)
    p.add_argument("--system")
    p.add_argument("--temperature", type=float, default=SamplerSettings().temperature)
    p.add_argument("--max-tokens", type=int, default=512)
    p.add_argument("--no-save", action="store_true", help="do not save this chat to the history")
    _add_load(p)

    p = sub.add_parser("bench", help="tokens/s: bare llama.cpp vs llama-cpp-python vs Logitscope")
    _add_model(p)
    p.add_argument("--tokens", type=int, default=128)
    p.add_argument("--prompt-tokens", type=int, default=512)
    p.add_argument("--reps", type=int, default=None, help="repetitions (default 3; 5 with --inspect)")
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
    p.add_argument("--long", type=int, default=0, metavar="N",
                   help="with --window: one more run of N tokens, GUI CPU per token at its start and end")
    p.add_argument("--vocab-model", action="append", default=[], metavar="PATH",
                   help="with --samplers: another GGUF measured too (e.g. a 262k-token vocabulary); repeatable")
    p.add_argument("--replay", action="store_true",
                   help="with --window: the window's own CPU per token, fed a recorded answer at a fixed rate "
                        "(no model running while it is measured)")
    p.add_argument("--rate", type=float, default=0.0, help="with --replay: tokens per second (default 100)")
    p.add_argument("--draft-max", type=int, default=DecodeOptions().draft_max, metavar="K",
                   help="with --speculative: drafts verified per evaluation, at most")

    from logitscope.diagnosis.commands import add_explain_parser
    from logitscope.library.commands import add_models_subcommands
    from logitscope.store.commands import add_history_parser

    p = sub.add_parser("models", help="models on disk and on the Hugging Face Hub")
    msub = p.add_subparsers(dest="models_command", parser_class=_Parser, metavar="ACTION", required=True)
    msub.add_parser("fetch-demo", help="fetch and verify the demo model (SmolLM2-135M-Instruct Q4_1)")
    add_models_subcommands(msub)
    add_history_parser(sub)
    add_explain_parser(sub)
    return parser


def resolve_model(arg: str | None) -> Path:
    from logitscope.library.demo import fetch_demo

    if arg:
        return Path(arg).expanduser()
    # verifies the demo model's hash, fetching it again when missing or damaged
    return fetch_demo(log=lambda msg: print(msg, file=sys.stderr))


def load_settings(args: argparse.Namespace) -> LoadSettings:
    from logitscope.engine.api import LoadSettings
    from logitscope.engine.memory import value_cache_type

    settings = LoadSettings(n_ctx=args.n_ctx, n_gpu_layers=args.n_gpu_layers, n_threads=args.threads,
                            type_k=args.kv_type, type_v=value_cache_type(args.kv_type, args.flash_attn),
                            flash_attn=args.flash_attn)
    settings.validate()
    return settings


# -- commands -----------------------------------------------------------------------------------

def cmd_info(args: argparse.Namespace) -> int:
    """The card; for a damaged file (its header reads, but llama.cpp cannot load it) the card as read plus
    its problems (`problems` in --json, where `kv_cache_bytes` is then null), and exit code 2."""
    from logitscope.engine.gguf_info import damaged_error, inspect_model
    from logitscope.engine.memory import KV_CACHE_TYPES, format_bytes, kv_cache_bytes

    card = inspect_model(resolve_model(args.model))
    contexts = sorted({512, 2048, 4096, 8192, card.n_ctx_train} - {0})
    table = {} if card.problems else {n: {t: kv_cache_bytes(card, n, t, t) for t in KV_CACHE_TYPES}
                                      for n in contexts}
    if args.json:
        data = card.to_dict()
        data.pop("chat_template", None)
        data["kv_cache_bytes"] = {str(n): row for n, row in table.items()} if table else None
        print(json.dumps(data, indent=2))
        if card.problems:
            raise damaged_error(card)
        return 0
    mix = ", ".join(f"{q.type_name} {q.n_tensors} tensors ({q.bits_per_weight:.2f} bpw)" for q in card.quant_mix)
    rows = [
        ("name", card.name), ("file", f"{card.path} ({format_bytes(card.file_size)})"),
        ("architecture", card.architecture), ("parameters", f"{card.n_params:,}"),
        ("file type", f"{card.file_type} ({card.bits_per_weight:.2f} bits per weight on average)"),
        ("tensor types", mix), ("layers", card.n_layer),
        ("attention heads", f"{card.n_head} (KV heads {card.n_head_kv}, head dim {card.head_dim_k})"),
        ("embedding / FFN", f"{card.n_embd} / {card.n_ff}"),
        ("vocabulary", f"{card.n_vocab:,} tokens ({card.tokenizer_model})"),
        ("training context", f"{card.n_ctx_train:,} tokens"), ("BOS / EOS", f"{card.bos_id} / {card.eos_id}"),
        ("chat template", "yes" if card.has_chat_template else "no (a plain fallback is used)"),
    ]
    for key, value in rows:
        print(f"{key:>17}: {value}")
    if card.problems:
        print("\nDamaged: llama.cpp cannot load this file.")
        print("\n".join(f"  - {problem}" for problem in card.problems))
        sys.stdout.flush()
        raise damaged_error(card)
    print("\nKV cache (2 x layers x KV heads x head dim x bytes per element x tokens):")
    print(f"{'n_ctx':>8} " + " ".join(f"{t:>12}" for t in KV_CACHE_TYPES))
    for n, row in table.items():
        print(f"{n:>8} " + " ".join(f"{format_bytes(v):>12}" for v in row.values()))
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from logitscope.beams_cli import run_beams
    from logitscope.engine.api import ChatMessage, DecodeOptions, GenerateRequest
    from logitscope.engine.gguf_info import read_model_card
    from logitscope.engine.trace import (
        GenerationResult,
        StepRecord,
        dumps,
        piece_text,
        result_to_json,
        step_to_json,
    )
    from logitscope.errors import EngineUnresponsiveError, RemoteEngineError
    from logitscope.host.client import CancelledError, EngineClient
    from logitscope.sampler_cli import settings_from_args

    settings = settings_from_args(args)  # validated
    options = DecodeOptions(max_tokens=args.max_tokens, stop=tuple(args.stop), **_draft_options(args))
    options.validate()
    if args.top < 0:
        raise InvalidSettingsError("--top must be >= 0")
    if args.system and not args.chat:
        raise InvalidSettingsError("--system needs --chat")
    request = GenerateRequest(
        prompt=args.prompt,
        messages=[ChatMessage("user", args.chat)] if args.chat is not None else None,
        system=args.system, settings=settings, options=options)
    request.validate()
    if args.beams is not None or args.length_penalty is not None:
        return run_beams(args, request)
    remote_only = args.post_sampling_probs or args.insecure or args.remote_model or args.remote_timeout is not None
    if args.engine is None and remote_only:
        raise InvalidSettingsError("--remote-model, --remote-timeout, --insecure and --post-sampling-probs "
                                   "need --engine URL")
    out = sys.stdout
    steps = []
    if args.engine is not None:  # "" is an address too: refused as empty, never the local model
        client: EngineLike = _remote_engine(args)
    else:
        path = resolve_model(args.model)
        read_model_card(path)  # bad files fail here, before an engine starts
        client = EngineClient()
    with contextlib.closing(client):
        if isinstance(client, EngineClient):
            info = client.load(str(path), load_settings(args))
            for notice in info.notices:
                print(f"warning: {notice}", file=sys.stderr)
        vocab = client.vocab() if (args.json or args.top or args.explain) and args.engine is None else []

        flushed = [0.0]

        def on_step(step: StepRecord) -> None:
            try:
                if args.json:
                    out.write(dumps(step_to_json(step, vocab, top=max(args.top, 10))) + "\n")
                else:
                    out.write(step.text)
                if args.top or args.explain:
                    steps.append(step)
                now = time.monotonic()
                if now - flushed[0] >= OUTPUT_FLUSH_S:  # each flush wakes the reader, which then competes
                    out.flush()                          # with llama.cpp's threads for the cores
                    flushed[0] = now
            except OSError:  # the output is full or gone: stop the engine now, then report
                client.cancel()
                raise

        ctrl_c = _CtrlC(client)
        previous = signal.signal(signal.SIGINT, ctrl_c)
        try:
            result = client.generate(request, on_step=on_step)
        except CancelledError:
            return 130
        except EngineUnresponsiveError as exc:
            if not ctrl_c.pressed:
                raise
            print(f"error: interrupted; {exc}", file=sys.stderr)
            return 130
        except RemoteEngineError as exc:  # the answer broke off: the trace still ends with its 'done' line
            if args.json and isinstance(exc.partial, GenerationResult):
                out.write(dumps(result_to_json(exc.partial)) + "\n")
                out.flush()
            raise
        finally:
            signal.signal(signal.SIGINT, previous)
    if args.json:
        out.write(dumps(result_to_json(result)) + "\n")
    else:
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
        prompt = (f"prompt {t.n_prompt} tokens at {t.prompt_tps:.0f} tok/s" if t.n_prompt_eval >= 0 else
                  f"prompt {t.n_prompt if t.n_prompt >= 0 else '?'} tokens")  # a remote server may not say
        print(f"[{result.finish_reason}] {prompt}, "
              f"{t.n_gen} tokens at {t.gen_tps:.1f} tok/s, first token after {t.ttft_s * 1000:.0f} ms, "
              f"seed {result.settings['seed']}", file=sys.stderr)
        spec = result.speculative
        if spec is not None:
            print(f"[draft {spec.draft}, up to {spec.draft_max}] {spec.accepted} of {spec.drafted} drafts accepted "
                  f"({spec.acceptance:.0%}), {spec.tokens_per_evaluation:.2f} tokens per evaluation "
                  f"({spec.evaluations} evaluations)", file=sys.stderr)
    out.flush()
    if args.explain:
        from logitscope.diagnosis import Context, diagnose
        from logitscope.diagnosis.commands import report_diagnosis

        local = client.info if isinstance(client, EngineClient) else None
        context = Context(load=local.load, gpu_offload=local.gpu_offload_supported) if local is not None else None
        report_diagnosis(diagnose(steps, result, vocab or None, context), args.json)
    return 130 if result.finish_reason == "cancelled" else 0  # stopped by Ctrl+C: what came is printed


def _draft_options(args: argparse.Namespace) -> dict[str, Any]:
    """--draft and --draft-max as DecodeOptions fields; a draft model's file is checked here, before an
    engine starts."""
    from logitscope.engine.api import DRAFT_LOOKUP
    from logitscope.engine.gguf_info import read_model_card

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


def _remote_engine(args: argparse.Namespace) -> RemoteEngine:
    """A RemoteEngine, connected."""
    from logitscope.host.remote import DEFAULT_TIMEOUT_S, RemoteEngine

    if args.model:
        raise InvalidSettingsError("--model names a local file; with --engine the server has the model "
                                   "(choose it with --remote-model)")
    engine = RemoteEngine(args.engine, api_key=args.api_key, model=args.remote_model,
                          verify_tls=not args.insecure, post_sampling_probs=args.post_sampling_probs,
                          timeout=DEFAULT_TIMEOUT_S if args.remote_timeout is None else args.remote_timeout)
    try:
        engine.connect()
    except BaseException:
        engine.close()
        raise
    return engine


class _CtrlC:
    """SIGINT during an answer: the first asks the engine to stop (what was generated is kept; an engine that
    does not answer is ended, see host/client.py); a second one interrupts at once."""

    def __init__(self, engine: EngineLike) -> None:
        self.engine, self.pressed = engine, 0

    def __call__(self, *_signal: object) -> None:
        self.pressed += 1
        if self.pressed > 1:
            raise KeyboardInterrupt
        self.engine.cancel()


def _prob(p: float) -> str:
    """A probability for the step table; "-" where a remote server did not say (NaN)."""
    return "-" if p != p else f"{p:.3f}"


def cmd_chat(args: argparse.Namespace) -> int:
    from logitscope.terminal_chat import TerminalChat

    return TerminalChat(resolve_model(args.model), load_settings(args), args.system, args.temperature,
                        args.max_tokens, save=not args.no_save).run()


def cmd_bench(args: argparse.Namespace) -> int:
    from logitscope.engine.api import DecodeOptions, LoadSettings

    LoadSettings(n_threads=args.threads).validate()  # the thread count first: the most common mistake
    if args.reps is None:
        args.reps = 5 if args.inspect else 3
    if args.tokens < 2 or args.reps < 1 or args.long < 0:
        raise InvalidSettingsError("--tokens must be >= 2, --reps >= 1 and --long >= 0")
    if args.replay and not args.window or args.rate < 0 or (args.rate and not args.replay):
        raise InvalidSettingsError("--replay goes with --window, and --rate (> 0) with --replay")
    if args.vocab_model and not args.samplers:
        raise InvalidSettingsError("--vocab-model goes with --samplers")
    if args.diagnosis:
        from logitscope.diagnosis.bench import run_diagnosis_bench

        return run_diagnosis_bench(resolve_model(args.model), args)
    if args.speculative:
        from logitscope.spec_bench import run_speculative_bench

        DecodeOptions(draft_max=args.draft_max).validate()
        return run_speculative_bench(resolve_model(args.model), args)
    if args.samplers:
        from logitscope.engine.sampler_bench import run_sampler_bench

        return run_sampler_bench([resolve_model(args.model), *(resolve_model(m) for m in args.vocab_model)], args)
    if args.score:
        from logitscope.score_bench import run_score_bench

        return run_score_bench(resolve_model(args.model), args)
    if args.window and args.replay:
        from logitscope.ui.bench_replay import run_replay_bench  # needs Qt

        return run_replay_bench(resolve_model(args.model), args)
    if args.window:
        from logitscope.ui.bench_window import run_window_bench  # the only bench that needs Qt

        return run_window_bench(resolve_model(args.model), args)
    if args.pipe:
        from logitscope.bench import run_pipe_bench

        return run_pipe_bench(resolve_model(args.model), args)
    if args.inspect:
        from logitscope.bench import run_inspect_bench

        return run_inspect_bench(resolve_model(args.model), args)
    from logitscope.bench import run_bench

    return run_bench(resolve_model(args.model), args)


def cmd_inspect(args: argparse.Namespace) -> int:
    from logitscope.inspect_cli import run_inspect

    return run_inspect(args)


def cmd_score(args: argparse.Namespace) -> int:
    from logitscope.score_cli import run_score

    return run_score(args)


def cmd_models(args: argparse.Namespace) -> int:
    from logitscope.library.commands import run_models

    return run_models(args)


def cmd_history(args: argparse.Namespace) -> int:
    from logitscope.store.commands import run_history

    return run_history(args)


def cmd_explain(args: argparse.Namespace) -> int:
    from logitscope.diagnosis.commands import run_explain

    return run_explain(args)


def cmd_window(args: argparse.Namespace) -> int:
    import os

    if (sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM")
            and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))):
        raise LogitscopeError("no display to open the window on: run Logitscope in a desktop session "
                              "(or use 'logitscope chat' for a chat in the terminal)")
    require_address_space(WINDOW_ADDRESS_SPACE, "the window")
    with quiet_on_failure():  # too little memory: one line, not shiboken's own traceback
        from logitscope.ui.app import run_window

    return run_window(str(resolve_model(args.model)))


COMMANDS = {"window": cmd_window, "info": cmd_info, "generate": cmd_generate, "chat": cmd_chat, "bench": cmd_bench, "models": cmd_models,
            "inspect": cmd_inspect, "score": cmd_score,
            "history": cmd_history, "explain": cmd_explain}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(argv) if argv else ["window"])  # no command: the window
    try:
        code = COMMANDS[args.command](args)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not in Python's flush at exit
        return code
    except LogitscopeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`| head -1`): nothing more to say
        release_stdout()
        return 0
    except Exception as exc:
        message = describe_environment_failure(exc)
        if message is None:
            raise
        release_stdout()
        print(f"error: {message}", file=sys.stderr)
        return EXIT_USAGE


