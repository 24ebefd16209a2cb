"""Model card: what the GGUF header says about the loaded model, and the LoRA adapters in the Steering dock
(each one's header: alpha, rank, the weights it adapts; whether the next answers get it, at what scale)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from logitscope.gguf.lora import LoraMetadata, compact_ranges
from logitscope.gguf.memory import format_bytes
from logitscope.library.display_name import model_display_name
from logitscope.protocol.api import ModelInfo
from logitscope.protocol.engine_like import RemoteModelInfo
from logitscope.ui.common.messages import translate_sentence

# one adapter of the Steering dock: its file name, its metadata (or why it cannot be read), its scale, and
# whether the next answers get it (ticked, fine, the dock on)
AdapterLine = tuple[str, LoraMetadata | str, float, bool]


class ModelCardPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.text = QTextBrowser()
        layout.addWidget(self.text)
        self.info: ModelInfo | RemoteModelInfo | None = None
        self.adapters: list[AdapterLine] = []
        self.set_model(None)

    def set_model(self, info: ModelInfo | RemoteModelInfo | None) -> None:
        self.info = info
        self._render()

    def set_adapters(self, adapters: Sequence[AdapterLine]) -> None:
        """The Steering dock's adapters, in its order (the card lists them under the model's table)."""
        adapters = list(adapters)
        if adapters != self.adapters:
            self.adapters = adapters
            self._render()

    def _render(self) -> None:
        bar = self.text.verticalScrollBar()
        where = bar.value()   # a slider moved in the Steering dock re-renders: the reader keeps their place
        self._render_html()
        bar.setValue(where)

    def _render_html(self) -> None:
        info = self.info
        if info is None:
            self.text.setHtml(f"<p>{escape(self.tr('No model loaded.'))}</p>")
            return
        if isinstance(info, RemoteModelInfo):
            self.text.setHtml(self.tr("<p>Remote model <b>{0}</b> on {1} ({2}). No GGUF header to read: "
                                      "the server does not share it.</p>").format(
                escape(info.model), escape(info.base_url), escape(info.server)))
            return
        c = info.card
        mix = "<br>".join(f"{escape(q.type_name)}: {q.n_tensors} tensors, {q.bits_per_weight:.2f} bits/weight, "
                          f"{format_bytes(q.n_bytes)}" for q in c.quant_mix)
        rows = [
            (self.tr("Name"), escape(model_display_name(c.path))), (self.tr("Name in the metadata"), escape(c.name)),
            (self.tr("File"), escape(c.path)),
            (self.tr("Architecture"), escape(c.architecture)), (self.tr("Parameters"), f"{c.n_params:,}"),
            (self.tr("Quantization"), f"{escape(c.file_type)} ({c.bits_per_weight:.2f} bits/weight on average)"),
            (self.tr("Tensor types"), mix), (self.tr("Layers"), self.tr(
                "{0} (+ the output layer: {1} that can be offloaded to a GPU)").format(c.n_layer, c.n_offloadable)),
            (self.tr("Attention heads"), self.tr("{0} (KV heads {1}, head dim {2})").format(c.n_head, c.n_head_kv, c.head_dim_k)),
            (self.tr("Embedding / FFN"), f"{c.n_embd} / {c.n_ff}"),
            (self.tr("Vocabulary"), f"{c.n_vocab:,} ({escape(c.tokenizer_model)})"),
            (self.tr("Training context"), f"{c.n_ctx_train:,}"), (self.tr("Context now"), f"{info.n_ctx:,}"),
            (self.tr("BOS / EOS"), f"{c.bos_id} / {c.eos_id}"),
            (self.tr("Backend"), self.tr("{0}, {1} of {2} layers on the GPU").format(
                escape(info.backend), info.n_gpu_layers, c.n_offloadable)),
            (self.tr("Load time"), f"{info.load_s * 1000:.0f} ms"),
        ]
        if info.notices:  # what the engine changed from what was asked (e.g. the context rounded up)
            rows.append((self.tr("Notes"), "<br>".join(escape(translate_sentence(n)) for n in info.notices)))
        table = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in rows)
        template = (f"<pre>{escape(c.chat_template)}</pre>" if c.chat_template
                    else f"<p>{escape(self.tr('None: a plain User:/Assistant: format is used.'))}</p>")
        self.text.setHtml(f"<table cellspacing='4'>{table}</table>{self._adapters_html()}"
                          f"<h4>{escape(self.tr('Chat template'))}</h4>{template}")

    def _adapters_html(self) -> str:
        title = f"<h4>{escape(self.tr('Adapters'))}</h4>"
        if not self.adapters:
            return title + f"<p>{escape(self.tr('No LoRA adapters (add them in the Steering dock).'))}</p>"
        return title + "".join(self._adapter_html(*line) for line in self.adapters)

    def _adapter_html(self, name: str, meta: LoraMetadata | str, scale: float, applied: bool) -> str:
        head = f"<b>{escape(name)}</b>"
        if isinstance(meta, str):   # its header cannot be read: why, in its place
            return f"<p>{head}<br>{escape(meta)}</p>"
        lines = [self._use_line(meta, scale, applied)]
        alpha = f"{meta.alpha:g}" if meta.alpha is not None else self.tr("not set")
        rank = (str(meta.rank) if meta.rank is not None
                else self.tr("{0} (it differs from weight to weight)").format(", ".join(map(str, meta.ranks))))
        lines.append(self.tr("alpha {0}, rank {1}").format(alpha, rank))
        layers = compact_ranges(meta.layers) or self.tr("none (no block weights)")
        lines.append(self.tr("adapts {0} in layers {1}").format(", ".join(meta.targets), layers))
        lines.append(self.tr("{0} weights: {1} tensors, {2:,} parameters").format(
            meta.n_weights, meta.n_tensors, meta.n_params))
        if meta.architecture or meta.name:
            lines.append(self.tr("made for: {0}").format(" ".join(filter(None, (meta.architecture, meta.name)))))
        return f"<p>{head}<br>" + "<br>".join(escape(line) for line in lines) + "</p>"

    def _use_line(self, meta: LoraMetadata, scale: float, applied: bool) -> str:
        """Applied or not, at which scale, and what llama.cpp makes of it (scale x alpha / rank)."""
        text = (self.tr("applied to the next answers at scale {0:g}") if applied else self.tr(
            "not applied (scale {0:g}): unticked, left out, or the Steering dock is off")).format(scale)
        factor = meta.alpha_over_rank
        if factor is not None and factor != 1.0:
            text += " " + self.tr("(llama.cpp multiplies it by alpha / rank = {0:g}: an effective scale of "
                                  "{1:g})").format(factor, scale * factor)
        return text
