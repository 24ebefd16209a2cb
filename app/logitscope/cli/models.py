"""`logitscope models ...`: list, search, files, pull, rm, recommended, token.

Failures are raised as LogitscopeError (cli/main.py prints them as one `error:` line, exit code 2).
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from logitscope.base.errors import InvalidSettingsError
from logitscope.cli.common import Subparsers
from logitscope.gguf.memory import format_bytes
from logitscope.library.fit import DEFAULT_N_CTX
from logitscope.protocol.api import LoadSettings

if TYPE_CHECKING:
    from logitscope.library.discovery import ModelRoots

SORT_CHOICES = ("downloads", "likes", "recent")



def register(sub: Subparsers) -> None:
    parser = sub.add_parser("models", help="models on disk and on the Hugging Face Hub")
    parser.set_defaults(run=run)
    actions = parser.add_subparsers(dest="models_command", parser_class=type(parser), metavar="ACTION", required=True)
    add = actions.add_parser
    add("fetch-demo", help="fetch and verify the demo model (SmolLM2-135M-Instruct Q4_1)")
    p = add("list", help="models on this machine (models folder, folders added in the settings, LM Studio, HF cache, Ollama)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--n-ctx", type=int, default=DEFAULT_N_CTX, help="context size for the fit verdict")
    p.add_argument("--folder", action="append", default=[], metavar="DIR", help="also look in DIR (repeatable)")

    p = add("search", help="search GGUF repositories on the Hugging Face Hub")
    p.add_argument("query")
    p.add_argument("--sort", choices=SORT_CHOICES, default="downloads")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--json", action="store_true")

    p = add("files", help="a Hub repository's GGUF models: quantization, size, fit")
    p.add_argument("repo", metavar="REPO")
    p.add_argument("--n-ctx", type=int, default=DEFAULT_N_CTX, help="context size for the fit verdict")
    p.add_argument("--json", action="store_true", help="sizes in bytes")

    p = add("pull", help="download a GGUF model (all parts of a split one) into the models folder")
    p.add_argument("repo", metavar="REPO")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--revision", default=None, help="branch, tag or commit (default: main)")

    p = add("rm", help="delete a model from the models folder (never other tools' files)")
    p.add_argument("name", metavar="NAME", help="a name or path from 'models list'")

    p = add("recommended", help="small models suggested for a first try")
    p.add_argument("--json", action="store_true")

    p = add("token", help="the Hugging Face token for gated or private repositories")
    p.add_argument("action", choices=("set", "clear", "status"))
    p.add_argument("value", nargs="?", help="with 'set' (default: read from the terminal or stdin)")


def run(args: argparse.Namespace) -> int:
    return _HANDLERS[args.models_command](args)


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


def library_roots(folders: Sequence[str] = ()) -> ModelRoots:
    """Where models are looked for: the usual places, the folders added in the settings (as the window
    does) and `folders`. Problems in the settings file are printed as warnings."""
    from logitscope.library.discovery import default_roots
    from logitscope.store.settings import SettingsStore

    settings = SettingsStore()
    for notice in settings.notices:
        print(f"warning: {notice}", file=sys.stderr)
    return default_roots([*settings.app.models_folders, *folders])


def _check_n_ctx(n_ctx: int) -> None:
    """The context the memory estimates are for, checked as loading checks it ("KV cache 0 B at -5 tokens")."""
    LoadSettings(n_ctx=n_ctx).validate({"n_ctx": "--n-ctx"})


def _cmd_list(args: argparse.Namespace) -> int:
    from logitscope.library.catalog import list_local_models
    from logitscope.system.machine import probe_machine

    _check_n_ctx(args.n_ctx)
    for folder in args.folder:   # a mistyped folder was skipped without a word
        if not Path(folder).expanduser().is_dir():
            raise InvalidSettingsError("--folder {path} is not a folder", path=folder)
    machine = probe_machine()
    models = list_local_models(library_roots(args.folder), n_ctx=args.n_ctx, machine=machine)
    if args.json:
        _print_json({"n_ctx": args.n_ctx, "machine": machine.to_dict(), "models": [m.to_dict() for m in models]})
        return 0
    if not models:
        print("no models found; 'logitscope models recommended' suggests some")
    for m in models:
        what = f"{m.card.file_type} {m.card.bits_per_weight:.2f} bpw" if m.card else \
            "damaged" if m.damaged else "unusable"
        print(f"{m.name}  [{m.source}]  {format_bytes(m.size_bytes)}  {what}")
        print(f"    {m.path}")
        print(f"    {m.fit.summary if m.fit else m.error}")
        for loc in m.also_at:
            print(f"    also at: {loc.name} [{loc.source}] {loc.path}")
    return 0


def _cmd_search(args: argparse.Namespace) -> int:
    from logitscope.library.hub import search_models

    repos = search_models(args.query, args.sort, args.limit)
    if args.json:
        _print_json([r.to_dict() for r in repos])
        return 0
    for r in repos:
        gated = "  gated" if r.gated else ""
        date = (r.last_modified or "")[:10]
        print(f"{r.repo_id:<60} {r.downloads:>10,} downloads {r.likes:>6,} likes  {date}{gated}")
    if not repos:
        print(f"no GGUF repositories match {args.query!r}")
    return 0


def _cmd_files(args: argparse.Namespace) -> int:
    from logitscope.library.hub import list_repo_ggufs

    _check_n_ctx(args.n_ctx)
    listing = list_repo_ggufs(args.repo, n_ctx=args.n_ctx)
    if args.json:
        _print_json(listing.to_dict())
        return 0
    print(f"{listing.repo_id} at {listing.commit[:12]}{'  (gated: needs a token)' if listing.gated else ''}")
    for m in listing.models:
        parts = f"  ({len(m.parts)} parts)" if len(m.parts) > 1 else ""
        print(f"{m.name:<60} {m.quant:<10} {format_bytes(m.size_bytes):>11}  {m.fit.verdict}{parts}")
        print(f"    {m.fit.summary}")
    if not listing.models:
        print("no GGUF files in this repository")
    return 0


class _ProgressLine:
    """The download's progress, rewritten in place on stderr; ended with a newline only if one was drawn."""

    def __init__(self) -> None:
        self.drawn = False

    def __call__(self, p: Any) -> None:
        _progress_line(p)
        self.drawn = True

    def end(self) -> None:
        if self.drawn:
            print(file=sys.stderr)


