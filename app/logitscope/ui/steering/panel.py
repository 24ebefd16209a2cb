"""The Steering dock's content: the master switch, the layer range, the control vectors (Load…, Build…) and the
LoRA adapters (Add…), each a row with on/off, a scale and remove. Its state (model.DockState) is what the next
request gets (`steering()`); every edit emits `changed`. Files are opened, built and checked by the controller
(controller.py): the panel only shows and edits."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Signal, SignalInstance
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.protocol.steering import Steering
from logitscope.ui.common.spin_boxes import SpinBox
from logitscope.ui.steering.model import (
    ADAPTER_LIMIT,
    ADAPTER_SPAN,
    VECTOR_LIMIT,
    DockState,
    SteeringFile,
    equal_norm_scale,
    scale_span,
)
from logitscope.ui.steering.rows import FileRow

MAX_LAYERS = 1024  # the spin boxes' reach before a model says how many it has


class SteeringPanel(QWidget):
    changed = Signal()               # what the next request gets may have changed (and what is remembered)
    loadRequested = Signal()         # Load… a control vector
    buildRequested = Signal()        # Build… one from prompt pairs
    addAdapterRequested = Signal()   # Add… a LoRA adapter
    compareRequested = Signal()      # Compare… the selected answer with and without steering

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = DockState()
        self.rows: dict[str, FileRow] = {}
        self.resid_norm: np.ndarray | None = None   # the residual stream's norm per lens row, once measured
        self.measured_where = ""                     # what it was measured on, for the captions' tips
        self.n_layer: int | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        self.master = QCheckBox(self.tr("Steering on"))
        font = self.master.font()
        font.setBold(True)
        self.master.setFont(font)
        self.master.setToolTip(self.tr(
            "Apply the control vectors and adapters below to every answer from the next one on (no reload of "
            "the model). Off at every start of Logitscope."))
        self.master.toggled.connect(self._switched)
        top = QHBoxLayout()
        top.addWidget(self.master, 1)
        self.compare_button = QPushButton(self.tr("Compare…"))
        self.compare_button.setToolTip(self.tr("Regenerate the selected answer with and without steering, side by "
                                               "side (Ctrl+Shift+D)"))
        self.compare_button.clicked.connect(self.compareRequested)
        top.addWidget(self.compare_button)
        layout.addLayout(top)
        self.unavailable = QLabel()
        self.unavailable.setObjectName("settingProblem")
        self.unavailable.setWordWrap(True)
        self.unavailable.hide()
        layout.addWidget(self.unavailable)
        layout.addLayout(self._range_row())
        header, (self.load_button, self.build_button) = self._header(self.tr("<b>Control vectors</b>"), (
            (self.tr("Load…"), self.tr("Add a llama.cpp control-vector GGUF (what llama-cvector-generator writes)"),
             self.loadRequested),
            (self.tr("Build…"), self.tr("Build a control vector from pairs of prompts, as llama-cvector-generator "
                                        "does, in the engine process"), self.buildRequested)))
        layout.addLayout(header)
        self.vector_box = QVBoxLayout()
        self.no_vectors = self._empty(self.tr("No control vector. Load a llama.cpp control-vector file or build "
                                              "one from prompt pairs."))
        self.vector_box.addWidget(self.no_vectors)
        layout.addLayout(self.vector_box)
        header, (self.add_button,) = self._header(self.tr("<b>LoRA adapters</b>"), (
            (self.tr("Add…"), self.tr("Add a GGUF LoRA adapter of this model (what llama.cpp's "
                                      "convert_lora_to_gguf.py writes)"), self.addAdapterRequested),))
        layout.addLayout(header)
        self.adapter_box = QVBoxLayout()
        self.no_adapters = self._empty(self.tr("No adapter. A scale of 1 applies it as it was trained."))
        self.adapter_box.addWidget(self.no_adapters)
        layout.addLayout(self.adapter_box)
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.hide()
        layout.addWidget(self.notice)
        layout.addStretch(1)

    def _range_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        tip = self.tr("The layers whose output the control vectors are added to, first to last, inclusive "
                      "(llama.cpp's --control-vector-layer-range). Layer 0 is never steered.")
        label = QLabel(self.tr("Layers"))
        label.setToolTip(tip)
        row.addWidget(label)
        self.first_layer, self.last_layer = SpinBox(), SpinBox()
        for box in (self.first_layer, self.last_layer):
            box.setRange(1, MAX_LAYERS)
            box.setKeyboardTracking(False)
            box.setToolTip(tip)
        self.last_layer.setValue(MAX_LAYERS)
        row.addWidget(self.first_layer)
        row.addWidget(QLabel(self.tr("to")))
        row.addWidget(self.last_layer)
        row.addStretch(1)
        self.first_layer.valueChanged.connect(self._range_changed)
        self.last_layer.valueChanged.connect(self._range_changed)
        return row

    @staticmethod
    def _header(title: str, buttons: tuple[tuple[str, str, SignalInstance], ...]
                ) -> tuple[QHBoxLayout, list[QPushButton]]:
        """A section's title and its buttons (text, tip, the signal a click emits)."""
        row = QHBoxLayout()
        row.setContentsMargins(0, 8, 0, 0)
        row.addWidget(QLabel(title), 1)
        made = []
        for text, tip, signal in buttons:
            button = QPushButton(text)
            button.setToolTip(tip)
            button.clicked.connect(signal)
            row.addWidget(button)
            made.append(button)
        return row, made

    @staticmethod
    def _empty(text: str) -> QLabel:
        label = QLabel(text)
        label.setObjectName("answerStatus")
        label.setWordWrap(True)
        return label

    # -- what the next request gets ------------------------------------------------------------------------
    def steering(self) -> Steering | None:
        return self.state.steering()

    def set_on(self, on: bool) -> None:
        self.master.setChecked(on)

    def _switched(self, on: bool) -> None:
        self.state.on = on
        self.changed.emit()

    def _range_changed(self) -> None:
        first, last = self.first_layer.value(), self.last_layer.value()
        self.first_layer.setMaximum(last)  # START after END would apply nothing (llama.cpp says nothing)
        self.last_layer.setMinimum(first)
        self.state.layer_start = first
        self.state.layer_end = 0 if last >= self._last_layer() else last  # 0: to the model's last
        self._update_spans()
        self.changed.emit()

    def layer_range(self) -> tuple[int, int]:
        return self.first_layer.value(), self.last_layer.value()

    # -- the model -----------------------------------------------------------------------------------------
    def set_model(self, n_layer: int | None, reason: str = "") -> None:
        """The loaded model's layers (None: none loaded); `reason`: why it cannot be steered ("" if it can)."""
        self.n_layer = n_layer
        self.unavailable.setText(reason)
        self.unavailable.setVisible(bool(reason))
        top = self._last_layer()
        start = min(self.state.layer_start, top)
        end = top if self.state.layer_end == 0 or self.state.layer_end > top else self.state.layer_end
        self._set_range(start, end, top)

    def _last_layer(self) -> int:
        """The last layer a control vector can steer: the model's last (layers 1 to n_layer - 1 take one)."""
        return max(self.n_layer - 1, 1) if self.n_layer else MAX_LAYERS

    def _set_range(self, start: int, end: int, top: int) -> None:
        for box in (self.first_layer, self.last_layer):
            box.blockSignals(True)
        self.first_layer.setRange(1, top)
        self.last_layer.setRange(1, top)
        self.first_layer.setValue(start)
        self.last_layer.setValue(max(start, end))
        for box in (self.first_layer, self.last_layer):
            box.blockSignals(False)
        self._range_changed()

    def set_residual(self, resid_norm: np.ndarray | None, where: str) -> None:
        """The residual stream's norm after each layer (the lens's rows), measured on `where`."""
        self.resid_norm, self.measured_where = resid_norm, where
        self._update_spans()

    # -- the files -----------------------------------------------------------------------------------------
    def load_state(self, state: DockState) -> None:
        """Show another state (the remembered one): its rows, its range; the master switch as it says."""
        for path in list(self.rows):
            self._drop_row(path)
        self.state = DockState(on=False, layer_start=state.layer_start, layer_end=state.layer_end)
        for item in state.vectors:
            self.add_vector(item)
        for item in state.adapters:
            self.add_adapter(item)
        self.set_model(self.n_layer, self.unavailable.text())
        self.master.setChecked(state.on)

    def add_vector(self, item: SteeringFile) -> FileRow:
        self.state.vectors.append(item)
        row = self._add_row(item, self.vector_box, self.no_vectors, scale_span(None), VECTOR_LIMIT)
        row.scale.setToolTip(self.tr("The vector's scale (llama.cpp's --control-vector-scaled): a positive scale "
                                     "adds the direction to the residual stream, a negative one subtracts it, 0 "
                                     "gives the unsteered answer. Several vectors add up."))
        self._update_spans()
        return row

    def add_adapter(self, item: SteeringFile) -> FileRow:
        self.state.adapters.append(item)
        row = self._add_row(item, self.adapter_box, self.no_adapters, ADAPTER_SPAN, ADAPTER_LIMIT)
        row.scale.setToolTip(self.tr("The adapter's scale (llama.cpp's --lora-scaled): 1 applies it as trained, "
                                     "0 not at all, a negative scale pushes the other way"))
        return row

    def _add_row(self, item: SteeringFile, box: QVBoxLayout, empty: QLabel, span: float, limit: float) -> FileRow:
        row = FileRow(item, span, limit)
        row.changed.connect(self.changed)
        row.removeRequested.connect(lambda path=item.path: self.remove(path))
        box.addWidget(row)
        empty.hide()
        self.rows[item.path] = row
        self.changed.emit()
        return row

    def remove(self, path: str) -> None:
        item = self.state.find(path)
        if item is None:
            return
        for items in (self.state.vectors, self.state.adapters):
            if item in items:
                items.remove(item)
        self._drop_row(path)
        self.no_vectors.setVisible(not self.state.vectors)
        self.no_adapters.setVisible(not self.state.adapters)
        self.changed.emit()

    def _drop_row(self, path: str) -> None:
        row = self.rows.pop(path, None)
        if row is not None:
            row.setParent(None)
            row.deleteLater()

    def mark_problem(self, path: str, problem: str) -> None:
        """The file cannot be applied (the engine said why): shown off with the reason, left out of requests."""
        row = self.rows.get(path)
        if row is None:
            return
        row.item.problem = problem
        row.show_problem()
        self.changed.emit()

    def show_notice(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    # -- the sliders' reach --------------------------------------------------------------------------------
    def _update_spans(self) -> None:
        start, end = self.layer_range()
        for item in self.state.vectors:
            row = self.rows.get(item.path)
            if row is None:
                continue
            equal = equal_norm_scale(self.resid_norm, item.directions, start, end)
            span = scale_span(equal)
            row.scale.set_span(span)
            if equal is None:
                row.set_caption(self.tr("Slider ±{0:g} (the residual stream is not measured yet)").format(span),
                                self.tr("Once the residual stream's norm is measured (the Layers dock, or a short "
                                        "text evaluated for it), the slider reaches about 1.5 times the scale at "
                                        "which what this vector adds over the layers is as large as the residual "
                                        "stream it is added to."))
                continue
            row.set_caption(
                self.tr("Slider ±{0:g} · at scale {1:.3g} the vector adds as much as the residual stream holds").format(
                    span, equal),
                self.tr("Scale at which what the vector adds over layers {1}–{2} (its directions there, summed: the "
                        "residual stream carries each addition on) is as large as the residual stream after layer "
                        "{2}: {0:.1f} (the residual measured on {3}). The slider reaches 1.5 times that, rounded. A "
                        "unit vector at scale 0.8 does nothing visible on a residual of norm 40; llama.cpp's sign: "
                        "a positive scale adds the direction, a negative one subtracts it.").format(
                    equal, start, end, self.measured_where))

