"""The interface translations (Simplified Chinese): extract, build, check.

Run it with the virtual environment's Python:

    .venv/bin/python scripts/i18n.py catalog  # collect the lower layers' message templates (see below)
    .venv/bin/python scripts/i18n.py update   # re-extract the strings of app/logitscope/ui into the .ts
    .venv/bin/python scripts/i18n.py build    # compile the .ts into the .qm the app loads (a build output)
    .venv/bin/python scripts/i18n.py check    # exit 1 listing every string not (correctly) translated

`update` keeps the existing translations and drops strings that left the sources; translate the new
(unfinished) entries in resources/translations/logitscope_zh_CN.ts, then run `check`. `check` looks at
the current sources, not only at the .ts: a string added to the interface but not extracted and
translated yet is reported too.

The engine, host, library and store never import Qt, so their user-facing messages are templates:
`SomeLogitscopeError("cannot read {path}: {reason}", path=..., reason=...)` or `Message("...", ...)`
(logitscope/base/messages.py). `catalog` (run by `update` too) collects every such literal template into the
generated app/logitscope/ui/common/message_catalog*.py as `QT_TRANSLATE_NOOP("messages", ...)`, so lupdate puts
them in the .ts under the context "messages", where ui/common/messages.py looks them up.
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import string
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UI_DIR = ROOT / "app" / "logitscope" / "ui"
TRANSLATIONS = ROOT / "resources" / "translations"
LANGUAGE = "zh_CN"
TS = TRANSLATIONS / f"logitscope_{LANGUAGE}.ts"
QM = TRANSLATIONS / f"logitscope_{LANGUAGE}.qm"
PACKAGE = ROOT / "app" / "logitscope"
# every Qt-free package whose messages can reach the window (grammars: the ready grammars' names); the
# CLI and the benchmarks print to a terminal, in English
LOWER_LAYERS = ("base", "gguf", "system", "protocol", "sampling", "engine", "host", "library", "store", "session",
                "diagnosis", "grammars")
CATALOG = UI_DIR / "common" / "message_catalog.py"
CATALOG_PART = 500   # templates per generated module (modules stay under 600 lines): message_catalog_1.py, ...
MESSAGE_CONTEXT = "messages"


def tool(name: str) -> str:
    """pyside6-lupdate / pyside6-lrelease: next to this Python (the venv), else on PATH."""
    for folder in (Path(sys.executable).parent, Path(sys.prefix) / "bin"):
        candidate = folder / name
        if candidate.exists():
            return str(candidate)
    found = shutil.which(name)
    if found is None:
        sys.exit(f"i18n: {name} not found (it comes with PySide6; run this with the venv's python)")
    return found


def sources() -> list[Path]:
    return sorted(p for p in UI_DIR.rglob("*.py") if "__pycache__" not in p.parts)


# --- the lower layers' messages -------------------------------------------------------------------

def lower_layer_sources() -> list[Path]:
    found = [p for layer in LOWER_LAYERS for p in (PACKAGE / layer).rglob("*.py") if "__pycache__" not in p.parts]
    return sorted(found)


def _error_classes(files: list[Path]) -> set[str]:
    """Names of LogitscopeError and every class derived from it (in base/errors.py or a lower layer)."""
    bases: dict[str, set[str]] = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    b.attr if isinstance(b, ast.Attribute) else b.id for b in node.bases
                    if isinstance(b, ast.Attribute | ast.Name))
    classes = {"LogitscopeError"}
    while True:
        more = {name for name, parents in bases.items() if parents & classes} - classes
        if not more:
            return classes
        classes |= more


def _callee(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def message_templates(files: list[Path] | None = None) -> list[str]:
    """Every literal template of `Message(...)` and of a LogitscopeError raised in the lower layers, sorted."""
    files = lower_layer_sources() if files is None else files
    makers = _error_classes(files) | {"Message"}
    found: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and _callee(node) in makers and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                    and re.search(r"[A-Za-z]{2}", node.args[0].value)):
                found.add(node.args[0].value)
    return sorted(found)


def _literal(text: str) -> str:
    quoted = repr(text)
    if quoted.startswith("'") and '"' not in text:
        quoted = '"' + quoted[1:-1].replace("\\'", "'") + '"'
    return quoted


def part_name(k: int) -> str:
    """The file name of the catalogue's k-th module (0: message_catalog.py, which the UI imports)."""
    return CATALOG.name if k == 0 else f"{CATALOG.stem}_{k}.py"


