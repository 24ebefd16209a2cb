"""Memory & context: weights, KV cache (allocated and used, live), compute buffer, the KV formula, and the
KV cache map (ui/inspector/kv_map.py)."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QFormLayout, QLabel, QProgressBar, QVBoxLayout, QWidget

from logitscope.gguf.memory import KV_CACHE_TYPES, format_bytes, kv_bytes_per_element_text, kv_cache_bytes
from logitscope.protocol.api import ModelInfo
from logitscope.ui.common.visibility import Coalescer, on_screen
from logitscope.ui.inspector.kv_map import KvMapPanel

USED_REFRESH_MS = 100  # the context gauge while tokens stream (a progress bar repaints itself at once)


class MemoryPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        form = QFormLayout()
        self.weights = QLabel("–")
        self.kv_alloc = QLabel("–")
        self.kv_used = QLabel("–")
        self.compute = QLabel("–")
        form.addRow(self.tr("Model weights"), self.weights)
        form.addRow(self.tr("KV cache allocated"), self.kv_alloc)
        form.addRow(self.tr("KV cache in use"), self.kv_used)
        form.addRow(self.tr("Compute buffer"), self.compute)
        layout.addLayout(form)
        self.gauge = QProgressBar()
        self.gauge.setFormat(self.tr("context: %v of %m tokens"))
        layout.addWidget(self.gauge)
        self.kv_map = KvMapPanel()
        layout.addWidget(self.kv_map)
        self.formula = QLabel()
        self.formula.setWordWrap(True)
        self.formula.setTextFormat(self.formula.textFormat().RichText)
        layout.addWidget(self.formula)
        self.types = QLabel()
        self.types.setWordWrap(True)
        layout.addWidget(self.types)
        layout.addStretch(1)
        self.info: ModelInfo | None = None
        self._used = 0
        self._used_stale = False
        self._used_update = Coalescer(USED_REFRESH_MS, self._show_used, self)

    def set_model(self, info: object) -> None:
        """A local model's numbers; anything else (None, a remote model) shows none."""
        info = info if isinstance(info, ModelInfo) else None
        self.info = info
        self.kv_map.clear(info.n_ctx if info is not None else 0)
        if info is None:
            for label in (self.weights, self.kv_alloc, self.kv_used, self.compute):
                label.setText("–")
            self.formula.setText(self.tr("No model loaded."))
            self.types.clear()
            self.gauge.setRange(0, 1)
            self.gauge.setValue(0)
            self._used_update.cancel()
            return
        card = info.card
        self.weights.setText(format_bytes(card.weights_bytes))
        self.kv_alloc.setText(self.tr("{0} for {1} tokens").format(format_bytes(info.kv_allocated_bytes), info.n_ctx))
        self.compute.setText(format_bytes(info.compute_buffer_bytes) if info.compute_buffer_bytes else "–")
        self.gauge.setRange(0, info.n_ctx)
        bpe = kv_bytes_per_element_text(info.load.type_k)
        self.formula.setText(self.tr(
            "<b>KV cache per token</b> = 2 (K and V) × {0} layers × {1} KV heads × {2} head dim × {3} bytes "
            "= <b>{4:,.0f} bytes</b>. Each token of context costs that much, for every token kept.").format(
            card.n_layer, card.n_head_kv, card.head_dim_k, bpe, info.kv_bytes_per_token))
        rows = ", ".join(f"{name}: {format_bytes(kv_cache_bytes(card, info.n_ctx, name, name))}" for name in KV_CACHE_TYPES)
        self.types.setText(self.tr("The same context with another KV cache type: {0} "
                                   "(a quantized V cache needs flash attention).").format(rows))
        self._used = 0
        self._show_used()

    def set_capabilities(self, caps: dict[str, object]) -> None:
        """An engine that reports no KV cache numbers (a remote server): say so instead of the figures."""
        if not caps.get("kv", True):
            self.set_model(None)
            self.formula.setText(self.tr("A remote server does not report its KV cache."))
        self.kv_map.set_capabilities(caps)

    def set_used(self, cells: int) -> None:
        """The cells in use now: shown within USED_REFRESH_MS while on screen, else when shown again."""
        self._used = cells
        if on_screen(self):
            self._used_update.request()
        else:
            self._used_stale = True

    def catch_up(self) -> None:
        if self._used_stale and on_screen(self):
            self._show_used()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        """Painted means on screen: the catch-up for a dock floated while hidden (a new top-level window is
        painted only after its visibilityChanged, when nothing of it was on screen yet)."""
        super().paintEvent(event)
        if self._used_stale:
            QTimer.singleShot(0, self.catch_up)

    def _show_used(self) -> None:
        self._used_stale = False
        if self.info is None:
            return
        cells = self._used
        self.gauge.setValue(min(cells, self.info.n_ctx))
        self.kv_used.setText(self.tr("{0} ({1} tokens)").format(format_bytes(cells * self.info.kv_bytes_per_token), cells))
