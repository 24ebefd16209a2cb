"""What column B runs: the same model in another configuration (KV cache type, flash attention), or another GGUF
file with the same vocabulary (picked from the models folder or anywhere)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFileDialog, QHBoxLayout, QLabel, QPushButton, QWidget

from logitscope.gguf.memory import UNQUANTIZED_KV
from logitscope.protocol.api import LoadSettings
from logitscope.system.threads import available_cpus
from logitscope.ui.window import file_folders

KV_TYPES = ("f16", "q8_0", "q4_0")
SAME, OTHER = 0, 1
SAME_MODEL_KV = "q8_0"   # the same model in another configuration: its KV cache quantized, the usual question


def shared_threads() -> int:
    """Threads per engine while both answer at once: half the CPUs each (both on all of them: ten times slower)."""
    return max(1, available_cpus() // 2)


def describe(load: LoadSettings) -> str:
    kv = load.type_k if load.type_k == load.type_v else f"{load.type_k}/{load.type_v}"
    if load.flash_attn:
        return QCoreApplication.translate("ConfigPicker", "KV cache {0} · flash attention on").format(kv)
    return QCoreApplication.translate("ConfigPicker", "KV cache {0} · flash attention off").format(kv)


class ConfigPicker(QWidget):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.other_path: str | None = None
        self._a: LoadSettings | None = None   # A's settings: another file for B starts from them
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(self.tr("B:")))
        self.kind = QComboBox()
        self.kind.addItems([self.tr("the same model, other settings"), self.tr("another model file")])
        self.kind.currentIndexChanged.connect(self._kind_changed)
        row.addWidget(self.kind)
        self.browse = QPushButton(self.tr("Choose file…"))
        self.browse.clicked.connect(lambda: self.pick())
        row.addWidget(self.browse)
        self.file_label = QLabel()
        row.addWidget(self.file_label, 1)
        row.addWidget(QLabel(self.tr("KV cache:")))
        self.kv = QComboBox()
        self.kv.addItems(list(KV_TYPES))
        self.kv.setCurrentText(SAME_MODEL_KV)
        self.kv.setToolTip(self.tr("The KV cache's type for both K and V; a quantized V cache needs flash attention."))
        self.kv.currentIndexChanged.connect(self._update)
        row.addWidget(self.kv)
        self.flash = QCheckBox(self.tr("Flash attention"))
        self.flash.setChecked(True)
        self.flash.toggled.connect(lambda _on: self.changed.emit())
        row.addWidget(self.flash)
        self._update()

    @property
    def same_model(self) -> bool:
        return self.kind.currentIndex() == SAME

    def pick(self, path: str | None = None) -> bool:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Column B's model"),
                                                  file_folders.start(file_folders.MODEL),
                                                  self.tr("GGUF models (*.gguf);;All files (*)"))
            file_folders.chosen(file_folders.MODEL, path)
        if path:
            self.other_path = path
            self.kind.setCurrentIndex(OTHER)
            self._update()
        return bool(path)

    def follow_a(self, load_a: LoadSettings | None) -> None:
        """A's load settings (None: no local model)."""
        self._a = load_a

    def _kind_changed(self) -> None:
        """Another model file compares the files alone: B starts from A's KV cache and flash attention (it kept
        "KV cache q8_0", a second difference hidden in the header); the same model starts from SAME_MODEL_KV."""
        if self.same_model:
            self.set_config(SAME_MODEL_KV, True)
        elif self._a is not None:
            a = self._a
            self.set_config(a.type_k if a.type_k == a.type_v and a.type_k in KV_TYPES else UNQUANTIZED_KV,
                            a.flash_attn)
        else:
            self._update()

    def set_config(self, kv: str, flash: bool) -> None:
        self.kv.setCurrentText(kv)
        self.flash.setChecked(flash)
        self._update()

    def path(self, path_a: str) -> str | None:
        """B's model file (None: another file is wanted and none is chosen yet)."""
        return path_a if self.same_model else self.other_path

    def settings(self, load_a: LoadSettings) -> LoadSettings:
        """B loads as A did (context, GPU layers, batch), with this KV cache and flash attention, on its share
        of the CPUs."""
        kv = self.kv.currentText()
        return replace(load_a, type_k=kv, type_v=kv, flash_attn=self.flash.isChecked(), n_threads=shared_threads())

    def _update(self) -> None:
        quantized = self.kv.currentText() != UNQUANTIZED_KV
        if quantized:
            self.flash.setChecked(True)
        self.flash.setEnabled(not quantized)
        self.browse.setEnabled(not self.same_model)
        self.file_label.setText("" if self.same_model else
                                (Path(self.other_path).name if self.other_path else self.tr("(no file chosen)")))
        self.changed.emit()
