"""The command line: `logitscope info | generate | chat | bench | models ...`, one module per command.

Every failure the user can cause (a bad file, a bad option, a crashed engine) ends as one `error:` line
on stderr and exit code 2; never a traceback. Ctrl+C ends with 130, SIGTERM as Ctrl+C but with 143 and
one `error: terminated` line (cli/common.py).
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Sequence

from logitscope import __version__
from logitscope.base.command_line import with_command
from logitscope.base.errors import LogitscopeError
from logitscope.base.fatal import describe as describe_environment_failure
from logitscope.base.fatal import release_stdout
from logitscope.cli import (
    bench,
    chat,
    cvector,
    explain,
    generate,
    history,
    info,
    inspect,
    models,
    patch,
    quantize,
    score,
    window,
)
from logitscope.cli.common import EXIT_USAGE, Parser, exit_status, on_sigterm, say_stopped

# a command: what its register() sets as its parser's `run`
Run = Callable[[argparse.Namespace], int]

# every command, in the order `logitscope --help` lists them; each module's register(sub) adds its parser
# and sets the parser's `run`
COMMANDS = (info, generate, inspect, patch, score, quantize, cvector, window, chat, bench, models, history, explain)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="logitscope", description="Chat with a local LLM and see inside it.")
    parser.add_argument("--version", action="version", version=f"logitscope {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
    return parser


def _command(args: argparse.Namespace) -> Run:
    run: Run = args.run
    return run


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(with_command(argv or ()))   # no command, or the window's options alone: the window
    if args.command == "window":  # (Qt's event loop would hold a Python handler back)
        return _run(args)
    previous = signal.signal(signal.SIGTERM, on_sigterm)  # as Ctrl+C: cleaned up, then one line and 143
    try:
        return _run(args)
    finally:
        signal.signal(signal.SIGTERM, previous)  # (main() called in a process that goes on: its own again)


def _run(args: argparse.Namespace) -> int:
    try:
        code = _command(args)(args)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not in Python's flush at exit
        return exit_status(code)
    except LogitscopeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return say_stopped()
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


