"""`logitscope chat`: an interactive chat in the terminal (cli/terminal_chat.py)."""

from __future__ import annotations

import argparse

from logitscope.cli.common import (
    Subparsers,
    add_load_arguments,
    add_model_argument,
    load_settings,
    resolve_model,
)
from logitscope.cli.option_names import DECODE_FLAGS, SAMPLER_FLAGS, SAMPLER_NAMES
from logitscope.cli.reasoning_options import add_reasoning_arguments
from logitscope.cli.steering_options import add_steering_arguments, steering_from_args
from logitscope.protocol.sampler_settings import SamplerSettings


def run(args: argparse.Namespace) -> int:
    from logitscope.cli.terminal_chat import TerminalChat
    from logitscope.protocol.api import DecodeOptions

    steering = steering_from_args(args)  # bad flags and files: refused before an engine starts
    decode = DecodeOptions(reasoning_format=args.reasoning_format, reasoning_budget=args.reasoning_budget)
    # bad options: refused before anything starts, under the flags' names
    SamplerSettings(temperature=args.temperature).validate(SAMPLER_NAMES)
    DecodeOptions(max_tokens=args.max_tokens).validate(DECODE_FLAGS)
    return TerminalChat(resolve_model(args.model), load_settings(args), args.system, args.temperature,
                        args.max_tokens, save=not args.no_save, steering=steering, decode=decode).run()


def register(sub: Subparsers) -> None:
    p = sub.add_parser("chat", help="an interactive chat in the terminal")
    add_model_argument(p)
    p.add_argument("--system")
    p.add_argument(*SAMPLER_FLAGS["temperature"], dest="temperature", type=float, default=SamplerSettings().temperature)
    p.add_argument(DECODE_FLAGS["max_tokens"], type=int, default=512)
    p.add_argument("--no-save", action="store_true", help="do not save this chat to the history")
    add_reasoning_arguments(p)
    add_steering_arguments(p)
    add_load_arguments(p)
    p.set_defaults(run=run)
