"""Screenshots of the forward-pass views for the README: `.venv/bin/python scripts/forward_screenshots.py
[OUT_DIR]`, best under Xvfb at 1280x720 (`Xvfb :N -screen 0 1280x720x24`, then DISPLAY=:N QT_QPA_PLATFORM=xcb):
each view's dock is floated over the whole screen and the screen is captured with ImageMagick's
`import -window root`; without a display (offscreen) the dock grabs itself.

The real window over the real engine and the demo model, in a throw-away data folder:
  layers-lens.png       the Layers dock on a factual question, at the step that chose " Paris"
  attention-loop.png    the Attention dock inside a greedy repetition loop
  kv-map-turn2.png      Memory and context after two turns: the KV cells turn 2 reused
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["LOGITSCOPE_HOME"] = tempfile.mkdtemp(prefix="logitscope-shots-")

SCREEN = (1280, 720)


def main() -> int:
    import numpy as np
    from PySide6.QtCore import QSettings
    from shot_wait import wait

    from logitscope.library.demo import fetch_demo
    from logitscope.protocol.api import LoadSettings
    from logitscope.protocol.sampler_settings import PRESETS
    from logitscope.ui.app import apply_theme, create_app
    from logitscope.ui.main_window import MainWindow

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    demo = fetch_demo(log=lambda _m: None)
    app = create_app([])
    dark = apply_theme(app, os.environ.get("THEME", "light"))
    window = MainWindow(settings=QSettings(str(Path(os.environ["LOGITSCOPE_HOME"]) / "ui.ini"),
                                           QSettings.Format.IniFormat), dark=dark)
    window.resize(*SCREEN)
    window.show()
    on_screen = os.environ.get("QT_QPA_PLATFORM") == "xcb" and shutil.which("import")

    def shot(key: str, name: str, ready) -> None:  # noqa: ANN001
        """Float the dock over the whole screen, wait until it shows what it should, capture it."""
        dock = window.docks[key]
        dock.raise_()            # docked first, then floated over the whole screen
        wait(lambda: False, 0.5)
        dock.setFloating(True)
        dock.setGeometry(0, 0, *SCREEN)
        dock.show()
        dock.raise_()
        wait(ready)
        wait(lambda: False, 1.0)
        path = out / name
        if on_screen:
            subprocess.run(["import", "-window", "root", str(path)], check=True)
        else:
            dock.grab().save(str(path))
        dock.setFloating(False)
        wait(lambda: False, 0.3)
        print(path)

    def ask(text: str, max_tokens: int) -> None:
        window.sampler.max_tokens.setValue(max_tokens)
        window.send(text)
        wait(lambda: window.streaming is None and bool(window.current.turns[-1].answer.steps))
        wait(lambda: not window.bridge.busy)

    def shown(key: str, step: int):  # noqa: ANN202
        page = window.docks[key].widget()
        return lambda: (not page.showing_empty() and page.panel.shown_key is not None
                        and page.panel.shown_key[1] == step)

    window.open_model(str(demo), LoadSettings(n_ctx=2048, n_threads=1), ask=False)
    wait(lambda: window.bridge.info is not None and not window.bridge.busy)
    window.sampler.set_settings(PRESETS["Greedy"])

    # (a) the logit lens where " Paris" rises through the last layers
    ask("Complete the sentence: The capital of France is", 12)
    answer = window.current.turns[-1].answer
    paris = next((i for i, s in enumerate(answer.steps) if s.text.strip() == "Paris"), 0)
    window.select_step(0, paris)
    shot("layers", "layers-lens.png", shown("layers", paris))

    # (c) turn 2 reuses turn 1's cells
    ask("And the capital of Italy?", 12)
    panel = window.memory.kv_map
    shot("memory", "kv-map-turn2.png", lambda: panel.kv is not None and panel.kv.n_reused > 0)

    # (b) a greedy repetition loop: where the token looks back to its previous occurrence
    window.new_chat()
    ask("Write a very long story about a dragon.", 260)
    answer = window.current.turns[-1].answer
    step = len(answer.steps) - 1
    window.select_step(0, step)
    attention = window.attention
    window.docks["attention"].raise_()
    wait(shown("attention", step))
    weights = attention.row.weights                    # [layer, head, position]
    recent = max(0, weights.shape[-1] - 8)             # not the last few tokens: a look far back
    far = weights[:, :, 1:recent].max(axis=-1)        # nor the first token (an attention sink)
    layer, head = np.unravel_index(int(np.argmax(far)), far.shape)
    attention.layer_box.setCurrentIndex(int(layer))
    attention.head_box.setCurrentIndex(1 + int(head))
    shot("attention", "attention-loop.png", shown("attention", step))
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
