"""One file of the Steering dock: its name and on/off, a scale slider with its box, remove, and a caption that
says what the slider's range means (or why the file is not applied)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.ui.common.spin_boxes import DoubleSpinBox
from logitscope.ui.common.wheel_guard import guard_wheel
from logitscope.ui.steering.model import SteeringFile

SLIDER_STEPS = 500  # each way from 0


class ScaleControl(QWidget):
    """A slider over -span .. span and a box that takes any scale within -limit .. limit (the slider then
    stops at its end). `changed` carries the box's value."""

    changed = Signal(float)

    def __init__(self, span: float, limit: float, value: float = 1.0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(-SLIDER_STEPS, SLIDER_STEPS)
        self.slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.slider.setTickInterval(SLIDER_STEPS)  # a tick at 0 and at each end
        self.spin = DoubleSpinBox()
        self.spin.setRange(-limit, limit)
        self.spin.setDecimals(2)
        self.spin.setKeyboardTracking(False)
        self.spin.setMinimumWidth(84)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.spin)
        self.span = span
        self._sync = False
        self.spin.setValue(value)
        self.set_span(span)
        self.slider.valueChanged.connect(self._from_slider)
        self.spin.valueChanged.connect(self._from_spin)
        guard_wheel(self)   # the rows come and go with the files: each guards itself

    def value(self) -> float:
        return self.spin.value()

    def set_value(self, value: float) -> None:
        self.spin.setValue(value)  # the box's valueChanged moves the slider and says so

    def set_span(self, span: float) -> None:
        """Another reach for the slider; the value stays."""
        self.span = span
        self.spin.setSingleStep(span / 100)
        self._place_slider()

    def setToolTip(self, tip: str) -> None:  # noqa: N802 - Qt's name: the slider and the box say it too
        super().setToolTip(tip)
        self.slider.setToolTip(tip)
        self.spin.setToolTip(tip)

    def _place_slider(self) -> None:
        self._sync = True
        position = round(self.spin.value() / self.span * SLIDER_STEPS)
        self.slider.setValue(max(-SLIDER_STEPS, min(SLIDER_STEPS, position)))
        self._sync = False

    def _from_slider(self, position: int) -> None:
        if self._sync:
            return
        self._sync = True
        self.spin.setValue(round(self.span * position / SLIDER_STEPS, 2))
        self._sync = False
        self.changed.emit(self.spin.value())

    def _from_spin(self, value: float) -> None:
        if self._sync:
            return
        self._place_slider()
        self.changed.emit(value)


class FileRow(QFrame):
    """A control vector or LoRA adapter of the dock; edits go to its SteeringFile, then `changed`."""

    changed = Signal()
    removeRequested = Signal()

    def __init__(self, item: SteeringFile, span: float, limit: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self.setObjectName("steeringRow")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)  # scrolled, never squeezed
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        header = QHBoxLayout()
        self.check = QCheckBox(item.name)
        self.check.setChecked(item.enabled)
        self.check.setToolTip(item.path)
        self.check.toggled.connect(self._toggled)
        header.addWidget(self.check, 1)
        self.remove_button = QToolButton()
        self.remove_button.setText("✕")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(self.tr("Remove {0} from the dock (the file stays)").format(item.name))
        self.remove_button.clicked.connect(self.removeRequested)
        header.addWidget(self.remove_button)
        layout.addLayout(header)
        self.scale = ScaleControl(span, limit, item.scale)
        self.scale.changed.connect(self._scaled)
        layout.addWidget(self.scale)
        self.caption = QLabel()
        self.caption.setObjectName("answerStatus")  # the quiet colour of secondary text
        self.caption.setWordWrap(True)
        self.caption.hide()   # until there is something to say (a vector's slider range)
        layout.addWidget(self.caption)
        self.problem = QLabel()
        self.problem.setObjectName("settingProblem")
        self.problem.setWordWrap(True)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.problem)
        self.show_problem()

    def set_caption(self, text: str, tip: str = "") -> None:
        self.caption.setText(text)
        self.caption.setToolTip(tip)
        self.caption.setVisible(bool(text))

    def show_problem(self) -> None:
        """The file's problem (the engine refused it), or none; a file with one is shown off."""
        problem = self.item.problem
        self.problem.setText(self.tr("Not applied: {0}").format(problem) if problem else "")
        self.problem.setVisible(bool(problem))
        if problem:
            self.item.enabled = False
            self.check.blockSignals(True)
            self.check.setChecked(False)
            self.check.blockSignals(False)

    def _toggled(self, on: bool) -> None:
        self.item.enabled = on
        if on and self.item.problem:  # turned on again by hand: tried again at the next request
            self.item.problem = ""
            self.show_problem()
        self.changed.emit()

    def _scaled(self, value: float) -> None:
        self.item.scale = value
        self.changed.emit()
