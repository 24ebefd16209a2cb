"""`logitscope explain` and `generate --explain`: the diagnosis printed, in English, one finding a paragraph.

cli/main.py wires them in: `add_explain_parser(subparsers)` while building the parser, `run_explain(args)` for
the command, `print_diagnosis(...)` after `generate --explain`.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from logitscope.base.errors import InvalidSettingsError, StoreError
from logitscope.base.reading import NotAFileError, TooLargeError, read_bounded
from logitscope.cli.common import Subparsers
from logitscope.cli.option_names import LOAD_FLAGS
from logitscope.diagnosis.findings import Diagnosis, Finding, Fix
from logitscope.diagnosis.stored import DiagnosedAnswer
from logitscope.store.history import HistoryStore


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("explain", help="why did it answer like that? the diagnosis of saved answers")
    p.add_argument("target", nargs="?", metavar="ID|FILE|-",
                   help="a conversation id (`history list`), a history export file (`history export`), or a "
                        "trace (`generate --json`) in a file or on stdin (`-`); default: the most recent conversation")
    p.add_argument("--message", type=int, metavar="ID", help="one answer, by its message id")
    p.add_argument("--all-branches", action="store_true", help="every version of every answer, not only the "
                   "active branch")
    p.add_argument("--json", action="store_true", help="the findings as JSON")
    p.set_defaults(run=run)


@dataclass
class Explained:
    """One diagnosed answer as explain prints it: its heading line and its JSON fields besides the diagnosis."""

    heading: str
    fields: dict[str, Any]
    diagnosis: Diagnosis


def run(args: argparse.Namespace) -> int:
    from logitscope.diagnosis.stored import diagnose_conversation, diagnose_message

    if args.message is not None and args.target is not None:
        raise InvalidSettingsError("give a conversation, a file or --message ID, not two of them")
    answers: list[Explained]
    if args.target is not None and not args.target.isdigit():
        answers = _explain_file(args.target)
    else:
        with HistoryStore(read_only=True, empty_if_unusable=False) as store:
            for notice in store.notices:
                print(f"note: {notice}", file=sys.stderr)
            if args.message is not None:
                m = store.message(args.message)
                if m.role != "assistant":
                    raise InvalidSettingsError("message {id} is a {role} message, not an answer", id=m.id, role=m.role)
                title = store.conversation(m.conversation_id).title
                answers = [_stored(DiagnosedAnswer(m.conversation_id, title, m, diagnose_message(store, m.id)))]
            else:
                cid = int(args.target) if args.target is not None else _latest(store)
                answers = [_stored(a) for a in diagnose_conversation(store, cid, every_branch=args.all_branches)]
    if args.json:
        print(json.dumps([a.fields | diagnosis_json(a.diagnosis) for a in answers], indent=2, ensure_ascii=False))
        return 0
    if not answers:
        print("no answers to explain")
    for a in answers:
        print(a.heading)
        print_diagnosis(a.diagnosis, sys.stdout)
        print()
    return 0


def _stored(a: DiagnosedAnswer) -> Explained:
    m = a.message
    return Explained(f"conversation {a.conversation_id} \"{a.title}\", answer {m.id}: {a.diagnosis.n_steps} tokens, "
                     f"{m.status}" + (f" ({m.finish_reason})" if m.finish_reason else ""),
                     {"conversation": a.conversation_id, "message": m.id, "finish_reason": m.finish_reason},
                     a.diagnosis)


def _explain_file(target: str) -> list[Explained]:
    """A history export or `generate --json` trace lines, from a file or (`-`) stdin."""
    from logitscope.diagnosis.diagnose import diagnose
    from logitscope.diagnosis.stored import diagnose_export
    from logitscope.diagnosis.trace_lines import looks_like_trace, read_trace_lines
    from logitscope.store.import_check import MAX_EXPORT_BYTES, check_export, parse_export

    source = "stdin" if target == "-" else target
    data = sys.stdin.buffer.read(MAX_EXPORT_BYTES + 1) if target == "-" else _read(Path(target))
    if len(data) > MAX_EXPORT_BYTES:
        raise _too_large(source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StoreError("{source} is not a trace or a history export: it is not UTF-8 text (byte {at})",
                         source=source, at=exc.start) from None
    if not looks_like_trace(text):
        return [_stored(a) for a in diagnose_export(check_export(parse_export(data, source)))]
    out = []
    for n, t in enumerate(read_trace_lines(text, source), 1):
        # a trace's speed was measured where and when it ran: nothing here says what that machine reaches
        diagnosis = diagnose(t.steps, t.result, None, settings=t.settings)
        finish = t.result.finish_reason if t.result is not None else None
        out.append(Explained(f"trace {n} ({source}): {diagnosis.n_steps} tokens, "
                             + (f"finished ({finish})" if finish else "did not finish"),
                             {"trace": n, "source": source, "finish_reason": finish}, diagnosis))
    return out


def _read(path: Path) -> bytes:
    """The file's bytes; a folder, a pipe or a device is refused without reading from it, in explain's words."""
    from logitscope.store.import_check import MAX_EXPORT_BYTES

    try:
        return read_bounded(path, MAX_EXPORT_BYTES)
    except NotAFileError as exc:
        raise StoreError("cannot explain {path}: it is {st_mode}, not a file", path=path,
                         st_mode=exc.kind) from None
    except TooLargeError:
        raise _too_large(str(path)) from None
    except OSError as exc:
        raise StoreError("cannot read {path}: {exc}", path=path, exc=exc.strerror or exc) from exc


def _too_large(source: str) -> StoreError:
    from logitscope.store.import_check import MAX_EXPORT_BYTES

    return StoreError("{source} is larger than {value} MiB, the most explain reads", source=source,
                      value=MAX_EXPORT_BYTES // 2 ** 20)


def _latest(store: HistoryStore) -> int:
    conversations = store.list_conversations()
    if not conversations:
        raise InvalidSettingsError("the history is empty: nothing to explain")
    return conversations[0].id


def report_diagnosis(diagnosis: Diagnosis, as_json: bool) -> None:
    """`generate --explain`: in English on stderr, or (with --json) one "diagnosis" line after the trace's."""
    if as_json:
        from logitscope.diagnosis.trace_lines import DIAGNOSIS_LINE
        from logitscope.protocol.trace import dumps

        sys.stdout.write(dumps({"type": DIAGNOSIS_LINE} | diagnosis_json(diagnosis)) + "\n")
        sys.stdout.flush()
        return
    print("diagnosis:", file=sys.stderr)
    print_diagnosis(diagnosis, sys.stderr)


