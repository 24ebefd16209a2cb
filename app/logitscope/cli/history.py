"""`logitscope history list | export | import`: the saved conversations from the command line.

cli/main.py wires these in: `add_history_parser(subparsers)` while building the parser, and
`run_history(args)` for the "history" command. Mistakes raise LogitscopeError subclasses (StoreError),
which the CLI prints as one `error:` line.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from logitscope.base.output_paths import check_not_input
from logitscope.cli.common import Subparsers
from logitscope.store import import_check
from logitscope.store.database import SQLITE_SIBLINGS
from logitscope.store.exchange import export_json, export_markdown, import_json
from logitscope.store.files import write_export
from logitscope.store.history import HistoryStore


def register(subparsers: Subparsers) -> None:
    """The `history` command and its actions."""
    parser = subparsers.add_parser("history", help="saved conversations: list, export, import")
    actions = parser.add_subparsers(dest="history_command", metavar="ACTION", required=True,
                                    parser_class=type(parser))
    p = actions.add_parser("list", help="the saved conversations, most recent first")
    p.add_argument("--json", action="store_true")
    p = actions.add_parser("export", help="one conversation (or all) as JSON (lossless, traces included) or Markdown")
    p.add_argument("id", nargs="?", type=int, metavar="ID", help="a conversation id (default: all of them)")
    p.add_argument("--format", choices=["json", "md"], default="json",
                   help="json: every branch and trace, for import; md: the active branch, for reading")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p = actions.add_parser("import", help="add the conversations of a JSON export")
    p.add_argument("file", metavar="FILE")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # list and export only read: they never write to the database, nor wait for another process writing it.
    # They refuse a file they cannot read: a backup script must not take that for an empty history.
    with HistoryStore(read_only=args.history_command != "import", empty_if_unusable=False) as store:
        for notice in store.notices:
            print(f"note: {notice}", file=sys.stderr)
        if args.history_command == "list":
            return _list(store, args.json)
        if args.history_command == "export":
            return _export(store, args.id, args.format, args.output)
        return _import(store, Path(args.file))


def _list(store: HistoryStore, as_json: bool) -> int:
    conversations = store.list_conversations()
    if as_json:
        print(json.dumps([{"id": c.id, "title": c.title, "created_at": c.created_at, "updated_at": c.updated_at,
                           "n_messages": c.n_messages} for c in conversations], indent=2, ensure_ascii=False))
        return 0
    if not conversations:
        print("no saved conversations", file=sys.stderr)
    for c in conversations:
        updated = datetime.fromtimestamp(c.updated_at).strftime("%Y-%m-%d %H:%M")
        print(f"{c.id:>5}  {updated}  {c.n_messages:>4} messages  {c.title}")
    return 0


def _export(store: HistoryStore, conversation_id: int | None, fmt: str, output: str | None) -> int:
    ids = [conversation_id] if conversation_id is not None else None
    if fmt == "json":
        text = json.dumps(export_json(store, ids), indent=2, ensure_ascii=False) + "\n"
    else:
        text = export_markdown(store, ids)
    if output is None:
        sys.stdout.write(text)
        return 0
    data = text.encode("utf-8")
    check_not_input(Path(output), [store.path, *(f"{store.path}{end}" for end in SQLITE_SIBLINGS)])
    write_export(Path(output), data)  # never replaces a pipe, a device or a link
    if fmt == "json" and len(data) > import_check.MAX_EXPORT_BYTES:
        print(f"note: this export is {len(data) / 2**20:.0f} MiB; 'history import' reads at most "
              f"{import_check.MAX_EXPORT_BYTES // 2**20} MiB: to move them, export conversations a few at a time",
              file=sys.stderr)
    return 0


def _import(store: HistoryStore, path: Path) -> int:
    checked = import_check.load_export(path)  # bounded reading, everything checked before anything is written
    ids = import_json(store, checked)
    for notice in checked.notices:  # what was incomplete (imported as it is)
        print(f"note: {notice}", file=sys.stderr)
    skipped = len(checked["conversations"]) - len(ids)
    print(f"imported {len(ids)} conversation{'s' if len(ids) != 1 else ''}"
          + (f" (ids {', '.join(map(str, ids))})" if ids else "")
          + (f"; {skipped} already in the history, not imported again" if skipped else ""))
    return 0
