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
# ("messages" is the lower layers' templates, looked up by that name in ui/common/messages.py)
KNOWN_NON_CLASS_CONTEXTS: set[str] = {"messages"}


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


@pytest.mark.model
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
    listed = w.sidebar.conversation_list
    assert [listed.item(row).text() for row in range(listed.count())] == [
        zh[("ConversationSidebar", "New chat")]]   # the new chat's placeholder title ("New chat" before)
    english = [(kind, text) for kind, text in _visible_texts(w)
               if ENGLISH.search(re.sub(r"<[^>]+>|Logitscope|llama\.cpp|GGUF|tok/s|token", "", text))
               and not CJK.search(text)]
    assert not english, f"still in English (not wrapped in tr()?): {english}"


@pytest.mark.model
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



@pytest.mark.model
def test_chinese_dock_tabs_read_in_full_at_1280x720(qtbot, chinese_window, fresh_ts):
    from tests.helpers.window import cut_tabs

    zh = _translations(fresh_ts)
    w = chinese_window
    w.resize(1280, 720)
    qtbot.wait(50)
    w.reset_layout()
    qtbot.wait(100)
    assert not cut_tabs(w)
    # the full names in the View menu, as in English
    assert w.docks["waterfall"].toggleViewAction().text() == zh[("MainWindow", "Sampler waterfall")]


# --- the lower layers' messages (engine, host, library, store: no Qt there) ---------------------------

def test_lower_layer_messages_are_literal_templates():
    """A message built with an f-string cannot be collected into the catalogue, so it would stay English:
    write `SomeError("... {name} ...", name=value)` or `Message(...)` (logitscope/base/messages.py) instead."""
    import ast

    files = i18n.lower_layer_sources()
    makers = i18n._error_classes(files) | {"Message", "fail"}   # fail: gguf/header.py's reader, its "what" part
    built: list[str] = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and i18n._callee(node) in makers and node.args and isinstance(
                    node.args[0], ast.JoinedStr | ast.BinOp):
                built.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if (isinstance(node, ast.Call) and i18n._callee(node) == "append" and node.args
                    and isinstance(node.args[0], ast.JoinedStr)
                    and ast.unparse(node.func).endswith(("notices.append", "problems.append"))):
                built.append(f"{path.relative_to(ROOT)}:{node.lineno} (a notice)")
    assert not built, f"user-facing messages built as f-strings (not translatable): {built}"


def test_the_message_catalogue_is_current():
    templates = i18n.message_templates()
    assert len(templates) > 200 and "model load cancelled" in templates and "Balanced" in templates
    parts = i18n.catalog_sources(templates)
    assert {p.name for p in i18n.CATALOG.parent.iterdir() if i18n.is_catalog(p)} == set(parts)
    assert all((i18n.CATALOG.parent / name).read_text(encoding="utf-8") == text for name, text in parts.items()), \
        "run `.venv/bin/python scripts/i18n.py update` and translate the new entries"


def test_every_lower_layer_template_is_translated():
    zh = _translations(i18n.TS)
    untranslated = [t for t in i18n.message_templates()
                    if not CJK.search(zh.get((i18n.MESSAGE_CONTEXT, t), ""))
                    and re.search(r"[a-z]{3}", re.sub(r"\{[^}]*\}", "", t))]  # words of its own to translate
    assert not untranslated, (f"{len(untranslated)} engine/library/store message(s) without a Chinese translation "
                              f"(`scripts/i18n.py update`, then translate them): {untranslated}")


def _sample(template: str):
    """`template` rendered with made-up parameters, as the lower layer would (numbers where a spec needs one)."""
    from logitscope.base.messages import Message, fields

    params = {name: (7 + k if spec else f"value{k}") for k, (name, spec, _c) in enumerate(fields(template))}
    return Message(template, **params)


