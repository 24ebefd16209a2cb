"""Model ▸ Quantize… (Ctrl+Shift+Q): a GGUF model quantized by llama.cpp's own llama_model_quantize, as
`logitscope quantize` and llama-quantize do: the source (the loaded model by default, or any GGUF file), the
type, requantizing, an optional importance matrix, the file to write (the source's name with the new type).

The job (host/quantize_job.py) starts an engine process of its own, never the chat's: the chat stays usable.
It runs on a worker thread (quantize_runner.py); its estimate and progress come back as signals. Cancel, or
closing the dialog while it runs (after asking), ends that process and deletes the half-written file. When it
is done: the sizes and bits per weight before and after, the time, and the quantized model to load or to
compare with the original.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import LogitscopeError
from logitscope.base.messages import Message
from logitscope.gguf.memory import format_bytes
from logitscope.host.client import CancelledError
from logitscope.host.quantize_job import quantize_model
from logitscope.protocol.api import ModelInfo
from logitscope.protocol.quantize import QUANT_TYPES, ModelSize, QuantizeRequest, QuantizeResult, QuantType
from logitscope.ui.common.messages import translate_sentence
from logitscope.ui.models.quantize_runner import QuantizeJob, QuantizeRunner
from logitscope.ui.models.quantize_source import SourceFacts, default_target, read_source

if TYPE_CHECKING:
    from logitscope.ui.controllers.model import ModelController
    from logitscope.ui.window.actions import ActionRegistry

SHORTCUT = "Ctrl+Shift+Q"
DEFAULT_TYPE = "Q4_K_M"     # the usual choice: a quarter of F16's size at a small cost in quality
PROGRESS_STEPS = 1000
CLOSE_WAIT_S = 10.0         # the window closing: how long the cancelled job may take to clean up
# the engine's refusal of an already-quantized model (engine/quantize.py): reworded for the dialog's checkbox
REQUANTIZE_REFUSAL = ("the model is quantized already ({reason}): allow requantizing (--allow-requantize) to "
                      "quantize it again, at some cost in quality")
ERROR_STYLE = "color: #c62828;"


class QuantizeDialog(QDialog):
    """`load(path)`: load the quantized model (the Load dialog's way); `compare(original, quantized)`: compare
    the two (Score ▸ KL divergence); either None hides its button. `job`: quantize_model, or a stand-in."""

    def __init__(self, load: Callable[[str], object] | None = None,
                 compare: Callable[[str, str], None] | None = None, job: QuantizeJob = quantize_model,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.load, self.compare = load, compare
        self.runner = QuantizeRunner(job, self)
        self.runner.estimated.connect(self._estimated)
        self.runner.progressed.connect(self._progressed)
        self.runner.succeeded.connect(self._succeeded)
        self.runner.failed.connect(self._failed)
        self.facts: SourceFacts | None = None     # the source's, when it reads
        self.quantized: QuantizeResult | None = None
        self.error = ""                            # the message shown for the last failure ("" none)
        self.estimate: int | None = None           # bytes, once the running job's dry run said
        self._request: QuantizeRequest | None = None   # the running or last one
        self._auto_target = ""                     # the target as last filled in: it follows source and type
        self._confirmed_target = ""                # replacing it was confirmed in the save dialog
        self._default_source = ""                  # the source as last filled in from the loaded model
        self.setWindowTitle(self.tr("Quantize a model"))
        self.resize(760, 0)
        layout = QVBoxLayout(self)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        layout.addLayout(form)
        self._form = form

        self.source = QLineEdit()
        self.source.setPlaceholderText(self.tr("The GGUF model to quantize"))
        self.source.textChanged.connect(lambda *_: self._source_changed())
        self.source_button = QPushButton(self.tr("Browse…"))
        self.source_button.clicked.connect(lambda: self.browse_source())
        form.addRow(self.tr("Model:"), _row(self.source, self.source_button))
        self.source_info = QLabel()
        self.source_info.setWordWrap(True)
        form.addRow("", self.source_info)

        self.type = QComboBox()
        for qtype in QUANT_TYPES:
            self.type.addItem(self._type_text(qtype), qtype.name)
            self.type.setItemData(self.type.count() - 1, self._type_tip(qtype), Qt.ItemDataRole.ToolTipRole)
        self.type.setCurrentIndex(self.type.findData(DEFAULT_TYPE))
        self.type.setToolTip(self.tr(
            "llama-quantize's types, the most used first. The size and perplexity figures are llama.cpp's own, "
            "for Llama 3 8B: fewer bits per weight give a smaller, faster model that is a little less accurate."))
        self.type.currentIndexChanged.connect(lambda *_: self._type_changed())
        form.addRow(self.tr("Type:"), self.type)
        self.type_note = QLabel()
        self.type_note.setWordWrap(True)
        form.addRow("", self.type_note)

        self.requantize = QCheckBox(self.tr("Allow requantizing"))
        self.requantize.setToolTip(self.tr(
            "Quantize tensors that are quantized already (llama-quantize's --allow-requantize).\n"
            "llama.cpp refuses an already-quantized model without it, so it is ticked for such a model and "
            "left off for an F16, BF16 or F32 one.\n"
            "Requantizing costs quality: the errors of both quantizations add up. Quantize the original "
            "F16 or BF16 model when you have it."))
        form.addRow("", self.requantize)

        self.imatrix = QLineEdit()
        self.imatrix.setClearButtonEnabled(True)
        self.imatrix.setPlaceholderText(self.tr("None (optional)"))
        self.imatrix.setToolTip(self.tr(
            "An importance matrix made with llama-imatrix (its GGUF file or the older .dat): which weights "
            "matter most for the text it was computed on. It helps the low-bit types most; the IQ1, IQ2 and "
            "IQ3_XXS types and Q2_K_S need one."))
        self.imatrix.textChanged.connect(lambda *_: self._type_changed())
        self.imatrix_button = QPushButton(self.tr("Browse…"))
        self.imatrix_button.clicked.connect(lambda: self.browse_imatrix())
        form.addRow(self.tr("Importance matrix:"), _row(self.imatrix, self.imatrix_button))

        self.target = QLineEdit()
        self.target.setPlaceholderText(self.tr("The file to write"))
        self.target_button = QPushButton(self.tr("Browse…"))
        self.target_button.clicked.connect(lambda: self.browse_target())
        form.addRow(self.tr("Save as:"), _row(self.target, self.target_button))

        progress_row = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, PROGRESS_STEPS)
        self.progress.setVisible(False)
        progress_row.addWidget(self.progress, 1)
        self.estimate_label = QLabel()
        progress_row.addWidget(self.estimate_label)
        layout.addLayout(progress_row)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)
        layout.addStretch(1)   # a taller dialog keeps its rows together, the room above the buttons

        buttons = QHBoxLayout()
        self.load_button = QPushButton(self.tr("Load the quantized model"))
        self.load_button.setToolTip(self.tr("Open it in the chat, with the load settings dialog"))
        self.load_button.clicked.connect(lambda: self.load_quantized())
        self.compare_button = QPushButton(self.tr("Compare with the original"))
        self.compare_button.setToolTip(self.tr(
            "How far the quantized model's token distributions are from the original's on a text (KL "
            "divergence, as llama-perplexity measures it), in the Score dialog"))
        self.compare_button.clicked.connect(lambda: self.compare_quantized())
        for button in (self.load_button, self.compare_button):
            button.setVisible(False)
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.quantize_button = QPushButton(self.tr("Quantize"))
        self.quantize_button.setDefault(True)
        self.quantize_button.clicked.connect(lambda: self.start())
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the quantization: the half-written file is deleted"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button = QPushButton(self.tr("Close"))
        self.close_button.clicked.connect(self.reject)
        for button in (self.quantize_button, self.cancel_button, self.close_button):
            buttons.addWidget(button)
        layout.addLayout(buttons)
        self._source_changed()
        self._type_changed()

    # -- the choices ------------------------------------------------------------------------------------
    def _type_text(self, qtype: QuantType) -> str:
        text = f"{qtype.name} — {' '.join(qtype.description.split())}"   # (llama-quantize pads its columns)
        return text + " — " + self.tr("needs an importance matrix") if qtype.needs_imatrix else text

    def _type_tip(self, qtype: QuantType) -> str:
        tip = self.tr("llama-quantize's figures for {0}: {1}").format(qtype.name, qtype.description)
        return tip + "\n" + self.tr("Needs an importance matrix.") if qtype.needs_imatrix else tip

    @property
    def running(self) -> bool:
        return self.runner.running

    def selected_type(self) -> QuantType:
        name = self.type.currentData()
        return next(t for t in QUANT_TYPES if t.name == name)

    def select_type(self, name: str) -> None:
        self.type.setCurrentIndex(self.type.findData(name))

    def set_source(self, path: str) -> None:
        self.source.setText(path)

    def open_with(self, path: str) -> None:
        """The dialog as Model ▸ Quantize… opens it: the source is the model the chat knows (loaded, or the
        last one), unless one was chosen here or a job runs."""
        if path and not self.running and self.source.text() in ("", self._default_source):
            self._default_source = path
            self.set_source(path)
        self.show()
        self.raise_()
        self.activateWindow()
        if not self.running:
            self.type.setFocus()   # the choice most often changed; the source is filled in

    def _source_changed(self) -> None:
        path = self.source.text().strip()
        self.facts = None
        self.source_info.setStyleSheet("")
        if not path:
            self.source_info.setText(self.tr("Choose a GGUF model: Browse…, or load one in the chat first."))
        elif not _is_file(path):
            self.source_info.setText(self.tr("There is no file at this path."))
        else:
            try:
                self.facts = read_source(path)
            except (LogitscopeError, OSError) as exc:   # no GGUF; a file that cannot be read
                self.source_info.setStyleSheet(ERROR_STYLE)
                self.source_info.setText(translate_sentence(exc))
            else:
                self.source_info.setText(self._describe(self.facts))
                self.requantize.setChecked(self.facts.quantized)
        self._follow_target()

    def _describe(self, facts: SourceFacts) -> str:
        text = self.tr("{0}, {1:.2f} bits per weight, mostly {2}").format(
            format_bytes(facts.size.file_bytes), facts.size.bpw, facts.main_type)
        if facts.quantized:
            text += "\n" + self.tr("It is quantized already: quantizing it again costs more quality than "
                                   "quantizing its F16 or BF16 original.")
        return text

    def _type_changed(self) -> None:
        qtype = self.selected_type()
        if qtype.needs_imatrix and not self.imatrix.text().strip():
            self.type_note.setText(self.tr("{0} needs an importance matrix: choose one below (made with "
                                           "llama-imatrix), or pick another type.").format(qtype.name))
        else:
            self.type_note.setText("")
        self._form.setRowVisible(self.type_note, bool(self.type_note.text()))
        self._follow_target()

    def _follow_target(self) -> None:
        """The target follows the source and the type until it is edited by hand."""
        source = self.source.text().strip()
        if self.target.text() not in ("", self._auto_target) or not source:
            return
        self._auto_target = default_target(source, self.selected_type().name)
        self.target.setText(self._auto_target)

    def browse_source(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("The model to quantize"), self._folder(),
                                              self.tr("GGUF models (*.gguf)"))
        if path:
            self.set_source(path)

    def browse_imatrix(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("An importance matrix"), self._folder(),
                                              self.tr("Importance matrices (*.gguf *.dat);;All files (*)"))
        if path:
            self.imatrix.setText(path)

    def browse_target(self) -> None:
        start = self.target.text().strip() or self._folder()
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save the quantized model as"), start,
                                              self.tr("GGUF models (*.gguf)"))
        if path:
            self._confirmed_target = path   # the save dialog asked before choosing an existing file
            self.target.setText(path)

    def _folder(self) -> str:
        source = self.source.text().strip()
        return str(Path(source).parent) if source else ""

    # -- running ----------------------------------------------------------------------------------------
    def start(self) -> bool:
        """Check what can be checked here, ask before replacing a file, then quantize off the GUI thread."""
        if self.running:
            return False
        source, target, imatrix = (w.text().strip() for w in (self.source, self.target, self.imatrix))
        qtype = self.selected_type()
        if not source:
            return self._refuse(self.tr("Choose the model to quantize."))
        if self.facts is None:
            return self._refuse(self.source_info.text() or self.tr("There is no file at this path."))
        if qtype.needs_imatrix and not imatrix:
            return self._refuse(self.tr("{0} needs an importance matrix (made with llama-imatrix): choose one, or "
                                        "pick another type.").format(qtype.name))
        if not target:
            return self._refuse(self.tr("Give the file name of the quantized model."))
        overwrite = False
        if _is_file(target) and not _same_file(source, target):
            if target != self._confirmed_target and not self._ask(
                    self.tr("Replace the file?"),
                    self.tr("{0} exists already. Replace it with the quantized model?").format(target)):
                self._show(self.tr("Nothing was written: choose another file name to keep {0}.").format(
                    Path(target).name))
                return False
            overwrite = True
        request = QuantizeRequest(source=source, target=target, type=qtype.name,
                                  allow_requantize=self.requantize.isChecked(), imatrix=imatrix or None,
                                  overwrite=overwrite)
        try:
            request.validate()
        except LogitscopeError as exc:   # a name too long for the file system too: validate() says so
            return self._refuse(translate_sentence(exc))
        self._request, self.quantized, self.estimate, self.error = request, None, None, ""
        self.runner.start(request)
        self.progress.setRange(0, 0)   # busy until the dry run said how big the file will be
        self.progress.setVisible(True)
        self.estimate_label.setText("")
        self._show(self.tr("Checking the disk space (llama.cpp's dry run)…"))
        self._set_running(True)
        return True

    def cancel(self) -> None:
        if self.running:
            self.runner.cancel()
            self.cancel_button.setEnabled(False)
            self._show(self.tr("Stopping…"))

    def _estimated(self, need: int) -> None:
        self.estimate = need
        self.estimate_label.setText(self.tr("Estimated size: about {0}").format(format_bytes(need)))
        if not self.runner.cancelling:
            self.progress.setRange(0, PROGRESS_STEPS)
            self.progress.setValue(0)
            self._show(self.tr("Quantizing to {0}…").format(self._type_name()))

    def _progressed(self, fraction: float) -> None:
        if self.runner.cancelling:
            return
        self.progress.setRange(0, PROGRESS_STEPS)
        self.progress.setValue(round(fraction * PROGRESS_STEPS))
        self._show(self.tr("Quantizing to {0}: {1} %").format(self._type_name(), int(fraction * 100)))

    def _succeeded(self, result: QuantizeResult) -> None:
        self.quantized = result
        self._set_running(False)
        self.progress.setRange(0, PROGRESS_STEPS)
        self.progress.setValue(PROGRESS_STEPS)
        self._confirmed_target = ""
        self._show(self.result_text(result))
        self.load_button.setVisible(self.load is not None)
        self.compare_button.setVisible(self.compare is not None)
        if self.load is not None:
            self.load_button.setFocus()   # the next step, one key away

    def result_text(self, result: QuantizeResult) -> str:
        return self.tr("Done in {0:.1f} s: {1} → {2} ({3}).\nSaved as {4}").format(
            result.seconds, self._size_text(result.before), self._size_text(result.after), result.type,
            result.target)

    def _size_text(self, size: ModelSize) -> str:
        return self.tr("{0}, {1:.2f} bpw").format(format_bytes(size.file_bytes), size.bpw)

    def _failed(self, error: BaseException) -> None:
        self._set_running(False)
        self.progress.setVisible(False)
        self.estimate_label.setText("")
        if isinstance(error, CancelledError):
            self._show(self.tr("Stopped: nothing was written."))
        else:
            self._refuse(self.error_text(error))

    def error_text(self, error: BaseException) -> str:
        """One clear sentence in the interface language: a bug is said to be one, never as a traceback."""
        message = getattr(error, "message", None)
        if isinstance(message, Message) and message.template == REQUANTIZE_REFUSAL:
            return self.tr("This model is quantized already ({0}): tick “Allow requantizing” to quantize it "
                           "again, at some cost in quality.").format(message.params.get("reason", ""))
        if isinstance(error, LogitscopeError):
            return translate_sentence(error)
        return self.tr("Internal error (a bug; the details are in the log): {0}: {1}").format(
            type(error).__name__, error)

    def _set_running(self, running: bool) -> None:
        for widget in (self.source, self.source_button, self.type, self.requantize, self.imatrix,
                       self.imatrix_button, self.target, self.target_button, self.quantize_button):
            widget.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        if running:
            self.load_button.setVisible(False)
            self.compare_button.setVisible(False)

    def _type_name(self) -> str:
        return self._request.type if self._request is not None else self.selected_type().name

    def _show(self, text: str) -> None:
        self.status.setStyleSheet("")
        self.status.setText(text)

    def _refuse(self, message: str) -> bool:
        self.error = message
        self.status.setStyleSheet(ERROR_STYLE)
        self.status.setText(message)
        return False

    def _ask(self, title: str, text: str) -> bool:
        answer = QMessageBox.question(self, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    # -- when it is done ------------------------------------------------------------------------------------
    def load_quantized(self) -> None:
        if self.quantized is not None and self.load is not None and self.load(self.quantized.target):
            self.accept()

    def compare_quantized(self) -> None:
        if self.quantized is not None and self._request is not None and self.compare is not None:
            self.compare(self._request.source, self.quantized.target)

    # -- closing ----------------------------------------------------------------------------------------
    def reject(self) -> None:
        """Esc, Close or the title bar's ×: while a job runs, ask first; stopping it deletes the half-written file."""
        if self.running and not self.runner.cancelling:
            if not self._ask(self.tr("Stop the quantization?"),
                             self.tr("The quantization is still running. Stop it? The half-written file is "
                                     "deleted.")):
                return
            self.cancel()
        super().reject()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """The window closing stops a running job and waits for it to clean up (no half-written file left)."""
        if watched is self.parent() and event.type() == QEvent.Type.Close and self.running:
            self.runner.cancel()
            self.runner.wait(CLOSE_WAIT_S)
        return False


def _row(*widgets: QWidget) -> QWidget:
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(widgets[0], 1)
    for widget in widgets[1:]:
        layout.addWidget(widget)
    return row


def _is_file(path: str) -> bool:
    """Path.is_file, False for a path the system refuses (a name too long: Python 3.11 raises then)."""
    try:
        return Path(path).is_file()
    except OSError:
        return False


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def known_model(models: ModelController) -> str:
    """The local model file the chat knows: the loaded one, else the last one loaded (this run or before)."""
    info = models.info
    if isinstance(info, ModelInfo):
        return info.card.path
    last: Any = getattr(models.bridge.local, "last_load", None)
    if last:
        return str(last[0])
    path = models.app_settings.app.last_model_path
    return path if path and _is_file(path) else ""


def install(parent: QWidget, actions: ActionRegistry, model_menu: QMenu, models: ModelController,
            compare: Callable[[str, str], None] | None = None) -> tuple[QuantizeDialog, QAction]:
    """The dialog and its action in the Model menu. No engine need be loaded (the source can be any GGUF file);
    the action is off only when the local engine cannot start (llama.cpp missing), which quantizing needs."""
    dialog = QuantizeDialog(lambda path: models.open_model(path), compare, parent=parent)
    tip = QCoreApplication.translate(
        "QuantizeDialog", "Quantize a GGUF model with llama.cpp, as llama-quantize does: a smaller, faster file")
    action = actions.add(QCoreApplication.translate("QuantizeDialog", "&Quantize…"),
                         lambda: dialog.open_with(known_model(models)), QKeySequence(SHORTCUT), tip)
    model_menu.addAction(action)

    def update() -> None:
        broken = models.capabilities.get("backend") == "unknown" and not dialog.running
        reason = QCoreApplication.translate(
            "QuantizeDialog", "Quantizing needs the local engine (llama.cpp), which could not start.") if broken else ""
        action.setEnabled(not reason)
        action.setStatusTip(reason or tip)
        action.setToolTip(reason or tip)

    parent.installEventFilter(dialog)   # the window closing stops a running job: no half-written file left
    models.changed.connect(update)
    update()
    return dialog, action
