"""Sampler waterfall: candidates alive and probability mass kept after each stage, in the order applied,
and what the stateful stages knew at that step (Mirostat's mu, dynamic temperature's T, XTC's draw, DRY's
penalties, the grammar's allowed tokens)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from logitscope.protocol.trace import StageRecord
from logitscope.ui.common.messages import translate_message
from logitscope.ui.inspector.plots import cache_axes
from logitscope.ui.inspector.sampler_texts import SamplerTexts
from logitscope.ui.inspector.state import StepView
from logitscope.ui.inspector.steady_caption import SteadyCaption

CROWDED = 6   # bars (the vocabulary included) beyond which names are staggered and counts abbreviated
LEFT_AXIS_WIDTH = 48   # px
NAME_GAP = 8   # px at least between two names side by side (fewer stages that still do not fit are staggered too)
# heights of the count plot and the mass plot, which also holds the stage names: one line of them, or two
# (staggered): the two plots' data areas come out about as tall at 720 px
STRETCH = {1: (3, 4), 2: (3, 5)}


def _count_text(n: int, compact: bool) -> str:
    """A candidate count: 49,152, or 49k where the bars stand close together."""
    if compact and n >= 10_000:
        return f"{n // 1000}k"
    return f"{n:,}"


class WaterfallPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = self._layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.caption = SteadyCaption(self.tr("How each sampler stage narrows the choice."))
        layout.addWidget(self.caption)
        self.info = SteadyCaption("")
        self.info.setObjectName("waterfallInfo")
        layout.addWidget(self.info)
        self.info.hide()
        self.labels = SamplerTexts().stage_labels
        self.counts = pg.PlotWidget(enableMenu=False)   # no context menus: not even built (~8 ms a plot)
        self.mass = pg.PlotWidget(enableMenu=False)
        for plot, label in ((self.counts, self.tr("log10 n")), (self.mass, self.tr("mass"))):
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            plot.setLabel("left", label)
            plot.showGrid(y=True, alpha=0.2)
            plot.getAxis("left").setWidth(LEFT_AXIS_WIDTH)
            cache_axes(plot.getPlotItem())
            layout.addWidget(plot, STRETCH[1][plot is self.mass])
        # the stage names once, under the lower plot (the bars stand at the same places): at 720 px the upper
        # plot needs the line its own names took
        self.counts.getAxis("bottom").setStyle(showValues=False)
        self.count_bars = pg.BarGraphItem(x=[], height=[], width=0.6, brush=pg.mkBrush(60, 130, 220, 220))
        self.mass_bars = pg.BarGraphItem(x=[], height=[], width=0.6, brush=pg.mkBrush(60, 170, 110, 220))
        self.counts.addItem(self.count_bars)
        self.mass.addItem(self.mass_bars)
        self.mass.setYRange(0, 1.05, padding=0)
        # three ticks: at 720 px the plot is ~80 px high, where five overlapped (its axis title says "mass": the
        # caption says what is kept)
        self.mass.getAxis("left").setTicks([[(0.0, "0"), (0.5, "0.5"), (1.0, "1")]])
        self.count_labels: list[pg.TextItem] = []
        self._names: list[str] = []   # the ticks shown: set again only when they change (an axis redraw is costly)
        self._staggered = False
        self._full_counts: list[str] = []   # the counts' labels written out, and whether they are shortened
        self._compact = False
        self._view: StepView | None = None   # the step shown: its names staggered again when the width changes
        self._top = 0.0               # the count plot's y range, likewise
        self._bars: tuple[list[float], list[float]] = ([], [])   # the bars' heights shown, likewise

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self._view is not None and self._view.stages and (self._crowded(self._names) != self._staggered
                                                             or self._crowded(self._full_counts) != self._compact):
            self.show_step(self._view)

    def _crowded(self, texts: list[str]) -> bool:
        """Too many bars, or texts centred on them wider than the room each bar has at this width ("vocabulary"
        touched "penalties" at 1280x720, Gemma's "262,144" its neighbour): names are staggered, counts shortened."""
        if len(texts) > CROWDED:
            return True
        room = (self.counts.width() - LEFT_AXIS_WIDTH) / (len(texts) + 0.8)   # the x range (margins included)
        advance = self.fontMetrics().horizontalAdvance
        return any((advance(a) + advance(b)) / 2 + NAME_GAP > room for a, b in zip(texts, texts[1:], strict=False))

    def show_step(self, view: StepView | None) -> None:
        if view is None:
            return
        self._view = view
        stages = view.stages
        if not stages:
            if view.is_preview:   # the replay stopped (the grammar allows none of the stored head): say why
                self.caption.setText(self.tr("Step {0}: no candidate is left to preview.").format(view.step.i))
            else:
                self.caption.setText(self.tr("Step {0}: this engine does not report its sampler stages (a remote "
                                             "server samples on its side).").format(view.step.i))
            self.count_bars.setOpts(x=[], height=[], width=0.6)
            self.mass_bars.setOpts(x=[], height=[], width=0.6)
            self._bars = ([], [])
            facts = " · ".join(self.preview_facts(view))
            self.info.setText(facts)
            self.info.setVisible(bool(facts))
            return
        # a preview re-samples the stored head (RAW_TOP_N candidates), not the vocabulary: its first bar says so
        first = self.tr("stored head") if view.is_preview else self.tr("vocabulary")
        names = [first] + [self.labels.get(s.name, s.name) for s in stages]
        counts = [stages[0].n_in if stages else 0] + [s.n_out for s in stages]
        mass = [1.0] + list(np.cumprod([s.mass_kept for s in stages]))
        # to a thousandth (under a pixel in a plot up to 1,000 px tall): a greedy answer's bars barely move from
        # step to step, and bars set again repaint both plots, the costly part of a streaming refresh
        bars = ([round(math.log10(max(c, 1)), 3) for c in counts], [round(float(m), 3) for m in mass[1:]])
        if bars != self._bars:
            self._bars = bars
            x = np.arange(len(names), dtype=float)
            self.count_bars.setOpts(x=x, height=bars[0], width=0.6)
            self.mass_bars.setOpts(x=x[1:], height=bars[1], width=0.6)
        staggered = self._crowded(names)
        if names != self._names or staggered != self._staggered:
            self._names, self._staggered = names, staggered
            # more stages than fit side by side: every other name one line lower, so none overlaps
            shown = [("\n" + n if i % 2 else n) for i, n in enumerate(names)] if staggered else names
            ticks = [list(enumerate(shown)), []]
            lines = 2 if staggered else 1
            for plot, stretch in zip((self.counts, self.mass), STRETCH[lines], strict=True):
                self._layout.setStretchFactor(plot, stretch)
            for plot in (self.counts, self.mass):
                axis = plot.getAxis("bottom")
                axis.setTicks(ticks)
                if plot is self.mass:
                    axis.setHeight(self.fontMetrics().height() * lines + 12 if lines > 1 else None)
                # room for the first and last names (an axis drops a label that would cross its ends)
                plot.setXRange(-0.5 - 0.4 * lines, len(names) - 0.5 + 0.4 * lines, padding=0)
        top = math.ceil(math.log10(max(counts + [10])) * 1.3)  # whole decades: the axis rarely changes
        if top != self._top:
            self._top = top
            self.counts.setYRange(0, top, padding=0)
        while len(self.count_labels) < len(counts):  # created once, then only moved and relabelled
            label = pg.TextItem("", anchor=(0.5, 1.0), color=(110, 110, 110))
            self.counts.addItem(label)
            self.count_labels.append(label)
        self._full_counts = [_count_text(n, False) for n in counts]
        self._compact = self._crowded(self._full_counts)
        for i, label in enumerate(self.count_labels):
            label.setVisible(i < len(counts))
            text = _count_text(counts[i], self._compact) if i < len(counts) else ""
            if i < len(counts) and label.toPlainText() != text:
                label.setText(text)
                label.setPos(i, math.log10(max(counts[i], 1)))
        what = self.tr("preview with the current sliders") if view.is_preview else self.tr("as recorded")
        chain = " → ".join(names[1:])
        self.caption.setText(self.tr("Step {0}, {1}. Chain: {2}. Mass kept is the share of probability left "
                                     "after each stage (compounded).").format(view.step.i, what, chain))
        facts = " · ".join(self.stage_facts(stages) + self.preview_facts(view))
        self.info.setText(facts)
        if self.info.isHidden() == bool(facts):
            self.info.setVisible(bool(facts))

    def stage_facts(self, stages: list[StageRecord]) -> list[str]:
        """What each stage knew at this step beyond its survivors (StageRecord.info), in the order applied."""
        facts = []
        for stage in stages:
            info = stage.info
            if "mu" in info:
                facts.append(self.tr("{0}: μ {1:.2f} → {2:.2f}").format(self.labels.get(stage.name, stage.name),
                                                                        info["mu"], info.get("mu_next", info["mu"])))
            if "temperature" in info:
                facts.append(self.tr("dynamic temperature T = {0:.2f}").format(info["temperature"]))
            if "triggered" in info:
                facts.append(self.tr("XTC removed the top choices") if info["triggered"] else
                             self.tr("XTC did not act at this step"))
            if "penalized" in info:
                facts.append(self.tr("DRY penalized {0:,} tokens").format(int(info["penalized"])))
            if "allowed" in info:
                facts.append(self.tr("the grammar allowed {0:,} tokens").format(int(info["allowed"])))
        return facts

    def preview_facts(self, view: StepView) -> list[str]:
        if view.preview_error is not None:
            return [self.tr("the preview could not be computed: {0}").format(translate_message(view.preview_error))]
        facts = [self.tr("not replayed: {0}").format(translate_message(m)) for m in view.not_replayed]
        replay = view.replay
        if replay is not None and replay.stages:
            recorded = view.step.stages
            n_vocab = recorded[0].n_in if recorded else len(view.vocab or ())
            n_head, kept = replay.stages[0].n_in, 1 - replay.tail_mass
            facts.insert(0, self.tr("preview from the stored head: {0:,} of {1:,} candidates, {2:.1%} of the "
                                    "probability (the rest is not replayed)").format(n_head, n_vocab, kept) if n_vocab
                         else self.tr("preview from the stored head: {0:,} candidates, {1:.1%} of the probability "
                                      "(the rest is not replayed)").format(n_head, kept))
        return facts