def test_messages_are_translated_with_or_without_their_template(chinese):
    """Through a Qt signal, the history or the engine pipe a message may arrive as plain English: it is
    found by its wording. Every template with words of its own is translated both ways."""
    from logitscope.ui.common.messages import MIN_LETTERS_TO_MATCH, translate_message

    english = []
    for template in i18n.message_templates():
        if len(re.findall(r"[A-Za-z]", re.sub(r"\{[^}]*\}", "", template))) < MIN_LETTERS_TO_MATCH:
            continue
        message = _sample(template)
        for given in (message, str(message)):
            if not CJK.search(translate_message(given)):
                english.append((template, type(given).__name__))
    assert not english, f"not translated: {english}"
    crash = "the engine process crashed (SIGKILL: killed); its log ends with: llama_decode: failed"
    assert translate_message(crash) == "引擎进程崩溃了（SIGKILL: 被杀死）；其日志最后一行：llama_decode: failed"
    assert translate_message("Some text of the user: not a message") == "Some text of the user: not a message"


def test_english_messages_stay_exactly_the_same(qapp):
    from logitscope.ui.common.messages import translate_message

    for template in i18n.message_templates():
        message = _sample(template)
        assert translate_message(message) == message and translate_message(str(message)) == message


def test_a_message_shown_on_its_own_starts_as_a_sentence(qapp, chinese):
    """The lower layers write in lower case (after "error: ", inside another message); a box or a status line
    shows one on its own. Identifiers stay as they are; Chinese has no case."""
    from logitscope.base.errors import InvalidSettingsError
    from logitscope.base.messages import Message
    from logitscope.ui.common.messages import as_sentence, translate_sentence

    assert [as_sentence(t) for t in ("no token fits", "cancelled", "llama.cpp failed", "top-k must be >= 0",
                                     "n_ctx too small", "", "2 tokens", "a\nb")] == \
           ["No token fits", "Cancelled", "llama.cpp failed", "top-k must be >= 0", "n_ctx too small", "", "2 tokens",
            "A\nB"]
    chinese_text = translate_sentence(InvalidSettingsError(Message("no token fits the grammar here: generation stopped")))
    assert chinese_text and not chinese_text[0].isascii()


