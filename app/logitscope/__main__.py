"""`logitscope` / `python -m logitscope`: the window without arguments, the CLI with them."""

from __future__ import annotations

import sys

from logitscope.base.command_line import with_command
from logitscope.base.fatal import (
    COMMAND_LINE_ADDRESS_SPACE,
    WINDOW_ADDRESS_SPACE,
    describe,
    release_stdout,
    require_address_space,
)


def main(argv: list[str] | None = None) -> int:
    try:
        return _dispatch(sys.argv[1:] if argv is None else argv)
    except Exception as exc:  # e.g. too little memory to import the app; a bug (no description) still shows
        try:
            message = describe(exc)
        except MemoryError:  # too short of memory even to say why in full
            message = "out of memory"
        if message is None:
            raise
        release_stdout()
        print(f"error: {message}", file=sys.stderr)
        return 2


def _dispatch(argv: list[str]) -> int:
    if argv[:1] == ["--engine-server"]:  # the engine child process of a frozen app
        from logitscope.host.server import main as engine_main

        engine_main(argv[1:])
        return 0
    if argv[:1] == ["--selftest"]:  # what installers and the bundle tests run: load, generate, draw
        from logitscope.cli.selftest import main as selftest_main

        return selftest_main(argv[1:])
    if with_command(argv)[:1] == ["window"]:
        # before the command line's modules (numpy, whose BLAS starts threads) are imported: under a tight
        # `ulimit -v` that import itself can hang instead of failing, so the window's need is checked first
        require_address_space(WINDOW_ADDRESS_SPACE, "the window")
    require_address_space(COMMAND_LINE_ADDRESS_SPACE, "the command line")
    from logitscope.cli.main import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
