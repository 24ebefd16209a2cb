"""The frozen app's first Python code: the same `main` as the `logitscope` command (the window without
arguments, the CLI with them, `--selftest`, and `--engine-server` for the engine child process)."""

from logitscope.__main__ import main

if __name__ == "__main__":
    raise SystemExit(main())
