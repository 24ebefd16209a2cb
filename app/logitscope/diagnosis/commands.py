"""`logitscope explain` and `generate --explain`: the diagnosis printed, in English, one finding a paragraph.

cli.py wires them in: `add_explain_parser(subparsers)` while building the parser, `run_explain(args)` for
the command, `print_diagnosis(...)` after `generate --explain`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO, TypeVar

from logitscope.diagnosis.findings import Diagnosis, Finding, Fix
from logitscope.errors import InvalidSettingsError
from logitscope.store.history import HistoryStore

Parser = TypeVar("Parser", bound=argparse.ArgumentParser)

# A fix's settings as the command line spells them (generate's options), where it has them.
_LOAD_FLAGS = {"n_ctx": "--n-ctx", "n_gpu_layers": "--n-gpu-layers", "type_k": "--kv-type", "flash_attn": "--flash-attn"}


def add_explain_parser(subparsers: argparse._SubParsersAction[Parser]) -> Parser:
    p = subparsers.add_parser("explain", help="why did it answer like that? the diagnosis of saved answers")
    p.add_argument("target", nargs="?", metavar="ID|FILE",
                   help="a conversation id (`history list`), or a history export file (`history export`); "
                        "default: the most recent conversation")
    p.add_argument("--message", type=int, metavar="ID", help="one answer, by its message id")
    p.add_argument("--all-branches", action="store_true", help="every version of every answer, not only the "
                   "active branch")
    p.add_argument("--json", action="store_true", help="the findings as JSON")
    return p


def run_explain(args: argparse.Namespace) -> int:
    from logitscope.diagnosis.stored import (
        DiagnosedAnswer,
        diagnose_conversation,
        diagnose_export,
        diagnose_message,
    )

    if args.message is not None and args.target is not None:
        raise InvalidSettingsError("give a conversation, a file or --message ID, not two of them")
    answers: list[DiagnosedAnswer]
    if args.target is not None and not args.target.isdigit():
        answers = diagnose_export(Path(args.target))
    else:
        with HistoryStore(read_only=True) as store:
            for notice in store.notices:
                print(f"note: {notice}", file=sys.stderr)
            if args.message is not None:
                m = store.message(args.message)
                if m.role != "assistant":
                    raise InvalidSettingsError("message {id} is a {role} message, not an answer", id=m.id, role=m.role)
                title = store.conversation(m.conversation_id).title
                answers = [DiagnosedAnswer(m.conversation_id, title, m, diagnose_message(store, m.id))]
            else:
                cid = int(args.target) if args.target is not None else _latest(store)
                answers = list(diagnose_conversation(store, cid, every_branch=args.all_branches))
    if args.json:
        print(json.dumps([{"conversation": a.conversation_id, "message": a.message.id,
                           "finish_reason": a.message.finish_reason, **a.diagnosis.to_dict()} for a in answers],
                         indent=2, ensure_ascii=False))
        return 0
    if not answers:
        print("no answers to explain")
    for a in answers:
        print(f"conversation {a.conversation_id} \"{a.title}\", answer {a.message.id}: "
              f"{a.diagnosis.n_steps} tokens, {a.message.status}"
              + (f" ({a.message.finish_reason})" if a.message.finish_reason else ""))
        print_diagnosis(a.diagnosis, sys.stdout)
        print()
    return 0


def _latest(store: HistoryStore) -> int:
    conversations = store.list_conversations()
    if not conversations:
        raise InvalidSettingsError("the history is empty: nothing to explain")
    return conversations[0].id


def print_diagnosis(diagnosis: Diagnosis, out: TextIO) -> None:
    if not diagnosis.findings:
        out.write("  no problem found\n")
    for f in diagnosis.findings:
        out.write(f"  [{f.severity}] {f.title}: {f.text}\n")
        if f.spans:
            out.write(f"      evidence: {evidence(f)}\n")
        if f.fix is not None:
            out.write(f"      fix: {f.fix.label} ({fix_options(f.fix)})\n")
    for skipped in diagnosis.skipped:
        out.write(f"  (not checked: {skipped})\n")


def evidence(f: Finding) -> str:
    parts = [f"step {a}" if b - a == 1 else f"steps {a}-{b - 1}" for a, b in f.spans[:8]]
    return ", ".join(parts) + (f" and {len(f.spans) - 8} more" if len(f.spans) > 8 else "")


def fix_options(fix: Fix) -> str:
    """The fix as `generate`'s options (and a fork where there is one)."""
    parts: list[str] = []
    for name, value in fix.sampler + fix.decode:
        parts += _flag(name.replace("_", "-"), value)
    for name, value in fix.load:
        if name == "type_v":
            continue   # --kv-type sets both
        flag = _LOAD_FLAGS.get(name, "--" + name.replace("_", "-"))
        parts += [flag] if value is True else [] if value is False else [f"{flag} {value}"]
    if fix.fork is not None:
        parts.append(f"fork at step {fix.fork[0]} with token {fix.fork[1]}")
    return ", ".join(parts) if fix.fork else " ".join(parts)


def _flag(name: str, value: Any) -> list[str]:
    if isinstance(value, tuple | list):
        return [f"--{name} {json.dumps(v, ensure_ascii=False)}" for v in value]
    return [f"--{name} {value}"]
