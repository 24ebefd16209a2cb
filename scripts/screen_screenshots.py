"""Screenshots of the whole screen after a fresh start of the real window on X11 screens (Xvfb) of several
sizes: the window fits the screen it opens on and lays its docks out for it.
`.venv/bin/python scripts/screen_screenshots.py [OUT_DIR]` (needs Xvfb, xwd and ImageMagick's convert).

For each screen: a fresh data folder, the real window (xcb), the demo model, one answer with a step selected,
then `xwd -root`. Saves screen-WxH[-scale2]-light-en.png (default folder: docs/screenshots/).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCREENS = (((1280, 720), None), ((1366, 768), None), ((1920, 1080), None), ((2560, 1440), None),
           ((2560, 1440), "2"))
CHILD_ENV = "LOGITSCOPE_SCREEN_SHOT"   # set in the child: the file to write


def child(out: Path) -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from shot_wait import wait

    from logitscope.library.demo import fetch_demo
    from logitscope.protocol.api import LoadSettings
    from logitscope.protocol.sampler_settings import SamplerSettings
    from logitscope.ui.app import create_app
    from logitscope.ui.main_window import MainWindow
    from logitscope.ui.window.theme import apply_theme

    demo = fetch_demo(log=lambda _m: None)
    app = create_app([])
    window = MainWindow(dark=apply_theme(app, "light"))   # the user's settings: a fresh home, a first start
    window.show()
    window.open_model(str(demo), LoadSettings(n_ctx=2048, n_threads=1), ask=False)
    wait(lambda: window.bridge.info is not None and not window.bridge.busy)
    window.sampler.set_settings(SamplerSettings(temperature=0.7, top_k=40, top_p=0.9, min_p=0.05, seed=7))
    window.sampler.max_tokens.setValue(60)
    window.send("Write a short poem about the sea.")
    wait(lambda: window.streaming is None and bool(window.current.turns[-1].answer.steps))
    window.window_actions.heatmap.setChecked(True)
    window.toggle_heatmap()
    window.select_step(0, 4)
    wait(lambda: False, 1.0)
    shot = subprocess.run(["xwd", "-root", "-silent"], capture_output=True, check=True, timeout=30).stdout
    subprocess.run(["convert", "xwd:-", str(out)], input=shot, check=True, timeout=60)
    window.close()
    return 0


def main() -> int:
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    out_dir.mkdir(parents=True, exist_ok=True)
    for (width, height), scale in SCREENS:
        read, write = os.pipe()
        server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24",
                                   "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            display = pipe.readline().strip()
        out = out_dir / f"screen-{width}x{height}{'-scale' + scale if scale else ''}-light-en.png"
        env = {k: v for k, v in os.environ.items() if k != "QT_SCALE_FACTOR"}
        home = tempfile.mkdtemp(prefix="shots-")   # a first start: no data, no saved layout in the Qt settings
        env.update(DISPLAY=f":{display}", QT_QPA_PLATFORM="xcb", LOGITSCOPE_HOME=home, XDG_CONFIG_HOME=f"{home}/config",
                   LC_ALL="C.UTF-8", **{CHILD_ENV: str(out)})
        if scale:
            env["QT_SCALE_FACTOR"] = scale
        started = time.monotonic()
        result = subprocess.run([sys.executable, __file__], env=env, timeout=600)
        server.terminate()
        server.wait(10)
        print(out, "ok" if result.returncode == 0 else f"failed ({result.returncode})",
              f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(child(Path(os.environ[CHILD_ENV])) if os.environ.get(CHILD_ENV) else main())
