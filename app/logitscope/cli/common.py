"""What every command shares: the one-line parser errors, the model and load options, the demo model
fetched when none is given, and Ctrl+C (or SIGTERM) during an answer."""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

from logitscope.base.errors import InvalidSettingsError
from logitscope.cli.option_names import LOAD_FLAGS

if TYPE_CHECKING:
    from logitscope.host.remote import RemoteEngine
    from logitscope.protocol.api import LoadSettings
    from logitscope.protocol.engine_like import EngineLike

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT: stopped by Ctrl+C, what came before kept
EXIT_TERMINATED = 143   # 128 + SIGTERM: stopped as by Ctrl+C, and one `error: terminated` line
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# what a command's register(sub) receives: the `logitscope` parser's subparsers (generic only in the
# type stubs, hence the string)
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


class Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # a value in exponent form is a number too (`--presence-penalty -1e9`): Python 3.11's argparse takes
        # only -1 and -1.5 for numbers and read -1e9 as an unknown option
        self._negative_number_matcher = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")

    def error(self, message: str) -> NoReturn:  # one line, not usage + message
        print(f"error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def add_model_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", metavar="PATH", help="a GGUF file (default: the demo model, fetched if missing)")


def add_load_arguments(p: argparse.ArgumentParser) -> None:
    from logitscope.gguf import memory
    from logitscope.protocol.api import LoadSettings

    default = LoadSettings()
    p.add_argument(LOAD_FLAGS["n_ctx"], type=int, default=default.n_ctx, help="context window in tokens (0 = the model's own)")
    p.add_argument(LOAD_FLAGS["n_gpu_layers"], type=int, default=default.n_gpu_layers,
                   help="layers to offload to the GPU (-1 = all)")
    p.add_argument(LOAD_FLAGS["n_threads"], type=int, default=default.n_threads,
                   help="CPU threads (0: one per physical core, moved with the machine's load)")
    p.add_argument(LOAD_FLAGS["type_k"], choices=list(memory.KV_CACHE_TYPES), default=default.type_k,
                   help="KV cache element type (the V cache's only with --flash-attn, as llama.cpp allows)")
    p.add_argument(LOAD_FLAGS["flash_attn"], action="store_true", help="use flash attention (needed for a quantized V cache)")


def resolve_model(arg: str | None) -> Path:
    from logitscope.library.demo import fetch_demo

    if arg:
        return Path(arg).expanduser()
    # verifies the demo model's hash, fetching it again when missing or damaged
    return fetch_demo(log=lambda msg: print(msg, file=sys.stderr))


def load_settings(args: argparse.Namespace) -> LoadSettings:
    from logitscope.gguf.memory import value_cache_type
    from logitscope.protocol.api import LoadSettings

    settings = LoadSettings(n_ctx=args.n_ctx, n_gpu_layers=args.n_gpu_layers, n_threads=args.threads,
                            type_k=args.kv_type, type_v=value_cache_type(args.kv_type, args.flash_attn),
                            flash_attn=args.flash_attn)
    settings.validate(LOAD_FLAGS)
    if settings.type_v != settings.type_k:   # the memory saved is half what the user may expect: say so
        print(f"note: {LOAD_FLAGS['type_k']} {settings.type_k} quantizes the K cache only; the V cache stays "
              f"{settings.type_v} without {LOAD_FLAGS['flash_attn']}", file=sys.stderr)
    return settings


def remote_engine(args: argparse.Namespace) -> RemoteEngine:
    """A RemoteEngine, connected."""
    from logitscope.host.remote import DEFAULT_TIMEOUT_S, RemoteEngine

    if args.model:
        raise InvalidSettingsError("--model names a local file; with --engine the server has the model "
                                   "(choose it with --remote-model)")
    api_key = args.api_key if args.api_key is not None else os.environ.get("LOGITSCOPE_API_KEY")
    engine = RemoteEngine(args.engine, api_key=api_key, model=args.remote_model,
                          verify_tls=not args.insecure, post_sampling_probs=args.post_sampling_probs,
                          timeout=DEFAULT_TIMEOUT_S if args.engine_timeout is None else args.engine_timeout)
    try:
        engine.connect()
    except BaseException:
        engine.close()
        raise
    return engine


class Terminated(KeyboardInterrupt):
    """SIGTERM: unwinds as Ctrl+C does (engines ended, transactions rolled back), then exit 143."""


class _Stop:
    """What this process was asked (signals are per process): a SIGTERM came; its line was said."""

    terminated = False
    said = False


SignalHandler: TypeAlias = Callable[[int, FrameType | None], object]


def terminated() -> bool:
    return _Stop.terminated


def on_sigterm(signum: int, _frame: FrameType | None = None) -> None:
    """SIGTERM where no command stops its work more gently (cli/main.py installs it)."""
    _Stop.terminated = True
    raise Terminated


@contextmanager
def stop_signals(handler: SignalHandler) -> Iterator[None]:
    """`handler` for Ctrl+C and SIGTERM alike while it lasts: a service manager, `timeout` or `kill` stops
    an answer as Ctrl+C does (what came is kept, a trace ends with its `done` line), then the command
    exits 143 (cli/main.py). The handlers before are back afterwards."""
    def noting(signum: int, frame: FrameType | None) -> object:
        if signum == signal.SIGTERM:
            _Stop.terminated = True
        return handler(signum, frame)

    previous = {sig: signal.signal(sig, noting) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def say_stopped(detail: str = "") -> int:
    """The one line for work stopped by Ctrl+C or SIGTERM (`detail`: what else to say); its exit status."""
    _Stop.said = True
    print(f"error: {'terminated' if _Stop.terminated else 'interrupted'}{detail}", file=sys.stderr)
    return EXIT_TERMINATED if _Stop.terminated else EXIT_INTERRUPTED


def exit_status(code: int) -> int:
    """A command's exit status, once it is back: after a SIGTERM 143, with its line (unless said already)."""
    if not _Stop.terminated:
        return code
    if not _Stop.said:
        say_stopped()
    return EXIT_TERMINATED


class CtrlC:
    """SIGINT (or SIGTERM, see stop_signals) during an answer: the first asks the engine to stop (what was
    generated is kept; an engine that does not answer is ended, see host/client.py); a second one interrupts
    at once."""

    def __init__(self, engine: EngineLike) -> None:
        self.engine, self.pressed = engine, 0

    def __call__(self, signum: int = signal.SIGINT, _frame: FrameType | None = None) -> None:
        self.pressed += 1
        if self.pressed > 1:
            raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt
        self.engine.cancel()
