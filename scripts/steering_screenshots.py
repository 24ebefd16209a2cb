"""Screenshots of the Steering dock: `.venv/bin/python scripts/steering_screenshots.py [en|zh_CN] [OUT_DIR]`
(run once per language: the interface language is chosen when the app starts).

Drives the real window over the real engine and the demo model in a throw-away data folder: a control vector
built in the dock's Build… dialog from four honest pairs (happy − sad), loaded at a scale that changes the
answer, steering on, one steered answer; then the Steering dock in front at 1280x720 and 1920x1080, light and
dark: steering-WxH-THEME-LANG.png, the Build dialog: steering-build-LANG.png, and the Compare view of that answer
(its distributions, then its logit lens): steering-compare[-lens]-THEME-LANG.png (default folder /tmp/steering).
Under X (DISPLAY set, e.g. Xvfb) the screen itself is grabbed, as it is shown; offscreen, the window renders
itself.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "xcb" if os.environ.get("DISPLAY") else "offscreen")
os.environ["LOGITSCOPE_HOME"] = tempfile.mkdtemp(prefix="logitscope-shots-")

SIZES = ((1280, 720), (1920, 1080))
THEMES = ("light", "dark")
POSITIVE = ("I am so happy today, everything is wonderful!\nWhat a joyful, sunny morning.\n"
            "I love my friends and they make me smile.\nThis is the best news I have ever heard!")
NEGATIVE = ("I am so sad today, everything is awful.\nWhat a gloomy, miserable morning.\n"
            "I miss my friends and I feel so alone.\nThis is the worst news I have ever heard.")
SCALE = 8.0
QUESTION = {"en": "How was your weekend?", "zh": "你的周末过得怎么样？"}


def main() -> int:
    from PySide6.QtCore import QSettings
    from shot_wait import wait

    from logitscope.library.demo import fetch_demo
    from logitscope.protocol.api import LoadSettings
    from logitscope.protocol.sampler_settings import PRESETS
    from logitscope.ui.app import create_app, install_translator
    from logitscope.ui.main_window import MainWindow
    from logitscope.ui.steering.model import absolute
    from logitscope.ui.window.theme import apply_theme

    language = sys.argv[1] if len(sys.argv) > 1 else "en"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/steering")
    out.mkdir(parents=True, exist_ok=True)
    lang = "zh" if language == "zh_CN" else "en"
    demo = fetch_demo(log=lambda _m: None)
    app = create_app([])
    install_translator(app, language)
    dark = apply_theme(app, "light")
    window = MainWindow(settings=QSettings(str(Path(os.environ["LOGITSCOPE_HOME"]) / "ui.ini"),
                                           QSettings.Format.IniFormat), dark=dark)
    window.resize(*SIZES[0])
    window.move(0, 0)
    window.show()

    def grab(widget, path: Path) -> None:  # noqa: ANN001
        wait(lambda: False, 0.8)
        if app.platformName() == "xcb":   # what the X server shows (the screen's pixels, not a re-render)
            frame = widget.frameGeometry()
            app.primaryScreen().grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).save(str(path))
        else:
            widget.grab().save(str(path))
        print(path)

    window.open_model(str(demo), LoadSettings(n_ctx=2048), ask=False)
    wait(lambda: window.bridge.info is not None and not window.bridge.busy)
    window.sampler.set_settings(PRESETS["Greedy"])
    window.sampler.max_tokens.setValue(60)

    dialog = window.steering.open_build()
    dialog.move(120, 60)
    dialog.positive.text.setPlainText(POSITIVE)
    dialog.negative.text.setPlainText(NEGATIVE)
    vector = Path(os.environ["LOGITSCOPE_HOME"]) / "steering" / "happy.gguf"
    dialog.output.setText(str(vector))
    built: list[str] = []
    dialog.built.connect(built.append)
    dialog.build_button.click()
    wait(lambda: bool(built))
    grab(dialog, out / f"steering-build-{lang}.png")
    dialog.close()

    window.steering.panel.rows[absolute(vector)].scale.set_value(SCALE)
    window.steering.panel.first_layer.setValue(8)
    window.steering.panel.last_layer.setValue(20)
    window.steering.panel.set_on(True)
    window.send(QUESTION[lang])
    wait(lambda: window.streaming is None and bool(window.current.turns[-1].answer.steps))
    for width, height in SIZES:
        window.resize(width, height)
        wait(lambda: False, 0.3)
        window.reset_layout()
        window.docks["steering"].show()
        window.docks["steering"].raise_()
        for theme in THEMES:
            window.chat.set_dark(apply_theme(app, theme))
            grab(window, out / f"steering-{width}x{height}-{theme}-{lang}.png")
    window.resize(*SIZES[0])
    compare = window.steering_compare
    compare.move(40, 20)
    compare.open_for_selected()
    wait(lambda: not compare.running)
    wait(lambda: compare.lens is not None)
    for theme in THEMES:
        window.chat.set_dark(apply_theme(app, theme))
        compare.tabs.setCurrentIndex(0)
        grab(compare, out / f"steering-compare-{theme}-{lang}.png")
        compare.tabs.setCurrentIndex(1)
        grab(compare, out / f"steering-compare-lens-{theme}-{lang}.png")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
