"""`logitscope bench --window`: does the window stream as fast as the engine?

The real window (all docks, default layout, the inspector following the live step) answers a fixed chat
prompt, greedy, alternated with `logitscope generate` on the same prompt and settings, for each variant
(1280x720 and 1920x1080, heatmap off and on). Per run it records:
  - tok/s: generated tokens - 1 over the time from the first to the last token (the window: when they reach
    the GUI thread; the CLI: as the engine measured it, which is when the terminal gets them);
  - the GUI process's CPU time per generated token (user + system, all its threads: the GUI thread and the
    bridge's worker that reads the engine's messages);
  - the worst engine step latency (each step's time since the previous token, measured in the engine: it
    includes any wait for the caller).
`--long N` adds one window run of N tokens and compares the GUI CPU per token at its start and its end.
The window runs on the display in $DISPLAY, else on an Xvfb display started here, else offscreen (said).
Everything is kept in a temporary data folder: the user's history and layout are not touched.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

PROMPT = "Write a very long story about a dragon."  # the demo model never ends it (greedy: it loops)
SIZES = ((1280, 720), (1920, 1080))
TARGET_RATIO = 0.9
TARGET_CPU_MS = 1.0
CPU_MARK_S = 0.5


@dataclass
class WindowRun:
    tok_s: float
    cpu_ms_per_token: float
    worst_step_ms: float
    n: int
    cpu_marks: list[tuple[int, float]] = field(default_factory=list)  # (tokens so far, process CPU seconds)

    @property
    def streaming_cpu_ms_per_token(self) -> float:
        """GUI CPU per token while the tokens stream, between the first and the last CPU mark: without
        what an answer costs once, at its send and its end (the history's rows, the Markdown, the diagnosis)."""
        if len(self.cpu_marks) < 2 or self.cpu_marks[-1][0] <= self.cpu_marks[0][0]:
            return float("nan")
        (n0, c0), (n1, c1) = self.cpu_marks[0], self.cpu_marks[-1]
        return (c1 - c0) * 1000 / (n1 - n0)


def gui_cpu_s() -> float:
    """This process's CPU time, all threads (cheap: getrusage cost 0.4 ms a call here, which the
    measurement itself would have added to every batch)."""
    return time.process_time()


def start_display() -> tuple[str, subprocess.Popen[bytes] | None]:
    """Where the window is shown: ("display :N", the Xvfb process we started) or ("offscreen", None)."""
    if os.environ.get("QT_QPA_PLATFORM", "").startswith("offscreen"):  # also offscreen:configfile=...
        return "offscreen (QT_QPA_PLATFORM)", None
    if os.environ.get("DISPLAY"):
        return f"the display {os.environ['DISPLAY']}", None
    xvfb = shutil.which("Xvfb")
    if xvfb:
        read, write = os.pipe()
        proc = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                                pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if number:
            os.environ["DISPLAY"] = f":{number}"
            os.environ["QT_QPA_PLATFORM"] = "xcb"
            return f"Xvfb :{number} (started for this run)", proc
        proc.kill()
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    return "offscreen (no display and no Xvfb: painting is not what a screen would cost)", None


class WindowDriver:
    """The real MainWindow in this process, driven like a user would: new chat, send, wait."""

    def __init__(self, model: Path, n_ctx: int, threads: int, home: Path, bridge: Any = None) -> None:
        """`bridge`: the window's EngineBridge (default: a new one, with its own engine process)."""
        from PySide6.QtCore import QSettings

        from logitscope.protocol.api import LoadSettings
        from logitscope.protocol.sampler_settings import PRESETS
        from logitscope.store.settings import SettingsStore
        from logitscope.ui.app import apply_theme, create_app
        from logitscope.ui.main_window import MainWindow

        self.app = create_app([])
        dark = apply_theme(self.app, "light")
        self.window = MainWindow(bridge=bridge, settings=QSettings(str(home / "layout.ini"), QSettings.Format.IniFormat),
                                 dark=dark, app_settings=SettingsStore())
        self.window.show()
        self.window.sampler.set_settings(PRESETS["Greedy"])
        self._arrivals: list[tuple[float, int, float]] = []  # (time, tokens so far, CPU seconds or -1)
        self._last_mark = 0.0
        self._result: Any = None
        self._failed: Any = None
        self.window.bridge.steps.connect(self._on_steps)
        self.window.bridge.generationFinished.connect(lambda r: setattr(self, "_result", r))
        self.window.bridge.generationFailed.connect(lambda e: setattr(self, "_failed", e))
        self.window.bridge.loadFailed.connect(lambda e: setattr(self, "_failed", e))
        self.window.open_model(str(model), LoadSettings(n_ctx=n_ctx, n_threads=threads), ask=False)
        self._wait(lambda: self.window.bridge.info is not None, 120, "loading the model")

    def _on_steps(self, steps: list[Any]) -> None:
        n = (self._arrivals[-1][1] if self._arrivals else 0) + len(steps)
        now = time.perf_counter()
        # reading the process's CPU time costs ~0.3 ms here (a system call that visits every thread):
        # done at most every CPU_MARK_S, so the measurement does not add to what it measures
        cpu = -1.0
        if now - self._last_mark >= CPU_MARK_S:
            cpu, self._last_mark = gui_cpu_s(), now
        self._arrivals.append((now, n, cpu))

    def _wait(self, done: Any, timeout_s: float, what: str) -> None:
        """Run the event loop as the app does (blocked in the OS until something happens: polling would
        add its own CPU time to the GUI's) until `done()`, checked after every bridge signal."""
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        bridge = self.window.bridge
        signals = (bridge.loaded, bridge.loadFailed, bridge.generationFinished, bridge.generationFailed)

        def check(*_args: object) -> None:
            if done() or self._failed is not None:
                loop.quit()

        for signal in signals:
            signal.connect(check, Qt.ConnectionType.QueuedConnection)  # after the window's own slots
        limit = QTimer()
        limit.setSingleShot(True)
        limit.timeout.connect(loop.quit)
        limit.start(int(timeout_s * 1000))
        try:
            if not done():
                loop.exec()
        finally:
            for signal in signals:
                signal.disconnect(check)
        if self._failed is not None:
            raise RuntimeError(f"{what}: {self._failed}")
        if not done():
            raise RuntimeError(f"{what}: no result after {timeout_s:.0f} s")

    def run(self, size: tuple[int, int], heatmap: bool, max_tokens: int) -> WindowRun:
        from logitscope.ui.window.layout import arrange_docks

        window = self.window
        window.resize(*size)
        arrange_docks(window, window.docks)
        window.window_actions.heatmap.setChecked(heatmap)
        window.toggle_heatmap()
        window.sampler.max_tokens.setValue(max_tokens)
        window.new_chat()
        self._settle(0.5)
        self._arrivals, self._result, self._last_mark = [], None, 0.0
        cpu0 = gui_cpu_s()
        window.send(PROMPT)
        self._wait(lambda: self._result is not None, 600, "generating")
        cpu1 = gui_cpu_s()
        arrivals = self._arrivals
        answer = window.current.turns[-1].answer
        assert answer is not None, "the window shows the answer it just finished"
        steps = answer.steps
        n = len(steps)
        first, last = arrivals[0], arrivals[-1]
        tok_s = (last[1] - first[1]) / (last[0] - first[0]) if last[0] > first[0] else float("nan")
        worst = max((s.latency_s for s in steps[1:]), default=0.0)
        return WindowRun(tok_s, (cpu1 - cpu0) * 1000 / max(1, n), worst * 1000, n,
                         [(a[1], a[2]) for a in arrivals if a[2] >= 0])

    def _settle(self, seconds: float) -> None:
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        QTimer.singleShot(int(seconds * 1000), loop.quit)
        loop.exec()

    def close(self) -> None:
        self.window.bridge.shutdown()
        self.window.close()


def cli_run(model: Path, n_ctx: int, threads: int, max_tokens: int, env: dict[str, str]) -> float:
    """`logitscope generate` on the same chat prompt, printing text as a user runs it: its tok/s (as the
    engine measured it, from the summary line)."""
    cmd = [sys.executable, "-m", "logitscope", "generate", "--model", str(model), "--chat", PROMPT,
           "--temperature", "0", "--max-tokens", str(max_tokens), "--n-ctx", str(n_ctx)]
    if threads:
        cmd += ["--threads", str(threads)]
    proc = subprocess.run(cmd, capture_output=True, env=env, timeout=600, check=False)
    summary = re.search(r"(\d+) tokens at ([0-9.]+) tok/s, first token", proc.stderr.decode(errors="replace"))
    if proc.returncode != 0 or summary is None:
        raise RuntimeError(f"logitscope generate failed: {proc.stderr.decode(errors='replace')[-500:]}")
    return float(summary.group(2))


def run_window_bench(model: Path, args: argparse.Namespace) -> int:
    from logitscope.system.threads import available_cpus

    threads = args.threads or available_cpus()  # the engine's default, read without loading llama.cpp here
    max_tokens = args.tokens
    n_ctx = max(2048, (args.long or 0) + 512)
    home = Path(tempfile.mkdtemp(prefix="logitscope-bench-"))
    env = dict(os.environ, LOGITSCOPE_HOME=str(home / "cli"))
    os.environ["LOGITSCOPE_HOME"] = str(home / "window")
    where, xvfb = start_display()
    print(f"window: {where}; {model.name}, {threads} threads, greedy, {max_tokens} tokens, "
          f"{args.reps} alternated repetitions per variant", file=sys.stderr)
    variants = [(size, heatmap) for size in SIZES for heatmap in (False, True)]
    window_runs: dict[tuple[tuple[int, int], bool], list[WindowRun]] = {v: [] for v in variants}
    cli_runs: dict[tuple[tuple[int, int], bool], list[float]] = {v: [] for v in variants}
    driver = WindowDriver(model, n_ctx, threads, home)
    long_run: WindowRun | None = None
    try:
        driver.run(SIZES[0], False, 16)  # warm-up: first paint of every dock, caches
        for rep in range(args.reps):
            for variant in variants:
                window_runs[variant].append(driver.run(variant[0], variant[1], max_tokens))
                cli_runs[variant].append(cli_run(model, n_ctx, threads, max_tokens, env))
            print(f"repetition {rep + 1}/{args.reps} done", file=sys.stderr)
        if args.long:
            long_run = driver.run(SIZES[0], True, args.long)
    finally:
        driver.close()
        if xvfb is not None:
            xvfb.kill()
        shutil.rmtree(home, ignore_errors=True)
    report: dict[str, Any] = {"display": where, "model": model.name, "threads": threads, "tokens": max_tokens,
                              "reps": args.reps, "variants": []}
    for (size, heatmap), runs in window_runs.items():
        cli = cli_runs[(size, heatmap)]
        w_tok = statistics.median(r.tok_s for r in runs)
        c_tok = statistics.median(cli)
        report["variants"].append({
            "size": f"{size[0]}x{size[1]}", "heatmap": heatmap, "window_tok_s": w_tok, "cli_tok_s": c_tok,
            "ratio": w_tok / c_tok, "gui_cpu_ms_per_token": statistics.median(r.cpu_ms_per_token for r in runs),
            "streaming_cpu_ms_per_token": statistics.median(r.streaming_cpu_ms_per_token for r in runs),
            "worst_step_ms": max(r.worst_step_ms for r in runs)})
    if long_run is not None:
        report["long"] = {"tokens": long_run.n, **cpu_growth(long_run)}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"\n{where}\n{model.name}, {threads} threads, {max_tokens} tokens, greedy, median of {args.reps} "
          f"alternated runs")
    print(f"{'variant':<22}{'window tok/s':>13}{'CLI tok/s':>11}{'ratio':>7}{'GUI CPU ms/tok':>16}"
          f"{'while streaming':>17}{'worst engine step ms':>22}")
    for v in report["variants"]:
        label = f"{v['size']} heatmap {'on' if v['heatmap'] else 'off'}"
        print(f"{label:<22}{v['window_tok_s']:13.1f}{v['cli_tok_s']:11.1f}{v['ratio']:7.2f}"
              f"{v['gui_cpu_ms_per_token']:16.2f}{v['streaming_cpu_ms_per_token']:17.2f}{v['worst_step_ms']:22.0f}")
    print(f"targets: ratio >= {TARGET_RATIO}, GUI CPU < {TARGET_CPU_MS} ms per token (GUI CPU: from send to the "
          f"answer's end; while streaming: between the first and the last token)")
    if long_run is not None:
        g = report["long"]
        print(f"long answer ({g['tokens']} tokens, 1280x720, heatmap on): GUI CPU {g['start_ms']:.2f} ms/token "
              f"over tokens {g['start_range']}, {g['end_ms']:.2f} over {g['end_range']} (ratio {g['ratio']:.2f})")
    return 0


def cpu_growth(run: WindowRun, span: int = 500) -> dict[str, Any]:
    """GUI CPU per token near the start of a long answer and near its end."""
    marks = run.cpu_marks

    def per_token(lo: int, hi: int) -> float:
        inside = [m for m in marks if lo <= m[0] <= hi]
        (n0, c0), (n1, c1) = inside[0], inside[-1]
        return (c1 - c0) * 1000 / max(1, n1 - n0)

    end = marks[-1][0]
    return {"start_range": f"10-{10 + span}", "start_ms": per_token(10, 10 + span),
            "end_range": f"{end - span}-{end}", "end_ms": per_token(end - span, end),
            "ratio": per_token(end - span, end) / per_token(10, 10 + span)}

