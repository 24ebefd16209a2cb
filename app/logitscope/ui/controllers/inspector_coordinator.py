"""The inspector coordinator: which step is selected, and what every step panel shows because of it.

One place decides what the distribution, the waterfall and the timeline show: a step of the conversation
on screen, or, with nothing selected (a new chat, another conversation, a deleted one), a line that says
so in place of the panel, never the plots of a step from elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QStackedWidget, QWidget

from logitscope.protocol.sampler_settings import SamplerSettings
from logitscope.session.conversation import Answer, Conversation
from logitscope.ui.common.visibility import Coalescer, on_screen
from logitscope.ui.inspector.distribution import DistributionPanel
from logitscope.ui.inspector.state import StepView, differs
from logitscope.ui.inspector.timeline import TimelinePanel
from logitscope.ui.inspector.waterfall import WaterfallPanel

# While tokens stream, plots repaint at most ~8 times a second: on a small machine the GUI shares the
# cores with llama.cpp, and every millisecond painting is a millisecond not decoding.
STREAMING_REPAINT_MS = 333  # step panels while an answer streams: 3 a second (a refresh repaints ~8 ms of docks: bench --window)
# The timeline draws the whole answer, not the live step: once a second is enough while it streams, and a
# repaint of its two plots is the dearest of the panels (~4 ms).
TIMELINE_STREAMING_MS = 1_000


class EmptyStatePage(QStackedWidget):
    """A panel, or in its place a short line that says why there is nothing to show."""

    def __init__(self, panel: QWidget, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panel = panel
        self.empty = QLabel(text)
        self.empty.setObjectName("placeholder")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.addWidget(self.empty)
        self.addWidget(panel)

    def show_empty(self, empty: bool) -> None:
        self.setCurrentWidget(self.empty if empty else self.panel)

    def showing_empty(self) -> bool:
        return self.currentWidget() is self.empty

    def empty_text(self) -> str:
        return self.empty.text()


class InspectorCoordinator(QObject):
    """Owns the selection (turn, step; step None = follow the newest step of that turn) of the
    conversation on screen, and pushes it to every step panel."""

    shown = Signal()  # the panels were refreshed (another step, or new steps of the followed answer)

    def __init__(self, distribution: DistributionPanel, waterfall: WaterfallPanel, timeline: TimelinePanel,
                 sampler_settings: Callable[[], SamplerSettings],
                 vocab_for: Callable[[Answer | None], Sequence[bytes]] | None = None,
                 parent: QObject | None = None) -> None:
        """`vocab_for`: the bytes of an answer's token ids (its own model's: ui/controllers/answer_vocab.py);
        None: the Distribution panel's own (the loaded model's)."""
        super().__init__(parent)
        self.distribution, self.waterfall, self.timeline = distribution, waterfall, timeline
        self.sampler_settings, self.vocab_for = sampler_settings, vocab_for
        self.conversation = Conversation()
        self.selected: tuple[int, int | None] | None = None
        text = self.tr("No step selected — click a token in an answer")
        self.pages = {key: EmptyStatePage(panel, text) for key, panel in
                      (("distribution", distribution), ("waterfall", waterfall), ("timeline", timeline))}
        self._streaming_refresh = Coalescer(STREAMING_REPAINT_MS, lambda: self.refresh(on_screen_only=True), self)
        self._timeline_refresh = Coalescer(TIMELINE_STREAMING_MS, self._show_timeline, self)
        self._stale: set[str] = set()  # panels skipped while off screen: brought up to date when shown
        timeline.stepClicked.connect(lambda i: self.select_step(self.inspected_turn(), i))
        self.refresh()

    # -- what is selected ------------------------------------------------------------------------------
    def show_conversation(self, conversation: Conversation) -> None:
        """Another conversation (or the same after its path changed): nothing of the old one stays shown."""
        self.conversation = conversation
        self.clear()

    def clear(self) -> None:
        self._streaming_refresh.cancel()
        self.selected = None
        self.refresh()

    def select_step(self, turn_index: int, step_index: int) -> None:
        self.selected = (turn_index, step_index)
        self.refresh()

    def follow(self, turn_index: int) -> None:
        """Show the newest step of this turn's answer as it streams."""
        self.selected = (turn_index, None)
        self.refresh()

    def steps_arrived(self, turn_index: int) -> None:
        """New steps of a streaming answer: repaint soon (throttled) when following that turn."""
        if self.selected == (turn_index, None):
            self._streaming_refresh.request()

    def inspected_turn(self) -> int:
        if self.selected is not None:
            return self.selected[0]
        return len(self.conversation.turns) - 1

    def inspected_answer(self) -> Answer | None:
        """The answer a trace export takes: the selected step's, else the last turn's."""
        index = self.inspected_turn()
        turns = self.conversation.turns
        return turns[index].answer if 0 <= index < len(turns) else None

    def selected_answer(self) -> Answer | None:
        turns = self.conversation.turns
        if self.selected is None or not 0 <= self.selected[0] < len(turns):
            return None
        return turns[self.selected[0]].answer

    def selected_step_index(self, answer: Answer) -> int:
        """The selected step of `answer` (the selected turn's, with steps): the newest one when following."""
        wanted = self.selected[1] if self.selected is not None else None
        return len(answer.steps) - 1 if wanted is None else min(wanted, len(answer.steps) - 1)

    def current_step_view(self) -> StepView | None:
        answer = self.selected_answer()
        if answer is None or not answer.steps or self.selected is None:
            return None
        index = self.selected_step_index(answer)
        settings = self.sampler_settings()
        preview = settings if differs(settings, answer.settings) else None
        # the answer so far, for a preview's penalties and DRY windows (only a preview replays: a list of
        # every token, three times a second while streaming, would grow with the answer)
        recent = [s.token for s in answer.steps[:index]] if preview is not None else ()
        if self.vocab_for is not None:
            self.distribution.vocab = self.vocab_for(answer)
        return StepView(answer.steps[index], answer.settings, preview, recent, self.distribution.vocab or None)

    # -- what every panel shows ------------------------------------------------------------------------
    def refresh(self, on_screen_only: bool = False) -> None:
        """Push the selected step to the panels. While an answer streams (`on_screen_only`), a panel nobody
        can see (a dock tabbed behind another, closed) is skipped and caught up when it is shown again."""
        self._streaming_refresh.cancel()
        if not on_screen_only:
            self._timeline_refresh.cancel()
        view = self.current_step_view()
        for key, page in self.pages.items():
            page.show_empty(view is None)
            if on_screen_only and view is not None and not on_screen(page):
                self._stale.add(key)
                continue
            self._stale.discard(key)
            if key == "distribution":
                self.distribution.show_step(view)
            elif key == "waterfall":
                self.waterfall.show_step(view)
            elif on_screen_only and view is not None:
                self._timeline_refresh.request()
            else:
                self._show_timeline(view)
        self.shown.emit()

    def _show_timeline(self, view: StepView | None = None) -> None:
        view = view or self.current_step_view()
        answer = self.selected_answer() if view is not None else None
        self.timeline.set_steps(answer.steps if answer is not None else [])
        if view is not None:
            self.timeline.mark(view.step.i)

    def catch_up(self) -> None:
        """A dock came to the front: if it missed updates while hidden, show the current step now."""
        if any(on_screen(self.pages[key]) for key in self._stale):
            self.refresh(on_screen_only=True)
