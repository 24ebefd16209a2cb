"""Model card: what the GGUF header says about the loaded model."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from logitscope.gguf.memory import format_bytes
from logitscope.library.display_name import model_display_name
from logitscope.protocol.api import ModelInfo
from logitscope.protocol.engine_like import RemoteModelInfo
from logitscope.ui.common.messages import translate_message


class ModelCardPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.text = QTextBrowser()
        layout.addWidget(self.text)
        self.set_model(None)

    def set_model(self, info: ModelInfo | RemoteModelInfo | None) -> None:
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
            rows.append((self.tr("Notes"), "<br>".join(escape(translate_message(n)) for n in info.notices)))
        table = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in rows)
        template = (f"<pre>{escape(c.chat_template)}</pre>" if c.chat_template
                    else f"<p>{escape(self.tr('None: a plain User:/Assistant: format is used.'))}</p>")
        self.text.setHtml(f"<table cellspacing='4'>{table}</table><h4>{escape(self.tr('Chat template'))}</h4>{template}")
