"""--reasoning-format and --reasoning-budget (llama.cpp's flags, the budget extended to N tokens) and the line
that says what the thinking block did."""

from __future__ import annotations

import argparse
from typing import Any

from logitscope.protocol.reasoning import (
    BY_BUDGET,
    BY_MODEL,
    DEFAULT_REASONING_FORMAT,
    REASONING_FORMATS,
    UNLIMITED,
)


def add_reasoning_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("reasoning models (a <think> block before the answer)")
    g.add_argument("--reasoning-format", choices=REASONING_FORMATS, default=DEFAULT_REASONING_FORMAT,
                   help="deepseek: recognise the thinking block (default); none: leave the text as it is")
    g.add_argument("--reasoning-budget", type=int, default=UNLIMITED, metavar="N",
                   help="-1: unlimited (default); 0: no thinking (the block closed at once); N: after N tokens "
                        "of thinking the engine closes the block and the answer follows")


def reasoning_line(record: dict[str, Any]) -> str:
    """[thinking] 40 tokens, closed by the budget (40)."""
    how = {BY_MODEL: "closed by the model", BY_BUDGET: f"closed by the budget ({record.get('budget')})"}.get(
        str(record.get("ended")), "never closed: the answer stopped inside it")
    return f"[thinking] {record.get('n_thinking')} tokens, {how}"