def catalog_sources(templates: list[str]) -> dict[str, str]:
    """The catalogue's modules by file name, CATALOG_PART templates each; the first one's TEMPLATES holds all."""
    parts = [templates[i:i + CATALOG_PART] for i in range(0, len(templates), CATALOG_PART)] or [[]]
    sources = {}
    for k, part in enumerate(parts):
        lines = ['"""Generated by `scripts/i18n.py catalog`: the message templates of the engine, host, library and '
                 'store', "(see logitscope/base/messages.py), for lupdate. Do not edit; run `scripts/i18n.py update`.",
                 '"""', "", "from PySide6.QtCore import QT_TRANSLATE_NOOP", ""]
        rest = [f"from logitscope.ui.common.{part_name(j)[:-3]} import PART as PART_{j}" for j in range(1, len(parts))]
        lines += [*rest, ""] if k == 0 and rest else []
        lines += ["PART: tuple[str, ...] = (  # type: ignore[assignment]  # it returns its message; typed as object"]
        lines += [f"    QT_TRANSLATE_NOOP({MESSAGE_CONTEXT!r}, {_literal(t)}),".replace("'messages'", '"messages"')
                  for t in part]
        lines += [")", ""]
        if k == 0:
            lines += ["TEMPLATES: tuple[str, ...] = PART" + "".join(f" + PART_{j}" for j in range(1, len(parts))), ""]
        sources[part_name(k)] = "\n".join(lines)
    return sources


def catalog(folder: Path = CATALOG.parent) -> list[Path]:
    """Write the catalogue of the lower layers' message templates (modules of the UI, read by lupdate) into
    `folder`, removing parts it no longer needs; their paths."""
    written = []
    for name, text in catalog_sources(message_templates()).items():
        target = folder / name
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
        written.append(target)
    for stale in set(folder.glob(f"{CATALOG.stem}_*.py")) - set(written):
        stale.unlink()
    return written


def is_catalog(path: Path) -> bool:
    return path.name == CATALOG.name or re.fullmatch(rf"{CATALOG.stem}_\d+\.py", path.name) is not None


def _run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"i18n: {Path(cmd[0]).name} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")


def update(ts: Path = TS) -> Path:
    """Extract the strings of every UI source into `ts`, keeping its translations, dropping vanished ones."""
    ts.parent.mkdir(parents=True, exist_ok=True)
    # the committed .ts takes the catalogue of the UI folder (rewritten); a copy elsewhere (check, tests) one
    # made next to it from the current sources, so that checking never writes into the sources
    catalogue = catalog() if ts == TS else catalog(ts.parent)
    files = [p for p in sources() if not is_catalog(p)] + catalogue
    _run([tool("pyside6-lupdate"), "-silent", "-no-obsolete", "-locations", "absolute",
          "-target-language", LANGUAGE, *map(str, files), "-ts", str(ts)])
    return ts


def build(ts: Path = TS, qm: Path = QM) -> Path:
    """Compile `ts` into `qm` (entries still unfinished fall back to English)."""
    qm.parent.mkdir(parents=True, exist_ok=True)
    _run([tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)])
    return qm


# --- checking ---------------------------------------------------------------------------------------

QT_ARG = re.compile(r"%(?:\d+|[a-zA-Z])")                 # %1, %n, QProgressBar's %v / %m / %p
ACCEL = re.compile(r"(?<!&)&([A-Za-z0-9])")               # "&File", not "&&" nor an entity
TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?/?>")