def test_qt_own_dialogs_are_in_chinese(chinese):
    from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QMessageBox, QPushButton

    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    assert buttons.button(QDialogButtonBox.StandardButton.Ok).text() == "确定"
    assert buttons.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"
    box = QMessageBox(QMessageBox.Icon.Question, "t", "m", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    assert box.button(QMessageBox.StandardButton.Yes).text().startswith("是")
    files = QFileDialog(None, "t")
    files.setOption(QFileDialog.Option.DontUseNativeDialog)  # Qt's own widgets, as on a desktop without a portal
    assert {"打开(&O)", "取消"} <= {b.text() for b in files.findChildren(QPushButton)}


def test_preset_names_are_shown_in_chinese_and_stored_in_english(chinese, qtbot, isolated_home):
    from logitscope.store.settings import SettingsStore
    from logitscope.ui.dialogs.settings import SettingsDialog
    from logitscope.ui.inspector.sampler_controls import SamplerPanel

    panel = SamplerPanel()
    qtbot.addWidget(panel)
    shown = [panel.presets.itemText(i) for i in range(panel.presets.count())]
    assert shown[:4] == ["贪心", "精确", "均衡", "创意"] and panel.presets.currentText() == "均衡"
    assert shown[4:7] == ["创意写作（min-p + DRY）", "XTC 创意", "JSON"]   # the recipe presets
    ready = [panel.constraint.mode.itemText(i) for i in range(panel.constraint.mode.count())]
    assert "JSON 对象" in ready and "是或否" in ready and "自定义语法（GBNF）" in ready
    assert panel.sections["xtc"].header.text() == "XTC：排除首选"
    panel.select_preset("Greedy")
    assert panel.settings().temperature == 0 and panel.presets.currentData() == "Greedy"
    store = SettingsStore()
    dialog = SettingsDialog(store)
    qtbot.addWidget(dialog)
    dialog.preset.setCurrentIndex(dialog.preset.findText("创意"))
    assert dialog.values()["sampler_preset"] == "Creative"


@pytest.fixture
def chinese_loaded_window(chinese, real_window):
    """The window over the demo model, built after the Chinese translation was installed."""
    return real_window


def test_a_damaged_or_invalid_file_is_reported_in_chinese(chinese_loaded_window, tmp_path, demo_model):
    from tests.helpers import gguf_corpus

    w = chinese_loaded_window
    damaged = gguf_corpus.with_metadata_patched(demo_model, tmp_path / "no-kv-heads.gguf", "llama.attention.head_count_kv", 0)
    assert not w.open_model(str(damaged), ask=False)
    assert w.last_error[1] == ("no-kv-heads.gguf 已损坏，无法加载：llama.attention.head_count_kv 为 0："
                               "llama 模型至少需要一个 KV 头")
    bad = tmp_path / "bad.gguf"
    bad.write_text("not a model")
    assert not w.open_model(str(bad), ask=False)
    assert w.last_error[1] == "bad.gguf 不是 GGUF 文件（它不以 'GGUF' 开头）"


def test_the_fit_verdict_is_in_chinese(chinese_loaded_window, qtbot, demo_model):
    from logitscope.gguf.card import read_model_card
    from logitscope.ui.dialogs.load_model import LoadModelDialog

    dialog = LoadModelDialog(read_model_card(demo_model), gpu_offload=False, backend="CPU")
    qtbot.addWidget(dialog)
    verdict = dialog.estimate.text().splitlines()[0]   # the need and its parts, said once
    assert re.match(r"(放得下|勉强|放不下|未知)：需要 .+（权重 .+ KV 缓存 .+）", verdict), verdict
    assert "needs" not in verdict and "RAM" not in verdict


def test_an_engine_crash_is_reported_in_chinese_in_the_dialog_and_the_answer(chinese_loaded_window, qtbot):
    import os
    import signal

    from tests.helpers.window import GEN_TIMEOUT_MS

    w = chinese_loaded_window
    w.sampler.max_tokens.setValue(3000)
    w.send("Write a very long story.")
    qtbot.waitUntil(lambda: len(w.current.turns[-1].answer.steps) >= 3, timeout=GEN_TIMEOUT_MS)
    with qtbot.waitSignal(w.bridge.engineCrashed, timeout=10_000):
        os.kill(w.bridge.client.pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: w.streaming is None, timeout=5_000)
    assert w.last_error[1].startswith("引擎进程崩溃了（SIGKILL: 被杀死）")
    footer = w.chat.answers[-1].status.text()
    assert "引擎进程崩溃了（SIGKILL: 被杀死）" in footer and "crashed" not in footer, footer


@pytest.mark.model
def test_no_two_menu_entries_share_an_alt_letter_in_english_or_chinese(bare_window, chinese_window):
    """Alt+letter picks one entry: the Model menu had C for Connect and Causal tracing, T for Throughput and
    Compare two models, S for Score and Compare steering; File's Export and Import conversations had none."""
    from tests.helpers.menus import shared_alt_letters, without_alt_letter

    for window in (bare_window, chinese_window):
        assert not shared_alt_letters(window.menuBar())
        assert not without_alt_letter(window.menuBar())


@pytest.mark.model
def test_the_sample_questions_to_the_model_stay_in_english(chinese_window):
    """Beam search's sample question was translated: the demo model answered the Chinese one with byte tokens."""
    from logitscope.ui.beams.view import SAMPLE_QUESTION

    assert chinese_window.beams_dialog.question.text() == SAMPLE_QUESTION == "What is the capital of France?"


def test_sentences_are_joined_as_each_language_writes_them():
    from logitscope.ui.common.messages import sentences

    assert sentences("Done in 2 s.", "Throughput grew.") == "Done in 2 s. Throughput grew."
    assert sentences("用时 2 秒。", "吞吐量仍在增长。") == "用时 2 秒。吞吐量仍在增长。"   # no space after "。"
    assert sentences("", "Alone.") == "Alone." and sentences("A:", "") == "A:"


def test_qts_own_file_dialog_reads_in_chinese(qtbot, chinese):
    """Qt's Chinese catalogue has "Look in:" where Qt 6 asks for "&Look in:": the dialog said it in English."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QFileDialog

    dialog = QFileDialog(None, "", str(ROOT), "JSON (*.json)")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(dialog)
    labels = [dialog.labelText(label) for label in QFileDialog.DialogLabel]
    assert all(CJK.search(text) and not ENGLISH.search(text) for text in labels), labels
    assert QCoreApplication.translate("QFileDialog", "Detail View") == "详情视图"   # the rest still Qt's own
