"""Running the CLI as a user does (`python -m logitscope ...`) and checking its one-line errors."""

from __future__ import annotations

import argparse
import subprocess
import sys

from logitscope.cli.main import build_parser

CLI = [sys.executable, "-m", "logitscope"]


def run(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, **kwargs)


def assert_clean_error(proc: subprocess.CompletedProcess[str], phrase: str = "") -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert phrase.lower() in errors[0].lower(), errors[0]


def parse_command(*argv: str) -> argparse.Namespace:
    """The CLI's arguments as `logitscope ARGV` parses them."""
    return build_parser().parse_args(argv)


def run_command(*argv: str) -> int:
    """`logitscope ARGV` run in this process; its exit status."""
    args = parse_command(*argv)
    return int(args.run(args))
