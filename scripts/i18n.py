"""The interface translations (Simplified Chinese): extract, build, check.

Run it with the virtual environment's Python:

    .venv/bin/python scripts/i18n.py update   # re-extract the strings of app/logitscope/ui into the .ts
    .venv/bin/python scripts/i18n.py build    # compile the .ts into the .qm the app loads (a build output)
    .venv/bin/python scripts/i18n.py check    # exit 1 listing every string not (correctly) translated

`update` keeps the existing translations and drops strings that left the sources; translate the new
(unfinished) entries in resources/translations/logitscope_zh_CN.ts, then run `check`. `check` looks at
the current sources, not only at the .ts: a string added to the interface but not extracted and
translated yet is reported too.
"""

from __future__ import annotations

import argparse
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


def _run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"i18n: {Path(cmd[0]).name} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")


def update(ts: Path = TS) -> Path:
    """Extract the strings of every UI source into `ts`, keeping its translations, dropping vanished ones."""
    ts.parent.mkdir(parents=True, exist_ok=True)
    _run([tool("pyside6-lupdate"), "-silent", "-no-obsolete", "-locations", "absolute",
          "-target-language", LANGUAGE, *map(str, sources()), "-ts", str(ts)])
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
    parser.add_argument("command", choices=("update", "build", "check"))
    args = parser.parse_args(argv)
    if args.command == "update":
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
