"""Screenshots of the whole window at 1280x720 and 1920x1080, light and dark, for one language:
`.venv/bin/python scripts/window_screenshots.py [en|zh_CN] [OUT_DIR]` (run once per language: the
interface language is chosen when the app starts).

Drives the real window (offscreen) over the real engine and the demo model in a throw-away data folder:
one answer with the heatmap on and a step selected, then for each size the default layout (Reset layout)
in both themes, switched live. Saves window-WxH-THEME-LANG.png (default folder: docs/screenshots/).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["LOGITSCOPE_HOME"] = tempfile.mkdtemp(prefix="logitscope-shots-")

SIZES = ((1280, 720), (1920, 1080))
THEMES = ("light", "dark")


def main() -> int:
    from PySide6.QtCore import QSettings
    from shot_wait import wait

    from logitscope.library.demo import fetch_demo
    from logitscope.protocol.api import LoadSettings
    from logitscope.protocol.sampler_settings import SamplerSettings
    from logitscope.ui.app import create_app, install_translator
    from logitscope.ui.main_window import MainWindow
    from logitscope.ui.window.theme import apply_theme

    language = sys.argv[1] if len(sys.argv) > 1 else "en"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    demo = fetch_demo(log=lambda _m: None)
    app = create_app([])
    language = install_translator(app, language)
    dark = apply_theme(app, "light")
    window = MainWindow(settings=QSettings(str(Path(os.environ["LOGITSCOPE_HOME"]) / "ui.ini"),
                                           QSettings.Format.IniFormat), dark=dark)
    window.resize(*SIZES[0])
    window.show()

    window.open_model(str(demo), LoadSettings(n_ctx=2048, n_threads=1), ask=False)
    wait(lambda: window.bridge.info is not None and not window.bridge.busy)
    window.sampler.set_settings(SamplerSettings(temperature=0.7, top_k=40, top_p=0.9, min_p=0.05, seed=7))
    window.sampler.max_tokens.setValue(60)
    window.send("用一句话介绍大海。" if language == "zh_CN" else "Write a short poem about the sea.")
    wait(lambda: window.streaming is None and bool(window.current.turns[-1].answer.steps))
    window.window_actions.heatmap.setChecked(True)
    window.toggle_heatmap()
    window.select_step(0, 4)
    for width, height in SIZES:
        window.resize(width, height)
        wait(lambda: False, 0.3)
        window.reset_layout()
        for theme in THEMES:
            window.chat.set_dark(apply_theme(app, theme))
            wait(lambda: False, 0.5)
            path = out / f"window-{width}x{height}-{theme}-{'zh' if language == 'zh_CN' else 'en'}.png"
            window.grab().save(str(path))
            print(path)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