def _progress_line(p: Any) -> None:
    total = format_bytes(p.total_bytes) if p.total_bytes else "?"
    pct = f"{100 * p.done_bytes / p.total_bytes:5.1f}%" if p.total_bytes else ""
    eta = f"ETA {p.eta_s:.0f} s" if p.eta_s is not None else "ETA ?"
    line = f"{p.filename}  {format_bytes(p.done_bytes)} / {total} {pct}  {format_bytes(p.speed_bps)}/s  {eta}"
    print(f"\r{line:<100}", end="", file=sys.stderr, flush=True)


def _cmd_pull(args: argparse.Namespace) -> int:
    from logitscope.library.download import pull_model

    progress = _ProgressLine()
    try:
        result = pull_model(args.repo, args.file, revision=args.revision, progress=progress)
    finally:
        progress.end()  # the progress line's newline, also on Ctrl-C or an error (none before an error line alone)
    note = "verified (SHA-256)" if result.verified else "not verified (the Hub gave no SHA-256)"
    done = "already there" if result.downloaded_bytes == 0 else f"downloaded {format_bytes(result.downloaded_bytes)}"
    print(f"{result.name}: {done}, {note}", file=sys.stderr)
    for path in result.paths:
        print(path)
    return 0


def _cmd_rm(args: argparse.Namespace) -> int:
    from logitscope.library.catalog import remove_model

    for path in remove_model(args.name, library_roots()):
        print(f"removed {path}")
    return 0


def _cmd_recommended(args: argparse.Namespace) -> int:
    from logitscope.library.recommended import load_recommended

    models = load_recommended()
    if args.json:
        _print_json([m.to_dict() for m in models])
        return 0
    for m in models:
        print(f"{m.title:<28} ~{format_bytes(m.approx_size_bytes):>11}  {m.license:<11} "
              f"logitscope models pull {m.repo_id} {m.filename}")
    print("(sizes are approximate)")
    return 0


def _cmd_token(args: argparse.Namespace) -> int:
    from logitscope.library.hub_token import clear_token, get_token, set_token

    if args.action == "set":
        value = args.value
        if value is None:
            value = getpass.getpass("Hugging Face token: ") if sys.stdin.isatty() else sys.stdin.readline()
        print(f"token stored in {set_token(value)}")
    elif args.action == "clear":
        clear_token()
        print("token cleared")
    else:
        token = get_token()
        print(f"a token is set ({token[:3]}...{token[-4:]})" if token else "no token set")
    return 0


def _cmd_fetch_demo(args: argparse.Namespace) -> int:
    from logitscope.library.demo import fetch_demo

    fetch_demo(log=lambda msg: print(msg, file=sys.stderr))
    return 0


_HANDLERS = {"list": _cmd_list, "search": _cmd_search, "files": _cmd_files, "pull": _cmd_pull, "rm": _cmd_rm,
             "recommended": _cmd_recommended, "token": _cmd_token, "fetch-demo": _cmd_fetch_demo}
