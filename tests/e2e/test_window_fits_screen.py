"""The real app started fresh on X11 screens (Xvfb) of several sizes, and on a 2560x1440 screen at a HiDPI
scale of 2: the window takes the screen's available area (it once opened at 1400x860 on a 1280x720 screen,
its status bar and right column off screen), and in the first layout every shown dock lies inside it and
reads: the distribution's probability columns and the sampler controls' values whole, no horizontal scroll
bar in the chat, no dock tab elided. No model (none in the fresh home): the layout does not depend on one.
The window reports its layout through its e2e state file (ui/window/state_probe.py, layout_facts.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e import test_real_window
from tests.e2e.test_real_window import end

# needs Xvfb; the window starts its engine process (llama.cpp) even with no model
pytestmark = [test_real_window.pytestmark, pytest.mark.model]

MIN_DOCK = (160, 110)   # the smallest a dock's content may be and still be read
MIN_CHAT = (480, 250)
# (screen, QT_SCALE_FACTOR): the two designed sizes, common laptops, 1440p, and 1440p at 200 %
SCREENS = [((1280, 720), None), ((1366, 768), None), ((1920, 1080), None), ((2560, 1440), None),
           ((2560, 1440), "2")]


def start_xvfb(width: int, height: int) -> tuple[subprocess.Popen, str]:
    """An X server of this size on a display number it picks itself (free, even with other tests starting
    theirs at the same time)."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24",
                               "-nolisten", "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    assert number, "Xvfb did not start"
    return server, f":{number}"


def launch_fresh(display: str, home: Path, state_file: Path, scale: str | None) -> tuple[subprocess.Popen, Path]:
    from logitscope.ui.window.state_probe import STATE_FILE_ENV

    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "QT_SCALE_FACTOR")}
    # a first start: no data, and no window layout in the user's Qt settings (~/.config/Logitscope)
    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", LOGITSCOPE_HOME=str(home), XDG_CONFIG_HOME=str(home / "config"),
               **{STATE_FILE_ENV: str(state_file)})
    if scale:
        env["QT_SCALE_FACTOR"] = scale
    log = home.parent / "app.log"
    app = subprocess.Popen([sys.executable, "-m", "logitscope", "window"], env=env, stdout=subprocess.DEVNULL,
                           stderr=open(log, "wb"))
    return app, log


def settled_layout(state_file: Path, log: Path, timeout: float = 120) -> dict:
    """The layout once the window is shown and has the same size in two reports in a row."""
    last: dict = {}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.5)
        try:
            now = json.loads(state_file.read_text())["layout"]
        except (OSError, ValueError, KeyError):
            continue
        if now == last:
            return now
        last = now
    raise AssertionError(f"no settled layout: {last}\n{log.read_text()[-2000:]}")


def inside(outer: list[int], inner: list[int]) -> bool:
    ox, oy, ow, oh = outer
    x, y, w, h = inner
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


@pytest.mark.parametrize(("screen", "scale"), SCREENS, ids=[f"{w}x{h}" + (f"@{s}x" if s else "") for (w, h), s in SCREENS])
def test_a_fresh_window_fits_the_screen_and_every_dock_reads(tmp_path, screen, scale):
    server, display = start_xvfb(*screen)
    home = tmp_path / "home"
    home.mkdir()
    app, log = launch_fresh(display, home, tmp_path / "state.json", scale)
    try:
        facts = settled_layout(tmp_path / "state.json", log)
    finally:
        end(app)
        server.terminate()
        server.wait(10)
    factor = float(scale or 1)
    assert facts["dpr"] == factor
    logical = [0, 0, round(screen[0] / factor), round(screen[1] / factor)]
    assert facts["screen"] == logical           # no window manager here: the available area is the screen
    assert facts["frame"] == logical, facts     # the window takes all of it, and no more
    width, height = logical[2], logical[3]
    window = [0, 0, width, height]
    assert {"distribution", "sampler", "timeline", "waterfall"} <= set(facts["docks"]), facts["docks"]
    for key, rect in facts["docks"].items():
        assert inside(window, rect), (key, rect, window)
        assert facts["contents"][key][0] >= MIN_DOCK[0] and facts["contents"][key][1] >= MIN_DOCK[1], (
            key, facts["contents"][key])
    assert facts["status_bar"] is not None and inside(window, facts["status_bar"]), facts["status_bar"]
    assert facts["central"][2] >= MIN_CHAT[0] and facts["central"][3] >= MIN_CHAT[1], facts["central"]
    assert not facts["distribution_columns_cut"]
    assert facts["sampler_values_cut"] == []
    assert not facts["chat_hscroll"]
    assert facts["cut_tabs"] == []
