"""Screenshots of answers decoded together: `.venv/bin/python scripts/batched_screenshots.py [en|zh_CN] [OUT_DIR]`.

Drives the real window (offscreen) over the real engine and the demo model (flash attention on) in a throw-away
data folder: a question answered, then Regenerate's "4 versions at once", the window grabbed at 1280x720 with the
Memory dock's KV map showing the batch's cells (batched-1280x720-light-LANG.png); then Model ▸ Throughput…
measured up to 8 answers, the dialog grabbed (throughput-light-LANG.png).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["LOGITSCOPE_HOME"] = tempfile.mkdtemp(prefix="logitscope-shots-")

SIZE = (1280, 720)
QUESTION = {"en": "Write a two-line poem about the sea.", "zh": "写一首关于大海的两行诗。"}


def main() -> int:
    from shot_wait import wait
    from shot_window import open_window

    from logitscope.library.demo import fetch_demo
    from logitscope.protocol.api import LoadSettings
    from logitscope.protocol.sampler_settings import SamplerSettings

    language = sys.argv[1] if len(sys.argv) > 1 else "en"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    demo = fetch_demo(log=lambda _m: None)
    app, window, lang = open_window(language, SIZE)
    window.open_model(str(demo), LoadSettings(n_ctx=2048, flash_attn=True), ask=False)
    wait(lambda: window.bridge.info is not None and not window.bridge.busy)
    window.sampler.set_settings(SamplerSettings(temperature=0.8, seed=3))
    window.docks["memory"].show()
    window.docks["memory"].raise_()
    window.send(QUESTION[lang])
    wait(lambda: not window.session.busy and window.current.turns and window.current.turns[0].answer is not None
         and window.current.turns[0].answer.status == "done")
    window.regenerate(0, 4)
    wait(lambda: not window.session.busy and len(window.current.turns[0].answers) == 5)
    kv = window.memory.kv_map
    wait(lambda: kv.kv is not None and bool(kv.kv.beam_cells))
    wait(lambda: False, 0.8)
    path = out / f"batched-{SIZE[0]}x{SIZE[1]}-light-{lang}.png"
    window.grab().save(str(path))
    print(path, window.statusBar().currentMessage())
    window.throughput_dialog.show()
    dialog = window.throughput_dialog
    dialog.resize(760, 640)
    dialog.measure_button.click()
    wait(lambda: not dialog.running, 600.0)
    wait(lambda: False, 0.5)
    path = out / f"throughput-light-{lang}.png"
    dialog.grab().save(str(path))
    print(path, dialog.summary.text())
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
