"""The window paints on its own thread: Qt's GUI thread pool stays off (ui/app.py says why)."""

from __future__ import annotations

import os
import subprocess
import sys

# Started the way the window starts (create_app), then what Qt hands to its GUI thread pool (threads named
# "Thread (pooled)"): a translucent fill of 96 rows or more, and an image conversion.
PAINT_AND_LIST_THREADS = """
import os
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage, QPainter
from logitscope.ui.app import create_app
app = create_app([])
image = QImage(1920, 1080, QImage.Format.Format_ARGB32_Premultiplied)
painter = QPainter(image)
painter.fillRect(QRect(0, 0, 1900, 1000), QColor(10, 20, 30, 100))
painter.end()
image.convertToFormat(QImage.Format.Format_RGB888)
names = []
for tid in os.listdir("/proc/self/task"):
    with open(f"/proc/self/task/{tid}/comm") as f:
        names.append(f.read().strip())
print("\\n".join(names))
"""


def _thread_names(env: dict[str, str]) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PAINT_AND_LIST_THREADS], env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stdout.split("\n")


def test_painting_starts_no_qt_pool_threads() -> None:
    env = {k: v for k, v in os.environ.items() if k != "QT_NO_GUI_THREADPOOL"} | {"QT_QPA_PLATFORM": "offscreen"}
    assert "Thread (pooled)" not in _thread_names(env)
