"""Screenshots of the sampler stages in the window: `.venv/bin/python scripts/sampler_screenshots.py
[en|zh_CN] [OUT_DIR]`, once per language (the interface language is chosen when the app starts).

Drives the real window (offscreen) over the real engine and the demo model in a throw-away data folder:
1. an answer sampled through a long chain (logit bias, penalties, DRY, top-n-sigma, top-k, typical, top-p,
   min-p, XTC, dynamic temperature), a step selected, the sections of the new controls open; at 1280x720 and
   1920x1080, light and dark: samplers-chain-WxH-THEME-LANG.png;
2. an answer under a JSON schema (the chat's validity mark, the grammar's allowed count, the masked tokens):
   samplers-json-1920x1080-light-LANG.png.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["LOGITSCOPE_HOME"] = tempfile.mkdtemp(prefix="logitscope-shots-")

SIZES = ((1280, 720), (1920, 1080))
THEMES = ("light", "dark")
SCHEMA = ('{"type": "object", "properties": {"name": {"type": "string"}, "colour": {"type": "string"}}, '
          '"required": ["name", "colour"]}')


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
    lang = "zh" if language == "zh_CN" else "en"
    demo = fetch_demo(log=lambda _m: None)
    app = create_app([])
    language = install_translator(app, language)
    dark = apply_theme(app, "light")
    window = MainWindow(settings=QSettings(str(Path(os.environ["LOGITSCOPE_HOME"]) / "ui.ini"),
                                           QSettings.Format.IniFormat), dark=dark)
    window.resize(*SIZES[0])
    window.show()

    def answer(text: str, settings: SamplerSettings, tokens: int) -> None:
        window.sampler.set_settings(settings)
        window.sampler.max_tokens.setValue(tokens)
        turns = len(window.current.turns)
        window.send(text)
        wait(lambda: len(window.current.turns) > turns and window.streaming is None
             and bool(window.current.turns[-1].answer.steps))

    window.open_model(str(demo), LoadSettings(n_ctx=2048, n_threads=1), ask=False)
    wait(lambda: window.bridge.info is not None and not window.bridge.busy)
    chain = SamplerSettings(temperature=0.9, dynatemp_range=0.4, top_k=40, top_p=0.95, min_p=0.05, typical_p=0.95,
                            top_n_sigma=2.5, repeat_penalty=1.05, dry_multiplier=0.8, xtc_probability=0.5,
                            xtc_threshold=0.1, logit_bias=(("!", -math.inf),), seed=11)
    answer("用一句话介绍大海。" if lang == "zh" else "Write a short poem about the sea.", chain, 48)
    for key in ("repetition", "xtc", "bias", "order"):
        window.sampler.sections[key].expand()
    window.sampler.sections["truncation"].expand(False)
    window.select_step(0, 5)
    for width, height in SIZES:
        window.resize(width, height)
        wait(lambda: False, 0.3)
        window.reset_layout()
        for theme in THEMES:
            window.chat.set_dark(apply_theme(app, theme))
            wait(lambda: False, 0.6)
            path = out / f"samplers-chain-{width}x{height}-{theme}-{lang}.png"
            window.grab().save(str(path))
            print(path)
    window.chat.set_dark(apply_theme(app, "light"))
    json_settings = SamplerSettings(temperature=0.0, top_k=0, top_p=1.0, min_p=0.0, json_schema=SCHEMA)
    answer("给出一个人名和一种颜色，用 JSON。" if lang == "zh" else "Give a name and a colour as JSON.", json_settings, 40)
    for key in ("repetition", "xtc", "bias", "order"):
        window.sampler.sections[key].expand(False)
    window.sampler.sections["constraint"].expand()
    window.resize(1920, 1080)
    wait(lambda: False, 0.3)
    window.reset_layout()
    window.select_step(1, 1)
    wait(lambda: False, 0.6)
    path = out / f"samplers-json-1920x1080-light-{lang}.png"
    window.grab().save(str(path))
    print(path)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
