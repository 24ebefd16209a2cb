"""Screenshots of quantizing and comparing: `.venv/bin/python scripts/quantization_screenshots.py [en|zh_CN] [OUT_DIR]`.

Drives the real window (offscreen) over the real engine and a copy of the demo model in a throw-away data folder
(the Quantize dialog writes next to its source: nothing lands in the real models folder):
- Model ▸ Quantize… (Ctrl+Shift+Q) on the loaded copy, quantized to Q4_K_M for real, the sizes and bits per
  weight before and after shown: quantize-1280x720-light-LANG.png;
- Model ▸ Compare two models… (Ctrl+Shift+A) with the demo model as A and that Q4_K_M file as B (the same KV
  cache and flash attention as A: only the weights differ), one question answered greedily by both, then B reading
  A's tokens (per-token KL under A's text, the first differing token marked and clicked: its two
  distributions side by side): compare-chat-1280x720-light-LANG.png.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZE = (1280, 720)
MAX_TOKENS = 48
QUESTION = {"en": "What is the capital of France?", "zh": "法国的首都是哪里？"}


def main() -> int:
    from shot_wait import wait

    from logitscope.library.demo import fetch_demo

    demo = fetch_demo(log=lambda _m: None)   # the user's copy (found, or fetched once), before the data folder moves
    home = Path(tempfile.mkdtemp(prefix="logitscope-shots-"))
    os.environ["LOGITSCOPE_HOME"] = str(home)
    source = home / "models" / demo.name     # the copy the dialog quantizes: its output goes beside it
    source.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(demo, source)

    from PySide6.QtCore import QSettings

    from logitscope.protocol.api import LoadSettings
    from logitscope.protocol.sampler_settings import PRESETS
    from logitscope.ui.app import create_app, install_translator
    from logitscope.ui.main_window import MainWindow
    from logitscope.ui.window.theme import apply_theme

    language = sys.argv[1] if len(sys.argv) > 1 else "en"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    lang = "zh" if language == "zh_CN" else "en"
    app = create_app([])
    install_translator(app, language)
    dark = apply_theme(app, "light")
    window = MainWindow(settings=QSettings(str(home / "ui.ini"), QSettings.Format.IniFormat), dark=dark)
    window.resize(1400, 900)
    window.show()

    def action(shortcut: str):  # noqa: ANN202 - the Model menu's action with this shortcut (any language)
        return next(a for a in window.model_menu.actions() if a.shortcut().toString() == shortcut)

    window.open_model(str(source), LoadSettings(n_ctx=2048), ask=False)
    if not wait(lambda: window.bridge.info is not None and not window.bridge.busy):
        print("the demo model did not load", file=sys.stderr)
        return 1
    window.sampler.set_settings(PRESETS["Greedy"])
    window.sampler.max_tokens.setValue(MAX_TOKENS)

    # -- Model ▸ Quantize…: the loaded copy to Q4_K_M ---------------------------------------------------------
    action("Ctrl+Shift+Q").trigger()
    dialog = window.quantize_dialog
    dialog.resize(*SIZE)
    assert dialog.source.text() == str(source), dialog.source.text()
    dialog.select_type("Q4_K_M")
    assert Path(dialog.target.text()).parent == source.parent, dialog.target.text()
    if not dialog.start():
        print("the quantization did not start:", dialog.status.text(), file=sys.stderr)
        return 1
    wait(lambda: not dialog.running, 300.0)
    if dialog.quantized is None:
        print("the quantization failed:", dialog.status.text(), file=sys.stderr)
        return 1
    wait(lambda: False, 0.5)
    path = out / f"quantize-{SIZE[0]}x{SIZE[1]}-light-{lang}.png"
    dialog.grab().save(str(path))
    print(path, dialog.status.text().replace("\n", " | "))
    quantized = dialog.quantized.target
    dialog.close()

    # -- Model ▸ Compare two models…: A the demo model, B its Q4_K_M ------------------------------------------
    action("Ctrl+Shift+A").trigger()
    cw = window.compare
    cw.resize(*SIZE)
    cw.config.pick(quantized)
    cw.config.set_config(window.bridge.info.load.type_k, window.bridge.info.load.flash_attn)   # only the file differs
    shown: list[object] = []
    cw.kl_shown.connect(shown.append)
    cw.prompt.setPlainText(QUESTION[lang])
    if not cw.send():
        print("not sent:", cw.error.text(), file=sys.stderr)
        return 1
    wait(lambda: bool(shown) or (cw.error.isVisible() and not cw.answering and not cw.forced.running), 300.0)
    if not shown:
        print("no KL:", cw.error.text(), cw.status.text(), file=sys.stderr)
        return 1
    first = cw.column_a.view.first_divergence   # its distributions, A's beside B's reading A's tokens
    if first is not None and first >= 0:
        cw.column_a.view.tokenClicked.emit(first)
    wait(lambda: False, 0.5)
    path = out / f"compare-chat-{SIZE[0]}x{SIZE[1]}-light-{lang}.png"
    cw.grab().save(str(path))
    print(path, cw.summary_label.text())
    cw.close()
    window.close()
    shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
