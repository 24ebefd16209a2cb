"""The load dialog: context size, GPU layers, KV cache type, flash attention, threads, with the memory
estimate updated as the values change. A damaged model (its card lists problems) is refused here, with the
reasons, before anything is loaded: the dialog then offers only Cancel."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from logitscope.gguf.card import ModelCard
from logitscope.gguf.memory import KV_CACHE_TYPES, kv_cells, value_cache_type
from logitscope.library.display_name import model_display_name
from logitscope.library.fit import assess_fit, need_for_card
from logitscope.protocol.api import LoadSettings
from logitscope.system.machine import probe_machine
from logitscope.system.threads import max_threads
from logitscope.ui.common.messages import translate_sentence
from logitscope.ui.common.spin_boxes import SpinBox


class LoadModelDialog(QDialog):
    def __init__(self, card: ModelCard, gpu_offload: bool, backend: str, settings: LoadSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.card = card
        self.gpu_offload = gpu_offload
        self.machine = probe_machine()  # RAM and, where nvidia-smi answers, VRAM
        self.setWindowTitle(self.tr("Load {0}").format(model_display_name(card.path)))
        settings = settings or LoadSettings(n_ctx=min(4096, card.n_ctx_train or 4096))
        layout = QVBoxLayout(self)
        title = QLabel(f"<b>{model_display_name(card.path)}</b> — {card.architecture}, {card.n_params / 1e6:,.0f} M, {card.file_type}")
        layout.addWidget(title)
        if card.problems:
            self._refuse(layout)
            return
        form = QFormLayout()
        self.n_ctx = SpinBox()
        self.n_ctx.setRange(256, max(card.n_ctx_train or 131072, 256))
        self.n_ctx.setSingleStep(256)
        self.n_ctx.setValue(min(settings.n_ctx or card.n_ctx_train, self.n_ctx.maximum()))
        self.n_ctx.setToolTip(self.tr("Tokens of context. Trained for {0}.").format(card.n_ctx_train))
        form.addRow(self.tr("Context (tokens)"), self.n_ctx)
        gpu_row = QHBoxLayout()
        self.gpu_layers = QSlider(Qt.Orientation.Horizontal)
        self.gpu_layers.setRange(0, card.n_layer + 1)
        self.gpu_layers.setValue(min(max(settings.n_gpu_layers, 0), card.n_layer + 1))
        self.gpu_value = QLabel()
        gpu_row.addWidget(self.gpu_layers, 1)
        gpu_row.addWidget(self.gpu_value)
        form.addRow(self.tr("GPU layers"), gpu_row)
        self.gpu_note = QLabel()
        self.gpu_note.setWordWrap(True)
        if not gpu_offload:
            self.gpu_layers.setEnabled(False)
            self.gpu_layers.setValue(0)
            self.gpu_note.setText(self.tr("This build of llama.cpp has no GPU backend ({0}): everything runs on "
                                          "the CPU. See the README for CUDA, Vulkan and Metal builds.").format(backend))
        form.addRow("", self.gpu_note)
        self.kv_type = QComboBox()
        for name in KV_CACHE_TYPES:
            self.kv_type.addItem(name)
        self.kv_type.setCurrentText(settings.type_k)
        form.addRow(self.tr("KV cache type"), self.kv_type)
        self.flash = QCheckBox(self.tr("Flash attention (needed for a quantized V cache)"))
        self.flash.setChecked(settings.flash_attn)
        form.addRow("", self.flash)
        self.threads = SpinBox()
        self.threads.setRange(0, max_threads())  # more only makes llama.cpp's threads wait for each other
        self.threads.setValue(settings.n_threads)
        self.threads.setSpecialValueText(self.tr("automatic"))
        form.addRow(self.tr("CPU threads"), self.threads)
        layout.addLayout(form)
        self.estimate = QLabel()
        self.estimate.setWordWrap(True)
        layout.addWidget(self.estimate)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Load"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        for signal in (self.n_ctx.valueChanged, self.gpu_layers.valueChanged, self.kv_type.currentIndexChanged,
                       self.flash.toggled):
            signal.connect(self._update)
        self._update()

    def _refuse(self, layout: QVBoxLayout) -> None:
        """What is wrong, and no Load button: llama.cpp would fail (or abort) on this file."""
        self.refusal = QLabel(self.tr("This file is damaged: llama.cpp cannot load it.") + "\n"
                              + "\n".join(f"• {problem}" for problem in self.card.problems))
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet("color: #c62828;")
        layout.addWidget(self.refusal)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def accept(self) -> None:
        if self.card.problems:  # never, whatever triggers it (Enter, a test, a caller)
            return
        super().accept()

    def settings(self) -> LoadSettings:
        kv = self.kv_type.currentText()
        flash = self.flash.isChecked()
        return LoadSettings(n_ctx=self.n_ctx.value(), n_gpu_layers=self.gpu_layers.value(),
                            n_threads=self.threads.value(), type_k=kv, type_v=value_cache_type(kv, flash), flash_attn=flash)

    def _update(self) -> None:
        s = self.settings()
        self.gpu_value.setText(self.tr("{0} of {1}").format(self.gpu_layers.value(), self.card.n_layer + 1))
        fit = assess_fit(need_for_card(self.card, s.n_ctx, s.type_k, s.type_v), self.machine, use_gpu=self.gpu_offload)
        self.verdict = fit.verdict
        text = translate_sentence(fit.summary)   # the need and its parts, once (a line before it said the same)
        if kv_cells(s.n_ctx) != s.n_ctx:
            text += "\n" + self.tr("llama.cpp rounds the context up to {0} tokens.").format(kv_cells(s.n_ctx))
        if s.type_v != "f16" and not s.flash_attn:
            text += "\n" + self.tr("A quantized V cache needs flash attention.")
        self.estimate.setText(text)
