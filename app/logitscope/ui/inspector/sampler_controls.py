"""Sampler controls: a slider and a spin box per setting, seed, max tokens, stops, presets.

Every change emits `settingsChanged` at once; the window uses it to preview the selected step (replayed
from its record, no model call) and for the next generation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLineEdit,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from logitscope.engine.sampler import LEGACY_ORDERS, PRESETS, SamplerSettings
from logitscope.ui.messages import translate_template

# name -> (minimum, maximum, step, decimals); decimals 0 = an integer setting (labels: SamplerPanel)
FIELDS: dict[str, tuple[float, float, float, int]] = {
    "temperature": (0.0, 2.0, 0.05, 2),
    "top_k": (0, 200, 1, 0),
    "top_p": (0.01, 1.0, 0.01, 2),
    "min_p": (0.0, 1.0, 0.01, 2),
    "repeat_penalty": (0.5, 2.0, 0.01, 2),
    "repeat_last_n": (0, 512, 1, 0),
    "frequency_penalty": (-2.0, 2.0, 0.05, 2),
    "presence_penalty": (-2.0, 2.0, 0.05, 2),
}
SLIDER_STEPS = 1000
CUSTOM = ""  # the preset box's data for "Custom" (sliders that match no preset); a preset name is never empty


class _Row(QWidget):
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
            self.spin: QSpinBox | QDoubleSpinBox = QDoubleSpinBox()
            self.spin.setDecimals(decimals)
        else:
            self.spin = QSpinBox()
        self.spin.setRange(minimum, maximum)  # type: ignore[arg-type]
        self.spin.setSingleStep(step)  # type: ignore[arg-type]
        self.spin.setKeyboardTracking(False)
        self.spin.setMinimumWidth(72)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.spin)
        self.slider.valueChanged.connect(self._from_slider)
        self.spin.valueChanged.connect(self._from_spin)
        self._sync = False

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


class SamplerPanel(QWidget):
    settingsChanged = Signal(object)      # SamplerSettings
    presetSaved = Signal(str, object)     # name, SamplerSettings

    def __init__(self, user_presets: dict[str, SamplerSettings] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.user_presets = dict(user_presets or {})
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        presets_row = QHBoxLayout()
        self.presets = QComboBox()
        self.presets.setToolTip(self.tr("Presets: Greedy always takes the most likely token; Creative samples widely"))
        self.save_preset = QPushButton(self.tr("Save as…"))
        self.save_preset.clicked.connect(self._ask_preset_name)
        presets_row.addWidget(self.presets, 1)
        presets_row.addWidget(self.save_preset)
        outer.addLayout(presets_row)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        labels = {
            "temperature": self.tr("Temperature"), "top_k": self.tr("Top-k (0 = off)"),
            "top_p": self.tr("Top-p (1 = off)"), "min_p": self.tr("Min-p (0 = off)"),
            "repeat_penalty": self.tr("Repetition penalty"), "repeat_last_n": self.tr("Penalty window (tokens)"),
            "frequency_penalty": self.tr("Frequency penalty"), "presence_penalty": self.tr("Presence penalty"),
        }
        self.rows: dict[str, _Row] = {}
        for name, (lo, hi, step, decimals) in FIELDS.items():
            row = _Row(lo, hi, step, decimals)
            row.setObjectName(f"sampler_{name}")
            row.changed.connect(self._emit)
            self.rows[name] = row
            form.addRow(labels[name], row)
        self.order = QComboBox()
        order_labels = {"temperature_last": self.tr("temperature last (llama.cpp)"),
                        "temperature_first": self.tr("temperature first")}
        for order in LEGACY_ORDERS:
            self.order.addItem(order_labels.get(order, order), order)
        self.order.currentIndexChanged.connect(self._emit)
        form.addRow(self.tr("Order"), self.order)
        seed_row = QHBoxLayout()
        self.fixed_seed = QCheckBox(self.tr("fixed"))
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setEnabled(False)
        self.fixed_seed.toggled.connect(self.seed.setEnabled)
        self.fixed_seed.toggled.connect(self._emit)
        self.seed.valueChanged.connect(self._emit)
        seed_row.addWidget(self.fixed_seed)
        seed_row.addWidget(self.seed, 1)
        form.addRow(self.tr("Seed"), seed_row)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(1, 32768)
        self.max_tokens.setValue(512)
        form.addRow(self.tr("Max tokens"), self.max_tokens)
        self.stops = QLineEdit()
        self.stops.setPlaceholderText(self.tr("e.g. ###, \\n\\n (comma-separated)"))
        form.addRow(self.tr("Stop sequences"), self.stops)
        outer.addLayout(form)
        outer.addStretch(1)
        self._refill_presets()
        self.presets.currentIndexChanged.connect(self._apply_preset)
        self._quiet = False
        self.set_settings(PRESETS["Balanced"])
        self.select_preset("Balanced")

    # -- presets (each item's data is its key, as stored; built-in names are shown translated) -----------
    def select_preset(self, name: str) -> None:
        self.presets.setCurrentIndex(max(0, self.presets.findData(name)))

    def _refill_presets(self) -> None:
        current = self.presets.currentData()
        self.presets.blockSignals(True)
        self.presets.clear()
        for name in PRESETS:
            self.presets.addItem(translate_template(name), name)
        for name in sorted(self.user_presets):
            self.presets.addItem(name, name)
        self.presets.setCurrentIndex(max(0, self.presets.findData(current)))
        self.presets.blockSignals(False)

    def _apply_preset(self) -> None:
        name = self.presets.currentData() or ""
        preset = PRESETS.get(name) or self.user_presets.get(name)
        if preset is not None:
            self.set_settings(preset)

    def _ask_preset_name(self, _checked: bool = False, ask: Callable[..., tuple[str, bool]] | None = None) -> None:
        name, ok = (ask or QInputDialog.getText)(self, self.tr("Save preset"), self.tr("Preset name:"))
        name = name.strip()
        if ok and name and name not in PRESETS:
            self.save_preset_as(name)

    def save_preset_as(self, name: str) -> None:
        self.user_presets[name] = self.settings()
        self._refill_presets()
        self.select_preset(name)
        self.presetSaved.emit(name, self.user_presets[name])

    # -- what the engine supports ----------------------------------------------------------------------
    def set_capabilities(self, caps: dict[str, object]) -> None:
        """Disable (with the reason as tooltip) each setting the engine cannot apply."""
        unsupported = dict(caps.get("unsupported_settings") or {})  # type: ignore[call-overload]
        for name, row in self.rows.items():
            row.setEnabled(name not in unsupported)
            row.setToolTip(str(unsupported.get(name, "")))
        self.order.setEnabled("samplers" not in unsupported)

    # -- values --------------------------------------------------------------------------------------
    def set_settings(self, settings: SamplerSettings) -> None:
        self._quiet = True
        for name, row in self.rows.items():
            row.set_value(getattr(settings, name))
        self.order.setCurrentIndex(max(0, next((i for i, chain in enumerate(LEGACY_ORDERS.values()) if chain == settings.samplers), 0)))
        self.fixed_seed.setChecked(settings.seed is not None)
        if settings.seed is not None:
            self.seed.setValue(int(settings.seed) % 2**31)
        self._quiet = False
        self._emit()

    def settings(self) -> SamplerSettings:
        values: dict[str, Any] = {name: (row.value() if FIELDS[name][3] else int(row.value()))
                                  for name, row in self.rows.items()}
        return replace(SamplerSettings(), **values, samplers=LEGACY_ORDERS[self.order.currentData()],
                       seed=self.seed.value() if self.fixed_seed.isChecked() else None)

    def stop_sequences(self) -> tuple[str, ...]:
        parts = [p.strip().replace("\\n", "\n") for p in self.stops.text().split(",")]
        return tuple(p for p in parts if p)

    def _emit(self) -> None:
        if not self._quiet:
            settings = self.settings()
            self._show_matching_preset(settings)
            self.settingsChanged.emit(settings)

    def _show_matching_preset(self, settings: SamplerSettings) -> None:
        """The preset box names the preset the sliders match, or says "Custom"."""
        bare = replace(settings, seed=None)
        name = next((n for n, p in {**PRESETS, **self.user_presets}.items() if replace(p, seed=None) == bare), None)
        self.presets.blockSignals(True)
        custom = self.presets.findData(CUSTOM)
        if name is None:
            if custom < 0:
                self.presets.addItem(self.tr("Custom"), CUSTOM)
            self.presets.setCurrentIndex(self.presets.findData(CUSTOM))
        else:
            if custom >= 0:
                self.presets.removeItem(custom)
            self.select_preset(name)
        self.presets.blockSignals(False)


