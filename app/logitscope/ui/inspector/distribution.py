"""Next-token distribution: the best candidates' raw probability beside their final one."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from logitscope.ui.inspector.state import StepView
from logitscope.ui.tokens import candidate_key, candidate_piece, percent, token_label

SHOWN = 12
RAW_BRUSH = pg.mkBrush(150, 150, 160, 160)
FINAL_BRUSH = pg.mkBrush(60, 130, 220, 220)
CHOSEN_BRUSH = pg.mkBrush(235, 140, 30, 240)


class DistributionPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.caption = QLabel(self.tr("No step selected yet: send a message."))
        self.caption.setWordWrap(True)
        layout.addWidget(self.caption)
        self.plot = pg.PlotWidget()
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setLabel("bottom", self.tr("probability"))
        self.plot.getAxis("bottom").enableAutoSIPrefix(False)
        self.plot.invertY(True)
        self.plot.showGrid(x=True, y=False, alpha=0.2)
        self.plot.addLegend(offset=(-10, -10))
        # created once, updated with setOpts: never rebuilt per token
        self.raw_bars = pg.BarGraphItem(x0=[], y=[], height=0.38, width=[], brush=RAW_BRUSH, name=self.tr("raw"))
        self.final_bars = pg.BarGraphItem(x0=[], y=[], height=0.38, width=[], brush=FINAL_BRUSH,
                                          name=self.tr("after sampler"))
        self.plot.addItem(self.raw_bars)
        self.plot.addItem(self.final_bars)
        self.top_p_line = pg.InfiniteLine(angle=0, pen=pg.mkPen((200, 60, 60), width=2, style=pg.QtCore.Qt.PenStyle.DashLine),
                                          label=self.tr("top-p cut"), labelOpts={"position": 0.85, "color": (200, 60, 60)})
        self.min_p_line = pg.InfiniteLine(angle=90, pen=pg.mkPen((120, 60, 200), width=2, style=pg.QtCore.Qt.PenStyle.DotLine),
                                          label=self.tr("min-p"), labelOpts={"position": 0.95, "color": (120, 60, 200)})
        self.plot.addItem(self.top_p_line)
        self.plot.addItem(self.min_p_line)
        layout.addWidget(self.plot, 1)
        self.vocab: Sequence[bytes] = ()
        self.view: StepView | None = None

    def show_step(self, view: StepView | None) -> None:
        self.view = view
        if view is None:
            return
        step = view.step
        ids = step.raw_ids[:SHOWN]
        raw = np.nan_to_num(step.raw_probs[:SHOWN])
        final_ids, final_probs = view.final
        if view.is_preview:
            final_of = dict(zip(final_ids.tolist(), final_probs.tolist(), strict=True))
        else:
            final_of = {candidate_key(step, "final", i): float(p) for i, p in enumerate(final_probs)}
        keys = [candidate_key(step, "raw", i) for i in range(len(ids))]
        final = np.nan_to_num(np.array([final_of.get(k, 0.0) for k in keys]))
        chosen = [k == step.token or k == step.piece for k in keys]
        y = np.arange(len(ids), dtype=float)
        self.raw_bars.setOpts(x0=np.zeros(len(ids)), y=y - 0.2, width=raw, height=0.38)
        brushes = [CHOSEN_BRUSH if (c and not view.is_preview) else FINAL_BRUSH for c in chosen]
        self.final_bars.setOpts(x0=np.zeros(len(ids)), y=y + 0.2, width=final, height=0.38, brushes=brushes)
        labels = [(i, self._label(candidate_piece(step, "raw", i, self.vocab), chosen[i])) for i in range(len(ids))]
        self.plot.getAxis("left").setTicks([labels, []])
        self.plot.setYRange(-0.7, len(ids) - 0.3, padding=0)
        self.plot.setXRange(0, max(float(raw.max(initial=0)), float(final.max(initial=0)), 0.05) * 1.08, padding=0)
        self._draw_cuts(view, ids)
        self._caption(view)

    def _label(self, piece: bytes, chosen: bool) -> str:
        text = token_label(piece)
        text = text if len(text) <= 14 else text[:13] + "…"
        return f"▶ {text}" if chosen else text

    def _draw_cuts(self, view: StepView, ids: np.ndarray) -> None:
        names = [s.name for s in view.stages]
        top_p = view.number("top_p", 1.0)
        if "top_p" in names and top_p < 1.0:
            kept = view.stages[names.index("top_p")].n_out
            self.top_p_line.setPos(min(kept, len(ids)) - 0.5)
            self.top_p_line.setVisible(kept < len(ids))
        else:
            self.top_p_line.setVisible(False)
        min_p = view.number("min_p", 0.0)
        self.min_p_line.setVisible(min_p > 0)
        if min_p > 0:
            # min-p keeps tokens with p >= min_p x p_max, measured on the distribution it receives;
            # drawn on the raw axis for reference
            self.min_p_line.setPos(min_p * float(view.step.raw_probs[0]))

    def _caption(self, view: StepView) -> None:
        step = view.step
        chosen = token_label(step.piece)
        if view.is_preview:
            text = self.tr("Step {0} — preview with the current sliders (the model is not run). "
                           "Recorded choice: {1}").format(step.i, chosen)
            if view.replay is not None and view.replay.tail_mass > 0.001:
                text += self.tr(" — {0:.1%} of the raw mass lies outside the stored head").format(view.replay.tail_mass)
        else:
            text = self.tr("Step {0}: chose {1} — raw p {2} (rank {3}), final p {4} (rank {5}), "
                           "entropy {6} nats").format(step.i, chosen, percent(step.p_raw), _rank(step.rank_raw),
                                                      percent(step.p), _rank(step.rank), _nats(step.entropy_raw))
        self.caption.setText(text)


def _rank(rank: int) -> str:
    return "—" if rank < 0 else str(rank)


def _nats(value: float) -> str:
    return "—" if value != value else f"{value:.2f}"
