"""`logitscope window` (and `logitscope` alone): the desktop app."""

from __future__ import annotations

import argparse
import os
import sys

from logitscope.base.errors import LogitscopeError
from logitscope.base.fatal import (
    WINDOW_ADDRESS_SPACE,
    quiet_on_failure,
    require_address_space,
)
from logitscope.cli.common import (
    Subparsers,
    add_model_argument,
    resolve_model,
)


def run(args: argparse.Namespace) -> int:

    if (sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM")
            and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))):
        raise LogitscopeError("no display to open the window on: run Logitscope in a desktop session "
                              "(or use 'logitscope chat' for a chat in the terminal)")
    require_address_space(WINDOW_ADDRESS_SPACE, "the window")
    with quiet_on_failure():  # too little memory: one line, not shiboken's own traceback
        from logitscope.ui.app import run_window

    # without --model: the model used last, else the demo model (fetched only then: checking it reads 98 MB)
    return run_window(str(resolve_model(args.model)) if args.model else None, lambda: str(resolve_model(None)))


def register(sub: Subparsers) -> None:
    p = sub.add_parser("window", help="the desktop app (the default)")
    add_model_argument(p)
    p.set_defaults(run=run)