def print_diagnosis(diagnosis: Diagnosis, out: TextIO) -> None:
    if not diagnosis.findings:
        out.write("  no problem found\n")
    for f in diagnosis.findings:
        out.write(f"  [{f.severity}] {f.title}: {f.text}\n")
        if f.spans:
            out.write(f"      evidence: {evidence(f)}\n")
        if f.fix is not None:
            out.write(f"      fix: {f.fix.label} ({fix_options(f.fix)})\n")
        for other in f.other_fixes:
            out.write(f"      or: {other.label} ({fix_options(other)})\n")
    for skipped in diagnosis.skipped:
        out.write(f"  (not checked: {skipped})\n")


def diagnosis_json(diagnosis: Diagnosis) -> dict[str, Any]:
    """The diagnosis as JSON (`explain --json`, `generate --explain --json`): each fix also as generate's options."""
    out = diagnosis.to_dict()
    for finding, entry in zip(diagnosis.findings, out["findings"], strict=True):
        if finding.fix is not None:
            entry["fix"]["options"] = fix_options(finding.fix)
        for other, other_entry in zip(finding.other_fixes, entry["other_fixes"], strict=True):
            other_entry["options"] = fix_options(other)
    return out


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
        flag = LOAD_FLAGS.get(name, "--" + name.replace("_", "-"))
        parts += [flag] if value is True else [] if value is False else [f"{flag} {value}"]
    if fix.model is not None:
        parts.append(f"--model {shlex.quote(fix.model)}")  # pasted into a shell: a path may hold spaces
    if fix.fork is not None:
        parts.append(f"fork at step {fix.fork[0]} with token {fix.fork[1]}")
    return ", ".join(parts) if fix.fork else " ".join(parts)


def _flag(name: str, value: Any) -> list[str]:
    if name == "dry-sequence-breakers":   # generate's option is repeatable, singular; "none" for no breakers
        return [f"--dry-sequence-breaker {shlex.quote(b)}" for b in value] or ["--dry-sequence-breaker none"]
    if isinstance(value, tuple | list):
        return [f"--{name} {json.dumps(v, ensure_ascii=False)}" for v in value]
    return [f"--{name} {value}"]