def placeholders(text: str) -> Counter:
    """The str.format fields (name, conversion and spec, exactly) and Qt %-arguments of `text`."""
    found: Counter = Counter()
    literal_parts = []
    for literal, field, spec, conversion in string.Formatter().parse(text):
        literal_parts.append(literal)
        if field is not None:
            found[f"{{{field}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"] += 1
    for literal in literal_parts:
        found.update(QT_ARG.findall(literal))
    return found


def accelerators(text: str) -> list[str]:
    return [c.upper() for c in ACCEL.findall(text)]


def tags(text: str) -> Counter:
    return Counter(t.lower() for t in TAG.findall(text))


@dataclass(frozen=True)
class Problem:
    context: str
    source: str
    what: str

    def __str__(self) -> str:
        return f"[{self.context}] {self.source!r}: {self.what}"


def _text(element: ET.Element | None) -> str:
    return "" if element is None or element.text is None else element.text


def _reporter(out: list[Problem], context: str, source: str):
    return lambda what: out.append(Problem(context, source, what))


def problems(ts: Path = TS, known: Path | None = None) -> list[Problem]:
    """Every entry of `ts` that is unfinished, empty, or whose placeholders, HTML tags or accelerator
    differ from its source. With `known` (the committed .ts), entries absent from it are reported as
    'not in <known> yet'."""
    root = ET.parse(ts).getroot()
    known_keys: set[tuple[str, str]] | None = None
    if known is not None:
        known_keys = {(_text(c.find("name")), _text(m.find("source")))
                      for c in ET.parse(known).getroot().iter("context") for m in c.iter("message")}
    out: list[Problem] = []
    for context in root.iter("context"):
        name = _text(context.find("name"))
        for message in context.iter("message"):
            source = _text(message.find("source"))
            translation = message.find("translation")
            text = _text(translation)
            kind = translation.get("type") if translation is not None else "missing"

            report = _reporter(out, name, source)
            if known_keys is not None and (name, source) not in known_keys:
                report(f"not in {known.name} yet (run `scripts/i18n.py update` and translate it)")
                continue
            if kind in ("obsolete", "vanished"):
                report(f"{kind} (run `scripts/i18n.py update`)")
                continue
            if message.get("numerus") == "yes":
                forms = [_text(f) for f in translation.iter("numerusform")] if translation is not None else []
                texts = forms
            else:
                texts = [text]
            if not any(t.strip() for t in texts):
                report("no translation")
                continue
            if kind == "unfinished":
                report("unfinished (remove type=\"unfinished\" once translated)")
            for t in texts:
                try:
                    want, got = placeholders(source), placeholders(t)
                except ValueError as exc:
                    report(f"bad braces in {t!r}: {exc}")
                    continue
                if want != got:
                    report(f"placeholders differ: source {sorted(want.elements())}, "
                           f"translation {sorted(got.elements())} in {t!r}")
                if tags(source) != tags(t):
                    report(f"HTML tags differ in {t!r}")
                if accelerators(source) != accelerators(t):
                    report(f"accelerator differs: source {accelerators(source)}, translation "
                           f"{accelerators(t)} in {t!r} (write e.g. 文件(&F))")
    return out


def check(ts: Path = TS) -> list[Problem]:
    """Problems of `ts` as the current sources would extract it (a temporary copy is updated)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / ts.name
        shutil.copyfile(ts, copy)
        update(copy)
        return problems(copy, known=ts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("catalog", "update", "build", "check"))
    args = parser.parse_args(argv)
    if args.command == "catalog":
        print(f"{', '.join(str(p.relative_to(ROOT)) for p in catalog())}: {len(message_templates())} message templates")
    elif args.command == "update":
        update()
        found = problems(TS)
        print(f"{TS.relative_to(ROOT)}: {len(found)} entr{'y' if len(found) == 1 else 'ies'} to translate")
    elif args.command == "build":
        build()
    else:
        found = check()
        for problem in found:
            print(problem)
        total = sum(1 for _ in ET.parse(TS).getroot().iter("message"))
        print(f"{TS.relative_to(ROOT)}: {total} strings, {len(found)} problem(s)", file=sys.stderr)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
