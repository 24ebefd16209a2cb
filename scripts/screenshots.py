"""Screenshots of the real app for the README: `.venv/bin/python scripts/screenshots.py [OUT_DIR]`.

Drives the real window (offscreen) over the real engine and the demo model, in a throw-away data folder,
and saves the main states as PNG files (default: docs/screenshots/).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["LOGITSCOPE_HOME"] = tempfile.mkdtemp(prefix="logitscope-shots-")


def main() -> int:
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from shot_wait import wait

    from logitscope.library.demo import fetch_demo
    from logitscope.protocol.api import LoadSettings
    from logitscope.protocol.sampler_settings import PRESETS, SamplerSettings
    from logitscope.ui.app import apply_theme, create_app
    from logitscope.ui.main_window import MainWindow

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    demo = fetch_demo(log=lambda _m: None)
    (Path(os.environ["LOGITSCOPE_HOME"]) / "models").mkdir(exist_ok=True)
    app = create_app([])
    dark = apply_theme(app, os.environ.get("THEME", "light"))
    window = MainWindow(settings=QSettings(str(Path(os.environ["LOGITSCOPE_HOME"]) / "ui.ini"),
                                           QSettings.Format.IniFormat), dark=dark)
    window.resize(1600, 1000)
    window.show()

    # Wait in a real event loop (a processEvents busy-loop would eat a core and slow the engine down)

    def settle(seconds: float = 0.5) -> None:
        loop = QEventLoop()
        QTimer.singleShot(int(seconds * 1000), loop.quit)
        loop.exec()

    window.open_model(str(demo), LoadSettings(n_ctx=2048), ask=False)
    wait(lambda: window.bridge.info is not None and not window.bridge.busy)
    window.sampler.set_settings(SamplerSettings(temperature=0.7, top_k=40, top_p=0.95, min_p=0.05, seed=7))
    window.sampler.max_tokens.setValue(120)
    window.send("Write a short poem about the sea.")
    wait(lambda: window.streaming is None and bool(window.current.turns[-1].answer.steps))
    window.window_actions.heatmap.setChecked(True)
    window.toggle_heatmap()
    window.select_step(0, 5)
    settle()
    window.grab().save(str(out / "chat-heatmap.png"))

    # live preview: hotter, no top-k
    window.sampler.set_settings(SamplerSettings(temperature=1.4, top_k=0, top_p=0.9, min_p=0.0, seed=7))
    settle()
    window.grab().save(str(out / "live-preview.png"))

    # a repetition loop at temperature 0, visible in the timeline
    window.new_chat()
    window.sampler.set_settings(PRESETS["Greedy"])
    window.sampler.max_tokens.setValue(300)
    window.send("List the days of the week.")
    wait(lambda: window.streaming is None and bool(window.current.turns[-1].answer.steps))
    window.select_step(0, 40)
    settle()
    window.grab().save(str(out / "greedy-loop.png"))

    window.docks["memory"].raise_()
    settle()
    window.docks["memory"].grab().save(str(out / "memory-panel.png"))
    window.docks["model_card"].raise_()
    settle()
    window.docks["model_card"].grab().save(str(out / "model-card.png"))
    window.docks["tokenizer"].raise_()
    window.tokenizer.input.setPlainText("Logitscope shows 你好 and emoji 🙂 as tokens.")
    settle(1.5)
    window.docks["tokenizer"].grab().save(str(out / "tokenizer.png"))
    models = window.show_models()
    wait(lambda: bool(models.local), 30)
    settle()
    models.grab().save(str(out / "models-page.png"))
    window.close()
    print(f"screenshots written to {out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
