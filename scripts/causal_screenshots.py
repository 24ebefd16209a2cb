"""Screenshots of the Causal tracing dialog: `.venv/bin/python scripts/causal_screenshots.py [en|zh_CN] [OUT_DIR]`.

The real window over the real engine and the demo model in a throw-away data folder: "The capital of France is"
answered greedily, its first step shown in the Layers dock, then the dialog's three tabs (Knock out 23.4, the
head scan, the patch heatmap France -> Italy) in light and dark: causal-TAB-THEME-LANG.png (default folder
/tmp/causal). Under X (DISPLAY set, e.g. Xvfb) the screen is grabbed as shown; offscreen, widgets render
themselves.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "xcb" if os.environ.get("DISPLAY") else "offscreen")
os.environ["LOGITSCOPE_HOME"] = tempfile.mkdtemp(prefix="logitscope-shots-")

QUESTION = {"en": "Complete: The capital of France is", "zh": "补全：The capital of France is"}


def main() -> int:
    from PySide6.QtCore import QSettings
    from shot_wait import wait

    from logitscope.library.demo import fetch_demo
    from logitscope.protocol.api import LoadSettings
    from logitscope.protocol.sampler_settings import PRESETS
    from logitscope.ui.app import create_app, install_translator
    from logitscope.ui.main_window import MainWindow
    from logitscope.ui.window.theme import apply_theme

    language = sys.argv[1] if len(sys.argv) > 1 else "en"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/causal")
    out.mkdir(parents=True, exist_ok=True)
    lang = "zh" if language == "zh_CN" else "en"
    demo = fetch_demo(log=lambda _m: None)
    app = create_app([])
    install_translator(app, language)
    dark = apply_theme(app, "light")
    window = MainWindow(settings=QSettings(str(Path(os.environ["LOGITSCOPE_HOME"]) / "ui.ini"),
                                           QSettings.Format.IniFormat), dark=dark)
    window.resize(1280, 720)
    window.move(0, 0)
    window.show()

    def grab(widget, path: Path) -> None:  # noqa: ANN001
        wait(lambda: False, 0.8)
        if app.platformName() == "xcb":
            frame = widget.frameGeometry()
            app.primaryScreen().grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).save(str(path))
        else:
            widget.grab().save(str(path))
        print(path)

    window.open_model(str(demo), LoadSettings(n_ctx=2048), ask=False)
    wait(lambda: window.bridge.info is not None and not window.bridge.busy)
    window.sampler.set_settings(PRESETS["Greedy"])
    window.sampler.max_tokens.setValue(8)
    window.send(QUESTION[lang])
    wait(lambda: window.streaming is None and bool(window.current.turns[-1].answer.steps))
    window.docks["layers"].raise_()
    window.select_step(0, 0)
    wait(lambda: window.forward.last is not None)
    dialog = window.causal
    dialog.move(60, 20)
    dialog.open_on("23.4")
    wait(lambda: not dialog.running)
    dialog.tabs.setCurrentIndex(1)
    dialog.run_scan()
    wait(lambda: not dialog.running)
    dialog.tabs.setCurrentIndex(2)
    dialog.run_patch()
    wait(lambda: not dialog.running)
    dialog._patch_cell(10, 3)
    wait(lambda: not dialog.running)
    for theme in ("light", "dark"):
        window.chat.set_dark(apply_theme(app, theme))
        for index, name in enumerate(("knockout", "scan", "patch")):
            dialog.tabs.setCurrentIndex(index)
            dialog.raise_()
            grab(dialog, out / f"causal-{name}-{theme}-{lang}.png")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
