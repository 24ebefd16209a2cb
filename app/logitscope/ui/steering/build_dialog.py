"""Build… a control vector from pairs of prompts, as llama.cpp's llama-cvector-generator does: the two prompt
lists (one prompt a line, llama.cpp's escapes, or loaded from files), the method (mean or PCA), PCA's
iterations, the layers, the output file. The engine process builds it (EngineClient.build_cvector, through the
bridge's worker: the window stays usable) with its progress and Cancel; the result is written here with the
control-vector writer (atomically: a cancelled or failed build leaves no file) and handed to the dock."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from logitscope.base.errors import InvalidSettingsError, LogitscopeError
from logitscope.base.messages import Message
from logitscope.base.output_paths import check_output
from logitscope.base.paths import data_dir
from logitscope.base.utf8 import read_file_bytes
from logitscope.gguf.control_vector import write_control_vector
from logitscope.protocol.api import ModelInfo
from logitscope.protocol.cvector import (
    DEFAULT_PCA_BATCH,
    DEFAULT_PCA_ITERATIONS,
    MAX_PROMPT_FILE_BYTES,
    CvectorRequest,
    CvectorResult,
    parse_prompts,
)
from logitscope.protocol.engine_like import EngineLike
from logitscope.ui.bridge import CANCELLED, JOB_CVECTOR, EngineBridge
from logitscope.ui.common.messages import translate_message, translate_sentence
from logitscope.ui.common.spin_boxes import SpinBox
from logitscope.ui.window import file_folders

PROGRESS_STEPS = 1000


def fresh_output(folder: Path, stem: str = "control-vector") -> Path:
    """folder/stem.gguf, or stem-2.gguf, stem-3.gguf … where that exists (a stem's own -N is dropped first)."""
    stem = re.sub(r"-\d+$", "", stem) or "control-vector"
    path, n = folder / f"{stem}.gguf", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.gguf"
    return path


class PromptList(QWidget):
    """One side's prompts: a text box (one prompt per line) and Load from file…"""

    def __init__(self, title: str, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(title))
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText(placeholder)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # a line is a prompt: shown as one
        self.text.setTabChangesFocus(True)
        layout.addWidget(self.text, 1)
        row = QHBoxLayout()
        self.open_button = QPushButton(self.tr("Load from file…"))
        self.open_button.setToolTip(self.tr("Read the prompts of a text file, as llama-cvector-generator's "
                                            "--positive-file / --negative-file"))
        row.addWidget(self.open_button)
        self.count = QLabel()
        row.addWidget(self.count, 1)
        layout.addLayout(row)
        self.text.textChanged.connect(self._count)
        self._count()

    def prompts(self) -> list[bytes]:
        return parse_prompts(self.text.toPlainText().encode("utf-8"))

    def _count(self) -> None:
        self.count.setText(self.tr("{0} prompt(s)").format(len(self.prompts())))

    def load(self, path: Path) -> None:
        """The file's text in the box (InvalidSettingsError: a folder, too large, not UTF-8)."""
        data = read_file_bytes(path, MAX_PROMPT_FILE_BYTES,
                               Message("{path} is a folder, not a prompt file", path=str(path)),
                               Message("{path} is larger than {limit} MiB: not a prompt file", path=str(path),
                                       limit=MAX_PROMPT_FILE_BYTES >> 20))
        try:
            self.text.setPlainText(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise InvalidSettingsError(self.tr("{0} is not UTF-8 text").format(path)) from None


class BuildDialog(QDialog):
    progressed = Signal(float)   # emitted on the worker thread, delivered on the GUI thread (queued)
    built = Signal(str)          # the file written

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.running = False
        self.reason = ""  # why nothing can be built now ("" when it can)
        self.setWindowTitle(self.tr("Build a control vector"))
        self.resize(900, 600)
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr(
            "Pairs of prompts that differ in what the vector should capture (positive − negative), one prompt per "
            "line, paired line by line; \\n in a line is a line break (llama.cpp's escapes). The model reads each "
            "prompt as written: write its chat format yourself if it needs one."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        lists = QHBoxLayout()
        self.positive = PromptList(self.tr("<b>Positive</b> prompts"), self.tr("I love this! It makes me so happy."))
        self.negative = PromptList(self.tr("<b>Negative</b> prompts"), self.tr("I hate this. It makes me so sad."))
        for side in (self.positive, self.negative):
            side.open_button.clicked.connect(lambda _checked=False, s=side: self.open_prompts(s))
            lists.addWidget(side)
        layout.addLayout(lists, 1)
        layout.addLayout(self._options())
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Output file")))
        self.output = QLineEdit()
        row.addWidget(self.output, 1)
        self.browse_button = QPushButton(self.tr("Browse…"))
        self.browse_button.clicked.connect(lambda: self.choose_output())
        row.addWidget(self.browse_button)
        layout.addLayout(row)
        row = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, PROGRESS_STEPS)
        self.progress.setVisible(False)
        row.addWidget(self.progress, 1)
        self.build_button = QPushButton(self.tr("Build"))
        self.build_button.setDefault(True)
        self.build_button.clicked.connect(self.run)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop building (Esc): no file is written"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button = QPushButton(self.tr("Close"))
        self.close_button.clicked.connect(self.close)
        for button in (self.build_button, self.cancel_button, self.close_button):
            row.addWidget(button)
        layout.addLayout(row)
        self.status = QLabel(self.tr("Write or load the two prompt lists, then Build."))
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)
        self.progressed.connect(lambda f: self.progress.setValue(round(f * PROGRESS_STEPS)))
        self.finished.connect(lambda _code: self.cancel())  # closed while building: the engine stops

    def _options(self) -> QGridLayout:
        grid = QGridLayout()
        grid.addWidget(QLabel(self.tr("Method")), 0, 0)
        self.method = QComboBox()
        self.method.addItem(self.tr("mean of the differences"), "mean")
        self.method.addItem(self.tr("PCA (first principal component)"), "pca")
        self.method.setToolTip(self.tr("llama-cvector-generator's --method: mean (the mean difference, unit length) "
                                       "or pca (the differences' first principal component; its sign is arbitrary)"))
        self.method.currentIndexChanged.connect(lambda _i: self._method_changed())
        grid.addWidget(self.method, 0, 1)
        grid.addWidget(QLabel(self.tr("PCA iterations")), 0, 2)
        self.pca_iterations = SpinBox()
        self.pca_iterations.setRange(DEFAULT_PCA_BATCH, 100 * DEFAULT_PCA_ITERATIONS)
        self.pca_iterations.setSingleStep(DEFAULT_PCA_BATCH)
        self.pca_iterations.setValue(DEFAULT_PCA_ITERATIONS)
        self.pca_iterations.setToolTip(self.tr("--pca-iter: power-iteration steps, in rounds of {0} "
                                               "(--pca-batch)").format(DEFAULT_PCA_BATCH))
        grid.addWidget(self.pca_iterations, 0, 3)
        self.all_layers = QCheckBox(self.tr("All layers"))
        self.all_layers.setChecked(True)
        self.all_layers.setToolTip(self.tr("Every direction the tool writes (layers 1 to the last but one); "
                                           "otherwise --layer-range"))
        grid.addWidget(self.all_layers, 1, 0, 1, 2)
        layers = QHBoxLayout()
        self.first_layer, self.last_layer = SpinBox(), SpinBox()
        layers.addWidget(QLabel(self.tr("Layers")))
        layers.addWidget(self.first_layer)
        layers.addWidget(QLabel(self.tr("to")))
        layers.addWidget(self.last_layer)
        layers.addStretch(1)
        grid.addLayout(layers, 1, 2, 1, 2)
        self.all_layers.toggled.connect(lambda _on: self._method_changed())
        grid.setColumnStretch(4, 1)
        self._method_changed()
        return grid

    def _method_changed(self) -> None:
        self.pca_iterations.setEnabled(self.method.currentData() == "pca")
        for box in (self.first_layer, self.last_layer):
            box.setEnabled(not self.all_layers.isChecked())

    # -- what can be built ---------------------------------------------------------------------------------
    def set_model(self, info: object) -> None:
        """The loaded model (its layers bound the range); without a local one nothing can be built."""
        if isinstance(info, ModelInfo):
            self.reason = ""
            last = max(1, info.card.n_layer - 1)  # the tool leaves the last layer out
            for box in (self.first_layer, self.last_layer):
                box.setRange(1, last)
            self.last_layer.setValue(last)
        elif info is None:
            self.reason = self.tr("Load a model to build a control vector for it.")
        else:
            self.reason = self.tr("Building a control vector needs a local model: a server does not give the "
                                  "residual stream of each layer.")
        self.build_button.setEnabled(not self.reason and not self.running)
        if self.reason and not self.running:
            self.status.setText(self.reason)

    def showEvent(self, event) -> None:  # noqa: ANN001, N802 - Qt's signature
        if not self.output.text():
            try:
                self.output.setText(str(fresh_output(data_dir() / "steering")))
            except LogitscopeError:
                pass  # no data folder: the user chooses where
        super().showEvent(event)

    # -- input ---------------------------------------------------------------------------------------------
    def open_prompts(self, side: PromptList, path: str | None = None) -> bool:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a prompt file"),
                                                  file_folders.start(file_folders.DOCUMENT),
                                                  self.tr("Text files (*.txt);;All files (*)"))
            file_folders.chosen(file_folders.DOCUMENT, path)
            if not path:
                return False
        try:
            side.load(Path(path))
        except LogitscopeError as exc:
            self.status.setText(translate_sentence(exc))
            return False
        return True

    def choose_output(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save the control vector as"), self.output.text(),
                                              self.tr("Control vectors (*.gguf)"))
        if path:
            self.output.setText(path if path.endswith(".gguf") else path + ".gguf")
        return bool(path)

    def request(self) -> CvectorRequest:
        """The request the inputs make (InvalidSettingsError: one clear reason why there is none)."""
        layer_range = None if self.all_layers.isChecked() else (self.first_layer.value(), self.last_layer.value())
        request = CvectorRequest(tuple(self.positive.prompts()), tuple(self.negative.prompts()),
                                 method=self.method.currentData(), pca_iterations=self.pca_iterations.value(),
                                 pca_batch=DEFAULT_PCA_BATCH, layer_range=layer_range)
        request.validate()
        return request

    def output_path(self) -> Path:
        text = self.output.text().strip()
        if not text:
            raise InvalidSettingsError(self.tr("Choose the file to write the control vector to."))
        path = Path(text).expanduser()
        if path.is_dir():
            raise InvalidSettingsError(self.tr("{0} is a folder: choose a file name").format(path))
        if not path.parent.exists():
            return path   # the folder is made when the vector is written
        card = getattr(self.bridge.info, "card", None)
        return check_output(path, (getattr(card, "path", None),))   # never over the model it is built from

    # -- running -------------------------------------------------------------------------------------------
    def run(self) -> None:
        if self.running:
            return
        if self.reason:
            self.status.setText(self.reason)
            return
        try:
            request, path = self.request(), self.output_path()
        except LogitscopeError as exc:
            self.status.setText(translate_sentence(exc))
            return
        self.running = True
        self.build_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress.setVisible(True)
        building = self.tr("Building from {0} pair(s)…").format(len(request.positive))
        self.status.setText(self.tr("Waiting for the engine to finish its current task…") if self.bridge.busy
                            else building)

        local_only = self.tr("Building a control vector needs a local model.")

        def job(client: EngineLike) -> CvectorResult:   # the worker thread
            build = getattr(client, "build_cvector", None)   # by name: a remote engine has none
            if build is None:
                raise InvalidSettingsError(local_only)
            result: CvectorResult = build(request, self.progressed.emit)
            return result

        self.bridge.call(job, lambda result: self._done(result, path), self._failed, kind=JOB_CVECTOR,
                         started=lambda: self.status.setText(building))

    def cancel(self) -> None:
        """Stop this build (queued or running); a chat answer meanwhile goes on."""
        if self.running:
            self.bridge.cancel(JOB_CVECTOR)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() == Qt.Key.Key_Escape and self.running:
            self.cancel()  # Esc stops the build, as in the Score dialog; the dialog stays
            event.accept()
            return
        super().keyPressEvent(event)

    def _finish(self) -> None:
        self.running = False
        self.build_button.setEnabled(not self.reason)
        self.cancel_button.setEnabled(False)
        self.progress.setVisible(False)

    def _failed(self, message: str) -> None:
        self._finish()
        if message == CANCELLED or message.startswith(CANCELLED):
            self.status.setText(self.tr("Stopped: no file was written."))
        else:
            self.status.setText(self.tr("Not built: {0}").format(translate_message(message)))

    def _done(self, result: CvectorResult, path: Path) -> None:
        self._finish()
        try:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InvalidSettingsError("cannot write {path}: {reason}", path=str(path),
                                           reason=exc.strerror or str(exc)) from None
            written = write_control_vector(path, dict(zip(result.layers, result.directions, strict=True)),
                                           result.model_hint)
        except LogitscopeError as exc:
            self.status.setText(self.tr("Not built: {0}").format(translate_message(exc)))
            return
        self.status.setText(self.tr("Built from {0} pair(s) ({1} tokens) in {2:.1f} s, layers {3}–{4}: {5}. It is "
                                    "in the Steering dock.").format(
            result.n_pairs, result.n_tokens, result.eval_s + result.reduce_s, result.layers[0], result.layers[-1],
            written))
        self.output.setText(str(fresh_output(written.parent, written.stem)))  # the next build: a file of its own
        self.built.emit(str(written))
