"""Which model the window opens with: the one named with --model, else the one used last (while its file is
there), else the demo model, which `logitscope` alone fetches only when it is the one needed."""

from __future__ import annotations

import argparse

from logitscope.cli import window as window_command
from logitscope.library import demo
from logitscope.ui import app
from logitscope.ui.app import start_model


def test_named_then_last_then_demo(tmp_path):
    last = tmp_path / "gemma.gguf"
    last.write_bytes(b"GGUF")
    asked: list[str] = []

    def demo() -> str:
        asked.append("demo")
        return "demo.gguf"

    assert start_model("named.gguf", str(last), demo) == "named.gguf"
    assert start_model(None, str(last), demo) == str(last)
    assert asked == []                                   # the demo model is not even checked
    assert start_model(None, str(tmp_path / "gone.gguf"), demo) == "demo.gguf"
    assert start_model(None, str(tmp_path), demo) == "demo.gguf"   # a folder is no model
    assert start_model(None, "", lambda: None) is None


def test_logitscope_alone_leaves_the_choice_to_the_window(monkeypatch):
    """`logitscope` without --model used to hand the window the demo model, so the model used last never came
    back after a restart."""
    calls: list[tuple[object, object]] = []
    fetched: list[object] = []
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setattr(app, "run_window", lambda model=None, demo=None: calls.append((model, demo)) or 0)
    monkeypatch.setattr(demo, "fetch_demo", lambda log: fetched.append(log) or "/models/demo.gguf")
    assert window_command.run(argparse.Namespace(model=None)) == 0
    assert calls[0][0] is None and fetched == []          # the demo model is checked only if the window asks
    assert calls[0][1]() == "/models/demo.gguf" and len(fetched) == 1
    assert window_command.run(argparse.Namespace(model="~/x.gguf")) == 0
    assert calls[1][0].endswith("/x.gguf") and "~" not in calls[1][0]
