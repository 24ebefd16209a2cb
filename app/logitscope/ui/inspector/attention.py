"""Attention: where the token before the selected step looks, per layer and query head (or the mean of the
heads), as a heat strip over the context; which KV head a query head reads (grouped-query attention)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from logitscope.protocol.forward import AttentionRow
from logitscope.ui.common.messages import translate_sentence
from logitscope.ui.common.tokens import id_label
from logitscope.ui.inspector.steady_caption import SteadyCaption
from logitscope.ui.inspector.token_strip import TokenHeatStrip

if TYPE_CHECKING:
    from logitscope.ui.inspector.inspected import Inspected

MEAN_OF_HEADS = -1  # the head selector's first entry


class AttentionPanel(QWidget):
    tokenClicked = Signal(int)                 # context position
    wholePromptRequested = Signal(int, int)    # layer, head (MEAN_OF_HEADS: the mean)
    knockoutRequested = Signal(str)            # "L.H", or "L.attn" for the mean of heads (Causal tracing)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.caption = SteadyCaption()  # changes at every followed step: no relayout of the window
        layout.addWidget(self.caption)
        controls = QHBoxLayout()
        self.layer_box = QComboBox()
        self.head_box = QComboBox()
        self.kv_label = QLabel()
        self.whole_button = QPushButton(self.tr("Whole prompt…"))
        self.whole_button.setToolTip(self.tr("Every position's attention for this layer and head: the tokens x "
                                             "tokens matrix, with the causal mask"))
        controls.addWidget(QLabel(self.tr("Layer")))
        controls.addWidget(self.layer_box)
        controls.addWidget(QLabel(self.tr("Head")))
        controls.addWidget(self.head_box)
        # the KV-head note gives way first in a narrow dock (its text is in its tooltip too)
        self.kv_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        controls.addWidget(self.kv_label, 1)
        controls.addWidget(self.whole_button)
        layout.addLayout(controls)
        # beside the legend, not in the row above: that row sets the dock's narrowest width (1280x720 layout)
        self.knockout_button = QPushButton(self.tr("Knock out"))
        self.knockout_button.setToolTip(self.tr("Knock this head out (the mean of heads: the whole attention "
                                                "block) and see the next token without it (Causal tracing)"))
        self.note = QLabel()   # what the engine says about these weights (e.g. sliding-window layers)
        self.note.setWordWrap(True)
        self.note.setObjectName("attentionNote")
        layout.addWidget(self.note)
        self.strip = TokenHeatStrip()
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        area.setWidget(self.strip)
        self.area = area
        layout.addWidget(area, 1)
        self.legend = QLabel(self.tr("Colour: the weight, relative to the largest shown · outlined: the token that "
                                     "looks · underlined: the answer's tokens · click a token to find it in the chat"))
        self.legend.setWordWrap(True)
        self.legend.setObjectName("attentionLegend")
        bottom = QHBoxLayout()
        bottom.addWidget(self.legend, 1)
        bottom.addWidget(self.knockout_button)
        layout.addLayout(bottom)
        self.vocab: Sequence[bytes] = ()
        self.shown_key: object = None
        self.row: AttentionRow | None = None
        self.labels: list[str] = []
        self.first_answer = -1
        self.layer_box.currentIndexChanged.connect(lambda _i: self.redraw())
        self.head_box.currentIndexChanged.connect(lambda _i: self.redraw())
        self.strip.tokenClicked.connect(self.tokenClicked)
        self.whole_button.clicked.connect(lambda: self.wholePromptRequested.emit(self.layer(), self.head()))
        self.knockout_button.clicked.connect(lambda: self.knockoutRequested.emit(
            f"{self.layer()}.{self.head()}" if self.head() != MEAN_OF_HEADS else f"{self.layer()}.attn"))

    def layer(self) -> int:
        return max(self.layer_box.currentIndex(), 0)

    def head(self) -> int:
        """The selected query head; MEAN_OF_HEADS for the mean."""
        return self.head_box.currentIndex() - 1 if self.head_box.currentIndex() > 0 else MEAN_OF_HEADS

    def show_inspection(self, found: Inspected) -> None:
        row = found.inspection.attention
        self.shown_key = found.step.key
        self.row = row
        if row is None:
            return
        tokens = found.inspection.tokens[:row.position + 1]
        self.labels = [id_label(t, self.vocab) for t in tokens]
        self.first_answer = len(found.prompt)
        n_layer, n_head = row.weights.shape[:2]
        self._fill(self.layer_box, [self.tr("layer {0}").format(layer) for layer in range(n_layer)], n_layer - 1)
        self._fill(self.head_box, [self.tr("mean of heads")] + [self.tr("head {0}").format(h) for h in range(n_head)], 0)
        looking = self.labels[-1] if self.labels else ""
        chosen = id_label(found.step.chosen, self.vocab)
        self.caption.setText(self.tr("Step {0}: where {1} (position {2}) looks when it predicts {3}").format(
            found.step.step_index, looking, row.position, chosen))
        notes = [translate_sentence(text) for view, text in found.inspection.unavailable.items()
                 if view.startswith("attention_")]
        self.note.setText("\n".join(notes))
        self.note.setVisible(bool(notes))
        self.redraw()

    @staticmethod
    def _fill(box: QComboBox, items: list[str], default: int) -> None:
        """New entries, keeping the selection when the same model is inspected again."""
        keep = box.currentIndex() if box.count() == len(items) else default
        box.blockSignals(True)
        box.clear()
        box.addItems(items)
        box.setCurrentIndex(keep)
        box.blockSignals(False)

    def weights(self) -> np.ndarray:
        """The shown row: one head's weights over the context, or the mean of the heads."""
        assert self.row is not None
        per_head = self.row.weights[self.layer()]
        return per_head.mean(axis=0) if self.head() == MEAN_OF_HEADS else per_head[self.head()]

    def redraw(self) -> None:
        row = self.row
        if row is None:
            return
        self.strip.set_tokens(self.labels, self.weights(), self.first_answer)
        self.kv_label.setText(self.kv_text())
        self.kv_label.setToolTip(self.kv_label.text())

    def kv_text(self) -> str:
        row = self.row
        assert row is not None
        n_kv = max(row.kv_head_of) + 1 if row.kv_head_of else 0
        head = self.head()
        if head == MEAN_OF_HEADS:
            text = self.tr("{0} query heads over {1} KV heads").format(len(row.kv_head_of), n_kv)
        else:
            text = self.tr("head {0} reads KV head {1} of {2}").format(head, row.kv_head_of[head], n_kv)
        window = row.window[self.layer()] if self.layer() < len(row.window) else None
        if window is not None:
            text += self.tr(" · sliding window of {0} tokens").format(window)
        return text
