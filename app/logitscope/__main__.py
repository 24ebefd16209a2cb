"""`logitscope` / `python -m logitscope`: the window without arguments, the CLI with them."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--engine-server"]:  # the engine child process of a frozen app
        from logitscope.host.server import main as engine_main

        engine_main(argv[1:])
        return 0
    if argv[:1] == ["--selftest"]:  # what installers and the bundle tests run: load, generate, draw
        from logitscope.selftest import main as selftest_main

        return selftest_main(argv[1:])
    from logitscope.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
