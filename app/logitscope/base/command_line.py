"""Which command a command line names before anything is parsed (the entry point checks the window's memory
need before importing the command line's modules; the parser then reads the same answer)."""

from __future__ import annotations

from collections.abc import Sequence

NOT_THE_WINDOWS = ("-h", "--help", "--version")   # options of `logitscope` itself


def with_command(argv: Sequence[str]) -> list[str]:
    """The arguments with their command: `logitscope` alone, or the window's options alone (`logitscope --model
    X.gguf`, as llama.cpp's tools take a model), mean `logitscope window …`."""
    args = list(argv)
    if not args or (args[0].startswith("-") and args[0] not in NOT_THE_WINDOWS):
        return ["window", *args]
    return args
