"""What a screenshot must be: a real PNG of the window, not an empty or one-colour picture."""

from __future__ import annotations

import struct
from pathlib import Path

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG file"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def distinct_colours(path: Path, step: int = 8) -> int:
    """Colours on a grid of sample points: a drawn window has hundreds, a blank picture one."""
    from PySide6.QtGui import QImage

    image = QImage(str(path))
    assert not image.isNull(), f"Qt cannot read {path}"
    return len({image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)})


def assert_window_picture(path: Path) -> None:
    assert path.is_file(), f"no screenshot at {path}"
    width, height = png_size(path)
    assert width >= 800 and height >= 600, (width, height)
    assert distinct_colours(path) > 50, "the screenshot is (nearly) blank"
