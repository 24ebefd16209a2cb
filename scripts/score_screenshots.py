"""Screenshots of the Score dialog: `.venv/bin/python scripts/score_screenshots.py [en|zh_CN] [OUT_DIR] [kl]`.

Drives the real window (offscreen) over the real engine and the demo model in a throw-away data folder: a
paragraph scored in Model ▸ Score a text…, the dialog grabbed at 1280x720: score-1280x720-light-LANG.png. With
`kl`, the demo model quantized to Q4_0 (the Quantize dialog's engine code) and compared with it by KL divergence on
tests/data/score/lighthouse.txt in chunks of 256, as the Quantize dialog's "Compare with the original" does:
score-kl-1280x720-light-LANG.png.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["LOGITSCOPE_HOME"] = tempfile.mkdtemp(prefix="logitscope-shots-")

SIZE = (1280, 720)
PARAGRAPH = {
    "en": ("The Moon is Earth's only natural satellite. It orbits at an average distance of about 384,400 "
           "kilometres and always shows the same face to us, because its rotation is locked to its orbit. Its "
           "gravity raises the tides in the oceans. Twelve astronauts walked on its surface between 1969 and 1972, "
           "and they brought back samples of rock that tell how old it is: about 4.5 billion years."),
    "zh": "月球是地球唯一的天然卫星。它与地球的平均距离约为 384,400 公里，并且总是以同一面朝向我们。",
}


def main() -> int:
    from PySide6.QtCore import QSettings
    from shot_wait import wait

    from logitscope.library.demo import fetch_demo
    from logitscope.protocol.api import LoadSettings
    from logitscope.ui.app import create_app, install_translator
    from logitscope.ui.main_window import MainWindow
    from logitscope.ui.window.theme import apply_theme

    language = sys.argv[1] if len(sys.argv) > 1 else "en"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    lang = "zh" if language == "zh_CN" else "en"
    demo = fetch_demo(log=lambda _m: None)
    app = create_app([])
    install_translator(app, language)
    dark = apply_theme(app, "light")
    window = MainWindow(settings=QSettings(str(Path(os.environ["LOGITSCOPE_HOME"]) / "ui.ini"),
                                           QSettings.Format.IniFormat), dark=dark)
    window.show()

    window.open_model(str(demo), LoadSettings(n_ctx=2048), ask=False)
    wait(lambda: window.bridge.info is not None and not window.bridge.busy)
    window.score_action.trigger()
    dialog = window.score_dialog
    dialog.resize(*SIZE)
    dialog.text.setPlainText(PARAGRAPH[lang])
    dialog.score_button.click()
    wait(lambda: not dialog.running)
    wait(lambda: False, 0.5)
    path = out / f"score-{SIZE[0]}x{SIZE[1]}-light-{lang}.png"
    dialog.grab().save(str(path))
    print(path, dialog.status.text())
    if sys.argv[3:] == ["kl"]:
        from logitscope.host.quantize_job import quantize_model
        from logitscope.protocol.quantize import QuantizeRequest

        q4 = Path(os.environ["LOGITSCOPE_HOME"]) / "SmolLM2-135M-Instruct.Q4_0.gguf"
        quantize_model(QuantizeRequest(str(demo), str(q4), "Q4_0", allow_requantize=True))
        dialog.text.setPlainText((Path(__file__).parent.parent / "tests/data/score/lighthouse.txt").read_text("utf-8"))
        dialog.n_ctx.setValue(256)
        dialog.start_kl_comparison(str(demo), str(q4))
        wait(lambda: not dialog.running, 600.0)
        wait(lambda: False, 0.5)
        path = out / f"score-kl-{SIZE[0]}x{SIZE[1]}-light-{lang}.png"
        dialog.grab().save(str(path))
        print(path, dialog.status.text())
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
