"""Screenshots of a reasoning model in the window: `.venv/bin/python scripts/thinking_screenshots.py [en|zh_CN] [OUT_DIR]`.

Drives the real window (offscreen) over the real engine and the thinking copy of the demo model (its chat template
rewritten to open `<think>`, tests/helpers/thinking_model.py) in a throw-away data folder:
- a question answered with a Thinking budget of 12 tokens, sampled: the thinking folded above the answer and
  unfolded, the timeline shading the thinking's steps, the diagnosis's badge: thinking-1280x720-light-LANG.png;
- *Answer without thinking* on it: the same question, seed and settings with the block closed at once, both
  answers side by side from the first token where they part: thinking-effect-LANG.png.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # the tests' helper makes the thinking model

SIZE = (1280, 720)
QUESTION = {"en": "What is 6 times 7?", "zh": "6 乘以 7 等于几？"}


def main() -> int:
    from shot_wait import wait
    from tests.helpers.thinking_model import make_thinking_model

    from logitscope.library.demo import fetch_demo

    demo = fetch_demo(log=lambda _m: None)
    home = Path(tempfile.mkdtemp(prefix="logitscope-shots-"))
    os.environ["LOGITSCOPE_HOME"] = str(home)
    thinking = make_thinking_model(demo, home / "SmolLM2-135M-thinking.gguf")

    from dataclasses import replace

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
    window.resize(*SIZE)
    window.show()
    window.open_model(str(thinking), LoadSettings(n_ctx=2048), ask=False)
    if not wait(lambda: window.bridge.info is not None and not window.bridge.busy):
        print("the thinking model did not load", file=sys.stderr)
        return 1
    window.sampler.set_settings(replace(PRESETS["Precise"], seed=7))
    window.sampler.reasoning_budget.setValue(12)
    window.sampler.max_tokens.setValue(40)
    window.send(QUESTION[lang])
    if not wait(lambda: not window.session.busy and window.current.turns[-1].answer is not None
                and window.current.turns[-1].answer.result is not None):
        print("no answer", file=sys.stderr)
        return 1
    bubble = window.chat.answers[-1]
    bubble.fold.unfold()
    wait(lambda: bubble.badge.isVisible(), 10.0)
    wait(lambda: False, 0.8)
    path = out / f"thinking-{SIZE[0]}x{SIZE[1]}-light-{lang}.png"
    window.grab().save(str(path))
    print(path, bubble.fold.toggle.text(), "|", bubble.badge.text())

    ended: list[object] = []
    window.session.withoutThinkingEnded.connect(lambda *args: ended.append(args))
    bubble.without_thinking.trigger()
    if not wait(lambda: bool(ended) and window.chat_commands.effect_dialog is not None):
        print("no answer without thinking", file=sys.stderr)
        return 1
    dialog = window.chat_commands.effect_dialog
    dialog.resize(900, 420)
    wait(lambda: False, 0.5)
    path = out / f"thinking-effect-{lang}.png"
    dialog.grab().save(str(path))
    print(path, dialog.summary.text())
    dialog.close()
    window.close()
    shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
