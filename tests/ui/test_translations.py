"""The Simplified Chinese interface: every UI string translated, the window really shown in Chinese.

Adding a `self.tr("...")` string without translating it fails here: run
`.venv/bin/python scripts/i18n.py update`, translate the new entries of
resources/translations/logitscope_zh_CN.ts, then `scripts/i18n.py check`.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff]")
ENGLISH = re.compile(r"[A-Za-z]{3,}")
# contexts that are not classes: a module-level `window.tr(...)` is looked up under the object's class
# ("MainWindow") at run time, so lupdate's context for it never matches and the string stays English
KNOWN_NON_CLASS_CONTEXTS: set[str] = set()


def _load_i18n():
    name = "logitscope_i18n_script"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "i18n.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


i18n = _load_i18n()


@pytest.fixture(scope="module")
def fresh_ts(tmp_path_factory) -> Path:
    """A temporary copy of the committed .ts, re-extracted from the current sources."""
    ts = tmp_path_factory.mktemp("i18n") / i18n.TS.name
    shutil.copyfile(i18n.TS, ts)
    return i18n.update(ts)


def _translations(ts: Path) -> dict[tuple[str, str], str]:
    return {(c.findtext("name"), m.findtext("source")): m.findtext("translation") or ""
            for c in ET.parse(ts).getroot().iter("context") for m in c.iter("message")}


def test_every_ui_string_is_translated(fresh_ts):
    found = i18n.problems(fresh_ts, known=i18n.TS)
    assert not found, (f"{len(found)} interface string(s) not (correctly) translated; run "
                       "`.venv/bin/python scripts/i18n.py update`, translate them in "
                       f"{i18n.TS.relative_to(ROOT)}, then `scripts/i18n.py check`:\n"
                       + "\n".join(map(str, found)))
    assert len(_translations(fresh_ts)) > 200


def test_the_checker_catches_bad_translations(tmp_path):
    ts = tmp_path / "bad.ts"
    ts.write_text("""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context><name>C</name>
<message><source>&amp;File</source><translation>文件</translation></message>
<message><source>Step {0}: {1:.1%}</source><translation>第 {0} 步：{1:.2%}</translation></message>
<message><source>&lt;b&gt;Model&lt;/b&gt;</source><translation>模型</translation></message>
<message><source>context: %v of %m</source><translation>上下文：%v</translation></message>
<message><source>New</source><translation type="unfinished"></translation></message>
<message><source>Open</source><translation type="unfinished">打开</translation></message>
<message><source>Fine {0}</source><translation>很好 {0}</translation></message>
</context>
</TS>
""", encoding="utf-8")
    found = {p.source: p.what for p in i18n.problems(ts)}
    assert set(found) == {"&File", "Step {0}: {1:.1%}", "<b>Model</b>", "context: %v of %m", "New", "Open"}
    assert "accelerator" in found["&File"] and "no translation" in found["New"] and "unfinished" in found["Open"]


def test_every_context_is_a_class(fresh_ts):
    """PySide's tr() looks strings up under the class names of the object: other contexts never match."""
    classes = set()
    for source in i18n.sources():
        classes.update(re.findall(r"^\s*class\s+(\w+)", source.read_text(encoding="utf-8"), re.M))
    contexts = {context for context, _source in _translations(fresh_ts)}
    assert not contexts - classes - KNOWN_NON_CLASS_CONTEXTS


@pytest.fixture
def chinese(qapp, tmp_path, fresh_ts, monkeypatch):
    """The app with the freshly built Chinese translation installed (by the app's own install_translator);
    removed afterwards so that the other tests stay in English."""
    from logitscope.ui import app as app_module

    resources = tmp_path / "resources"
    i18n.build(fresh_ts, resources / "translations" / i18n.QM.name)
    monkeypatch.setattr(app_module, "resources_dir", lambda: resources)
    assert app_module.install_translator(qapp, "zh_CN") == "zh_CN"
    try:
        yield qapp
    finally:
        for translator in getattr(qapp, "_translators", []):
            qapp.removeTranslator(translator)
        qapp._translators = []


@pytest.fixture
def chinese_window(qtbot, tmp_path, chinese, isolated_home):
    from PySide6.QtCore import QSettings

    from logitscope.ui.app import apply_theme
    from logitscope.ui.main_window import MainWindow

    dark = apply_theme(chinese, "light")
    settings = QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, dark=dark)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def _visible_texts(window) -> list[tuple[str, str]]:
    from PySide6.QtWidgets import QAbstractButton, QDockWidget, QLabel, QLineEdit

    texts: list[tuple[str, str]] = []

    def walk(menu) -> None:
        for action in menu.actions():
            if action.isSeparator():
                continue
            texts.append(("menu", action.text()))
            if action.menu() is not None:
                walk(action.menu())

    walk(window.menuBar())
    texts += [("dock", d.windowTitle()) for d in window.findChildren(QDockWidget)]
    texts += [("button", b.text()) for b in window.findChildren(QAbstractButton)]
    texts += [("tooltip", b.toolTip()) for b in window.findChildren(QAbstractButton)]
    texts += [("label", label.text()) for label in window.findChildren(QLabel)]
    texts += [("placeholder", e.placeholderText()) for e in window.findChildren(QLineEdit)]
    return [(kind, text) for kind, text in texts if text]


def test_window_is_in_chinese(chinese_window, fresh_ts):
    from PySide6.QtWidgets import QDockWidget

    zh = _translations(fresh_ts)
    w = chinese_window
    menus = [a.text() for a in w.menuBar().actions()]
    assert menus[0] == zh[("MainWindow", "&File")] == "文件(&F)"
    assert zh[("MainWindow", "&Help")] in menus and "&File" not in menus
    docks = {d.windowTitle() for d in w.findChildren(QDockWidget)}
    assert zh[("MainWindow", "Sampler controls")] in docks and "Sampler controls" not in docks
    assert zh[("MainWindow", "Next-token distribution")] in docks
    assert w.send_button.text() == zh[("MainWindow", "Send")] and CJK.search(w.send_button.text())
    english = [(kind, text) for kind, text in _visible_texts(w)
               if ENGLISH.search(re.sub(r"<[^>]+>|Logitscope|llama\.cpp|GGUF|tok/s|token", "", text))
               and not CJK.search(text)]
    assert not english, f"still in English (not wrapped in tr()?): {english}"


def test_chinese_screenshot(chinese_window, tmp_path):
    from PySide6.QtGui import QFontDatabase, QImage

    assert QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese), \
        "no Chinese font: install fonts-noto-cjk (scripts/setup.sh does, as root)"
    path = tmp_path / "window-zh_CN.png"
    assert chinese_window.grab().save(str(path), "PNG")
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
    image = QImage(str(path))
    assert not image.isNull() and image.width() >= 1000 and image.height() >= 600
