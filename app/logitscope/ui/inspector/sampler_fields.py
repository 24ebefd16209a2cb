"""The pieces the sampler controls are built of: a slider with its spin box, a collapsible section, and
the text form of DRY's sequence breakers (`breakers_text` / `parse_breakers`, inverse of each other)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.ui.common.spin_boxes import DoubleSpinBox, SpinBox
from logitscope.ui.common.wheel_guard import guard_wheel

# name -> (minimum, maximum, step, decimals); decimals 0 = an integer setting. The ranges are what a person
# tunes (SamplerSettings.validate() accepts more); labels and tooltips: SamplerPanel._texts.
FIELDS: dict[str, tuple[float, float, float, int]] = {
    "temperature": (0.0, 2.0, 0.05, 2),
    "dynatemp_range": (0.0, 2.0, 0.05, 2),
    "dynatemp_exponent": (0.1, 5.0, 0.1, 2),
    "top_k": (0, 200, 1, 0),
    "top_p": (0.01, 1.0, 0.01, 2),
    "min_p": (0.0, 1.0, 0.01, 2),
    "typical_p": (0.01, 1.0, 0.01, 2),
    "top_n_sigma": (-1.0, 10.0, 0.1, 2),
    "min_keep": (0, 100, 1, 0),
    "repeat_penalty": (0.5, 2.0, 0.01, 2),
    "repeat_last_n": (0, 512, 1, 0),
    "frequency_penalty": (-2.0, 2.0, 0.05, 2),
    "presence_penalty": (-2.0, 2.0, 0.05, 2),
    "dry_multiplier": (0.0, 5.0, 0.05, 2),
    "dry_base": (1.0, 4.0, 0.05, 2),
    "dry_allowed_length": (0, 20, 1, 0),
    "dry_penalty_last_n": (-1, 4096, 1, 0),
    "xtc_probability": (0.0, 1.0, 0.01, 2),
    "xtc_threshold": (0.0, 1.0, 0.01, 2),
    "mirostat_tau": (0.1, 10.0, 0.1, 2),
    "mirostat_eta": (0.01, 1.0, 0.01, 2),
}
SLIDER_STEPS = 1000


class Row(QWidget):
    """A slider and a spin box showing the same value."""

    changed = Signal()

    def __init__(self, minimum: float, maximum: float, step: float, decimals: int) -> None:
        super().__init__()
        self.minimum, self.maximum, self.decimals = minimum, maximum, decimals
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, SLIDER_STEPS)
        if decimals:
            self.spin: QSpinBox | QDoubleSpinBox = DoubleSpinBox()
            self.spin.setDecimals(decimals)
        else:
            self.spin = SpinBox()
        self.spin.setRange(minimum, maximum)  # type: ignore[arg-type]
        self.spin.setSingleStep(step)  # type: ignore[arg-type]
        self.spin.setKeyboardTracking(False)
        self.spin.setMinimumWidth(72)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.spin)
        self.slider.valueChanged.connect(self._from_slider)
        self.spin.valueChanged.connect(self._from_spin)
        self._sync = False
        guard_wheel(self)

    def setToolTip(self, tip: str) -> None:  # noqa: N802 - Qt's name: the slider and the box say it too
        super().setToolTip(tip)
        self.slider.setToolTip(tip)
        self.spin.setToolTip(tip)

    def _from_slider(self, position: int) -> None:
        if self._sync:
            return
        value = self.minimum + (self.maximum - self.minimum) * position / SLIDER_STEPS
        self._set(round(value, self.decimals) if self.decimals else int(round(value)), slider=False)

    def _from_spin(self, value: float) -> None:
        if self._sync:
            return
        self._set(value, spin=False)

    def _set(self, value: float, slider: bool = True, spin: bool = True) -> None:
        self._sync = True
        if spin:
            self.spin.setValue(value)  # type: ignore[arg-type]
        if slider:
            span = self.maximum - self.minimum
            self.slider.setValue(int(round((value - self.minimum) / span * SLIDER_STEPS)))
        self._sync = False
        self.changed.emit()

    def value(self) -> float:
        return self.spin.value()

    def set_value(self, value: float) -> None:
        self._set(value)


class Section(QWidget):
    """A titled group of controls that folds away: the title is a button with an arrow."""

    def __init__(self, title: str, tip: str, expanded: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(2)
        self.header = QToolButton()
        self.header.setText(title)
        self.header.setToolTip(tip)
        self.header.setCheckable(True)
        self.header.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.header.setAutoRaise(True)
        self.header.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        font = self.header.font()
        font.setBold(True)
        self.header.setFont(font)
        self.body = QWidget()
        self.form = QFormLayout(self.body)
        self.form.setContentsMargins(14, 0, 0, 4)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        layout.addWidget(self.header)
        layout.addWidget(self.body)
        self.header.toggled.connect(self._show)
        self.header.setChecked(expanded)
        self._show(expanded)

    def _show(self, expanded: bool) -> None:
        self.header.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.body.setVisible(expanded)

    def expand(self, expanded: bool = True) -> None:
        self.header.setChecked(expanded)

    @property
    def expanded(self) -> bool:
        return self.header.isChecked()


# -- DRY's sequence breakers as one line of text: comma-separated, with backslash escapes -------------------
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", ",": ","}
_SHOWN = {"\n": "\\n", "\t": "\\t", "\\": "\\\\", ",": "\\,"}


def breakers_text(breakers: tuple[str, ...]) -> str:
    """`("\\n", ":", ",")` -> `\\n, :, \\,`: a newline, a tab, a comma and a backslash are written escaped,
    and a space at either end of a breaker as `\\s` (spaces around the commas are only padding)."""
    def shown(b: str) -> str:
        text = "".join(_SHOWN.get(ch, ch) for ch in b)
        core = text.strip(" ")
        if not core:
            return "\\s" * len(text)
        lead, trail = len(text) - len(text.lstrip(" ")), len(text) - len(text.rstrip(" "))
        return "\\s" * lead + core + "\\s" * trail
    return ", ".join(shown(b) for b in breakers)


def parse_breakers(text: str) -> tuple[str, ...]:
    """The inverse of breakers_text; empty parts are dropped."""
    out: list[str] = []
    part: list[tuple[str, bool]] = []   # (character, escaped)

    def close() -> None:
        while part and part[0] == (" ", False):
            part.pop(0)
        while part and part[-1] == (" ", False):
            part.pop()
        if part:
            out.append("".join(ch for ch, _ in part))
        part.clear()

    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            part.append((" " if nxt == "s" else _ESCAPES.get(nxt, "\\" + nxt), True))
            i += 2
            continue
        if ch == ",":
            close()
        else:
            part.append((ch, False))
        i += 1
    close()
    return tuple(out)
